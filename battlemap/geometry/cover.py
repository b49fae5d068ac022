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
  running along a wall do not block (``barriers``). A corner lying on the middle of a wall or on
  a joint belongs to its creature's side of that wall: its lines start a hair inside the
  creature's own square, so a wall on a grid line between attacker and target blocks, while a
  wall behind the target or beside both creatures does not.
* A line is blocked by an obstacle or a creature when it passes through the *inside* of its
  polygon or space; along an edge or through a corner it is not.
* The attacker's and the target's own spaces never block.
* Each source caps what it can give: a creature at most half; an obstacle its own ``cover``;
  windows and arrow slits three-quarters (SRD: "an arrow slit"); walls and closed doors total.
  Open doors give nothing. Sources are counted separately: two creatures blocking two lines
  each still give half.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely import STRtree

from battlemap.geometry.barriers import line_array
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
    """

    degree: CoverDegree
    corner: PointXY
    target_square: Space
    lines: tuple[LineTrace, ...]
    centre_line: LineTrace
    cap_applied: CoverDegree | None = None
    source: BlockerKind | None = None
    blocked_lines: int = field(default=0)

    @property
    def ac_bonus(self) -> int:
        """+2 for half, +5 for three-quarters, 0 otherwise (total: can't be targeted)."""
        return {CoverDegree.HALF: 2, CoverDegree.THREE_QUARTERS: 5}.get(self.degree, 0)


_WALL, _WINDOW, _CREATURE, _FIRST_OBSTACLE = 0, 1, 2, 3


_DEGREES = list(CoverDegree)


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


def cover(index: MapIndex, attacker: Body, target: Body, creatures: Sequence[Body]) -> CoverResult:
    """Cover of ``target`` against ``attacker`` (rule 3). ``creatures`` may include both."""
    return cover_to_many(index, attacker, [target], creatures)[0]


def cover_to_many(
    index: MapIndex, attacker: Body, targets: Sequence[Body], creatures: Sequence[Body]
) -> list[CoverResult]:
    """Cover of each of ``targets`` against ``attacker``, computed in one batch."""
    origins = _corner_points(attacker.space)
    queries = [
        _Query(origins, attacker.space, t, attacker.id, attacker.space.centre, t.space.squares())
        for t in targets
    ]
    return _solve(index, queries, creatures)


def cover_from_point(
    index: MapIndex, origin: PointXY, target: Body, creatures: Sequence[Body]
) -> CoverResult:
    """Cover of ``target`` against an effect whose point of origin is ``origin`` (cells)."""
    query = _Query([origin], None, target, None, origin, target.space.squares())
    return _solve(index, [query], creatures)[0]


def _nudged(points: NDArray[np.float64], towards: NDArray[np.float64]) -> NDArray[np.float64]:
    delta = towards - points
    length = np.hypot(delta[:, 0], delta[:, 1])
    length = np.where(length == 0, 1.0, length)
    return points + delta / length[:, None] * _NUDGE


def _solve(index: MapIndex, queries: list[_Query], creatures: Sequence[Body]) -> list[CoverResult]:
    # Lay out every line of every query: per query, origins x squares x 4 corners, then 1 centre.
    start_parts: list[NDArray[np.float64]] = []
    end_parts: list[NDArray[np.float64]] = []
    start_home_parts: list[NDArray[np.float64]] = []
    end_home_parts: list[NDArray[np.float64]] = []
    combo_parts: list[NDArray[np.int64]] = []
    query_parts: list[NDArray[np.int64]] = []
    first_line: list[int] = []
    combo_range: list[range] = []
    centre_line_index: list[int] = []
    homes_cache: dict[int, tuple[NDArray[np.float64], NDArray[np.float64]]] = {}
    n_lines = 0
    n_combos = 0
    for qi, q in enumerate(queries):
        cached = homes_cache.get(id(q.origins))
        if cached is None:
            origin_arr = np.asarray(q.origins, dtype=np.float64)
            home_arr = np.asarray([_home(o, q.origin_space) for o in q.origins], dtype=np.float64)
            cached = homes_cache[id(q.origins)] = (origin_arr, home_arr)
        origin_arr, home_arr = cached
        n_o, n_s = len(origin_arr), len(q.squares)
        corners = np.asarray([sq.corners for sq in q.squares], dtype=np.float64).reshape(-1, 2)
        centres = np.repeat(np.asarray([sq.centre for sq in q.squares], dtype=np.float64), 4, 0)
        per_combo = n_o * n_s
        first_line.append(n_lines)
        origin_centre = np.asarray([q.centre], dtype=np.float64)
        target_centre = np.asarray([q.target.space.centre], dtype=np.float64)
        start_parts += [np.repeat(origin_arr, n_s * 4, axis=0), origin_centre]
        end_parts += [np.tile(corners, (n_o, 1)), target_centre]
        start_home_parts += [np.repeat(home_arr, n_s * 4, axis=0), origin_centre]
        end_home_parts += [np.tile(centres, (n_o, 1)), target_centre]
        combo_parts += [
            np.repeat(np.arange(n_combos, n_combos + per_combo), 4),
            np.array([-1]),
        ]
        query_parts.append(np.full(per_combo * 4 + 1, qi))
        combo_range.append(range(n_combos, n_combos + per_combo))
        n_combos += per_combo
        n_lines += per_combo * 4 + 1
        centre_line_index.append(n_lines - 1)
    start_arr = np.concatenate(start_parts)
    end_arr = np.concatenate(end_parts)
    start_home = np.concatenate(start_home_parts)
    end_home = np.concatenate(end_home_parts)
    lines = np.stack([start_arr, end_arr], axis=1)
    n = len(lines)
    line_combo = np.concatenate(combo_parts)
    line_query = np.concatenate(query_parts)

    # Walls: corners on a wall's middle or joint are traced from a hair inside their square.
    wall_lines = lines.copy()
    walls = index.cover_walls_and_windows
    if len(walls):
        on_start = walls.inside_walls(start_arr)
        on_end = walls.inside_walls(end_arr)
        if on_start.any():
            wall_lines[on_start, 0] = _nudged(start_arr[on_start], start_home[on_start])
        if on_end.any():
            wall_lines[on_end, 1] = _nudged(end_arr[on_end], end_home[on_end])
    wall_block = index.cover_walls.blocks(wall_lines)
    window_block = np.zeros(n, dtype=bool)
    if len(walls) > len(index.cover_walls):
        window_block = walls.blocks(wall_lines) & ~wall_block

    # Obstacles: the line passes through the polygon's inside.
    obstacle_pairs = np.empty((2, 0), dtype=np.intp)
    if index.cover_obstacles:
        geoms = line_array(lines)
        pairs = index.cover_obstacle_tree.query(geoms, predicate="intersects")
        if pairs.shape[1]:
            polys = np.asarray([o.polygon for o in index.cover_obstacles], dtype=object)
            touching = shapely.touches(geoms[pairs[0]], polys[pairs[1]])
            obstacle_pairs = pairs[:, ~np.asarray(touching, dtype=bool)]

    # Creatures other than the pair itself: the line passes through the inside of a space.
    creature_pairs = _creature_hits(lines, line_query, queries, creatures)

    # Count blocked lines per (combo, source) and turn them into capped degrees.
    n_sources = _FIRST_OBSTACLE + len(index.cover_obstacles)
    caps = np.array(
        [CoverDegree.TOTAL.rank, CoverDegree.THREE_QUARTERS.rank, CoverDegree.HALF.rank]
        + [o.cover.rank for o in index.cover_obstacles],
        dtype=np.int64,
    )
    line_src = [
        np.stack([np.flatnonzero(wall_block), np.full(int(wall_block.sum()), _WALL)]),
        np.stack([np.flatnonzero(window_block), np.full(int(window_block.sum()), _WINDOW)]),
        np.stack([obstacle_pairs[0], obstacle_pairs[1] + _FIRST_OBSTACLE]),
        np.stack([creature_pairs[0], np.full(creature_pairs.shape[1], _CREATURE)]),
    ]
    pairs_all = np.concatenate(line_src, axis=1).astype(np.int64)
    unique_keys = np.unique(pairs_all[0] * n_sources + pairs_all[1])
    blocked = np.stack([unique_keys // n_sources, unique_keys % n_sources])
    combo_degree = np.zeros(n_combos, dtype=np.int64)
    combo_uncapped = np.zeros(n_combos, dtype=np.int64)
    combo_source = np.full(n_combos, -1, dtype=np.int64)
    combo_count = np.zeros(n_combos, dtype=np.int64)
    lines_of_combo = blocked[:, line_combo[blocked[0]] >= 0]
    if lines_of_combo.shape[1]:
        keys = line_combo[lines_of_combo[0]] * n_sources + lines_of_combo[1]
        uniq, counts = np.unique(keys, return_counts=True)
        combos, sources = uniq // n_sources, uniq % n_sources
        by_count = np.where(counts <= 2, CoverDegree.HALF.rank, CoverDegree.THREE_QUARTERS.rank)
        capped = np.minimum(by_count, caps[sources])
        # Per combo, the strongest source wins (degrees do not add up).
        order = np.lexsort((by_count, capped, combos))
        ordered = combos[order]
        last = order[np.r_[ordered[1:] != ordered[:-1], True]]
        combo_degree[combos[last]] = capped[last]
        combo_uncapped[combos[last]] = by_count[last]
        combo_source[combos[last]] = sources[last]
        any_blocked = np.unique(lines_of_combo[0])
        np.add.at(combo_count, line_combo[any_blocked], 1)

    # Total cover: every line of the query (and the centre line) blocked by a total source.
    total_capable = caps >= CoverDegree.TOTAL.rank
    total_lines = np.zeros(n, dtype=bool)
    strong = blocked[:, total_capable[blocked[1]]]
    total_lines[strong[0]] = True
    lines_per_query = np.bincount(line_query, minlength=len(queries))
    total_per_query = np.bincount(line_query, weights=total_lines, minlength=len(queries))

    results = []
    for qi, q in enumerate(queries):
        key = [(combo_degree[c], combo_count[c], c) for c in combo_range[qi]]
        _, _, best = min(key)
        oi, si = divmod(best - combo_range[qi].start, len(q.squares))
        is_total = total_per_query[qi] >= lines_per_query[qi]
        degree = CoverDegree.TOTAL if is_total else _DEGREES[int(combo_degree[best])]
        cap = None
        source = None
        if degree is CoverDegree.TOTAL:
            source = BlockerKind.WALL
        elif combo_source[best] >= 0:
            source = _kind(int(combo_source[best]))
            if combo_uncapped[best] > combo_degree[best]:
                cap = degree
        first = first_line[qi] + (oi * len(q.squares) + si) * 4
        traces = tuple(
            _trace(
                index,
                lines,
                wall_lines,
                i,
                wall_block,
                window_block,
                obstacle_pairs,
                creature_pairs,
                creatures,
            )
            for i in range(first, first + 4)
        )
        centre = _trace(
            index,
            lines,
            wall_lines,
            centre_line_index[qi],
            wall_block,
            window_block,
            obstacle_pairs,
            creature_pairs,
            creatures,
        )
        results.append(
            CoverResult(
                degree=degree,
                corner=q.origins[oi],
                target_square=q.squares[si],
                lines=traces,
                centre_line=centre,
                cap_applied=cap,
                source=source,
                blocked_lines=int(combo_count[best]),
            )
        )
    return results


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


def _window_lookup(index: MapIndex, line: NDArray[np.float64]) -> Callable[[], EntityId | None]:
    return lambda: index.cover_walls_and_windows.first_blocker(line)


def _creature_hits(
    lines: NDArray[np.float64],
    line_query: NDArray[np.intp],
    queries: list[_Query],
    creatures: Sequence[Body],
) -> NDArray[np.intp]:
    """(line index, creature index) pairs where a line passes through a creature's inside."""
    if not creatures:
        return np.empty((2, 0), dtype=np.intp)
    boxes = np.array([[c.x, c.y, c.x + c.side_cells, c.y + c.side_cells] for c in creatures])
    tree = STRtree(shapely.box(boxes[:, 0], boxes[:, 1], boxes[:, 2], boxes[:, 3]))
    line_boxes = shapely.box(
        np.minimum(lines[:, 0, 0], lines[:, 1, 0]),
        np.minimum(lines[:, 0, 1], lines[:, 1, 1]),
        np.maximum(lines[:, 0, 0], lines[:, 1, 0]),
        np.maximum(lines[:, 0, 1], lines[:, 1, 1]),
    )
    pairs = tree.query(line_boxes, predicate="intersects")
    if pairs.shape[1] == 0:
        return pairs
    li, ci = pairs
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


def _trace(
    index: MapIndex,
    lines: NDArray[np.float64],
    wall_lines: NDArray[np.float64],
    i: int,
    wall_block: NDArray[np.bool_],
    window_block: NDArray[np.bool_],
    obstacle_pairs: NDArray[np.intp],
    creature_pairs: NDArray[np.intp],
    creatures: Sequence[Body],
) -> LineTrace:
    start = (float(lines[i, 0, 0]), float(lines[i, 0, 1]))
    end = (float(lines[i, 1, 0]), float(lines[i, 1, 1]))
    if wall_block[i]:
        line = wall_lines[i].copy()
        return LineTrace(
            start, end, True, BlockerKind.WALL, lambda: index.cover_walls.first_blocker(line)
        )
    obstacles = obstacle_pairs[1][obstacle_pairs[0] == i]
    if len(obstacles):
        strongest = max(obstacles.tolist(), key=lambda j: index.cover_obstacles[j].cover.rank)
        return LineTrace(
            start, end, True, BlockerKind.OBSTACLE, index.cover_obstacles[strongest].id
        )
    if window_block[i]:
        return LineTrace(
            start,
            end,
            True,
            BlockerKind.WINDOW,
            _window_lookup(index, wall_lines[i].copy()),
        )
    hit = creature_pairs[1][creature_pairs[0] == i]
    if len(hit):
        return LineTrace(start, end, True, BlockerKind.CREATURE, creatures[int(hit[0])].id)
    return LineTrace(start, end, False)
