"""Rule 3 (cover, and sight through the same walls): the numpy pre-check that settles lines
plainly crossing a grid-line wall (``BarrierSet._surely_blocked``) and the bucket grid that
finds the walls near a line never change an answer of the exact wall-by-wall rule.

The pre-check only ever says "blocked"; every line it settles must be blocked by the exact
rule too, and ``blocks`` must give the same answers with and without it. Maps mix walls on grid
lines (joints where they meet), walls on half cells, walls off the lattice and walls ending on
others; lines run between lattice points, a hair off them (a nudged corner) and far off them,
and are long enough to cross many grid lines.
"""

from __future__ import annotations

from unittest import mock

import numpy as np
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from battlemap.geometry import barriers as barriers_module
from battlemap.geometry import wall_buckets
from battlemap.geometry.barriers import END_SNAP, BarrierSet
from battlemap.model import EntityId
from tests.geometry.test_cover_fastpath import ref_walls_block

Segment = tuple[tuple[float, float], tuple[float, float]]
SIZE = 24


@st.composite
def grid_walls(draw: st.DrawFn) -> Segment:
    """A wall along a grid line, one to six cells long (joints where two meet)."""
    at, start, length = (
        draw(st.integers(0, SIZE)),
        draw(st.integers(0, SIZE - 1)),
        draw(st.integers(1, 6)),
    )
    end = min(SIZE, start + length)
    if draw(st.booleans()):
        return (float(at), float(start)), (float(at), float(end))
    return (float(start), float(at)), (float(end), float(at))


half = st.integers(0, 2 * SIZE).map(lambda v: v / 2)
odd = st.sampled_from([0.0, 0.3, 1 / 3, 1e-3, 5e-7])
free_walls = st.tuples(st.tuples(half, half), st.tuples(half, half), odd, odd).map(
    lambda w: (w[0], (w[1][0] + w[2], w[1][1] - w[3]))
)
walls = st.lists(st.one_of(grid_walls(), grid_walls(), grid_walls(), free_walls), max_size=24)
quarter = st.integers(0, 4 * SIZE).flatmap(
    lambda v: st.sampled_from([v / 4, v / 4 + 1e-9, v / 4 - 7e-5, v / 4 + 5e-7, v / 4 + 0.37])
)
lines = st.lists(st.tuples(quarter, quarter, quarter, quarter), min_size=1, max_size=60)


def _barrier(segments: list[Segment]) -> BarrierSet:
    segments = [(a, b) for a, b in segments if a != b]
    return BarrierSet(segments, [EntityId(f"w{i}") for i in range(len(segments))])


def _array(raw: list[tuple[float, float, float, float]]) -> np.ndarray:
    return np.array([[[x0, y0], [x1, y1]] for x0, y0, x1, y1 in raw], dtype=np.float64)


def _setup(
    segments: list[Segment], raw: list[tuple[float, float, float, float]]
) -> tuple[BarrierSet, np.ndarray, np.ndarray]:
    """The barrier, the lines longer than 1e-3 cells and their lengths."""
    array = _array(raw)
    length = np.hypot(*(array[:, 1] - array[:, 0]).T)
    keep = length > 1e-3
    return _barrier(segments), array[keep], length[keep]


def _exact(barrier: BarrierSet, lines: np.ndarray, rounds: bool = False) -> list[bool]:
    """``blocks`` without the pre-check; with ``rounds``, in many short rounds from the
    lines' starts (as for the bench's many lines) instead of one, three lines at a time."""
    with (
        mock.patch.object(barriers_module, "_SURE_BATCH", 1 << 30),
        mock.patch.object(barriers_module, "_EXACT_BATCH", 3 if rounds else 1 << 14),
        mock.patch.object(barriers_module, "_FIRST_REACH", 0.7 if rounds else 4.0),
        mock.patch.object(barriers_module, "_LAST_ROUND_LINES", 0 if rounds else 256),
    ):
        return [bool(blocked) for blocked in barrier.blocks(lines)]


@settings(max_examples=150, deadline=None)
@given(walls, lines)
def test_the_precheck_settles_only_lines_the_exact_rule_blocks(
    segments: list[Segment], raw: list[tuple[float, float, float, float]]
) -> None:
    barrier, array, length = _setup(segments, raw)
    sure = barrier._surely_blocked(array, length)
    exact = _exact(barrier, array)
    assert all(e for s, e in zip(sure.tolist(), exact, strict=True) if s)
    with mock.patch.object(barriers_module, "_SURE_BATCH", 0):
        assert barrier.blocks(array).tolist() == exact


@settings(max_examples=60, deadline=None)
@given(walls, lines)
def test_the_exact_rule_agrees_with_the_wall_by_wall_reference(
    segments: list[Segment], raw: list[tuple[float, float, float, float]]
) -> None:
    barrier = _barrier(segments)
    array = _array(raw[:12])
    kept = [(a, b) for a, b in segments if a != b]
    expected = [
        ref_walls_block((float(x0), float(y0)), (float(x1), float(y1)), kept)
        for (x0, y0), (x1, y1) in array.tolist()
    ]
    assert _exact(barrier, array) == expected
    assert _exact(barrier, array, rounds=True) == expected
    with mock.patch.object(barriers_module, "_SURE_BATCH", 0):
        assert barrier.blocks(array).tolist() == expected


@settings(max_examples=100, deadline=None)
@given(walls, lines, st.booleans())
def test_the_bucket_grid_finds_every_wall_within_end_snap_of_a_line(
    segments: list[Segment], raw: list[tuple[float, float, float, float]], buckets: bool
) -> None:
    # Without buckets (a map too spread out for a grid) the STR-tree finds them.
    with mock.patch.object(wall_buckets, "BUCKET_ENTRIES", 1 << 21 if buckets else 0):
        barrier, array, length = _setup(segments, raw)
    assert (barrier._buckets is not None) == (buckets and len(barrier) > 0)
    line, wall = barrier._candidates(array, length)
    found = set(zip(line.tolist(), wall.tolist(), strict=True))
    near = shapely.dwithin(
        np.asarray(shapely.linestrings(array))[:, None], barrier.geoms[None, :], END_SNAP * 1.001
    )
    assert {(int(i), int(j)) for i, j in zip(*np.nonzero(near), strict=True)} <= found


def test_the_precheck_settles_plain_crossings_and_leaves_the_rest() -> None:
    barrier = _barrier([((3, 0), (3, 4)), ((0, 5), (2, 5)), ((6, 0), (6, 2)), ((6, 2), (6, 4))])
    array = np.array(
        [
            [[0.0, 1.5], [9.0, 2.5]],  # through the middle of the wall at x = 3: settled
            [[2.5, 6.0], [3.5, 4.0]],  # grazes that wall's free end at y = 4: left exact
            [[0.0, 4.0], [9.0, 4.0]],  # along y = 4, only through wall ends: left exact
            [[1.0, 4.0], [1.5, 6.0]],  # crosses the wall at y = 5: settled
            [[4.0, 0.0], [8.0, 4.0]],  # through the joint (6, 2) of two segments: settled
            [[4.0, 6.0], [8.0, 2.0]],  # through the free end (6, 4): left exact, not blocked
        ]
    )
    length = np.hypot(*(array[:, 1] - array[:, 0]).T)
    assert barrier._surely_blocked(array, length).tolist() == [
        True,
        False,
        False,
        True,
        True,
        False,
    ]
    assert barrier.blocks(array).tolist() == [True, False, False, True, True, False]


def test_a_crossing_at_a_long_lines_midpoint_blocks() -> None:
    # Found on the bench map: the line from (81, 33) to (89, 42) crosses the wall x = 85,
    # y 37..38 at its own midpoint, where the old tracer cut long lines into pieces and
    # neither piece saw the wall on both sides.
    barrier = _barrier([((85, 37), (85, 38))])
    line = np.array([[[81.0, 33.0], [89.0, 42.0]]])
    assert _exact(barrier, line) == [True]
    with mock.patch.object(barriers_module, "_SURE_BATCH", 0):
        assert barrier.blocks(line).tolist() == [True]


def test_walls_meeting_at_a_round_boundary_are_seen_together() -> None:
    # The first round looks 0.7 cells (+ overlap) along the line: a joint at exactly that
    # distance, or a hair either side, still has its two arms judged together.
    for x in (0.7, 0.7 - 4e-7, 0.7 + 4e-7, 0.7 + 5e-4):
        joint = [((x, 5.0), (x, 3.0)), ((x, 5.0), (x + 0.2, 8.0))]
        free = [((x, 5.0), (x, 3.0)), ((x, 5.0), (x + 0.2, 3.0))]
        lines = np.array([[[0.0, 5.0], [9.0, 5.0]]])
        assert _exact(_barrier(joint), lines, rounds=True) == [True]
        assert _exact(_barrier(free), lines, rounds=True) == [False]


@settings(max_examples=60, deadline=None)
@given(walls, lines)
def test_a_blocked_line_names_a_wall_and_a_clear_line_none(
    segments: list[Segment], raw: list[tuple[float, float, float, float]]
) -> None:
    # Cover's traces name what blocked each line (first_blocker); it must agree with blocks,
    # including lines the pre-check settled without looking at any one wall.
    barrier, array, _ = _setup(segments, raw)
    with mock.patch.object(barriers_module, "_SURE_BATCH", 0):
        verdicts = barrier.blocks(array).tolist()
    for line, verdict in zip(array, verdicts, strict=True):
        named = barrier.first_blocker(line)
        assert (named is not None) == verdict
        assert named is None or named in barrier.ids
