"""Cover by the DMG grid method (rule 3).

SRD "Cover": half cover +2 AC, three-quarters +5, total: can't be targeted; only the most
protective degree applies, degrees don't add up. The DMG grid method: the attacker picks a
corner of its space (or the point of origin of a spell); lines go from it to the four corners
of one square the target occupies; the attacker takes the corner and square that favour it
most. 1-2 lines blocked: half cover; 3-4: three-quarters; total cover when no line at all gets
through, not even the line between the centres.

Boundary rules, exactly:

* A line is blocked by walls when it crosses them from one side to the other, including through
  the joint of two segments; touching a wall at a point, grazing a wall's end or a corner, and
  running along a wall do not block (``barriers``, whose one tolerance is ``END_SNAP``: a wall
  end within 1e-6 cells of a line lies on it, so a crossing that close to a wall's end is
  grazing it). A corner lying on the middle of a wall or on a joint belongs to its creature's
  side of that wall: its lines start ``_NUDGE`` cells inside the creature's own square, so a
  wall on a grid line between attacker and target blocks (also between diagonal neighbours at
  their shared corner), while a wall behind the target or beside both creatures does not.
* A line is blocked by an obstacle or a creature when it passes through the *inside* of its
  polygon or space; along an edge or through a corner it is not, nor is a zero-length line
  (creatures sharing a corner), even at a point inside an obstacle.
* The attacker's and the target's own spaces never block.
* Each source caps what it can give: a creature at most half; an obstacle its own ``cover``;
  windows and arrow slits three-quarters (SRD: "an arrow slit"); walls and closed doors total.
  Open doors give nothing. Sources are counted separately: two creatures blocking two lines
  each still give half.
* The choice, made the same way every time: the attacker takes the corner and target square
  with the lowest degree; among equals, the one with the fewest lines blocked by anything
  (a line only a creature blocks counts, even where walls already give three-quarters); then
  the first corner in (x, y) order and the first square in ``Space.squares`` order.
  ``CoverResult.blocked_lines`` is that count for the chosen lines.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

import numpy as np
import shapely
from numpy.typing import NDArray

from battlemap.geometry.barriers import line_array, sorted_unique, unique_points
from battlemap.geometry.body import Body
from battlemap.geometry.map_index import MapIndex
from battlemap.geometry.metrics import PointXY, Space
from battlemap.model import CoverDegree, EntityId

_NUDGE = 1e-4
"""Cells a corner on a wall moves into its own square before tracing."""


class BlockerKind(StrEnum):
    """What blocked a line."""

    WALL = "wall"
    """A wall or a closed door."""
    WINDOW = "window"
    """A window or arrow slit (at most three-quarters cover)."""
    OBSTACLE = "obstacle"
    """An obstacle polygon (capped by its own cover degree)."""
    CREATURE = "creature"
    """Another creature's space (at most half cover)."""


@dataclass(frozen=True, slots=True)
class LineTrace:
    """One traced line, whether it got through and, if not, what stopped it.

    ``blocker_id`` names the wall, obstacle or creature; for walls it is looked up the first
    time it is read (most callers only need the degree), then kept.
    """

    start: PointXY
    end: PointXY
    blocked: bool
    blocker_kind: BlockerKind | None = None
    blocker: EntityId | Callable[[], EntityId | None] | None = field(
        default=None, repr=False, compare=False
    )

    @property
    def blocker_id(self) -> EntityId | None:
        """Id of what blocked the line (for walls: the one nearest the line's start)."""
        found = self.blocker
        if callable(found):
            found = found()
            object.__setattr__(self, "blocker", found)
        return found


Traces = tuple[tuple[LineTrace, ...], LineTrace]


@dataclass(frozen=True, slots=True)
class CoverResult:
    """The cover a target has against an attacker (or a point of origin).

    Attributes:
        degree: the cover the target gets.
        corner: the attacker's corner (or the origin) the attacker chose.
        target_square: the target's square the lines went to.
        lines: the four lines from ``corner`` to ``target_square``'s corners.
        centre_line: the line between the centres (traced for total cover).
        cap_applied: the cap that lowered the degree (a low wall: half), or None.
        source: the kind of thing that gave the cover, or None for no cover.
        blocked_lines: how many of ``lines`` anything blocks (walls, windows, obstacles or
            creatures), the tie-break between corners and squares of equal degree.
    """

    degree: CoverDegree
    corner: PointXY
    target_square: Space
    traces: Traces | Callable[[], Traces] = field(repr=False, compare=False)
    cap_applied: CoverDegree | None = None
    source: BlockerKind | None = None
    blocked_lines: int = field(default=0)

    def _traced(self) -> Traces:
        found = self.traces
        if callable(found):
            found = found()
            object.__setattr__(self, "traces", found)
        return found

    @property
    def lines(self) -> tuple[LineTrace, ...]:
        """The four lines from ``corner`` to ``target_square``'s corners (traced on demand)."""
        return self._traced()[0]

    @property
    def centre_line(self) -> LineTrace:
        """The line between the centres (traced on demand)."""
        return self._traced()[1]


_WALL, _WINDOW, _CREATURE, _FIRST_OBSTACLE = 0, 1, 2, 3


_DEGREES = list(CoverDegree)
_FIXED_CAPS = np.array(
    [CoverDegree.TOTAL.rank, CoverDegree.THREE_QUARTERS.rank, CoverDegree.HALF.rank],
    dtype=np.int64,
)
"""The most cover a wall, a window and a creature can give (sources ``_WALL`` .. ``_CREATURE``)."""


def _corner_points(space: Space) -> list[PointXY]:
    """The grid corners of every square of a space (a Tiny space: its own four corners)."""
    squares = space.squares()
    points = {corner for square in squares for corner in square.corners}
    return sorted(points)


@dataclass
class _Query:
    """One attacker-target pair in a batch."""

    origins: list[PointXY]
    origin_space: Space | None
    target: Body
    attacker_id: EntityId | None
    centre: PointXY
    squares: list[Space]
    target_centre: PointXY


def cover(index: MapIndex, attacker: Body, target: Body, creatures: Sequence[Body]) -> CoverResult:
    """Cover of ``target`` against ``attacker`` (rule 3). ``creatures`` may include both."""
    return cover_to_many(index, attacker, [target], creatures)[0]


def cover_to_many(
    index: MapIndex, attacker: Body, targets: Sequence[Body], creatures: Sequence[Body]
) -> list[CoverResult]:
    """Cover of each of ``targets`` against ``attacker``, computed in one batch."""
    space = attacker.space
    origins = _corner_points(space)
    centre = space.centre
    queries = []
    for t in targets:
        squares, target_centre = _squares_and_centre(t.x, t.y, t.side_cells)
        queries.append(_Query(origins, space, t, attacker.id, centre, squares, target_centre))
    return _solve(index, queries, creatures)


@functools.lru_cache(maxsize=4096)
def _squares_and_centre(x: float, y: float, side: float) -> tuple[list[Space], PointXY]:
    """The squares and centre of the space of side ``side`` at ``(x, y)`` (kept: creatures
    stand on the same few places from one query to the next). Read-only."""
    space = Space(x, y, side, side)
    return space.squares(), space.centre


PAIR_LINES_PER_BATCH = 150_000
"""About this many lines are traced at once by ``cover_all_pairs``: its working arrays stay
at a few tens of MB however many creatures there are (400 creatures: ~2.7M lines)."""


def cover_all_pairs(
    index: MapIndex, creatures: Sequence[Body]
) -> dict[tuple[EntityId, EntityId], CoverResult]:
    """Cover for every ordered (attacker, target) pair of ``creatures``.

    Pairs are solved in batches of about ``PAIR_LINES_PER_BATCH`` lines, both ways of a pair
    in the same batch, so each line is traced once even though every pair is seen from both
    ends. The answers are the same as ``cover`` pair by pair; the keys come attacker by
    attacker, in ``creatures`` order.
    """
    spaces = [c.space for c in creatures]
    squares = [space.squares() for space in spaces]
    centres = [space.centre for space in spaces]
    origins = [_corner_points(space) for space in spaces]

    def query(ai: int, ti: int) -> _Query:
        return _Query(
            origins[ai],
            spaces[ai],
            creatures[ti],
            creatures[ai].id,
            centres[ai],
            squares[ti],
            centres[ti],
        )

    solved: dict[tuple[int, int], CoverResult] = {}
    batch: list[tuple[int, int]] = []
    lines = 0
    for ai in range(len(creatures)):
        for ti in range(ai + 1, len(creatures)):
            if creatures[ti] is creatures[ai]:
                continue
            batch += [(ai, ti), (ti, ai)]
            lines += 2 * (len(origins[ai]) * len(squares[ti]) + len(origins[ti]) * len(squares[ai]))
            if lines >= PAIR_LINES_PER_BATCH // 4:  # 4 lines per origin and square
                _solve_batch(index, creatures, batch, query, solved)
                batch, lines = [], 0
    _solve_batch(index, creatures, batch, query, solved)
    ids = [c.id for c in creatures]
    n = len(creatures)
    return {(ids[a], ids[t]): solved[a, t] for a in range(n) for t in range(n) if (a, t) in solved}


def _solve_batch(
    index: MapIndex,
    creatures: Sequence[Body],
    batch: list[tuple[int, int]],
    query: Callable[[int, int], _Query],
    solved: dict[tuple[int, int], CoverResult],
) -> None:
    results = _solve(index, [query(a, t) for a, t in batch], creatures)
    solved.update(zip(batch, results, strict=True))


def _unique_corner_lines(
    origins: NDArray[np.float64],
    corners: NDArray[np.float64],
    start_row: NDArray[np.int64],
    end_row: NDArray[np.int64],
    centre_lines: NDArray[np.float64],
) -> tuple[NDArray[np.float64], NDArray[np.intp]]:
    """The distinct lines among ``origins[start_row] -> corners[end_row]`` followed by
    ``centre_lines``, each with its ends in a fixed order, and where each input went.

    Corner lines are told apart by the ids of their two end points (few distinct points
    make many lines); the centre lines by ``_canonical_unique``.
    """
    points, point_id = unique_points(np.concatenate([origins, corners]))
    n_points = len(points)
    a = point_id[: len(origins)][start_row].astype(np.int64)
    b = point_id[len(origins) :][end_row].astype(np.int64)
    keys = np.minimum(a, b) * n_points + np.maximum(a, b)
    order = np.argsort(keys, kind="stable")
    ordered = keys[order]
    new = np.r_[True, ordered[1:] != ordered[:-1]] if len(keys) else np.empty(0, dtype=bool)
    back = np.empty(len(keys), dtype=np.intp)
    back[order] = np.cumsum(new) - 1
    distinct = ordered[new]
    corner_lines = np.stack([points[distinct // n_points], points[distinct % n_points]], axis=1)
    centres, centre_back = _canonical_unique(centre_lines)
    return (
        np.concatenate([corner_lines.reshape(-1, 2, 2), centres]),
        np.concatenate([back, centre_back + len(corner_lines)]),
    )


def _canonical_unique(
    lines: NDArray[np.float64],
) -> tuple[NDArray[np.float64], NDArray[np.intp]]:
    """The distinct lines, each with its ends in a fixed order, and where each input went.

    Lines are grouped by a 64-bit hash of their coordinates' bits, sorted; every group is
    checked to hold one line only (on a clash, the exact byte-wise ``np.unique`` decides).
    """
    start, end = lines[:, 0, :], lines[:, 1, :]
    swap = (start[:, 0] > end[:, 0]) | ((start[:, 0] == end[:, 0]) & (start[:, 1] > end[:, 1]))
    ordered = np.where(swap[:, None, None], lines[:, ::-1, :], lines)
    if len(lines) == 0:
        return ordered, np.empty(0, dtype=np.intp)
    flat = np.ascontiguousarray(ordered.reshape(len(lines), 4))
    bits = flat.view(np.uint64)
    mixed = bits * _HASH_FACTORS
    hashes = (
        mixed[:, 0] ^ (mixed[:, 1] >> np.uint64(7)) ^ mixed[:, 2] ^ (mixed[:, 3] >> np.uint64(13))
    )
    order = np.argsort(hashes)
    sorted_hashes = hashes[order]
    new = np.r_[True, sorted_hashes[1:] != sorted_hashes[:-1]]
    sorted_rows = bits[order]
    if np.any(~new[1:] & np.any(sorted_rows[1:] != sorted_rows[:-1], axis=1)):
        rows = flat.view(np.dtype((np.void, flat.dtype.itemsize * 4))).ravel()
        _, first, back = np.unique(rows, return_index=True, return_inverse=True)
        return ordered[first], np.asarray(back.ravel(), dtype=np.intp)
    back = np.empty(len(lines), dtype=np.intp)
    back[order] = np.cumsum(new) - 1
    return ordered[order[new]], back


_HASH_FACTORS = np.array(
    [0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9, 0x27D4EB2F165667C5],
    dtype=np.uint64,
)
"""Odd multipliers that spread a line's coordinate bits over its hash."""


def cover_from_point(
    index: MapIndex, origin: PointXY, target: Body, creatures: Sequence[Body]
) -> CoverResult:
    """Cover of ``target`` against an effect whose point of origin is ``origin`` (cells)."""
    target_space = target.space
    query = _Query(
        [origin], None, target, None, origin, target_space.squares(), target_space.centre
    )
    return _solve(index, [query], creatures)[0]


def _nudged(points: NDArray[np.float64], towards: NDArray[np.float64]) -> NDArray[np.float64]:
    delta = towards - points
    length = np.hypot(delta[:, 0], delta[:, 1])
    length = np.where(length == 0, 1.0, length)
    return points + delta / length[:, None] * _NUDGE


def _solve(index: MapIndex, queries: list[_Query], creatures: Sequence[Body]) -> list[CoverResult]:
    if not queries:
        return []
    # Lay out every line: per query, origins x squares x 4 corners; then one centre line per
    # query. Origins and squares are shared between queries (same attacker, same target), so
    # they are converted once and the lines are gathered by index arithmetic.
    origin_sets: dict[int, int] = {}
    origin_rows: list[PointXY] = []
    home_rows: list[PointXY] = []
    square_sets: dict[int, int] = {}
    corner_rows: list[PointXY] = []
    square_centre_rows: list[PointXY] = []
    origin_at = np.empty(len(queries), dtype=np.int64)
    square_at = np.empty(len(queries), dtype=np.int64)
    for qi, q in enumerate(queries):
        at = origin_sets.get(id(q.origins))
        if at is None:
            at = origin_sets[id(q.origins)] = len(origin_rows)
            origin_rows += q.origins
            home_rows += [_home(o, q.origin_space) for o in q.origins]
        origin_at[qi] = at
        at = square_sets.get(id(q.squares))
        if at is None:
            at = square_sets[id(q.squares)] = len(corner_rows)
            for square in q.squares:
                corner_rows += square.corners
                square_centre_rows += [square.centre] * 4
        square_at[qi] = at
    n_origins = np.array([len(q.origins) for q in queries], dtype=np.int64)
    n_squares = np.array([len(q.squares) for q in queries], dtype=np.int64)
    rows = 4 * n_squares
    per_query = n_origins * rows
    corner_total = int(per_query.sum())
    first = np.cumsum(per_query) - per_query
    line_query = np.repeat(np.arange(len(queries)), per_query)
    within = np.arange(corner_total) - first[line_query]
    o = within // rows[line_query]
    r = within % rows[line_query]
    origin_arr = np.asarray(origin_rows, dtype=np.float64).reshape(-1, 2)
    home_arr = np.asarray(home_rows, dtype=np.float64).reshape(-1, 2)
    corner_arr = np.asarray(corner_rows, dtype=np.float64).reshape(-1, 2)
    square_centre_arr = np.asarray(square_centre_rows, dtype=np.float64).reshape(-1, 2)
    origin_centres = np.asarray([q.centre for q in queries], dtype=np.float64).reshape(-1, 2)
    target_centres = np.asarray([q.target_centre for q in queries], dtype=np.float64).reshape(-1, 2)
    start_row = origin_at[line_query] + o
    end_row = square_at[line_query] + r
    start_arr = np.concatenate([origin_arr[start_row], origin_centres])
    end_arr = np.concatenate([corner_arr[end_row], target_centres])
    combos_per_query = n_origins * n_squares
    combo_first = np.cumsum(combos_per_query) - combos_per_query
    n_combos = int(combos_per_query.sum())
    line_combo = np.concatenate(
        [combo_first[line_query] + o * n_squares[line_query] + r // 4, np.full(len(queries), -1)]
    )
    line_query = np.concatenate([line_query, np.arange(len(queries))])
    lines = np.stack([start_arr, end_arr], axis=1)
    n = len(lines)
    centre_line_index = list(range(corner_total, corner_total + len(queries)))
    combo_range = [
        range(int(c), int(c + k)) for c, k in zip(combo_first, combos_per_query, strict=True)
    ]

    # Walls: corners on a wall's middle or joint are traced from a hair inside their square
    # (looked up once per origin row and corner row; a centre line is never nudged: its
    # ends' homes are themselves).
    walls = index.cover_walls_and_windows
    traced_origins, traced_corners = origin_arr, corner_arr
    if len(walls):
        on = walls.inside_walls(np.concatenate([origin_arr, corner_arr]))[:, None]
        n_o = len(origin_arr)
        traced_origins = np.where(on[:n_o], _nudged(origin_arr, home_arr), origin_arr)
        traced_corners = np.where(on[n_o:], _nudged(corner_arr, square_centre_arr), corner_arr)
    # A line and its reverse are one test (all pairs trace every pair both ways).
    unique_lines, back = _unique_corner_lines(
        traced_origins, traced_corners, start_row, end_row, lines[corner_total:]
    )
    wall_block = index.cover_walls.blocks(unique_lines)[back]
    window_block = np.zeros(n, dtype=bool)
    if len(walls) > len(index.cover_walls):
        window_block = walls.blocks(unique_lines)[back] & ~wall_block

    # Obstacles: the line passes through the polygon's inside. A zero-length line (creatures
    # sharing a corner) only touches, even at a point inside an obstacle.
    obstacle_pairs = np.empty((2, 0), dtype=np.intp)
    if index.cover_obstacles:
        geoms = line_array(lines)
        pairs = index.cover_obstacle_tree.query(geoms, predicate="intersects")
        pairs = pairs[:, np.any(lines[pairs[0], 0] != lines[pairs[0], 1], axis=1)]
        if pairs.shape[1]:
            polys = index.cover_obstacle_tree.geometries  # in ``cover_obstacles`` order
            touching = shapely.touches(geoms[pairs[0]], polys[pairs[1]])
            obstacle_pairs = pairs[:, ~np.asarray(touching, dtype=bool)]

    n_sources = _FIRST_OBSTACLE + len(index.cover_obstacles)
    caps = np.concatenate([_FIXED_CAPS, index.cover_obstacle_ranks])
    hard = np.concatenate(
        [
            np.stack([np.flatnonzero(wall_block), np.full(int(wall_block.sum()), _WALL)]),
            np.stack([np.flatnonzero(window_block), np.full(int(window_block.sum()), _WINDOW)]),
            np.stack([obstacle_pairs[0], obstacle_pairs[1] + _FIRST_OBSTACLE]),
        ],
        axis=1,
    ).astype(np.int64)
    scoring = _Scoring(line_combo, n_combos, n_sources, caps)
    partial = scoring.combos(hard)
    # Creatures give half cover at most, so they change the degree of combos below
    # three-quarters only. A line only a creature blocks still counts against its combo (the
    # tie-break among equal degrees is the fewest blocked lines), which matters for the combos
    # that can be chosen: where a query's best combo is three-quarters, all its combos are.
    three_quarters = CoverDegree.THREE_QUARTERS.rank
    line_degree = partial.degree[np.maximum(line_combo, 0)]
    lowest = np.minimum.reduceat(partial.degree, combo_first)
    hard_line = np.zeros(n, dtype=bool)
    hard_line[hard[0]] = True
    open_lines = np.flatnonzero(
        (line_combo >= 0)
        & ((line_degree < three_quarters) | ((lowest[line_query] >= three_quarters) & ~hard_line))
    )
    creature_pairs = _creature_hits(lines, open_lines, line_query, queries, creatures)
    creature_src = np.stack([creature_pairs[0], np.full(creature_pairs.shape[1], _CREATURE)])
    blocked = np.concatenate([hard, creature_src.astype(np.int64)], axis=1)
    final = scoring.combos(blocked)

    # Total cover: every line of the query (and the centre line) blocked by a total source.
    total_lines = np.zeros(n, dtype=bool)
    total_lines[hard[0][caps[hard[1]] >= CoverDegree.TOTAL.rank]] = True
    lines_per_query = np.bincount(line_query, minlength=len(queries))
    total_per_query = np.bincount(line_query, weights=total_lines, minlength=len(queries))

    # Best combo per query: lowest degree, then fewest blocked lines, then first.
    combo_query = np.repeat(np.arange(len(queries)), [len(r) for r in combo_range])
    order = np.lexsort((np.arange(n_combos), final.count, final.degree, combo_query))
    firsts = order[np.r_[True, combo_query[order][1:] != combo_query[order][:-1]]]
    first_obstacle = _strongest_per_line(n, obstacle_pairs, caps)

    # The chosen combo of each query: its corner, its square and its four lines; the tracer
    # keeps those lines only (and the centre line), not the whole batch's arrays.
    local = firsts - combo_first
    chosen_origin, chosen_square = local // n_squares, local % n_squares
    chosen = np.concatenate(
        [(first + local * 4)[:, None] + np.arange(4), np.asarray(centre_line_index)[:, None]],
        axis=1,
    )
    tracer = _Tracer(
        index,
        lines[chosen],
        _traced_lines(chosen, lines, traced_origins, traced_corners, start_row, end_row),
        wall_block[chosen],
        window_block[chosen],
        first_obstacle[chosen],
    )

    # Plain Python lists: indexing numpy arrays one element at a time costs more than the
    # rest of this loop.
    firsts_of = firsts.tolist()
    origin_of, square_of = chosen_origin.tolist(), chosen_square.tolist()
    degrees, sources = final.degree.tolist(), final.source.tolist()
    uncapped, counts = final.uncapped.tolist(), final.count.tolist()
    totals, line_counts = np.asarray(total_per_query).tolist(), np.asarray(lines_per_query).tolist()
    results = []
    for qi, q in enumerate(queries):
        best = firsts_of[qi]
        degree = CoverDegree.TOTAL if totals[qi] >= line_counts[qi] else _DEGREES[degrees[best]]
        cap = None
        source = None
        if degree is CoverDegree.TOTAL:
            source = BlockerKind.WALL
        elif sources[best] >= 0:
            source = _kind(sources[best])
            if uncapped[best] > degrees[best]:
                cap = degree
        results.append(
            CoverResult(
                degree=degree,
                corner=q.origins[origin_of[qi]],
                target_square=q.squares[square_of[qi]],
                traces=functools.partial(tracer.build, qi, q, creatures),
                cap_applied=cap,
                source=source,
                blocked_lines=counts[best],
            )
        )
    return results


@dataclass
class _ComboScores:
    degree: NDArray[np.int64]
    uncapped: NDArray[np.int64]
    source: NDArray[np.int64]
    count: NDArray[np.int64]


@dataclass
class _Scoring:
    """Turns (line, source) blocks into a capped degree per (corner, square) combo."""

    line_combo: NDArray[np.int64]
    n_combos: int
    n_sources: int
    caps: NDArray[np.int64]

    def combos(self, blocked: NDArray[np.int64]) -> _ComboScores:
        n = self.n_combos
        scores = _ComboScores(
            np.zeros(n, dtype=np.int64),
            np.zeros(n, dtype=np.int64),
            np.full(n, -1, dtype=np.int64),
            np.zeros(n, dtype=np.int64),
        )
        keys = sorted_unique(blocked[0] * self.n_sources + blocked[1])
        line, source = keys // self.n_sources, keys % self.n_sources
        keep = self.line_combo[line] >= 0
        line, source = line[keep], source[keep]
        if len(line) == 0:
            return scores
        combo_keys = self.line_combo[line] * self.n_sources + source
        combo_keys = np.sort(combo_keys)
        starts = np.flatnonzero(np.r_[True, combo_keys[1:] != combo_keys[:-1]])
        uniq = combo_keys[starts]
        counts = np.diff(np.r_[starts, len(combo_keys)])
        combos, sources = uniq // self.n_sources, uniq % self.n_sources
        by_count = np.where(counts <= 2, CoverDegree.HALF.rank, CoverDegree.THREE_QUARTERS.rank)
        capped = np.minimum(by_count, self.caps[sources])
        # Per combo, the strongest source wins (degrees do not add up).
        order = np.lexsort((by_count, capped, combos))
        ordered = combos[order]
        last = order[np.r_[ordered[1:] != ordered[:-1], True]]
        scores.degree[combos[last]] = capped[last]
        scores.uncapped[combos[last]] = by_count[last]
        scores.source[combos[last]] = sources[last]
        np.add.at(scores.count, self.line_combo[sorted_unique(line)], 1)
        return scores


def _strongest_per_line(
    n: int, obstacle_pairs: NDArray[np.intp], caps: NDArray[np.int64]
) -> NDArray[np.intp]:
    """For each line, the obstacle with the highest cover it passes through (-1: none)."""
    strongest = np.full(n, -1, dtype=np.intp)
    if obstacle_pairs.shape[1]:
        rank = caps[obstacle_pairs[1] + _FIRST_OBSTACLE]
        order = np.argsort(rank, kind="stable")  # strongest written last, so it wins
        strongest[obstacle_pairs[0][order]] = obstacle_pairs[1][order]
    return strongest


def _traced_lines(
    chosen: NDArray[np.int64],
    lines: NDArray[np.float64],
    origins: NDArray[np.float64],
    corners: NDArray[np.float64],
    start_row: NDArray[np.int64],
    end_row: NDArray[np.int64],
) -> NDArray[np.float64]:
    """Lines ``chosen`` as the wall test traced them: corner lines (the first
    ``len(start_row)``) from the possibly nudged ``origins[start_row]`` to
    ``corners[end_row]``; the centre lines after them as they are."""
    corner = chosen < len(start_row)
    at = np.where(corner, chosen, 0)
    nudged = np.stack([origins[start_row[at]], corners[end_row[at]]], axis=-2)
    return np.where(corner[..., None, None], nudged, lines[chosen])


@dataclass
class _Tracer:
    """Builds the traces of a result's chosen lines when they are first read. Holds, per
    query of the batch, its four chosen lines and its centre line (row ``qi``)."""

    index: MapIndex
    lines: NDArray[np.float64]
    """(query, 5, 2, 2): the chosen lines and the centre line, as given."""
    traced: NDArray[np.float64]
    """The same lines as the wall test traced them (corners on a wall nudged)."""
    wall_block: NDArray[np.bool_]
    window_block: NDArray[np.bool_]
    first_obstacle: NDArray[np.intp]

    def build(self, qi: int, query: _Query, creatures: Sequence[Body]) -> Traces:
        """The traces of query ``qi``'s four chosen lines and its centre line (bound with
        ``partial`` per result, so nothing is traced until a result's lines are read)."""
        lines = self.lines[qi]
        chosen = np.arange(len(lines))
        hits = _creature_hits(
            lines, chosen, np.zeros(len(lines), dtype=np.intp), [query], creatures
        )
        by_line = dict(zip(hits[0][::-1].tolist(), hits[1][::-1].tolist(), strict=True))
        traces = [self._trace(qi, i, by_line.get(i), creatures) for i in range(len(lines))]
        return tuple(traces[:4]), traces[4]

    def _trace(self, qi: int, i: int, creature: int | None, creatures: Sequence[Body]) -> LineTrace:
        line = self.lines[qi, i]
        start = (float(line[0, 0]), float(line[0, 1]))
        end = (float(line[1, 0]), float(line[1, 1]))
        if self.wall_block[qi, i]:
            lookup = _wall_lookup(self.index, self.traced[qi, i])
            return LineTrace(start, end, True, BlockerKind.WALL, lookup)
        if self.first_obstacle[qi, i] >= 0:
            obstacle = self.index.cover_obstacles[int(self.first_obstacle[qi, i])]
            return LineTrace(start, end, True, BlockerKind.OBSTACLE, obstacle.id)
        if self.window_block[qi, i]:
            lookup = _window_lookup(self.index, self.traced[qi, i])
            return LineTrace(start, end, True, BlockerKind.WINDOW, lookup)
        if creature is not None:
            return LineTrace(start, end, True, BlockerKind.CREATURE, creatures[creature].id)
        return LineTrace(start, end, False)


def _wall_lookup(index: MapIndex, line: NDArray[np.float64]) -> Callable[[], EntityId | None]:
    kept = line.copy()
    return lambda: index.cover_walls.first_blocker(kept)


def _window_lookup(index: MapIndex, line: NDArray[np.float64]) -> Callable[[], EntityId | None]:
    kept = line.copy()
    return lambda: index.cover_walls_and_windows.first_blocker(kept)


def _home(origin: PointXY, space: Space | None) -> PointXY:
    """Centre of a square of ``space`` that has ``origin`` as a corner (inside the space)."""
    if space is None:
        return origin
    cx, cy = space.centre
    step = min(0.5, space.w / 2)
    hx = origin[0] + (step if origin[0] < cx else -step if origin[0] > cx else 0.0)
    hy = origin[1] + (step if origin[1] < cy else -step if origin[1] > cy else 0.0)
    return (hx, hy)


def _kind(source: int) -> BlockerKind:
    if source == _WALL:
        return BlockerKind.WALL
    if source == _WINDOW:
        return BlockerKind.WINDOW
    if source == _CREATURE:
        return BlockerKind.CREATURE
    return BlockerKind.OBSTACLE


def _creature_hits(
    lines: NDArray[np.float64],
    subset: NDArray[np.intp],
    line_query: NDArray[np.intp],
    queries: list[_Query],
    creatures: Sequence[Body],
) -> NDArray[np.intp]:
    """(line index, creature index) pairs where one of ``lines[subset]`` passes through the
    inside of a creature's space other than its query's attacker and target."""
    if not creatures or len(subset) == 0:
        return np.empty((2, 0), dtype=np.intp)
    boxes = np.array([[c.x, c.y, c.x + c.side_cells, c.y + c.side_cells] for c in creatures])
    picked = lines[subset]
    lo = np.minimum(picked[:, 0, :], picked[:, 1, :])
    hi = np.maximum(picked[:, 0, :], picked[:, 1, :])
    # Bounding boxes that overlap with positive area (a line along an edge cannot pass inside).
    overlap = (
        (lo[:, None, 0] < boxes[None, :, 2])
        & (hi[:, None, 0] > boxes[None, :, 0])
        & (lo[:, None, 1] < boxes[None, :, 3])
        & (hi[:, None, 1] > boxes[None, :, 1])
    )
    li, ci = np.nonzero(overlap)
    if len(li) == 0:
        return np.empty((2, 0), dtype=np.intp)
    li = subset[li]
    position = {c.id: i for i, c in enumerate(creatures)}
    target_at = np.array([position.get(q.target.id, -1) for q in queries])
    attacker_at = np.array(
        [position.get(q.attacker_id, -1) if q.attacker_id else -1 for q in queries]
    )
    query_of = line_query[li]
    own = (ci == target_at[query_of]) | (ci == attacker_at[query_of])
    li, ci = li[~own], ci[~own]
    inside = _segment_crosses_open_box(lines[li], boxes[ci])
    return np.stack([li[inside], ci[inside]])


def _segment_crosses_open_box(
    seg: NDArray[np.float64], box: NDArray[np.float64]
) -> NDArray[np.bool_]:
    """Whether each segment passes through the inside of its box (edges and corners don't
    count), by clipping the segment to the closed box (Liang-Barsky)."""
    p = seg[:, 0, :]
    d = seg[:, 1, :] - p
    t0 = np.zeros(len(seg))
    t1 = np.ones(len(seg))
    ok = np.ones(len(seg), dtype=bool)
    for axis, lo, hi in ((0, box[:, 0], box[:, 2]), (1, box[:, 1], box[:, 3])):
        dv = d[:, axis]
        pv = p[:, axis]
        flat = np.abs(dv) < 1e-12
        ok &= ~flat | ((pv > lo + 1e-9) & (pv < hi - 1e-9))
        safe = np.where(flat, 1.0, dv)
        ta = (lo - pv) / safe
        tb = (hi - pv) / safe
        t_enter = np.where(flat, -np.inf, np.minimum(ta, tb))
        t_exit = np.where(flat, np.inf, np.maximum(ta, tb))
        t0 = np.maximum(t0, t_enter)
        t1 = np.minimum(t1, t_exit)
    length = np.hypot(d[:, 0], d[:, 1])
    return ok & ((t1 - t0) * length > 1e-9)
