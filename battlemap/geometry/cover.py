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

import dataclasses
import functools
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

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
    Owners,
    Query,
    Rows,
    Scoring,
    WallBlocks,
    all_lines_total,
    best_combos,
    creature_hits,
    hard_blocks,
    lay_out_rows,
    obstacles_crossed,
    owners_of,
    query_rows,
    scores_with_creatures,
    strongest_per_line,
    traced_lines,
    wall_blocks,
    with_traced_ends,
)
from battlemap.geometry.map_index import MapIndex
from battlemap.geometry.metrics import PointXY, Space
from battlemap.geometry.walled_off import Boxes, boxes_walled_off
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


PAIR_LINES_IN_FLIGHT = 800_000
"""About this many lines are traced at once by ``cover_all_pairs``, split between its
threads (``pair_workers``): its working arrays stay under ~200 MB however many creatures there
are and however many CPUs. Smaller batches cost more per-batch work (150,000 lines a batch
took ~10 % more time than 600,000)."""

MAX_PAIR_WORKERS = 4
"""More threads than this gain little: each holds a batch, and the Python between the bulk
steps holds the GIL."""

WALLED_OFF_PAIRS_PER_THREAD = 4096
"""Fewer pairs than this a thread are proven walled off in the calling thread alone."""


def cover_all_pairs(
    index: MapIndex, creatures: Sequence[Body]
) -> Mapping[tuple[EntityId, EntityId], CoverResult]:
    """Cover for every ordered (attacker, target) pair of ``creatures``.

    The same answers as ``cover`` pair by pair, keys attacker by attacker in ``creatures``
    order, like a dict. Every pair is solved in bulk arrays; a pair's ``CoverResult`` is made
    when it is first read, and its lines are traced when they are first read. Pairs are solved
    in batches, both ways of a pair in the same batch, so each line is traced once even though
    every pair is seen from both ends; the batches (``PAIR_LINES_IN_FLIGHT`` lines between
    them) are solved in ``pair_workers()`` threads at once. A pair that a wall along a grid
    line walls off (``walled_off``) is total cover both ways, no line traced.
    """
    ids = [c.id for c in creatures]
    if len(set(ids)) < len(ids):  # not a real encounter: pair by pair, the same answers
        return {
            (ids[a], ids[t]): cover(index, creatures[a], creatures[t], creatures)
            for a in range(len(creatures))
            for t in range(len(creatures))
            if creatures[t] is not creatures[a]
        }
    table = PairCover(index, creatures)
    rows = with_traced_ends(index, _creature_rows(creatures))
    attackers, targets = np.triu_indices(len(creatures), 1)
    if not len(attackers):
        return table
    # Pairs that walls on grid lines wall off are total cover both ways: no line traced.
    origin_boxes, corner_boxes = _traced_boxes(index, rows)
    boxes = np.stack(
        [
            np.minimum(origin_boxes[:, 0], corner_boxes[:, 0]),
            np.maximum(origin_boxes[:, 1], corner_boxes[:, 1]),
        ],
        axis=1,
    )
    workers = pair_workers()
    parts = workers if len(attackers) >= WALLED_OFF_PAIRS_PER_THREAD * workers else 1
    chunks = [np.array_split(v, parts) for v in (attackers, targets)]
    walled = np.concatenate(
        _in_threads(
            workers,
            lambda part: boxes_walled_off(index.cover_walls, boxes[part[0]], boxes[part[1]]),
            list(zip(*chunks, strict=True)),
        )
    )
    combos = rows.n_origins[attackers] * rows.n_squares[targets]
    combos += rows.n_origins[targets] * rows.n_squares[attackers]
    combos[walled] = 0  # no line traced
    # As many batches for each thread, of about as many traced lines (4 per combo) each: cut
    # where the running count of combos passes a multiple of the batch size.
    total = int(combos.sum())
    rounds = max(1, -(-4 * total // PAIR_LINES_IN_FLIGHT))
    batch_of = (np.cumsum(combos) - combos) // max(1, -(-total // (rounds * workers)))
    cuts = np.flatnonzero(np.diff(batch_of)) + 1

    def solve(batch: tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.bool_]]) -> None:
        a, t, w = batch
        both_ways = np.stack([np.stack([a, t], axis=1), np.stack([t, a], axis=1)], axis=1)
        _solve_batch(index, creatures, both_ways.reshape(-1, 2), rows, table, np.repeat(w, 2))

    batches = zip(*(np.split(v, cuts) for v in (attackers, targets, walled)), strict=True)
    _in_threads(workers, solve, list(batches))
    return table


def _in_threads(workers: int, work: Callable[[Any], Any], items: list[Any]) -> list[Any]:
    """``[work(item) for item in items]``, in ``workers`` threads at once. The work shares only
    read-only arrays (a ``MapIndex`` builds its trees and tables when it is made) and writes
    disjoint slots of a ``PairCover``; a worker's error is raised here."""
    if workers == 1 or len(items) < 2:
        return [work(item) for item in items]
    with ThreadPoolExecutor(workers, thread_name_prefix="cover") as pool:
        return list(pool.map(work, items))


def pair_workers() -> int:
    """Threads ``cover_all_pairs`` solves its batches in: one per usable CPU, at most
    ``MAX_PAIR_WORKERS``. The batches' work is bulk numpy and shapely, which run without the
    GIL, so two threads take ~40 % less wall-clock time than one."""
    return min(usable_cpus(), MAX_PAIR_WORKERS)


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity, where the OS tells it)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _creature_rows(creatures: Sequence[Body]) -> Rows:
    """Every creature's origins and square corners, as ``Rows`` with one query per creature
    (attacking and being targeted by itself): a batch of pairs picks its rows from them."""
    queries = []
    for c in creatures:
        space = c.space
        queries.append(
            Query(
                _corner_points(space), space, c, c.id, space.centre, space.squares(), space.centre
            )
        )
    return query_rows(queries)


def _solve_batch(
    index: MapIndex,
    creatures: Sequence[Body],
    pairs: NDArray[np.int64],
    rows: Rows,
    table: PairCover,
    walled: NDArray[np.bool_],
) -> None:
    """Solve the (attacker, target) ``pairs`` (positions in ``creatures``) into ``table``;
    those ``walled`` off (``walled_off``) are total cover with no line traced."""
    table.put(pairs[walled, 0], pairs[walled, 1], _walled_off_choices(int(walled.sum())))
    pairs = pairs[~walled]
    if not len(pairs):
        return
    attackers, targets = pairs[:, 0], pairs[:, 1]
    batch = _picked(rows, attackers, targets)
    solved = _solve_layout(index, lay_out_rows(batch), (attackers, targets), creatures)
    table.put(attackers, targets, _choices(solved))


def _picked(rows: Rows, attackers: NDArray[np.int64], targets: NDArray[np.int64]) -> Rows:
    """Queries made of the attacking side of ``rows``' queries ``attackers`` and the target
    side of its queries ``targets`` (the point rows are shared, not copied)."""
    return dataclasses.replace(
        rows,
        origin_at=rows.origin_at[attackers],
        square_at=rows.square_at[targets],
        n_origins=rows.n_origins[attackers],
        n_squares=rows.n_squares[targets],
        centres=rows.centres[attackers],
        target_centres=rows.target_centres[targets],
    )


def _traced_boxes(index: MapIndex, rows: Rows) -> tuple[Boxes, Boxes]:
    """Per query of ``rows``, the box of the points its lines join as the wall test traces
    them: its attacker's origins (nudged off walls) and centre, and its target's square
    corners (nudged) and centre. Each query's rows are one run of the row arrays, and the runs
    tile them (``query_rows``)."""
    assert rows.traced is not None, "rows from with_traced_ends"
    origins, corners = rows.traced
    return (
        _run_boxes(origins, rows.origin_at, rows.centres),
        _run_boxes(corners, rows.square_at, rows.target_centres),
    )


def _run_boxes(
    points: NDArray[np.float64], at: NDArray[np.int64], centres: NDArray[np.float64]
) -> Boxes:
    """Per query, the box of ``points`` in the run starting at ``at`` and of its centre."""
    starts = np.unique(at)
    run = np.searchsorted(starts, at)
    low = np.minimum(np.minimum.reduceat(points, starts, axis=0)[run], centres)
    high = np.maximum(np.maximum.reduceat(points, starts, axis=0)[run], centres)
    return np.stack([low, high], axis=1)


_WALLED_OFF = (CoverDegree.TOTAL.rank, 0, 0, 0, WALL, 4)
"""The choice (``_CHOICE_FIELDS``) when walls block every line: total cover from walls, no
cap, four lines blocked, the first corner and square (every combo has its four lines
blocked, and walls give each three-quarters, the most any source can: a tie)."""


def _walled_off_choices(n: int) -> _Choices:
    """``n`` pairs' ``_WALLED_OFF`` choice."""
    degree, origin, square, capped, source, count = (np.full(n, v) for v in _WALLED_OFF)
    return _Choices(degree, origin, square, capped.astype(bool), source, count)


def cover_from_point(
    index: MapIndex, origin: PointXY, target: Body, creatures: Sequence[Body]
) -> CoverResult:
    """Cover of ``target`` against an effect whose point of origin is ``origin`` (cells)."""
    target_space = target.space
    query = Query([origin], None, target, None, origin, target_space.squares(), target_space.centre)
    return _solve(index, [query], creatures)[0]


@dataclass
class _Solved:
    """A batch's lines, what blocks them and each query's best combo."""

    layout: Layout
    walls: WallBlocks
    obstacle_pairs: NDArray[np.intp]
    caps: NDArray[np.int64]
    final: ComboScores
    firsts: NDArray[np.int64]
    totals: NDArray[np.bool_]


WALLED_OFF_MIN_QUERIES = 16
"""Batches of at least this many queries first set apart the pairs walls wall off entirely
(``walled_off``): total cover with no line traced. A smaller batch traces every line, so
``cover`` for one pair stays the answer of the exact rule that the batches (and
``cover_all_pairs``, which always sets walled-off pairs apart) are tested against."""


def _solve(index: MapIndex, queries: list[Query], creatures: Sequence[Body]) -> list[CoverResult]:
    """Cover for every query of a batch, each result with a tracer of its chosen lines."""
    if len(queries) < WALLED_OFF_MIN_QUERIES:
        return _solve_traced(index, queries, creatures)
    rows = with_traced_ends(index, query_rows(queries))
    walled = boxes_walled_off(index.cover_walls, *_traced_boxes(index, rows))
    if not walled.any():
        return _solve_traced(index, queries, creatures, rows)
    rest = np.flatnonzero(~walled)
    traced = iter(
        _solve_traced(index, [queries[i] for i in rest], creatures, _picked(rows, rest, rest))
    )

    def alone(query: Query) -> Callable[[], Traces]:
        return lambda: _solve_traced(index, [query], creatures)[0]._traced()

    return [
        _result(_WALLED_OFF, q.origins, q.squares, alone(q)) if w else next(traced)
        for q, w in zip(queries, walled.tolist(), strict=True)
    ]


def _solve_traced(
    index: MapIndex, queries: list[Query], creatures: Sequence[Body], rows: Rows | None = None
) -> list[CoverResult]:
    """``_solve`` tracing every line of every query (``rows``: ``query_rows(queries)``)."""
    if not queries:
        return []
    layout = lay_out_rows(rows if rows is not None else query_rows(queries))
    solved = _solve_layout(index, layout, owners_of(queries, creatures), creatures)
    tracer = _chosen_lines_tracer(index, solved)
    return _choices(solved).results(
        queries, lambda qi, q: functools.partial(tracer.build, qi, q, creatures)
    )


def _solve_layout(
    index: MapIndex, layout: Layout, owners: Owners, creatures: Sequence[Body]
) -> _Solved:
    """Find what blocks a batch's lines (walls and windows, obstacles, then creatures where
    they can still matter), score each (corner, square) combo and choose each query's best."""
    walls = wall_blocks(index, layout)
    obstacle_pairs = obstacles_crossed(index, layout)
    caps = np.concatenate([_FIXED_CAPS, index.cover_obstacle_ranks])
    hard = hard_blocks(walls, obstacle_pairs)
    scoring = Scoring(layout.n_combos, FIRST_OBSTACLE + len(index.cover_obstacles), caps)
    final = scores_with_creatures(layout, scoring, hard, owners, creatures)
    firsts = best_combos(layout, final)
    totals = all_lines_total(layout, hard, caps, len(layout.combo_first))
    return _Solved(layout, walls, obstacle_pairs, caps, final, firsts, totals)


def _chosen_lines_tracer(index: MapIndex, solved: _Solved) -> _Tracer:
    """The chosen combo of each query: its four lines (and the centre line); the tracer
    keeps those lines only, not the whole batch's arrays."""
    layout, walls = solved.layout, solved.walls
    local = solved.firsts - layout.combo_first
    chosen = np.concatenate(
        [
            (layout.first + local * 4)[:, None] + np.arange(4),
            np.asarray(layout.centre_line_index)[:, None],
        ],
        axis=1,
    )
    first_obstacle = strongest_per_line(layout.n_lines, solved.obstacle_pairs, solved.caps)
    chosen_lines = layout.lines_at(chosen.ravel()).reshape(*chosen.shape, 2, 2)
    traced = traced_lines(
        chosen,
        chosen_lines,
        walls.traced_origins,
        walls.traced_corners,
        layout.start_row,
        layout.end_row,
    )
    return _Tracer(
        index,
        chosen_lines,
        traced,
        walls.wall_block[chosen],
        walls.window_block[chosen],
        first_obstacle[chosen],
    )


@dataclass
class _Choices:
    """Per query of a batch (or per pair of a ``PairCover``), the chosen combo and what it
    gives, as arrays: everything a ``CoverResult`` holds but its lines."""

    degree: NDArray[np.int64]
    origin: NDArray[np.int64]
    """The chosen corner's position in the attacker's origins."""
    square: NDArray[np.int64]
    """The chosen square's position in the target's squares."""
    capped: NDArray[np.bool_]
    """A cap lowered the degree."""
    source: NDArray[np.int64]
    """``WALL`` .. obstacles, -1 for no cover."""
    count: NDArray[np.int64]

    def result(
        self,
        i: int,
        origins: Sequence[PointXY],
        squares: Sequence[Space],
        traces: Callable[[], Traces],
    ) -> CoverResult:
        choice = [int(getattr(self, name)[i]) for name in _CHOICE_FIELDS]
        return _result(choice, origins, squares, traces)

    def results(
        self, queries: Sequence[Query], traces: Callable[[int, Query], Callable[[], Traces]]
    ) -> list[CoverResult]:
        """One result per query of a batch, ``traces(qi, query)`` its tracer (the arrays are
        read as lists once: per-element numpy reads cost more than the rest of a result)."""
        columns = zip(*(getattr(self, name).tolist() for name in _CHOICE_FIELDS), strict=True)
        return [
            _result(choice, q.origins, q.squares, traces(qi, q))
            for qi, (q, choice) in enumerate(zip(queries, columns, strict=True))
        ]


_CHOICE_FIELDS = ("degree", "origin", "square", "capped", "source", "count")


def _result(
    choice: Sequence[int],
    origins: Sequence[PointXY],
    squares: Sequence[Space],
    traces: Callable[[], Traces],
) -> CoverResult:
    """A result from one choice: its ``_CHOICE_FIELDS`` as numbers."""
    degree_rank, origin, square, capped, source, count = choice
    degree = _DEGREES[degree_rank]
    return CoverResult(
        degree=degree,
        corner=origins[origin],
        target_square=squares[square],
        traces=traces,
        cap_applied=degree if capped else None,
        source=_kind(source) if source >= 0 else None,
        blocked_lines=count,
    )


def _choices(solved: _Solved) -> _Choices:
    """Total cover when every line is blocked by a total source (walls give it); otherwise
    the best combo's degree, from its strongest source, capped where that source caps it."""
    layout, final, best, total = solved.layout, solved.final, solved.firsts, solved.totals
    local = best - layout.combo_first
    source = final.source[best]
    return _Choices(
        degree=np.where(total, CoverDegree.TOTAL.rank, final.degree[best]),
        origin=local // layout.n_squares,
        square=local % layout.n_squares,
        capped=~total & (source >= 0) & (final.uncapped[best] > final.degree[best]),
        source=np.where(total, WALL, source),
        count=final.count[best],
    )


class PairCover(Mapping[tuple[EntityId, EntityId], CoverResult]):
    """``cover_all_pairs``'s answer: a read-only mapping (attacker id, target id) ->
    ``CoverResult`` over arrays of every pair's choice; a result is made when first read (then
    kept), its lines traced by ``cover`` for that pair when they are first read."""

    def __init__(self, index: MapIndex, creatures: Sequence[Body]) -> None:
        self._index = index
        self._creatures = list(creatures)
        self._ids = [c.id for c in creatures]
        self._position = {c.id: i for i, c in enumerate(creatures)}
        self._origins = [_corner_points(c.space) for c in creatures]
        self._squares = [c.space.squares() for c in creatures]
        n = len(creatures)
        slots = n * max(n - 1, 0)
        zeros = np.zeros(slots, dtype=np.int64)
        self._choices = _Choices(
            zeros, zeros.copy(), zeros.copy(), np.zeros(slots, dtype=bool), zeros - 1, zeros.copy()
        )
        self._made: dict[int, CoverResult] = {}

    def _slot(self, attacker: NDArray[np.int64] | int, target: NDArray[np.int64] | int) -> Any:
        """Pairs are stored attacker by attacker, each attacker's targets in order."""
        n = len(self._ids)
        return attacker * (n - 1) + target - (target > attacker)

    def put(self, attackers: NDArray[np.int64], targets: NDArray[np.int64], got: _Choices) -> None:
        at = self._slot(attackers, targets)
        for name in _CHOICE_FIELDS:
            getattr(self._choices, name)[at] = getattr(got, name)

    def __getitem__(self, key: tuple[EntityId, EntityId]) -> CoverResult:
        try:
            attacker_id, target_id = key
            a, t = self._position[attacker_id], self._position[target_id]
        except (TypeError, ValueError):
            raise KeyError(key) from None
        if a == t:
            raise KeyError(key)
        slot = int(self._slot(a, t))
        made = self._made.get(slot)
        if made is None:
            attacker, target = self._creatures[a], self._creatures[t]

            def traces() -> Traces:
                return cover(self._index, attacker, target, self._creatures)._traced()

            made = self._choices.result(slot, self._origins[a], self._squares[t], traces)
            self._made[slot] = made
        return made

    def __iter__(self) -> Iterator[tuple[EntityId, EntityId]]:
        ids = self._ids
        return ((a, t) for a in ids for t in ids if t != a)

    def __len__(self) -> int:
        return len(self._choices.degree)


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
        hits = creature_hits(
            lines,
            chosen,
            np.zeros(len(lines), dtype=np.intp),
            owners_of([query], creatures),
            creatures,
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


def _kind(source: int) -> BlockerKind:
    if source == WALL:
        return BlockerKind.WALL
    if source == WINDOW:
        return BlockerKind.WINDOW
    if source == CREATURE:
        return BlockerKind.CREATURE
    return BlockerKind.OBSTACLE
