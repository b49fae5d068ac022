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
  side of that wall: its lines start ``NUDGE`` cells inside the creature's own square, so a
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
from numpy.typing import NDArray

from battlemap.geometry.body import Body
from battlemap.geometry.cover_lines import (
    CREATURE,
    FIRST_OBSTACLE,
    WALL,
    WINDOW,
    ComboScores,
    Layout,
    Query,
    Scoring,
    WallBlocks,
    all_lines_total,
    best_combos,
    creature_hits,
    hard_blocks,
    lay_out,
    obstacles_crossed,
    scores_with_creatures,
    strongest_per_line,
    traced_lines,
    wall_blocks,
)
from battlemap.geometry.map_index import MapIndex
from battlemap.geometry.metrics import PointXY, Space
from battlemap.model import CoverDegree, EntityId


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


_DEGREES = list(CoverDegree)
_FIXED_CAPS = np.array(
    [CoverDegree.TOTAL.rank, CoverDegree.THREE_QUARTERS.rank, CoverDegree.HALF.rank],
    dtype=np.int64,
)
"""The most cover a wall, a window and a creature can give (sources ``WALL`` .. ``CREATURE``)."""


def _corner_points(space: Space) -> list[PointXY]:
    """The grid corners of every square of a space (a Tiny space: its own four corners)."""
    squares = space.squares()
    points = {corner for square in squares for corner in square.corners}
    return sorted(points)


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
        queries.append(Query(origins, space, t, attacker.id, centre, squares, target_centre))
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

    def query(ai: int, ti: int) -> Query:
        return Query(
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
    query: Callable[[int, int], Query],
    solved: dict[tuple[int, int], CoverResult],
) -> None:
    results = _solve(index, [query(a, t) for a, t in batch], creatures)
    solved.update(zip(batch, results, strict=True))


def cover_from_point(
    index: MapIndex, origin: PointXY, target: Body, creatures: Sequence[Body]
) -> CoverResult:
    """Cover of ``target`` against an effect whose point of origin is ``origin`` (cells)."""
    target_space = target.space
    query = Query([origin], None, target, None, origin, target_space.squares(), target_space.centre)
    return _solve(index, [query], creatures)[0]


def _solve(index: MapIndex, queries: list[Query], creatures: Sequence[Body]) -> list[CoverResult]:
    """Cover for every query of a batch: lay out the lines, find what blocks them (walls and
    windows, obstacles, then creatures where they can still matter), score each (corner,
    square) combo, choose the best combo per query and pack the results."""
    if not queries:
        return []
    layout = lay_out(queries)
    walls = wall_blocks(index, layout)
    obstacle_pairs = obstacles_crossed(index, layout.lines)
    caps = np.concatenate([_FIXED_CAPS, index.cover_obstacle_ranks])
    hard = hard_blocks(walls, obstacle_pairs)
    scoring = Scoring(
        layout.line_combo, layout.n_combos, FIRST_OBSTACLE + len(index.cover_obstacles), caps
    )
    final = scores_with_creatures(layout, scoring, hard, queries, creatures)
    firsts = best_combos(layout, final)
    tracer = _chosen_lines_tracer(index, layout, walls, obstacle_pairs, caps, firsts)
    totals = all_lines_total(layout, hard, caps, len(queries))
    return _results(queries, creatures, layout, final, firsts, totals, tracer)


def _chosen_lines_tracer(
    index: MapIndex,
    layout: Layout,
    walls: WallBlocks,
    obstacle_pairs: NDArray[np.intp],
    caps: NDArray[np.int64],
    firsts: NDArray[np.int64],
) -> _Tracer:
    """The chosen combo of each query: its four lines (and the centre line); the tracer
    keeps those lines only, not the whole batch's arrays."""
    local = firsts - layout.combo_first
    chosen = np.concatenate(
        [
            (layout.first + local * 4)[:, None] + np.arange(4),
            np.asarray(layout.centre_line_index)[:, None],
        ],
        axis=1,
    )
    first_obstacle = strongest_per_line(len(layout.lines), obstacle_pairs, caps)
    traced = traced_lines(
        chosen,
        layout.lines,
        walls.traced_origins,
        walls.traced_corners,
        layout.start_row,
        layout.end_row,
    )
    return _Tracer(
        index,
        layout.lines[chosen],
        traced,
        walls.wall_block[chosen],
        walls.window_block[chosen],
        first_obstacle[chosen],
    )


def _results(
    queries: list[Query],
    creatures: Sequence[Body],
    layout: Layout,
    final: ComboScores,
    firsts: NDArray[np.int64],
    totals: list[bool],
    tracer: _Tracer,
) -> list[CoverResult]:
    # Plain Python lists: indexing numpy arrays one element at a time costs more than the
    # rest of this loop.
    local = firsts - layout.combo_first
    origin_of, square_of = (local // layout.n_squares).tolist(), (local % layout.n_squares).tolist()
    firsts_of = firsts.tolist()
    degrees, sources = final.degree.tolist(), final.source.tolist()
    uncapped, counts = final.uncapped.tolist(), final.count.tolist()
    results = []
    for qi, q in enumerate(queries):
        best = firsts_of[qi]
        degree = CoverDegree.TOTAL if totals[qi] else _DEGREES[degrees[best]]
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

    def build(self, qi: int, query: Query, creatures: Sequence[Body]) -> Traces:
        """The traces of query ``qi``'s four chosen lines and its centre line (bound with
        ``partial`` per result, so nothing is traced until a result's lines are read)."""
        lines = self.lines[qi]
        chosen = np.arange(len(lines))
        hits = creature_hits(lines, chosen, np.zeros(len(lines), dtype=np.intp), [query], creatures)
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


def _kind(source: int) -> BlockerKind:
    if source == WALL:
        return BlockerKind.WALL
    if source == WINDOW:
        return BlockerKind.WINDOW
    if source == CREATURE:
        return BlockerKind.CREATURE
    return BlockerKind.OBSTACLE
