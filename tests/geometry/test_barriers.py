"""The boundary rule for lines against walls (rule 3): crossing and joints block; touching,
grazing an end or a corner, and running along a wall do not."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from battlemap.geometry.barriers import BarrierSet
from battlemap.model import EntityId

Segment = tuple[tuple[float, float], tuple[float, float]]


def blocked(segments: list[Segment], a: tuple[float, float], b: tuple[float, float]) -> bool:
    barrier = BarrierSet(segments, [EntityId(f"w{i}") for i in range(len(segments))])
    return bool(barrier.blocks(np.array([[a, b]], dtype=np.float64))[0])


def test_a_proper_crossing_blocks() -> None:
    assert blocked([((3, 0), (3, 10))], (0, 5), (6, 5))


def test_touching_a_wall_with_the_lines_end_does_not_block() -> None:
    assert not blocked([((3, 0), (3, 10))], (0, 5), (3, 5))


def test_a_line_nudged_off_two_opposite_wall_ends_grazes_them() -> None:
    # The line from (1, 4) to the corner (3, 2) moved 1e-4 cells into the square beyond it
    # (what cover does with a corner lying on a wall) passes through the end (2, 3) of one
    # wall and the end (3, 2) of another, which lie on opposite sides of it.
    end = (3 + 1e-4 / 2**0.5, 2 - 1e-4 / 2**0.5)
    assert not blocked([((0, 2), (3, 2)), ((2, 3), (3, 3))], (1, 4), end)


def test_grazing_a_walls_free_end_does_not_block() -> None:
    assert not blocked([((3, 0), (3, 5))], (0, 5), (6, 5))
    assert not blocked([((3, 0), (3, 5))], (0, 8), (6, 2))


def test_running_along_a_wall_does_not_block() -> None:
    assert not blocked([((0, 5), (10, 5))], (1, 5), (6, 5))


def test_the_joint_of_two_collinear_segments_blocks() -> None:
    assert blocked([((3, 0), (3, 5)), ((3, 5), (3, 10))], (0, 5), (6, 5))


def test_an_l_corner_blocks_a_line_passing_from_inside_to_outside() -> None:
    corner: list[Segment] = [((3, 3), (6, 3)), ((3, 3), (3, 6))]
    assert blocked(corner, (1, 1), (5, 5))


def test_an_l_corner_grazed_from_outside_does_not_block() -> None:
    corner: list[Segment] = [((3, 3), (6, 3)), ((3, 3), (3, 6))]
    assert not blocked(corner, (0, 6), (6, 0))


def test_running_along_the_stem_of_a_t_into_its_bar_blocks() -> None:
    t_junction: list[Segment] = [((0, 5), (3, 5)), ((3, 2), (3, 5)), ((3, 5), (3, 8))]
    assert blocked(t_junction, (1, 5), (6, 5))


def test_running_along_a_wall_past_a_side_branch_does_not_block() -> None:
    branch: list[Segment] = [((0, 5), (3, 5)), ((3, 5), (3, 8))]
    assert not blocked(branch, (1, 5), (6, 5))


def test_wall_ends_grazed_from_opposite_sides_at_different_places_do_not_block() -> None:
    stubs: list[Segment] = [((3, 5), (3, 3)), ((6, 5), (6, 7))]
    assert not blocked(stubs, (1, 5), (9, 5))


def test_a_zero_length_line_is_never_blocked() -> None:
    assert not blocked([((3, 0), (3, 10))], (3, 5), (3, 5))


def test_no_walls_block_nothing() -> None:
    barrier = BarrierSet([], [])
    assert not barrier.blocks(np.array([[(0, 0), (5, 5)]], dtype=np.float64)).any()
    assert barrier.first_blocker(np.array([(0.0, 0.0), (5.0, 5.0)])) is None


def test_first_blocker_names_the_wall_nearest_the_start() -> None:
    barrier = BarrierSet(
        [((6, 0), (6, 10)), ((3, 0), (3, 10))], [EntityId("far"), EntityId("near")]
    )
    assert barrier.first_blocker(np.array([(0.0, 5.0), (9.0, 5.0)])) == "near"


def _crosses_exactly(seg: Segment, a: tuple[float, float], b: tuple[float, float]) -> bool:
    """Proper crossing of two segments by orientation signs (no touching, no collinear)."""

    def orient(p: tuple[float, float], q: tuple[float, float], r: tuple[float, float]) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    (c, d) = seg
    o1, o2 = orient(a, b, c), orient(a, b, d)
    o3, o4 = orient(c, d, a), orient(c, d, b)
    return o1 * o2 < 0 and o3 * o4 < 0


coordinate = st.integers(0, 8).map(float)
point = st.tuples(coordinate, coordinate)


@settings(max_examples=200, deadline=None)
@given(point, point, point, point)
def test_single_wall_blocks_exactly_when_segments_properly_cross(
    c: tuple[float, float], d: tuple[float, float], a: tuple[float, float], b: tuple[float, float]
) -> None:
    if c == d:
        return
    assert blocked([(c, d)], a, b) == _crosses_exactly((c, d), a, b)


@pytest.mark.parametrize("offset", [0.0, 0.25])
def test_a_vectorised_batch_agrees_with_lines_one_by_one(offset: float) -> None:
    segments: list[Segment] = [
        ((3, 0), (3, 5)),
        ((3, 5), (3, 10)),
        ((5, 2), (8, 2)),
        ((1, 7), (4, 9)),
    ]
    barrier = BarrierSet(segments, [EntityId(f"w{i}") for i in range(len(segments))])
    rng = np.random.default_rng(7)
    lines = rng.integers(0, 10, size=(60, 2, 2)).astype(np.float64) + offset
    batch = barrier.blocks(lines)
    single = [bool(barrier.blocks(lines[i : i + 1])[0]) for i in range(len(lines))]
    assert batch.tolist() == single


def _reference_blocked(
    segments: list[Segment], a: tuple[float, float], b: tuple[float, float]
) -> bool:
    """Walls strictly on both sides of a-b somewhere, by exact orientation tests."""

    def orient(p: tuple[float, float], q: tuple[float, float], r: tuple[float, float]) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    if a == b:
        return False
    if any(_crosses_exactly(seg, a, b) for seg in segments):
        return True
    length2 = (b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2
    sides: dict[tuple[float, float], set[int]] = {}
    for c, d in segments:
        for p, q in ((c, d), (d, c)):
            t = ((p[0] - a[0]) * (b[0] - a[0]) + (p[1] - a[1]) * (b[1] - a[1])) / length2
            if orient(a, b, p) == 0 and 0 < t < 1 and orient(a, b, q) != 0:
                sides.setdefault(p, set()).add(1 if orient(a, b, q) > 0 else -1)
    return any(len(s) == 2 for s in sides.values())


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(point, point), min_size=1, max_size=6),
    point,
    point,
)
def test_many_walls_on_the_grid_agree_with_an_exact_reference(
    segments: list[Segment], a: tuple[float, float], b: tuple[float, float]
) -> None:
    segments = [(c, d) for c, d in segments if c != d]
    if not segments:
        return
    assert blocked(segments, a, b) == _reference_blocked(segments, a, b)


half = st.integers(0, 16).map(lambda v: v / 2)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.tuples(half, half), st.tuples(half, half)), min_size=1, max_size=6),
    point,
    st.tuples(half, half),
)
def test_walls_on_half_cells_and_lines_from_grid_corners_agree_with_the_reference(
    segments: list[Segment], a: tuple[float, float], b: tuple[float, float]
) -> None:
    segments = [(c, d) for c, d in segments if c != d]
    if not segments:
        return
    assert blocked(segments, a, b) == _reference_blocked(segments, a, b)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.tuples(half, half), st.tuples(half, half)), min_size=1, max_size=8))
def test_which_points_lie_on_walls_agrees_between_the_lattice_table_and_the_index(
    segments: list[Segment],
) -> None:
    segments = [(c, d) for c, d in segments if c != d]
    if not segments:
        return
    barrier = BarrierSet(segments, [EntityId(f"w{i}") for i in range(len(segments))])
    grid = np.array([(x / 2, y / 2) for x in range(17) for y in range(17)], dtype=np.float64)
    assert barrier.inside_walls(grid).tolist() == barrier._inside_walls_by_index(grid).tolist()


odd = st.sampled_from([0.0, 0.0, 0.3, 1 / 3])


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(st.tuples(half, half), st.tuples(half, half), odd, odd), min_size=1, max_size=8
    )
)
def test_points_on_walls_agree_with_the_index_when_some_walls_are_off_the_lattice(
    raw: list[tuple[tuple[float, float], tuple[float, float], float, float]],
) -> None:
    # Some walls end off the quarter-cell lattice, as on an imported map.
    segments: list[Segment] = [(c, (d[0] + dx, d[1] + dy)) for c, d, dx, dy in raw]
    segments = [(c, d) for c, d in segments if c != d]
    if not segments:
        return
    barrier = BarrierSet(segments, [EntityId(f"w{i}") for i in range(len(segments))])
    probes = [(x / 2, y / 2) for x in range(17) for y in range(17)]
    probes += [d for _, d in segments]
    grid = np.array(probes, dtype=np.float64)
    assert barrier.inside_walls(grid).tolist() == barrier._inside_walls_by_index(grid).tolist()


@pytest.mark.parametrize(
    "segment",
    [((1.9, -1.7), (0.6, 2.2)), ((1.7, -0.4), (0.5, 2.0)), ((2.8, 0.1), (0.2, 1.4))],
)
def test_a_corner_on_a_wall_drawn_to_a_tenth_of_a_cell_lies_on_it(segment: Segment) -> None:
    # Each wall passes through (1, 1) exactly in decimals, but its ends (binary fractions of
    # tenths) miss it by a rounding error: within END_SNAP it lies on the wall's middle, as a
    # line's end within END_SNAP of a wall does for ``blocks``; 1e-3 away it does not.
    barrier = BarrierSet([segment], [EntityId("w")])
    points = np.array([(1.0, 1.0), (1.0, 1.001), (1.001, 1.0)], dtype=np.float64)
    assert barrier.inside_walls(points).tolist() == [True, False, False]
    assert barrier._inside_walls_by_index(points).tolist() == [True, False, False]
    assert barrier.inside_walls(np.array(segment, dtype=np.float64)).tolist() == [False, False]


# -- one tolerance for every wall end: END_SNAP ----------------------------------------------
# DMG grid method (rule 3): grazing a wall's end does not block, crossing a wall does. A wall
# end within END_SNAP (1e-6 cells) of a line lies on it, so a crossing closer than that to a
# wall's free end grazes it; the same for walls on the grid lattice and off it, for lines
# between lattice points and lines off the lattice, at any angle.

WALL_ENDS = {"on the lattice": (3.0, 5.0), "off the lattice": (3.3, 5.123456789)}
ARMS = {"across": (0.0, -3.0), "slanted": (1.7, -2.2), "shallow": (2.9, -0.4)}
LINES = {"level": ((-2.0, 0.0), (3.0, 0.0)), "sloping": ((-2.0, 0.5), (2.0, -0.5))}
"""Lines through the wall's end (before the offset), as (start, end) relative to it."""
OFFSETS = {  # how far the line passes from the wall's end, towards the wall (-) or away (+)
    "exactly at the end": (0.0, False),
    "1e-3 past the end": (1e-3, False),
    "1e-3 short of the end": (-1e-3, True),
    "within the tolerance, past": (5e-7, False),
    "within the tolerance, short": (-5e-7, False),
    "just beyond the tolerance, short": (-2e-6, True),
}


@pytest.mark.parametrize("end_name", WALL_ENDS)
@pytest.mark.parametrize("arm_name", ARMS)
@pytest.mark.parametrize("line_name", LINES)
@pytest.mark.parametrize("offset_name", OFFSETS)
def test_a_line_near_a_walls_free_end_grazes_within_end_snap_and_crosses_beyond(
    end_name: str, arm_name: str, line_name: str, offset_name: str
) -> None:
    (ex, ey), (ax, ay) = WALL_ENDS[end_name], ARMS[arm_name]
    (sx, sy), (tx, ty) = LINES[line_name]
    offset, blocks = OFFSETS[offset_name]
    # The line passes the wall's end at a perpendicular distance ``offset``, on the side away
    # from the wall's body for positive offsets.
    dx, dy = tx - sx, ty - sy
    length = (dx * dx + dy * dy) ** 0.5
    nx, ny = -dy / length, dx / length  # the line's left normal
    if nx * ax + ny * ay > 0:  # make the wall's body lie to the line's right
        nx, ny = -nx, -ny
    a = (ex + sx + nx * offset, ey + sy + ny * offset)
    b = (ex + tx + nx * offset, ey + ty + ny * offset)
    if end_name == "on the lattice" and offset == 0.0:  # a line between lattice points
        assert a in ((1.0, 5.0), (1.0, 5.5)) and b in ((6.0, 5.0), (5.0, 4.5))
    assert blocked([((ex, ey), (ex + ax, ey + ay))], a, b) is blocks


def test_wall_ends_within_end_snap_of_each_other_on_a_line_are_one_point() -> None:
    # Two walls meeting a hair apart (an imported map's joint) on opposite sides of the line:
    # the line passes through their joint, which blocks; 1e-3 apart they are two free ends.
    for gap, blocks in ((4e-7, True), (1e-3, False)):
        walls = [((3.0, 5.0), (3.0, 2.0)), ((3.0 + gap, 5.0), (3.0 + gap, 8.0))]
        assert blocked(walls, (0.0, 5.0), (6.0, 5.0)) is blocks


def test_a_corner_at_a_joint_a_hair_apart_lies_on_the_wall_as_the_line_test_sees_it() -> None:
    # The joint of the line test above: wall ends within END_SNAP of each other are one
    # point, so a creature's corner there lies on the wall (its lines start on its own side)
    # whichever way inside_walls looks it up; 1e-3 apart it is two free ends.
    for gap, joint in ((1e-7, True), (4e-7, True), (9e-7, True), (1e-3, False)):
        walls = [((3.0, 0.0), (3.0, 5.0)), ((3.0 + gap, 5.0), (3.0 + gap, 9.0))]
        barrier = BarrierSet(walls, [EntityId("a"), EntityId("b")])
        corner = np.array([(3.0, 5.0)], dtype=np.float64)
        assert barrier.inside_walls(corner).tolist() == [joint], gap
        assert barrier._inside_walls_by_index(corner).tolist() == [joint], gap
        assert blocked(walls, (0.0, 5.0), (6.0, 5.0)) is joint


def test_a_line_crossing_a_wall_nearly_along_it_at_a_t_joint_blocks() -> None:
    # Found by the cover property test: a creature's corner on the wall x = 5 nudged 1e-4
    # cells into its square, the target's corner (5, 4) nudged into its own: the line crosses
    # the wall at the T-joint (5, 3), nearly along it. The old shifted-copies tracer cut the
    # line at the joint and saw the wall on one side of each piece only.
    hair = 1e-4 / 2**0.5
    t_joint: list[Segment] = [((1.0, 3.0), (5.0, 3.0)), ((5.0, 1.0), (5.0, 5.0))]
    assert blocked(t_joint, (5 + hair, 2 + hair), (5 - hair, 4 - hair))
    assert not blocked(t_joint, (5 + hair, 2 + hair), (5 + hair, 4 - hair))  # stays beside it
