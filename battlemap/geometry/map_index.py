"""The spatial index of one map: built once per map change, shared by every query.

``MapIndex.build(encounter)`` (or ``MapIndex(grid, walls, obstacles, terrain)``) turns the map's
features into prepared shapely geometries, STR-trees and per-cell numpy arrays:

* wall sets for sight (walls, closed doors, total-cover obstacles' outlines), for cover (walls
  and closed doors; windows separately) and for movement (walls, closed doors, windows and
  movement-blocking obstacles);
* per-cell terrain: difficult, water, impassable (a cell takes a region's kind when its centre
  lies inside the region, as ``TerrainRegion`` documents);
* for each of the 8 grid directions, whether a one-cell step from each cell is free: the
  segment between the two cells' centres must not touch or cross a movement-blocking wall or
  obstacle (so there is no slipping diagonally past a wall's end), and the cell entered must be
  on the map and passable. Larger movers' steps are derived from these by sliding windows.

Bad features never raise from shapely: zero-length walls and empty or zero-area polygons are
skipped, self-intersecting polygons are repaired with ``shapely.make_valid``; each such case is
listed in ``MapIndex.problems``.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely import STRtree
from shapely.geometry.base import BaseGeometry

from battlemap.geometry.barriers import BarrierSet, line_array
from battlemap.geometry.occlusion import SegmentBuckets, split_at_crossings
from battlemap.model import (
    CoverDegree,
    Encounter,
    EntityId,
    Grid,
    Obstacle,
    TerrainKind,
    TerrainRegion,
    Wall,
    WallKind,
)

BoolGrid = NDArray[np.bool_]

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
class MapProblem:
    """A map feature the index skipped or repaired, and why."""

    feature_id: EntityId
    message: str


@dataclass(frozen=True, slots=True)
class ObstacleShape:
    """An obstacle as the index uses it: a valid polygon with its cover cap."""

    id: EntityId
    polygon: BaseGeometry
    cover: CoverDegree
    blocks_movement: bool


def window_all(mask: BoolGrid, kh: int, kw: int) -> BoolGrid:
    """``out[y, x]`` = all of ``mask[y:y+kh, x:x+kw]``; False where the window leaves the grid."""
    h, w = mask.shape
    out = np.zeros((h, w), dtype=bool)
    if kh <= 0 or kw <= 0:
        out[:, :] = True
        return out
    if kh > h or kw > w:
        return out
    bad = np.zeros((h + 1, w + 1), dtype=np.int32)
    bad[1:, 1:] = np.cumsum(np.cumsum(~mask, axis=0, dtype=np.int32), axis=1)
    counts = bad[kh:, kw:] - bad[:-kh, kw:] - bad[kh:, :-kw] + bad[:-kh, :-kw]
    out[: h - kh + 1, : w - kw + 1] = counts == 0
    return out


def window_any(mask: BoolGrid, kh: int, kw: int) -> BoolGrid:
    """``out[y, x]`` = any of ``mask[y:y+kh, x:x+kw]`` (clipped at the grid's edge)."""
    padded = np.zeros((mask.shape[0] + kh, mask.shape[1] + kw), dtype=bool)
    padded[: mask.shape[0], : mask.shape[1]] = mask
    return ~window_all(~padded, kh, kw)[: mask.shape[0], : mask.shape[1]]


def shift_grid(mask: BoolGrid, dx: int, dy: int, fill: bool = False) -> BoolGrid:
    """``out[y, x] = mask[y + dy, x + dx]``; ``fill`` where that lies off the grid."""
    h, w = mask.shape
    out = np.full((h, w), fill, dtype=bool)
    ys = slice(max(0, -dy), min(h, h - dy))
    xs = slice(max(0, -dx), min(w, w - dx))
    ys_src = slice(max(0, dy), min(h, h + dy))
    xs_src = slice(max(0, dx), min(w, w + dx))
    out[ys, xs] = mask[ys_src, xs_src]
    return out


@dataclass(frozen=True, slots=True)
class SqueezeCores:
    """``MapIndex.squeeze_cores``: per core square, its offset, where it fits, its steps."""

    offsets: list[tuple[int, int]]
    rooms: list[BoolGrid]
    steps: list[list[BoolGrid]]


class MapIndex:
    """Everything about a map's features the geometry needs, precomputed.

    Build it once per map change (grid, walls, obstacles or terrain) and pass it to every
    query; creatures are not part of it because they move on every drag.
    """

    def __init__(
        self,
        grid: Grid,
        walls: Sequence[Wall] = (),
        obstacles: Sequence[Obstacle] = (),
        terrain: Sequence[TerrainRegion] = (),
    ) -> None:
        self.grid = grid
        self.width = grid.width
        self.height = grid.height
        self.cell_feet = grid.cell_feet
        self.problems: list[MapProblem] = []
        usable_walls = [w for w in walls if self._wall_ok(w)]
        self.walls: dict[EntityId, Wall] = {w.id: w for w in usable_walls}
        self.obstacles: list[ObstacleShape] = [
            shape for o in obstacles if (shape := self._obstacle_shape(o)) is not None
        ]
        self.obstacle_by_id = {o.id: o for o in self.obstacles}

        solid = [w for w in usable_walls if w.blocks_sight]
        windows = [w for w in usable_walls if w.kind is WallKind.WINDOW]
        self.cover_walls = _barrier(solid)
        """Walls and closed doors: full barriers for cover."""
        self.cover_walls_and_windows = _barrier(solid + windows)
        """Walls, closed doors and windows together (a window gives at most three-quarters)."""
        total_obstacles = [o for o in self.obstacles if o.cover is CoverDegree.TOTAL]
        sight_segments = [(w.a, w.b) for w in solid]
        sight_ids = [w.id for w in solid]
        for o in total_obstacles:
            for a, b in _ring_segments(o.polygon):
                sight_segments.append((a, b))
                sight_ids.append(o.id)
        self.sight_walls = BarrierSet(sight_segments, sight_ids)
        """What blocks sight: walls, closed doors and total-cover obstacles' outlines."""
        border = np.array(
            [
                [[0, 0], [self.width, 0]],
                [[self.width, 0], [self.width, self.height]],
                [[self.width, self.height], [0, self.height]],
                [[0, self.height], [0, 0]],
            ],
            dtype=np.float64,
        )
        coords = self.sight_walls.coords
        outline = np.concatenate([coords, border]) if len(coords) else border
        self.sight_outline = split_at_crossings(outline, line_array(outline))
        """``sight_walls``' segments and the map's four edges, cut where two cross: where a
        visibility ray stops."""
        self.sight_outline_lines = line_array(self.sight_outline)
        """``sight_outline`` as shapely LineStrings (to keep the ones near a viewer)."""
        self.sight_buckets = SegmentBuckets.of(self.sight_outline)
        """``sight_outline`` by bucket, so a viewer casts only against walls it may see."""

        self.cover_obstacles = [o for o in self.obstacles if o.cover is not CoverDegree.NONE]
        self.cover_obstacle_tree = STRtree([o.polygon for o in self.cover_obstacles])
        self.cover_obstacle_ranks = np.array(
            [o.cover.rank for o in self.cover_obstacles], dtype=np.int64
        )
        """``CoverDegree.rank`` of each of ``cover_obstacles``: the most cover it gives."""

        movement_geoms: list[BaseGeometry] = [
            shapely.LineString([w.a, w.b]) for w in usable_walls if w.blocks_movement
        ]
        movement_geoms += [o.polygon for o in self.obstacles if o.blocks_movement]
        self.movement_tree = STRtree(movement_geoms)

        self.difficult, self.water, self.impassable = self._terrain_grids(terrain)
        centre_x, centre_y = self._centres()
        blocking_obstacles = [o.polygon for o in self.obstacles if o.blocks_movement]
        if blocking_obstacles:
            union = shapely.union_all(blocking_obstacles)
            shapely.prepare(union)
            inside = shapely.intersects_xy(union, centre_x, centre_y)
            self.impassable = self.impassable | np.asarray(inside, dtype=bool).reshape(
                self.height, self.width
            )
        self._rooms: dict[int, BoolGrid] = {}
        self._steps: dict[int, list[BoolGrid]] = {}
        self._terrain_k: dict[int, tuple[BoolGrid, BoolGrid]] = {}
        self._cores: dict[tuple[int, int], SqueezeCores] = {}
        self.segment_free = self._segment_free()
        """``segment_free[d][y, x]``: the centre-to-centre segment from cell (x, y) in
        direction ``d`` stays on the map and clear of movement-blocking walls and obstacles."""

    @classmethod
    def build(cls, encounter: Encounter) -> MapIndex:
        """The index of ``encounter``'s map (its creatures are ignored)."""
        return cls(encounter.grid, encounter.walls, encounter.obstacles, encounter.terrain)

    # -- building -------------------------------------------------------------------------

    def _wall_ok(self, wall: Wall) -> bool:
        if wall.a == wall.b:
            self.problems.append(MapProblem(wall.id, "zero-length wall ignored"))
            return False
        return True

    def _polygon(
        self, feature_id: EntityId, points: list[tuple[float, float]]
    ) -> BaseGeometry | None:
        polygon: BaseGeometry = shapely.Polygon(points)
        repaired = not polygon.is_valid
        if repaired:
            parts = shapely.get_parts(shapely.make_valid(polygon))
            polygonal = [g for g in parts if g.geom_type in ("Polygon", "MultiPolygon")]
            polygon = shapely.union_all(polygonal) if polygonal else shapely.Polygon()
        if polygon.is_empty or polygon.area <= 0:
            self.problems.append(MapProblem(feature_id, "empty or zero-area polygon ignored"))
            return None
        if repaired:
            self.problems.append(MapProblem(feature_id, "self-intersecting polygon repaired"))
        return polygon

    def _obstacle_shape(self, obstacle: Obstacle) -> ObstacleShape | None:
        polygon = self._polygon(obstacle.id, obstacle.points)
        if polygon is None:
            return None
        return ObstacleShape(obstacle.id, polygon, obstacle.cover, obstacle.blocks_movement)

    def _centres(self) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        ys, xs = np.mgrid[0 : self.height, 0 : self.width]
        return (xs.ravel() + 0.5).astype(np.float64), (ys.ravel() + 0.5).astype(np.float64)

    def _terrain_grids(
        self, terrain: Iterable[TerrainRegion]
    ) -> tuple[BoolGrid, BoolGrid, BoolGrid]:
        grids = {kind: np.zeros((self.height, self.width), dtype=bool) for kind in TerrainKind}
        xs, ys = self._centres()
        for region in terrain:
            polygon = self._polygon(region.id, region.points)
            if polygon is None:
                continue
            shapely.prepare(polygon)
            inside = np.asarray(shapely.intersects_xy(polygon, xs, ys), dtype=bool)
            grids[region.kind] |= inside.reshape(self.height, self.width)
        return grids[TerrainKind.DIFFICULT], grids[TerrainKind.WATER], grids[TerrainKind.IMPASSABLE]

    def _segment_free(self) -> list[BoolGrid]:
        free: list[BoolGrid] = [np.zeros((self.height, self.width), dtype=bool) for _ in DIRECTIONS]
        for d in range(4):  # E, SE, S, SW; the other four mirror them.
            dx, dy = DIRECTIONS[d]
            sy, sx, blocked = _centre_steps(self.movement_tree, self.width, self.height, dx, dy)
            ok = ~blocked
            free[d][sy, sx] = ok
            back = DIRECTIONS.index((-dx, -dy))
            free[back][sy + dy, sx + dx] = ok
        return free

    # -- movement arrays --------------------------------------------------------------------

    def room(self, k: int) -> BoolGrid:
        """``room(k)[y, x]``: a k x k space with top-left (x, y) fits: on the map, no impassable
        cell, and no movement-blocking wall or obstacle between its cells."""
        return self._rooms[k] if k in self._rooms else self._make_room(k)

    def _make_room(self, k: int) -> BoolGrid:
        passable = window_all(~self.impassable, k, k)
        east = window_all(self.segment_free[0], k, k - 1) if k > 1 else passable
        south = window_all(self.segment_free[2], k - 1, k) if k > 1 else passable
        room = passable & east & south
        self._rooms[k] = room
        return room

    def step_free(self, k: int) -> list[BoolGrid]:
        """``step_free(k)[d][y, x]``: a k x k space at (x, y) may step in direction ``d`` without
        squeezing: every cell's centre segment is clear and the space fits where it lands."""
        cached = self._steps.get(k)
        if cached is not None:
            return cached
        room = self.room(k)
        steps = []
        for d, (dx, dy) in enumerate(DIRECTIONS):
            sweep = window_all(self.segment_free[d], k, k)
            steps.append(sweep & shift_grid(room, dx, dy))
        self._steps[k] = steps
        return steps

    def squeeze_cores(self, k: int, k_small: int) -> SqueezeCores:
        """The core squares (side ``k_small``) that can carry a squeezing k x k space.

        Core ``c`` sits at ``offsets[c]`` inside the space; ``rooms[c][y, x]``: that core fits
        when the space's top-left is (x, y); ``steps[c][d][y, x]``: it may step in direction
        ``d`` from there. Both are False where the whole k x k space would leave the map.
        """
        cached = self._cores.get((k, k_small))
        if cached is not None:
            return cached
        small = self.step_free(k_small)
        small_room = self.room(k_small)
        span = k - k_small + 1
        valid = np.zeros((self.height, self.width), dtype=bool)
        valid[: self.height - k + 1, : self.width - k + 1] = True
        cores = SqueezeCores([], [], [])
        for oy in range(span):
            for ox in range(span):
                cores.offsets.append((ox, oy))
                cores.rooms.append(shift_grid(small_room, ox, oy) & valid)
                cores.steps.append(
                    [
                        shift_grid(small[d], ox, oy) & valid & shift_grid(valid, dx, dy)
                        for d, (dx, dy) in enumerate(DIRECTIONS)
                    ]
                )
        self._cores[(k, k_small)] = cores
        return cores

    def terrain_under(self, k: int) -> tuple[BoolGrid, BoolGrid]:
        """(difficult, water) for a k x k space at each top-left cell: any cell of it counts."""
        cached = self._terrain_k.get(k)
        if cached is None:
            cached = (window_any(self.difficult, k, k), window_any(self.water, k, k))
            self._terrain_k[k] = cached
        return cached

    def on_map(self, x: float, y: float, w: float, h: float) -> bool:
        """True when the rectangle (cells) lies wholly on the map; touching the border is fine."""
        return x >= 0 and y >= 0 and x + w <= self.width + 1e-9 and y + h <= self.height + 1e-9


def _centre_steps(
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


def blocked_centre_steps(barriers: STRtree, width: int, height: int, dx: int, dy: int) -> BoolGrid:
    """``out[y, x]``: the segment from the centre of cell (x, y) to the centre of cell
    (x + dx, y + dy) touches or crosses one of ``barriers``' geometries (so a wall along the
    grid line between two cells separates them, and one ending at their shared corner does
    not separate diagonal neighbours' sides). False where the step leaves the map."""
    out = np.zeros((height, width), dtype=bool)
    sy, sx, blocked = _centre_steps(barriers, width, height, dx, dy)
    out[sy, sx] = blocked
    return out


def _barrier(walls: Sequence[Wall]) -> BarrierSet:
    return BarrierSet([(w.a, w.b) for w in walls], [w.id for w in walls])


def _ring_segments(polygon: BaseGeometry) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    segments: list[tuple[tuple[float, float], tuple[float, float]]] = []
    for part in shapely.get_parts(polygon):
        rings = [part.exterior, *part.interiors] if part.geom_type == "Polygon" else []
        for ring in rings:
            coords = list(ring.coords)
            for a, b in itertools.pairwise(coords):
                if a != b:
                    segments.append(((a[0], a[1]), (b[0], b[1])))
    return segments
