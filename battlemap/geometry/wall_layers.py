"""The map index's walls in two layers: those that stay put and the doors.

``FixedWalls`` holds what walls, windows and obstacles give the queries (barrier sets for cover
and sight, the visibility outline and its buckets, the movement steps they leave free); it is
built once and kept while only doors change. ``with_doors`` lays the doors on it: a door
opening or closing costs a small barrier layer, a few outline segments and the grid steps
next to it, not a new index (issue 17).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely import STRtree
from shapely.geometry.base import BaseGeometry

from battlemap.geometry.barrier_edits import EditedBarriers
from battlemap.geometry.barrier_layers import DoorBarriers
from battlemap.geometry.barriers import BarrierSet, line_array
from battlemap.geometry.occlusion import SegmentBuckets, cut_where_crossed, split_at_crossings
from battlemap.geometry.outline_index import OutlineTree
from battlemap.model import EntityId, Wall, WallKind

BoolGrid = NDArray[np.bool_]
_FINE = 1024.0
"""Walls on multiples of 1 / _FINE cells, within _FINE cells, are tested in exact floats."""
Segment = tuple[tuple[float, float], tuple[float, float]]

DIRECTIONS: tuple[tuple[int, int], ...] = (
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
)
"""The 8 grid steps (dx, dy); an index into this tuple names a direction."""


@dataclass(frozen=True, slots=True)
class FixedWalls:
    """What the walls that never open (walls, windows) and the obstacles give the index."""

    cover: DoorBarriers | EditedBarriers
    cover_and_windows: DoorBarriers | EditedBarriers
    sight: DoorBarriers | EditedBarriers
    doors: tuple[Segment, ...]
    """The doors' ends, in order: the doors these were built with."""
    outline: NDArray[np.float64]
    outline_lines: NDArray[np.object_]
    outline_tree: OutlineTree
    buckets: SegmentBuckets
    segment_free: list[BoolGrid]
    blocking: NDArray[np.float64]
    """The movement-blocking walls' ends (n, 2, 2), as ``segment_free`` was made from."""
    sight_segments: NDArray[np.float64]
    """The sight walls', pillars' and map edges' segments (uncut), as the outline was made
    from."""
    door_steps: dict[Segment, list[tuple[int, NDArray[np.intp], NDArray[np.intp]]]] = field(
        default_factory=dict
    )
    """Per door (by its ends), the grid steps it closes: (direction, rows, columns); kept
    across door changes, as a door's place rarely changes."""

    @classmethod
    def of(
        cls,
        width: int,
        height: int,
        walls: Sequence[Wall],
        doors: Sequence[Wall],
        sight_obstacles: Sequence[tuple[EntityId, BaseGeometry]],
        blocking_obstacles: Sequence[BaseGeometry],
    ) -> FixedWalls:
        """``walls`` are usable and none is a door, ``doors`` are usable doors (open or
        closed: ``with_doors`` says which are closed); ``sight_obstacles`` are the
        total-cover obstacles' polygons, ``blocking_obstacles`` those that block movement."""
        cover, cover_and_windows, sight = barrier_sets(walls, doors, sight_obstacles)
        border = np.array(
            [
                [[0, 0], [width, 0]],
                [[width, 0], [width, height]],
                [[width, height], [0, height]],
                [[0, height], [0, 0]],
            ],
            dtype=np.float64,
        )
        fixed_sight = sight.full.coords[: sight.n_fixed]
        outline = np.concatenate([fixed_sight, border]) if len(fixed_sight) else border
        obstacle_sides = [s for _, polygon in sight_obstacles for s in ring_segments(polygon)]
        sight_segments = np.concatenate(
            [
                _segments_of([w for w in walls if w.blocks_sight]),
                np.asarray(obstacle_sides, dtype=np.float64).reshape(-1, 2, 2),
                border,
            ]
        )
        outline = split_at_crossings(outline, line_array(outline))
        outline_lines = line_array(outline)
        blocking = _segments_of([w for w in walls if w.blocks_movement])
        return cls(
            cover=cover,
            cover_and_windows=cover_and_windows,
            sight=sight,
            doors=tuple((d.a, d.b) for d in doors),
            outline=outline,
            outline_lines=outline_lines,
            outline_tree=OutlineTree.of(outline_lines),
            buckets=SegmentBuckets.of(outline),
            segment_free=_segment_free(blocking, blocking_obstacles, width, height),
            blocking=blocking,
            sight_segments=sight_segments,
        )


def barrier_sets(
    walls: Sequence[Wall],
    doors: Sequence[Wall],
    sight_obstacles: Sequence[tuple[EntityId, BaseGeometry]],
) -> tuple[DoorBarriers, DoorBarriers, DoorBarriers]:
    """``FixedWalls``' cover, cover-and-windows and sight sets of these walls and doors."""
    solid = [w for w in walls if w.kind is WallKind.WALL]
    windows = [w for w in walls if w.kind is WallKind.WINDOW]
    solid_segments: list[Segment] = [(w.a, w.b) for w in solid]
    solid_ids = [w.id for w in solid]
    door_segments: list[Segment] = [(d.a, d.b) for d in doors]
    door_ids = [d.id for d in doors]
    cover = DoorBarriers(solid_segments, solid_ids, door_segments, door_ids)
    # The same walls give the same set: shared when there are no windows or pillars.
    cover_and_windows = cover
    if windows:
        cover_and_windows = DoorBarriers(
            solid_segments + [(w.a, w.b) for w in windows],
            solid_ids + [w.id for w in windows],
            door_segments,
            door_ids,
        )
    sight = cover
    if sight_obstacles:
        outlines = [(o, s) for o, polygon in sight_obstacles for s in ring_segments(polygon)]
        sight = DoorBarriers(
            solid_segments + [s for _, s in outlines],
            solid_ids + [o for o, _ in outlines],
            door_segments,
            door_ids,
        )
    return cover, cover_and_windows, sight


@dataclass(frozen=True, slots=True)
class WallLayers:
    """``FixedWalls`` with the doors laid on (see ``MapIndex`` for each field)."""

    cover_walls: BarrierSet
    cover_walls_and_windows: BarrierSet
    sight_walls: BarrierSet
    sight_outline: NDArray[np.float64]
    sight_outline_lines: NDArray[np.object_]
    sight_buckets: SegmentBuckets
    segment_free: list[BoolGrid]


def with_doors(fixed: FixedWalls, doors: Sequence[Wall], width: int, height: int) -> WallLayers:
    """The index's wall structures for ``fixed`` and its doors (``doors``: the same doors in
    the same places, each open or closed now): closed ones block
    sight and cover and are outline segments (cut where they cross a wall, so a ray is cast
    at the crossing); every door that blocks movement closes the grid steps it crosses."""
    shut = np.array([d.blocks_sight for d in doors], dtype=bool)
    closed = [d for d in doors if d.blocks_sight]
    door_outline = _segments_of(closed)
    outline, outline_lines = fixed.outline, fixed.outline_lines
    if len(door_outline):
        door_outline, crossed, pieces = cut_where_crossed(
            door_outline, fixed.outline, fixed.outline_tree
        )
        if len(crossed):
            # A wall a door crosses keeps its place (and bucket) with its first piece; its
            # other pieces join the doors' loose bucket.
            outline, outline_lines = outline.copy(), outline_lines.copy()
            outline[crossed] = pieces[: len(crossed)]
            outline_lines[crossed] = line_array(pieces[: len(crossed)])
            door_outline = np.concatenate([door_outline, pieces[len(crossed) :]])
    return WallLayers(
        cover_walls=fixed.cover.with_closed(shut),
        cover_walls_and_windows=fixed.cover_and_windows.with_closed(shut),
        sight_walls=fixed.sight.with_closed(shut),
        sight_outline=np.concatenate([outline, door_outline]),
        sight_outline_lines=np.concatenate([outline_lines, line_array(door_outline)]),
        sight_buckets=fixed.buckets.with_loose(len(fixed.outline), len(door_outline)),
        segment_free=_closed_steps(fixed, [d for d in doors if d.blocks_movement], width, height),
    )


def _segments_of(walls: Sequence[Wall]) -> NDArray[np.float64]:
    return np.asarray([(w.a, w.b) for w in walls], dtype=np.float64).reshape(-1, 2, 2)


def _closed_steps(
    fixed: FixedWalls, doors: Sequence[Wall], width: int, height: int
) -> list[BoolGrid]:
    """``fixed.segment_free`` less the steps whose centre-to-centre segment touches or
    crosses a door."""
    if not doors:
        return fixed.segment_free
    new = [d for d in doors if (d.a, d.b) not in fixed.door_steps]
    if new:
        for door, steps in zip(new, _steps_crossing(new, width, height), strict=True):
            fixed.door_steps[(door.a, door.b)] = steps
    out = [grid.copy() for grid in fixed.segment_free]
    for door in doors:
        for d, rows, cols in fixed.door_steps[(door.a, door.b)]:
            out[d][rows, cols] = False
    return out


def _steps_crossing(
    doors: Sequence[Wall], width: int, height: int
) -> list[list[tuple[int, NDArray[np.intp], NDArray[np.intp]]]]:
    """For each door, the steps (direction, rows, columns) whose centre segment it meets."""
    ends = _segments_of(doors)
    low = np.maximum(np.floor(ends.min(axis=1)).astype(np.intp) - 2, 0)
    high = np.minimum(np.ceil(ends.max(axis=1)).astype(np.intp) + 2, [width, height])
    spans = np.maximum(high - low, 0)
    count = spans[:, 0] * spans[:, 1]
    door = np.repeat(np.arange(len(doors)), count)
    k = np.arange(int(count.sum())) - np.repeat(np.cumsum(count) - count, count)
    xs = low[door, 0] + k % np.maximum(spans[door, 0], 1)
    ys = low[door, 1] + k // np.maximum(spans[door, 0], 1)
    lines = line_array(ends)
    found: list[list[tuple[int, NDArray[np.intp], NDArray[np.intp]]]] = [[] for _ in doors]
    for d, (dx, dy) in enumerate(DIRECTIONS):
        ok = (xs + dx >= 0) & (xs + dx < width) & (ys + dy >= 0) & (ys + dy < height)
        sx, sy, owner = xs[ok], ys[ok], door[ok]
        starts = np.stack([sx + 0.5, sy + 0.5], axis=1)
        steps = line_array(np.stack([starts, starts + np.array([dx, dy])], axis=1))
        hit = shapely.intersects(steps, lines[owner])
        for i in range(len(doors)):
            mine = hit & (owner == i)
            found[i].append((d, sy[mine], sx[mine]))
    return found


def _segment_free(
    walls: NDArray[np.float64], obstacles: Sequence[BaseGeometry], width: int, height: int
) -> list[BoolGrid]:
    """``MapIndex.segment_free`` for these movement-blocking walls (n, 2, 2) and obstacles:
    each wall is paired with the few steps near it (``_steps_near``), not every step with
    the walls."""
    free: list[BoolGrid] = []
    ys, xs = np.mgrid[0:height, 0:width]
    for dx, dy in DIRECTIONS:
        free.append((xs + dx >= 0) & (xs + dx < width) & (ys + dy >= 0) & (ys + dy < height))
    for d, (dx, dy) in enumerate(DIRECTIONS[:4]):  # E, SE, S, SW; the other four mirror them.
        sx, sy = _blocked_by_walls(walls, width, height, dx, dy)
        if obstacles:
            ox, oy = _blocked_by_shapes(obstacles, width, height, dx, dy)
            sx, sy = np.concatenate([sx, ox]), np.concatenate([sy, oy])
        free[d][sy, sx] = False
        free[DIRECTIONS.index((-dx, -dy))][sy + dy, sx + dx] = False
    return free


def _steps_near(
    low: NDArray[np.float64], high: NDArray[np.float64], width: int, height: int, dx: int, dy: int
) -> tuple[NDArray[np.intp], NDArray[np.intp], NDArray[np.intp]]:
    """Every on-map step (dx, dy) whose centre segment's box meets box ``k`` (``low[k]`` to
    ``high[k]``): (k, start column, start row)."""
    step = np.array([dx, dy])
    first = np.ceil(low - 0.5 - np.maximum(step, 0)).astype(np.intp)
    last = np.floor(high - 0.5 - np.minimum(step, 0)).astype(np.intp)
    first = np.maximum(first, np.maximum(-step, 0))
    last = np.minimum(last, np.array([width, height]) - 1 - np.maximum(step, 0))
    span = np.maximum(last - first + 1, 0)
    count = span[:, 0] * span[:, 1]
    owner = np.repeat(np.arange(len(low)), count)
    k = np.arange(int(count.sum())) - np.repeat(np.cumsum(count) - count, count)
    cols = first[owner, 0] + k % np.maximum(span[owner, 0], 1)
    rows = first[owner, 1] + k // np.maximum(span[owner, 0], 1)
    return owner, cols, rows


def _blocked_by_walls(
    walls: NDArray[np.float64], width: int, height: int, dx: int, dy: int
) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """Start (columns, rows) of the steps (dx, dy) whose centre segment touches or crosses a
    wall: exact orientation tests in numpy, shapely's for the few too close to call."""
    if len(walls) == 0:
        return np.empty(0, dtype=np.intp), np.empty(0, dtype=np.intp)
    owner, cols, rows = _steps_near(walls.min(axis=1), walls.max(axis=1), width, height, dx, dy)
    p = np.stack([cols + 0.5, rows + 0.5], axis=1)
    q = p + np.array([dx, dy], dtype=np.float64)
    a, b = walls[owner, 0], walls[owner, 1]

    def orient(
        o: NDArray[np.float64], u: NDArray[np.float64], v: NDArray[np.float64]
    ) -> NDArray[np.float64]:
        return (u[:, 0] - o[:, 0]) * (v[:, 1] - o[:, 1]) - (u[:, 1] - o[:, 1]) * (v[:, 0] - o[:, 0])

    o1, o2, o3, o4 = orient(p, q, a), orient(p, q, b), orient(a, b, p), orient(a, b, q)
    # On a fine lattice (1/1024 cells, within 1024 cells) these products are exact in
    # float64, so signs, zeros included, decide touching exactly; elsewhere a value too close
    # to zero to trust goes to shapely.
    fine = walls[owner] * _FINE
    exact = np.all((fine == np.round(fine)) & (np.abs(walls[owner]) < _FINE), axis=(1, 2))
    signs = np.sign(np.stack([o1, o2, o3, o4]))
    collinear = (signs[0] == 0) & (signs[1] == 0)
    overlap = np.all(
        np.maximum(np.minimum(p, q), np.minimum(a, b))
        <= np.minimum(np.maximum(p, q), np.maximum(a, b)),
        axis=1,
    )
    closed_hit = np.where(
        collinear, overlap, (signs[0] * signs[1] <= 0) & (signs[2] * signs[3] <= 0)
    )
    scale = 1e-9 * (1.0 + np.abs(walls[owner]).max(axis=(1, 2))) ** 2
    unsure = ~exact & np.any(np.abs(np.stack([o1, o2, o3, o4])) <= scale, axis=0)
    hit = np.where(exact, closed_hit, (o1 * o2 < 0) & (o3 * o4 < 0)) & ~unsure
    if unsure.any():
        which = np.flatnonzero(unsure)
        steps = line_array(np.stack([p[which], q[which]], axis=1))
        hit[which] = shapely.intersects(steps, line_array(walls[owner[which]]))
    return cols[hit], rows[hit]


def _blocked_by_shapes(
    shapes: Sequence[BaseGeometry], width: int, height: int, dx: int, dy: int
) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """Start (columns, rows) of the steps (dx, dy) whose centre segment meets a shape."""
    bounds = np.array([shape.bounds for shape in shapes], dtype=np.float64).reshape(-1, 4)
    owner, cols, rows = _steps_near(bounds[:, :2], bounds[:, 2:], width, height, dx, dy)
    p = np.stack([cols + 0.5, rows + 0.5], axis=1)
    steps = line_array(np.stack([p, p + np.array([dx, dy], dtype=np.float64)], axis=1))
    hit = shapely.intersects(steps, np.asarray(shapes, dtype=object)[owner])
    return cols[hit], rows[hit]


def centre_steps(
    barriers: STRtree, width: int, height: int, dx: int, dy: int
) -> tuple[NDArray[np.intp], NDArray[np.intp], BoolGrid]:
    """Every one-cell step (dx, dy) that stays on a ``width`` x ``height`` map: the rows and
    columns it starts from, and whether the segment between the two cells' centres touches
    or crosses one of ``barriers``' geometries."""
    ys, xs = np.mgrid[0:height, 0:width]
    on_map = (xs + dx >= 0) & (xs + dx < width) & (ys + dy >= 0) & (ys + dy < height)
    sy, sx = ys[on_map], xs[on_map]
    blocked = np.zeros(len(sx), dtype=bool)
    if len(barriers.geometries):
        starts = np.stack([sx + 0.5, sy + 0.5], axis=1)
        lines = np.stack([starts, starts + np.array([dx, dy])], axis=1)
        blocked[barriers.query(line_array(lines), predicate="intersects")[0]] = True
    return sy, sx, blocked


def ring_segments(polygon: BaseGeometry) -> list[Segment]:
    segments: list[Segment] = []
    for part in shapely.get_parts(polygon):
        rings = [part.exterior, *part.interiors] if part.geom_type == "Polygon" else []
        for ring in rings:
            coords = list(ring.coords)
            for a, b in itertools.pairwise(coords):
                if a != b:
                    segments.append(((a[0], a[1]), (b[0], b[1])))
    return segments
