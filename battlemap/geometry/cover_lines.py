"""The line arithmetic behind a batch of cover queries (``cover._solve``), Qt-free numpy.

Every query's lines are laid out in one set of arrays (``lay_out_rows``); walls and windows
(``wall_blocks``), obstacles (``obstacle_pairs``) and creatures (``scores_with_creatures``)
say which lines they block; ``Scoring`` turns the blocks into a capped degree per (corner,
square) combo and ``best_combos`` picks each query's. The boundary rules (touching, grazing
a corner, running along a wall) are documented in ``cover``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import shapely
from numpy.typing import NDArray

from battlemap.geometry.barriers import line_array, unique_points
from battlemap.geometry.body import Body
from battlemap.geometry.map_index import MapIndex
from battlemap.geometry.metrics import PointXY, Space
from battlemap.model import CoverDegree, EntityId

NUDGE = 1e-4
"""Cells a corner on a wall moves into its own square before tracing."""


WALL, WINDOW, CREATURE, FIRST_OBSTACLE = 0, 1, 2, 3


@dataclass
class Query:
    """One attacker-target pair in a batch."""

    origins: list[PointXY]
    origin_space: Space | None
    target: Body
    attacker_id: EntityId | None
    centre: PointXY
    squares: list[Space]
    target_centre: PointXY


def unique_corner_lines(
    origins: NDArray[np.float64],
    corners: NDArray[np.float64],
    start_row: NDArray[np.int64],
    end_row: NDArray[np.int64],
    centre_lines: NDArray[np.float64],
) -> tuple[NDArray[np.float64], NDArray[np.intp]]:
    """The distinct lines among ``origins[start_row] -> corners[end_row]`` followed by
    ``centre_lines``, each with its ends in a fixed order, and where each input went.

    Corner lines are told apart by the ids of their two end points (few distinct points
    make many lines); the centre lines by ``canonical_unique``.
    """
    points, point_id = unique_points(np.concatenate([origins, corners]))
    n_points = len(points)
    a = point_id[: len(origins)][start_row].astype(np.int64)
    b = point_id[len(origins) :][end_row].astype(np.int64)
    low, high = np.minimum(a, b), np.maximum(a, b)
    keys = low * n_points + high
    order = _pair_order(low, high, keys, n_points)
    ordered = keys[order]
    new = np.r_[True, ordered[1:] != ordered[:-1]] if len(keys) else np.empty(0, dtype=bool)
    back = np.empty(len(keys), dtype=np.intp)
    back[order] = np.cumsum(new) - 1
    distinct = ordered[new]
    corner_lines = np.stack([points[distinct // n_points], points[distinct % n_points]], axis=1)
    centres, centre_back = canonical_unique(centre_lines)
    return (
        np.concatenate([corner_lines.reshape(-1, 2, 2), centres]),
        np.concatenate([back, centre_back + len(corner_lines)]),
    )


def _pair_order(
    low: NDArray[np.int64], high: NDArray[np.int64], keys: NDArray[np.int64], n_points: int
) -> NDArray[np.intp]:
    """An order that sorts the point-id pairs (``keys``: low * n_points + high). Ids that fit
    in 16 bits are sorted by two stable passes, high then low, which numpy does by radix
    sort: about 3x faster than sorting the keys."""
    if n_points > 1 << 16:
        return np.argsort(keys)
    by_high = np.argsort(high.astype(np.uint16), kind="stable")
    return by_high[np.argsort(low.astype(np.uint16)[by_high], kind="stable")]


def canonical_unique(
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
    mixed = bits * HASH_FACTORS
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


HASH_FACTORS = np.array(
    [0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9, 0x27D4EB2F165667C5],
    dtype=np.uint64,
)
"""Odd multipliers that spread a line's coordinate bits over its hash."""


def nudged(points: NDArray[np.float64], towards: NDArray[np.float64]) -> NDArray[np.float64]:
    delta = towards - points
    length = np.hypot(delta[:, 0], delta[:, 1])
    length = np.where(length == 0, 1.0, length)
    return points + delta / length[:, None] * NUDGE


@dataclass
class Layout:
    """Every line of a batch: per query, origins x squares x 4 corners (the corner lines, in
    query order), then one centre line per query. Origins and squares are shared between
    queries (same attacker, same target), so they are converted once and the lines are
    gathered by index arithmetic, only where their coordinates are read (``lines_at``): the
    wall test tells lines apart by their rows, and a batch of all pairs holds millions."""

    centres: NDArray[np.float64]
    """Per query, the start of its centre line (the attacker's centre or the origin)."""
    target_centres: NDArray[np.float64]
    """Per query, the end of its centre line."""
    line_query: NDArray[np.int64]
    """The query of each line."""
    line_combo: NDArray[np.int64]
    """The (origin, square) combo of each corner line; -1 for a centre line."""
    start_row: NDArray[np.int64]
    """Each corner line's row in ``origin_arr``."""
    end_row: NDArray[np.int64]
    """Each corner line's row in ``corner_arr``."""
    origin_arr: NDArray[np.float64]
    home_arr: NDArray[np.float64]
    """Per origin row, the centre of the square it belongs to (nudging goes towards it)."""
    corner_arr: NDArray[np.float64]
    square_centre_arr: NDArray[np.float64]
    """Per corner row, the centre of its square."""
    corner_total: int
    n_squares: NDArray[np.int64]
    first: NDArray[np.int64]
    """Each query's first corner line."""
    combo_first: NDArray[np.int64]
    """Each query's first combo."""
    combos_per_query: NDArray[np.int64]
    n_combos: int
    traced: TracedEnds | None = None
    """The origin and corner rows as the wall test traces them, when already known."""

    @property
    def n_lines(self) -> int:
        return self.corner_total + len(self.centres)

    @property
    def centre_line_index(self) -> list[int]:
        return list(range(self.corner_total, self.n_lines))

    @property
    def centre_lines(self) -> NDArray[np.float64]:
        """(query, 2, 2): each query's centre line."""
        return np.stack([self.centres, self.target_centres], axis=1)

    @property
    def lines(self) -> NDArray[np.float64]:
        """(line, 2, 2): start and end of every line."""
        return self.lines_at(np.arange(self.n_lines))

    def lines_at(self, which: NDArray[np.intp]) -> NDArray[np.float64]:
        """(len(which), 2, 2): start and end of the lines ``which``."""
        lines = np.empty((len(which), 2, 2))
        corner = which < self.corner_total
        at = which[corner]
        lines[corner, 0] = self.origin_arr[self.start_row[at]]
        lines[corner, 1] = self.corner_arr[self.end_row[at]]
        query = which[~corner] - self.corner_total
        lines[~corner, 0] = self.centres[query]
        lines[~corner, 1] = self.target_centres[query]
        return lines


@dataclass
class Rows:
    """The points a batch's lines join: origin rows and target-corner rows (shared between
    queries with the same attacker or target) and, per query, where its rows start."""

    origin_arr: NDArray[np.float64]
    home_arr: NDArray[np.float64]
    """Per origin row, the centre of the square it belongs to (nudging goes towards it)."""
    corner_arr: NDArray[np.float64]
    """Four rows per square: its corners."""
    square_centre_arr: NDArray[np.float64]
    origin_at: NDArray[np.int64]
    square_at: NDArray[np.int64]
    """Per query, its first origin row and its first corner row."""
    n_origins: NDArray[np.int64]
    n_squares: NDArray[np.int64]
    centres: NDArray[np.float64]
    target_centres: NDArray[np.float64]
    traced: TracedEnds | None = None
    """The origin and corner rows as the wall test traces them (``with_traced_ends``)."""


TracedEnds = tuple[NDArray[np.float64], NDArray[np.float64]]
"""Origin rows and corner rows as the wall test traces them (see ``traced_ends``)."""


def query_rows(queries: list[Query]) -> Rows:
    """The rows of a list of queries (origin and square lists shared by identity)."""
    origin_sets: dict[int, int] = {}
    origin_rows: list[PointXY] = []
    home_rows: list[PointXY] = []
    square_sets: dict[int, int] = {}
    squares: list[tuple[float, float, float, float]] = []
    origin_at = [0] * len(queries)
    square_at = [0] * len(queries)
    for qi, q in enumerate(queries):
        at = origin_sets.get(id(q.origins))
        if at is None:
            at = origin_sets[id(q.origins)] = len(origin_rows)
            origin_rows += q.origins
            home_rows += [home(o, q.origin_space) for o in q.origins]
        origin_at[qi] = at
        at = square_sets.get(id(q.squares))
        if at is None:
            at = square_sets[id(q.squares)] = 4 * len(squares)
            squares += [(s.x, s.y, s.w, s.h) for s in q.squares]
        square_at[qi] = at
    corner_arr, square_centre_arr = square_corner_rows(np.asarray(squares, dtype=np.float64))
    return Rows(
        origin_arr=points_of(origin_rows),
        home_arr=points_of(home_rows),
        corner_arr=corner_arr,
        square_centre_arr=square_centre_arr,
        origin_at=np.array(origin_at, dtype=np.int64),
        square_at=np.array(square_at, dtype=np.int64),
        n_origins=np.array([len(q.origins) for q in queries], dtype=np.int64),
        n_squares=np.array([len(q.squares) for q in queries], dtype=np.int64),
        centres=points_of([q.centre for q in queries]),
        target_centres=points_of([q.target_centre for q in queries]),
    )


def square_corner_rows(
    squares: NDArray[np.float64],
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Four rows per ``(x, y, w, h)`` square: its corners in ``Space.corners`` order, and its
    centre four times (the same arithmetic as ``Space``, so the same floats)."""
    x, y, w, h = squares.reshape(-1, 4).T
    x1, y1 = x + w, y + h
    corners = np.stack([x, y, x1, y, x1, y1, x, y1], axis=1).reshape(-1, 2)
    centres = np.repeat(np.stack([x + w / 2, y + h / 2], axis=1), 4, axis=0)
    return corners, centres


def points_of(points: Sequence[PointXY]) -> NDArray[np.float64]:
    return np.asarray(points, dtype=np.float64).reshape(-1, 2)


def lay_out_rows(rows: Rows) -> Layout:
    """Every query's lines, gathered from the rows by index arithmetic."""
    n_origins, n_squares = rows.n_origins, rows.n_squares
    n_queries = len(n_origins)
    per_line = 4 * n_squares
    per_query = n_origins * per_line
    corner_total = int(per_query.sum())
    first = np.cumsum(per_query) - per_query
    line_query = np.repeat(np.arange(n_queries), per_query)
    within = np.arange(corner_total) - first[line_query]
    o = within // per_line[line_query]
    r = within % per_line[line_query]
    start_row = rows.origin_at[line_query] + o
    end_row = rows.square_at[line_query] + r
    combos_per_query = n_origins * n_squares
    combo_first = np.cumsum(combos_per_query) - combos_per_query
    line_combo = np.concatenate(
        [combo_first[line_query] + o * n_squares[line_query] + r // 4, np.full(n_queries, -1)]
    )
    return Layout(
        centres=rows.centres,
        target_centres=rows.target_centres,
        line_query=np.concatenate([line_query, np.arange(n_queries)]),
        line_combo=line_combo,
        start_row=start_row,
        end_row=end_row,
        origin_arr=rows.origin_arr,
        home_arr=rows.home_arr,
        corner_arr=rows.corner_arr,
        square_centre_arr=rows.square_centre_arr,
        corner_total=corner_total,
        n_squares=n_squares,
        first=first,
        combo_first=combo_first,
        combos_per_query=combos_per_query,
        n_combos=int(combos_per_query.sum()),
        traced=rows.traced,
    )


Owners = tuple[NDArray[np.int64], NDArray[np.int64]]
"""Per query, the positions in ``creatures`` of its attacker and its target (-1: not there);
their spaces never block its lines."""


def owners_of(queries: list[Query], creatures: Sequence[Body]) -> Owners:
    position = {c.id: i for i, c in enumerate(creatures)}
    attacker_at = [position.get(q.attacker_id, -1) if q.attacker_id else -1 for q in queries]
    target_at = [position.get(q.target.id, -1) for q in queries]
    return np.array(attacker_at, dtype=np.int64), np.array(target_at, dtype=np.int64)


@dataclass
class WallBlocks:
    """Which lines walls and windows block, and the ends the wall test traced."""

    wall_block: NDArray[np.bool_]
    window_block: NDArray[np.bool_]
    """Blocked by a window and by no wall."""
    traced_origins: NDArray[np.float64]
    traced_corners: NDArray[np.float64]


def traced_ends(
    index: MapIndex,
    origins: NDArray[np.float64],
    homes: NDArray[np.float64],
    corners: NDArray[np.float64],
    square_centres: NDArray[np.float64],
) -> TracedEnds:
    """Origin rows and corner rows as the wall test traces them: those on a wall's middle or
    joint moved ``NUDGE`` towards their home (origins) or their square's centre (corners)."""
    walls = index.cover_walls_and_windows
    if not len(walls):
        return origins, corners
    on = walls.inside_walls(np.concatenate([origins, corners]))[:, None]
    n_o = len(origins)
    return (
        np.where(on[:n_o], nudged(origins, homes), origins),
        np.where(on[n_o:], nudged(corners, square_centres), corners),
    )


def with_traced_ends(index: MapIndex, rows: Rows) -> Rows:
    """``rows`` holding their ends as traced, found once for every batch made of them."""
    traced = traced_ends(
        index, rows.origin_arr, rows.home_arr, rows.corner_arr, rows.square_centre_arr
    )
    return dataclasses.replace(rows, traced=traced)


def wall_blocks(index: MapIndex, layout: Layout) -> WallBlocks:
    """Corners on a wall's middle or joint are traced from a hair inside their square (looked
    up once per origin row and corner row; a centre line is never nudged: its ends' homes are
    themselves). A line and its reverse are one test (all pairs trace every pair both ways)."""
    walls = index.cover_walls_and_windows
    traced_origins, traced_corners = layout.traced or traced_ends(
        index, layout.origin_arr, layout.home_arr, layout.corner_arr, layout.square_centre_arr
    )
    unique_lines, back = unique_corner_lines(
        traced_origins,
        traced_corners,
        layout.start_row,
        layout.end_row,
        layout.centre_lines,
    )
    wall_block = index.cover_walls.blocks(unique_lines)[back]
    window_block = np.zeros(layout.n_lines, dtype=bool)
    if len(walls) > len(index.cover_walls):
        window_block = walls.blocks(unique_lines)[back] & ~wall_block
    return WallBlocks(wall_block, window_block, traced_origins, traced_corners)


def obstacles_crossed(index: MapIndex, layout: Layout) -> NDArray[np.intp]:
    """(line, obstacle) pairs where a line of ``layout`` passes through the polygon's inside.
    A zero-length line (creatures sharing a corner) only touches, even at a point inside."""
    if not index.cover_obstacles:
        return np.empty((2, 0), dtype=np.intp)
    lines = layout.lines
    geoms = line_array(lines)
    pairs = index.cover_obstacle_tree.query(geoms, predicate="intersects")
    pairs = pairs[:, np.any(lines[pairs[0], 0] != lines[pairs[0], 1], axis=1)]
    if not pairs.shape[1]:
        return np.empty((2, 0), dtype=np.intp)
    polys = index.cover_obstacle_tree.geometries  # in ``cover_obstacles`` order
    touching = shapely.touches(geoms[pairs[0]], polys[pairs[1]])
    return np.asarray(pairs[:, ~np.asarray(touching, dtype=bool)], dtype=np.intp)


def hard_blocks(walls: WallBlocks, obstacle_pairs: NDArray[np.intp]) -> NDArray[np.int64]:
    """(line, source) pairs of the walls, windows and obstacles blocking each line."""
    wall_block, window_block = walls.wall_block, walls.window_block
    return np.concatenate(
        [
            np.stack([np.flatnonzero(wall_block), np.full(int(wall_block.sum()), WALL)]),
            np.stack([np.flatnonzero(window_block), np.full(int(window_block.sum()), WINDOW)]),
            np.stack([obstacle_pairs[0], obstacle_pairs[1] + FIRST_OBSTACLE]),
        ],
        axis=1,
    ).astype(np.int64)


def scores_with_creatures(
    layout: Layout,
    scoring: Scoring,
    hard: NDArray[np.int64],
    owners: Owners,
    creatures: Sequence[Body],
) -> ComboScores:
    """The combos' scores with the creatures in the way added to the hard blocks.

    Creatures give half cover at most, so they change the degree of combos below
    three-quarters only. A line only a creature blocks still counts against its combo (the
    tie-break among equal degrees is the fewest blocked lines), which matters for the combos
    that can be chosen: where a query's best combo is three-quarters, all its combos are.
    """
    partial = scoring.combos(hard)
    line_combo, line_query = layout.line_combo, layout.line_query
    three_quarters = CoverDegree.THREE_QUARTERS.rank
    line_degree = partial.degree[np.maximum(line_combo, 0)]
    lowest = np.minimum.reduceat(partial.degree, layout.combo_first)
    hard_line = np.zeros(layout.n_lines, dtype=bool)
    hard_line[hard[0]] = True
    open_lines = np.flatnonzero(
        (line_combo >= 0)
        & ((line_degree < three_quarters) | ((lowest[line_query] >= three_quarters) & ~hard_line))
    )
    creature_pairs = creature_hits(
        layout.lines_at(open_lines), open_lines, line_query, owners, creatures
    )
    creature_src = np.stack([creature_pairs[0], np.full(creature_pairs.shape[1], CREATURE)])
    return scoring.combos(np.concatenate([hard, creature_src.astype(np.int64)], axis=1))


def all_lines_total(
    layout: Layout, hard: NDArray[np.int64], caps: NDArray[np.int64], n_queries: int
) -> NDArray[np.bool_]:
    """Per query, total cover: every line (the centre line too) blocked by a total source."""
    total_lines = np.zeros(layout.n_lines, dtype=bool)
    total_lines[hard[0][caps[hard[1]] >= CoverDegree.TOTAL.rank]] = True
    lines_per_query = np.bincount(layout.line_query, minlength=n_queries)
    total_per_query = np.bincount(layout.line_query, weights=total_lines, minlength=n_queries)
    return np.asarray(total_per_query >= lines_per_query)


def best_combos(layout: Layout, final: ComboScores) -> NDArray[np.int64]:
    """Per query, its best combo: lowest degree, then fewest blocked lines, then first."""
    combo_query = np.repeat(np.arange(len(layout.combo_first)), layout.combos_per_query)
    order = np.lexsort((np.arange(layout.n_combos), final.count, final.degree, combo_query))
    return np.asarray(order[np.r_[True, combo_query[order][1:] != combo_query[order][:-1]]])


@dataclass
class ComboScores:
    degree: NDArray[np.int64]
    uncapped: NDArray[np.int64]
    source: NDArray[np.int64]
    count: NDArray[np.int64]


@dataclass
class Scoring:
    """Turns (line, source) blocks into a capped degree per (corner, square) combo."""

    n_combos: int
    n_sources: int
    caps: NDArray[np.int64]

    def combos(self, blocked: NDArray[np.int64]) -> ComboScores:
        """Dense: a (line, source) table of the sources present, summed four lines (one combo)
        at a time; corner lines come combo by combo (``lay_out_rows``), centre lines after."""
        n = self.n_combos
        scores = ComboScores(
            np.zeros(n, dtype=np.int64),
            np.zeros(n, dtype=np.int64),
            np.full(n, -1, dtype=np.int64),
            np.zeros(n, dtype=np.int64),
        )
        corner = blocked[0] < 4 * n
        line, source = blocked[0][corner], blocked[1][corner]
        if len(line) == 0:
            return scores
        present = np.flatnonzero(np.bincount(source, minlength=self.n_sources))
        column = np.empty(self.n_sources, dtype=np.int64)
        column[present] = np.arange(len(present))
        table = np.zeros((4 * n, len(present)), dtype=bool)
        table[line, column[source]] = True
        counts = _four_at_a_time(table)
        by_count = np.where(counts <= 2, CoverDegree.HALF.rank, CoverDegree.THREE_QUARTERS.rank)
        capped = np.minimum(by_count, self.caps[present])
        # Per combo, the strongest source wins (degrees do not add up): the highest capped
        # degree, then the highest uncapped one, then the last source.
        key = np.where(counts > 0, (capped * 4 + by_count) * len(present), -1)
        key += np.arange(len(present))
        best = np.argmax(key, axis=1)
        hit = counts.any(axis=1)
        rows = np.flatnonzero(hit)
        scores.degree[rows] = capped[rows, best[rows]]
        scores.uncapped[rows] = by_count[rows, best[rows]]
        scores.source[rows] = present[best[rows]]
        scores.count[:] = _four_at_a_time(np.logical_or.reduce(table, axis=1))
        return scores


def _four_at_a_time(flags: NDArray[np.bool_]) -> NDArray[np.uint8]:
    """Sums of ``flags`` (rows of lines, four per combo) over each combo's four rows: adding
    bytes is several times faster than numpy's sum of booleans along an axis."""
    bytes_ = flags.view(np.uint8).reshape(len(flags) // 4, 4, *flags.shape[1:])
    return bytes_[:, 0] + bytes_[:, 1] + bytes_[:, 2] + bytes_[:, 3]


def strongest_per_line(
    n: int, obstacle_pairs: NDArray[np.intp], caps: NDArray[np.int64]
) -> NDArray[np.intp]:
    """For each line, the obstacle with the highest cover it passes through (-1: none)."""
    strongest = np.full(n, -1, dtype=np.intp)
    if obstacle_pairs.shape[1]:
        rank = caps[obstacle_pairs[1] + FIRST_OBSTACLE]
        order = np.argsort(rank, kind="stable")  # strongest written last, so it wins
        strongest[obstacle_pairs[0][order]] = obstacle_pairs[1][order]
    return strongest


def traced_lines(
    chosen: NDArray[np.int64],
    chosen_lines: NDArray[np.float64],
    origins: NDArray[np.float64],
    corners: NDArray[np.float64],
    start_row: NDArray[np.int64],
    end_row: NDArray[np.int64],
) -> NDArray[np.float64]:
    """Lines ``chosen`` (their ends as given: ``chosen_lines``) as the wall test traced them:
    corner lines (the first ``len(start_row)``) from the possibly nudged
    ``origins[start_row]`` to ``corners[end_row]``; the centre lines after them as they are."""
    corner = chosen < len(start_row)
    at = np.where(corner, chosen, 0)
    nudged = np.stack([origins[start_row[at]], corners[end_row[at]]], axis=-2)
    return np.where(corner[..., None, None], nudged, chosen_lines)


def home(origin: PointXY, space: Space | None) -> PointXY:
    """Centre of a square of ``space`` that has ``origin`` as a corner (inside the space)."""
    if space is None:
        return origin
    cx, cy = space.centre
    step = min(0.5, space.w / 2)
    hx = origin[0] + (step if origin[0] < cx else -step if origin[0] > cx else 0.0)
    hy = origin[1] + (step if origin[1] < cy else -step if origin[1] > cy else 0.0)
    return (hx, hy)


def creature_hits(
    lines: NDArray[np.float64],
    subset: NDArray[np.intp],
    line_query: NDArray[np.intp],
    owners: Owners,
    creatures: Sequence[Body],
) -> NDArray[np.intp]:
    """(line index, creature index) pairs where one of the lines ``subset`` (whose ends are
    ``lines``, in the same order) passes through the inside of a creature's space other than
    its query's attacker and target."""
    if not creatures or len(subset) == 0:
        return np.empty((2, 0), dtype=np.intp)
    boxes = creature_boxes(creatures)
    local, ci = _overlapping_boxes(lines, boxes)
    if len(local) == 0:
        return np.empty((2, 0), dtype=np.intp)
    attacker_at, target_at = owners
    query_of = line_query[subset[local]]
    own = (ci == target_at[query_of]) | (ci == attacker_at[query_of])
    local, ci = local[~own], ci[~own]
    inside = segment_crosses_open_box(lines[local], boxes[ci])
    return np.stack([subset[local[inside]], ci[inside]])


def creature_boxes(creatures: Sequence[Body]) -> NDArray[np.float64]:
    """Per creature, its space as ``(x0, y0, x1, y1)``."""
    corner_side = np.array([(c.x, c.y, c.side_cells) for c in creatures], dtype=np.float64)
    x, y, side = corner_side.T
    return np.stack([x, y, x + side, y + side], axis=1)


DENSE_BOX_PAIRS = 100_000
"""Up to this many (line, box) pairs, every pair's bounding boxes are compared in one array
(cover 1 -> 99 asks for ~100 lines against 100 creatures); beyond, a tree of the boxes first."""


def _overlapping_boxes(
    lines: NDArray[np.float64], boxes: NDArray[np.float64]
) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """(line, box) pairs whose bounding boxes overlap with positive area (a line along an
    edge cannot pass inside), line by line and in box order within a line. A tree of the
    boxes finds the pairs whose bounding boxes meet at all; the strict test keeps some."""
    lo = np.minimum(lines[:, 0, :], lines[:, 1, :])
    hi = np.maximum(lines[:, 0, :], lines[:, 1, :])
    if len(lines) * len(boxes) <= DENSE_BOX_PAIRS:
        overlap = (
            (lo[:, None, 0] < boxes[None, :, 2])
            & (hi[:, None, 0] > boxes[None, :, 0])
            & (lo[:, None, 1] < boxes[None, :, 3])
            & (hi[:, None, 1] > boxes[None, :, 1])
        )
        dense_li, dense_ci = np.nonzero(overlap)  # row-major: by line, then by box
        return dense_li.astype(np.intp), dense_ci.astype(np.intp)
    tree = shapely.STRtree(np.asarray(shapely.box(*boxes.T), dtype=object))
    li, ci = tree.query(shapely.linestrings(lines))
    keep = (
        (lo[li, 0] < boxes[ci, 2])
        & (hi[li, 0] > boxes[ci, 0])
        & (lo[li, 1] < boxes[ci, 3])
        & (hi[li, 1] > boxes[ci, 1])
    )
    li, ci = li[keep], ci[keep]
    order = np.lexsort((ci, li))
    return li[order], ci[order]


def segment_crosses_open_box(
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
