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

import copy
import itertools
import math
import operator
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely import STRtree
from shapely.geometry.base import BaseGeometry

from battlemap.geometry.wall_edits import edited_walls
from battlemap.geometry.wall_layers import DIRECTIONS as DIRECTIONS
from battlemap.geometry.wall_layers import FixedWalls, centre_steps, with_doors
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
_ZERO_LENGTH = "zero-length wall ignored"
_FEW_EDITS = 64
"""Walls added and removed at once that still edit the index (or 5 % of the walls)."""


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


def rasterise(polygon: BaseGeometry, grid: BoolGrid) -> None:
    """Set ``grid[y, x]`` where the centre of cell (x, y) lies inside ``polygon`` or on its
    edge; only the cells of the polygon's bounding box are tested."""
    if polygon.is_empty:  # no box (its bounds are NaN): no cells
        return
    height, width = grid.shape
    min_x, min_y, max_x, max_y = polygon.bounds
    col0, col1 = max(0, math.floor(min_x - 0.5)), min(width, math.ceil(max_x - 0.5) + 1)
    row0, row1 = max(0, math.floor(min_y - 0.5)), min(height, math.ceil(max_y - 0.5) + 1)
    if col1 <= col0 or row1 <= row0:
        return
    cols, rows = np.meshgrid(np.arange(col0, col1) + 0.5, np.arange(row0, row1) + 0.5)
    shapely.prepare(polygon)
    inside = np.asarray(shapely.intersects_xy(polygon, cols.ravel(), rows.ravel()), dtype=bool)
    grid[row0:row1, col0:col1] |= inside.reshape(cols.shape)


def rasterise_many(
    polygons: NDArray[np.object_], height: int, width: int
) -> tuple[NDArray[np.intp], NDArray[np.intp], NDArray[np.intp]]:
    """``rasterise`` for many polygons at once: (polygon, row, column) of every cell whose
    centre lies inside one of them or on its edge, each polygon tested over its box only."""
    empty = np.empty(0, dtype=np.intp)
    if len(polygons) == 0:
        return empty, empty, empty
    bounds = shapely.bounds(polygons)
    col0 = np.maximum(0, np.floor(bounds[:, 0] - 0.5)).astype(np.intp)
    col1 = np.minimum(width, np.ceil(bounds[:, 2] - 0.5) + 1).astype(np.intp)
    row0 = np.maximum(0, np.floor(bounds[:, 1] - 0.5)).astype(np.intp)
    row1 = np.minimum(height, np.ceil(bounds[:, 3] - 0.5) + 1).astype(np.intp)
    span_x, span_y = np.maximum(col1 - col0, 0), np.maximum(row1 - row0, 0)
    count = span_x * span_y
    owner = np.repeat(np.arange(len(polygons)), count)
    k = np.arange(int(count.sum())) - np.repeat(np.cumsum(count) - count, count)
    cols = col0[owner] + k % np.maximum(span_x[owner], 1)
    rows = row0[owner] + k // np.maximum(span_x[owner], 1)
    shapely.prepare(polygons)
    inside = np.asarray(shapely.intersects_xy(polygons[owner], cols + 0.5, rows + 0.5), dtype=bool)
    return owner[inside], rows[inside], cols[inside]


def _simple_polygons(
    rings: Sequence[Sequence[tuple[float, float]]],
) -> tuple[NDArray[np.bool_], NDArray[np.object_]]:
    """The polygons of ``rings``, made in one call, and which are usable as they are (at
    least 3 points, valid, some area): the others need ``MapIndex._polygon``."""
    counts = np.array([len(r) for r in rings], dtype=np.intp)
    polygons = np.full(len(rings), None, dtype=object)
    enough = counts >= 3
    if not enough.any():
        return enough, polygons
    coords = np.array([p for r, ok in zip(rings, enough, strict=True) if ok for p in r])
    ring_of = np.repeat(np.arange(int(enough.sum())), counts[enough])
    made = shapely.polygons(shapely.linearrings(coords.reshape(-1, 2), indices=ring_of))
    polygons[enough] = made
    usable = np.zeros(len(rings), dtype=bool)
    usable[enough] = shapely.is_valid(made) & (shapely.area(made) > 0)
    return usable, polygons


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
        self._wall_problems = len(self.problems)
        """The first problems are the walls': an edit of the walls makes them again."""
        self.walls: dict[EntityId, Wall] = {w.id: w for w in usable_walls}
        self.obstacles: list[ObstacleShape] = [
            shape for o in obstacles if (shape := self._obstacle_shape(o)) is not None
        ]
        self.obstacle_by_id = {o.id: o for o in self.obstacles}

        self.cover_obstacles = [o for o in self.obstacles if o.cover is not CoverDegree.NONE]
        self.cover_obstacle_tree = STRtree([o.polygon for o in self.cover_obstacles])
        self.cover_obstacle_ranks = np.array(
            [o.cover.rank for o in self.cover_obstacles], dtype=np.int64
        )
        """``CoverDegree.rank`` of each of ``cover_obstacles``: the most cover it gives."""

        self._fixed = FixedWalls.of(
            self.width,
            self.height,
            [w for w in usable_walls if w.kind is not WallKind.DOOR],
            [w for w in usable_walls if w.kind is WallKind.DOOR],
            self._sight_obstacles(),
            self._blocking_obstacles(),
        )
        self._source = (grid, tuple(walls), tuple(obstacles), tuple(terrain))
        self._door_positions = [
            i for i, w in enumerate(walls) if w.kind is WallKind.DOOR and w.a != w.b
        ]
        """Where the usable doors are in ``walls``: ``FixedWalls`` holds them in this order."""
        self._lay_doors([w for w in usable_walls if w.kind is WallKind.DOOR])

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
        self._terrain_k: dict[int, tuple[BoolGrid, BoolGrid]] = {}

    def _lay_doors(self, doors: Sequence[Wall]) -> None:
        """The wall structures for the fixed walls and these doors; the movement arrays
        derived from them are made again on first use."""
        layers = with_doors(self._fixed, doors, self.width, self.height)
        self.cover_walls = layers.cover_walls
        """Walls and closed doors: full barriers for cover."""
        self.cover_walls_and_windows = layers.cover_walls_and_windows
        """Walls, closed doors and windows together (a window gives at most three-quarters)."""
        self.sight_walls = layers.sight_walls
        """What blocks sight: walls, closed doors and total-cover obstacles' outlines."""
        self.sight_outline = layers.sight_outline
        """``sight_walls``' segments and the map's four edges, cut where two cross: where a
        visibility ray stops."""
        self.sight_outline_lines = layers.sight_outline_lines
        """``sight_outline`` as shapely LineStrings (to keep the ones near a viewer)."""
        self.sight_buckets = layers.sight_buckets
        """``sight_outline`` by bucket, so a viewer casts only against walls it may see."""
        self.segment_free = layers.segment_free
        """``segment_free[d][y, x]``: the centre-to-centre segment from cell (x, y) in
        direction ``d`` stays on the map and clear of movement-blocking walls and obstacles."""
        self._rooms: dict[int, BoolGrid] = {}
        self._steps: dict[int, list[BoolGrid]] = {}
        self._cores: dict[tuple[int, int], SqueezeCores] = {}

    def updated(self, encounter: Encounter) -> MapIndex:
        """The index of ``encounter``'s map, made from this one when only doors opened or
        closed (the walls, the doors' places, obstacles and terrain are kept) or a few
        walls were added, removed or moved (``wall_edits``), else built anew. Either way
        it answers as ``MapIndex.build(encounter)`` does."""
        grid, walls, obstacles, terrain = self._source
        new_walls = encounter.walls
        same_rest = (
            encounter.grid == grid
            and _same_items(encounter.obstacles, obstacles)
            and _same_items(encounter.terrain, terrain)
        )
        if not same_rest:
            return MapIndex.build(encounter)
        changed = _changed_doors(walls, tuple(new_walls), self._door_positions)
        if changed is None or any(_not_the_same_door(walls[i], new_walls[i]) for i in changed):
            return self._walls_edited(encounter)
        index = copy.copy(self)
        index._source = (grid, tuple(new_walls), obstacles, terrain)
        index.walls = dict(self.walls)
        for i in changed:
            if new_walls[i].id in index.walls:  # a usable door stays usable: not moved
                index.walls[new_walls[i].id] = new_walls[i]
        index._lay_doors([new_walls[i] for i in self._door_positions])
        return index

    def _walls_edited(self, encounter: Encounter) -> MapIndex:
        """``updated`` when walls (not doors, which stay where they were) were added,
        removed or replaced: a few of them edit the index, more rebuild it. Only the stretch
        of the walls between the first and the last one changed is looked at one by one."""
        grid, walls, obstacles, terrain = self._source
        new_walls = encounter.walls
        head, old_end, new_end = _changed_stretch(walls, new_walls)
        kept = set(map(id, new_walls[head:new_end]))
        before = set(map(id, walls[head:old_end]))
        removed = [w for w in walls[head:old_end] if id(w) not in kept]
        added = [w for w in new_walls[head:new_end] if id(w) not in before]
        if len(removed) + len(added) > max(_FEW_EDITS, len(walls) // 20):
            return MapIndex.build(encounter)
        shift = (new_end - old_end, old_end)
        doors_before = [i for i in self._door_positions if i < head or i >= old_end]
        door_positions = [i if i < head else i + shift[0] for i in doors_before]
        door_positions += [
            i
            for i in range(head, new_end)
            if new_walls[i].kind is WallKind.DOOR and new_walls[i].a != new_walls[i].b
        ]
        door_positions.sort()
        old_doors = [walls[i] for i in self._door_positions]
        doors = [new_walls[i] for i in door_positions]
        moved_doors = len(doors) != len(old_doors) or any(map(_not_the_same_door, old_doors, doors))
        if moved_doors:
            return MapIndex.build(encounter)
        dots = [w for w in (*removed, *added) if w.a == w.b]
        removed = [w for w in removed if w.a != w.b]
        added = [w for w in added if w.a != w.b]
        fixed = edited_walls(
            self._fixed,
            self.width,
            self.height,
            new_walls,
            doors,
            self._sight_obstacles(),
            self._blocking_obstacles(),
            [w for w in removed if w.kind is not WallKind.DOOR],
            [w for w in added if w.kind is not WallKind.DOOR],
        )
        if fixed is None:
            return MapIndex.build(encounter)
        index = copy.copy(self)
        if dots:  # a zero-length wall came or went: the walls' problems again, in order
            index.problems = [
                MapProblem(w.id, _ZERO_LENGTH) for w in new_walls if w.a == w.b
            ] + self.problems[self._wall_problems :]
            index._wall_problems = len(index.problems) - len(self.problems) + self._wall_problems
        index.walls = _walls_by_id(self.walls, removed, added, new_walls)
        index._fixed = fixed
        index._source = (grid, tuple(new_walls), obstacles, terrain)
        index._door_positions = door_positions
        index._lay_doors(doors)
        return index

    def _sight_obstacles(self) -> list[tuple[EntityId, BaseGeometry]]:
        return [(o.id, o.polygon) for o in self.obstacles if o.cover is CoverDegree.TOTAL]

    def _blocking_obstacles(self) -> list[BaseGeometry]:
        return [o.polygon for o in self.obstacles if o.blocks_movement]

    @classmethod
    def build(cls, encounter: Encounter) -> MapIndex:
        """The index of ``encounter``'s map (its creatures are ignored)."""
        return cls(encounter.grid, encounter.walls, encounter.obstacles, encounter.terrain)

    # -- building -------------------------------------------------------------------------

    def _wall_ok(self, wall: Wall) -> bool:
        if wall.a == wall.b:
            self.problems.append(MapProblem(wall.id, _ZERO_LENGTH))
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
        self, terrain: Sequence[TerrainRegion]
    ) -> tuple[BoolGrid, BoolGrid, BoolGrid]:
        grids = {kind: np.zeros((self.height, self.width), dtype=bool) for kind in TerrainKind}
        simple, polygons = _simple_polygons([r.points for r in terrain])
        # The rest (too few points, self-intersecting, no area) are repaired or skipped one
        # by one, each named in ``problems``.
        for i in np.flatnonzero(~simple).tolist():
            region = terrain[i]
            polygon = self._polygon(region.id, region.points)
            if polygon is not None:
                rasterise(polygon, grids[region.kind])
        kinds = np.array([list(TerrainKind).index(r.kind) for r in terrain], dtype=np.intp)
        owner, rows, cols = rasterise_many(polygons[simple], self.height, self.width)
        for k, kind in enumerate(TerrainKind):
            mine = kinds[simple][owner] == k
            grids[kind][rows[mine], cols[mine]] = True
        return grids[TerrainKind.DIFFICULT], grids[TerrainKind.WATER], grids[TerrainKind.IMPASSABLE]

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


def blocked_centre_steps(barriers: STRtree, width: int, height: int, dx: int, dy: int) -> BoolGrid:
    """``out[y, x]``: the segment from the centre of cell (x, y) to the centre of cell
    (x + dx, y + dy) touches or crosses one of ``barriers``' geometries (so a wall along the
    grid line between two cells separates them, and one ending at their shared corner does
    not separate diagonal neighbours' sides). False where the step leaves the map."""
    out = np.zeros((height, width), dtype=bool)
    sy, sx, blocked = centre_steps(barriers, width, height, dx, dy)
    out[sy, sx] = blocked
    return out


def _not_the_same_door(old: Wall, new: Wall) -> bool:
    """Not one door in one place (opened, closed or renamed, but not moved)."""
    doors = old.kind is WallKind.DOOR and new.kind is WallKind.DOOR
    return not (doors and old.a == new.a and old.b == new.b and old.id == new.id)


def _changed_doors(
    old: tuple[Wall, ...], new: tuple[Wall, ...], doors: Sequence[int]
) -> list[int] | None:
    """The places among ``doors`` where ``new`` holds another wall than ``old``, or None when
    a wall elsewhere differs (an equal copy does not) or the lengths do: the walls between
    the doors are compared a stretch at a time (tuples compare in C, by identity first)."""
    if len(old) != len(new):
        return None
    bounds = [-1, *doors, len(old)]
    for start, stop in itertools.pairwise(bounds):
        if old[start + 1 : stop] != new[start + 1 : stop]:
            return None
    return [i for i in doors if old[i] is not new[i]]


def _changed_stretch(old: Sequence[Wall], new: Sequence[Wall]) -> tuple[int, int, int]:
    """Where ``old`` and ``new`` differ: the walls before ``head`` and those after
    ``old[old_end:]`` / ``new[new_end:]`` are the same objects; (head, old_end, new_end)."""
    shortest = min(len(old), len(new))
    head = next(itertools.compress(itertools.count(), map(operator.is_not, old, new)), shortest)
    tail = next(
        itertools.compress(itertools.count(), map(operator.is_not, reversed(old), reversed(new))),
        shortest,
    )
    tail = min(tail, shortest - head)
    return head, len(old) - tail, len(new) - tail


def _walls_by_id(
    walls: dict[EntityId, Wall],
    removed: Sequence[Wall],
    added: Sequence[Wall],
    new_walls: Sequence[Wall],
) -> dict[EntityId, Wall]:
    """``MapIndex.walls`` after an edit: ``walls`` less ``removed`` plus ``added``, or made
    again from ``new_walls`` when an id is shared (the last wall of an id counts)."""
    by_id = dict(walls)
    for wall in removed:
        if by_id.get(wall.id) is not wall:
            return {w.id: w for w in new_walls if w.a != w.b}
        del by_id[wall.id]
    for wall in added:
        if wall.id in by_id:
            return {w.id: w for w in new_walls if w.a != w.b}
        by_id[wall.id] = wall
    return by_id


def _same_items(new: Sequence[object], old: Sequence[object]) -> bool:
    """The same objects in the same order (unchanged features stay the same objects)."""
    return len(new) == len(old) and all(map(operator.is_, new, old))
