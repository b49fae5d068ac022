"""The bench maps, shared by every benchmark module (issue 17). Deterministic: fixed seeds.

- ``bench_map()``: 100 x 100 cells, 2,000 wall segments (rooms of 5 x 5 cells whose walls run
  on grid lines as 1-cell segments with doorways, plus short slanted rubble), about 1,500
  difficult cells painted as irregular blobs, 100 creatures (every tenth Large).
- ``crowded_map()``: the same map with 400 creatures.
- ``cave_map()``: 140 x 140 cells, a generated cave outline of about 24,000 short segments
  (marching squares over value noise, like a Dungeondraft cave export), 20 closed doors
  across the floor, painted difficult terrain (15 % of the cells), 100 creatures on the floor.
- ``large_map()``: 400 x 400 cells, the bench map's generator scaled up: rooms of 10 cells,
  32,000 wall segments, 24,000 difficult cells, 400 creatures.

Each builder returns the same (cached) ``BenchMap``; ``index()`` and ``encounter()`` are cached
too, so a benchmark's setup pays for them once per process.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from battlemap.geometry import Body, MapIndex
    from battlemap.model import Encounter, TerrainRegion, Wall

Segment = tuple[tuple[float, float], tuple[float, float]]
Fits = Callable[[int, int, int], bool]
"""``fits(x, y, k)``: a k x k space may stand with its top-left at (x, y)."""


@dataclass(eq=False)
class BenchMap:
    """One bench map: its size, walls, terrain and creatures (as geometry ``Body``s)."""

    name: str
    cells: int
    walls: tuple[Wall, ...]
    terrain: tuple[TerrainRegion, ...]
    bodies: tuple[Body, ...]
    _index: MapIndex | None = field(default=None, repr=False)
    _encounter: Encounter | None = field(default=None, repr=False)

    def index(self) -> MapIndex:
        """The map's index (built once: as the app does per map change)."""
        if self._index is None:
            from battlemap.geometry import MapIndex
            from battlemap.model import Grid

            grid = Grid(width=self.cells, height=self.cells)
            self._index = MapIndex(grid, self.walls, (), self.terrain)
        return self._index

    def encounter(self) -> Encounter:
        """The map as an encounter: the same walls, terrain and creatures."""
        if self._encounter is None:
            from battlemap.model import Creature, Encounter, Grid

            creatures = tuple(
                Creature(id=b.id, name=f"Creature {i}", size=b.size, side=b.side, x=b.x, y=b.y)
                for i, b in enumerate(self.bodies)
            )
            self._encounter = Encounter(
                grid=Grid(width=self.cells, height=self.cells),
                walls=self.walls,
                terrain=self.terrain,
                creatures=creatures,
            )
        return self._encounter

    def difficult_cells(self) -> int:
        return int(self.index().difficult.sum())

    def describe(self) -> str:
        return (
            f"{self.name}: {self.cells} x {self.cells} cells, {len(self.walls):,} wall segments, "
            f"{self.difficult_cells():,} difficult cells, {len(self.bodies)} creatures"
        )


@cache
def bench_map() -> BenchMap:
    """The bench map of issues 3 and 17 (its walls and creatures are issue 3's, unchanged)."""
    walls = _dungeon_walls(cells=100, room=5, room_segments=1_400, total=2_000)
    terrain = _painted_terrain(100, 1_500, seed=7)
    return BenchMap("bench map", 100, walls, terrain, _bodies(100, 100, lambda x, y, k: True))


@cache
def crowded_map() -> BenchMap:
    """The bench map with 400 creatures (all-pairs cover)."""
    base = bench_map()
    bodies = _bodies(100, 400, lambda x, y, k: True)
    return BenchMap("crowded bench map", 100, base.walls, base.terrain, bodies)


@cache
def large_map() -> BenchMap:
    """The bench map's generator at 400 x 400 cells (a large Dungeondraft export)."""
    walls = _dungeon_walls(cells=400, room=10, room_segments=22_400, total=32_000)
    terrain = _painted_terrain(400, 24_000, seed=11)
    return BenchMap("large map", 400, walls, terrain, _bodies(400, 400, lambda x, y, k: True))


CAVE_CELLS = 140
CAVE_SAMPLES_PER_CELL = 9
CAVE_DOORS = 20


@cache
def cave_map() -> BenchMap:
    """A 140 x 140 cave: many short segments tracing a noisy outline, doors, terrain."""
    from battlemap.model import EntityId, Wall, WallKind

    field_values = _cave_field(CAVE_CELLS, CAVE_SAMPLES_PER_CELL, seed=17)
    segments = _marching_squares(field_values, 0.5, 1.0 / CAVE_SAMPLES_PER_CELL)
    walls = [Wall(id=EntityId(f"cave{i}"), a=a, b=b) for i, (a, b) in enumerate(segments)]
    s = CAVE_SAMPLES_PER_CELL
    # Floor at a cell: its centre and four corners well inside the cave.
    centre = field_values[s // 2 :: s, s // 2 :: s][:CAVE_CELLS, :CAVE_CELLS]
    corners = np.minimum.reduce(
        [
            field_values[0:-1:s, 0:-1:s][:CAVE_CELLS, :CAVE_CELLS],
            field_values[s::s, 0:-1:s][:CAVE_CELLS, :CAVE_CELLS],
            field_values[0:-1:s, s::s][:CAVE_CELLS, :CAVE_CELLS],
            field_values[s::s, s::s][:CAVE_CELLS, :CAVE_CELLS],
        ]
    )
    floor = np.minimum(centre, corners) > 0.55
    rng = random.Random(19)
    floor_cells = [(int(x), int(y)) for y, x in zip(*np.nonzero(floor), strict=True)]
    rng.shuffle(floor_cells)
    for x, y in floor_cells[:CAVE_DOORS]:
        a, b = (float(x), y + 0.5), (x + 1.0, y + 0.5)
        walls.append(Wall(id=EntityId(f"door{x}-{y}"), a=a, b=b, kind=WallKind.DOOR))

    def on_floor(x: int, y: int, k: int) -> bool:
        return bool(floor[y : y + k, x : x + k].all())

    terrain = _painted_terrain(CAVE_CELLS, int(0.15 * CAVE_CELLS**2), seed=23)
    bodies = _bodies(CAVE_CELLS, 100, on_floor)
    return BenchMap("cave map", CAVE_CELLS, tuple(walls), terrain, bodies)


# -- generators ---------------------------------------------------------------------------


def _dungeon_walls(*, cells: int, room: int, room_segments: int, total: int) -> tuple[Wall, ...]:
    """Grid lines every ``room`` cells cut into 1-cell segments, ``room_segments`` of them kept
    (the missing ones are doorways and breaches), then short slanted rubble up to ``total``."""
    from battlemap.model import EntityId, Wall

    rng = random.Random(3)
    walls: list[Wall] = []

    def add(a: tuple[float, float], b: tuple[float, float]) -> None:
        walls.append(Wall(id=EntityId(f"w{len(walls)}"), a=a, b=b))

    grid_segments: list[tuple[tuple[int, int], tuple[int, int]]] = []
    for line in range(room, cells, room):
        for horizontal in (True, False):
            for start in range(0, cells):
                a, b = (start, line), (start + 1, line)
                grid_segments.append((a, b) if horizontal else ((a[1], a[0]), (b[1], b[0])))
    rng.shuffle(grid_segments)
    for a, b in grid_segments[:room_segments]:
        add((float(a[0]), float(a[1])), (float(b[0]), float(b[1])))
    while len(walls) < total:
        x, y = rng.uniform(1, cells - 1), rng.uniform(1, cells - 1)
        angle, length = rng.uniform(0, math.tau), rng.uniform(0.3, 1.2)
        end = (
            min(max(x + math.cos(angle) * length, 0.0), cells),
            min(max(y + math.sin(angle) * length, 0.0), cells),
        )
        add((x, y), end)
    return tuple(walls)


def _bodies(cells: int, count: int, fits: Fits) -> tuple[Body, ...]:
    """``count`` creatures on free random cells where they ``fits`` (every tenth Large),
    alternating sides."""
    from battlemap.geometry import Body
    from battlemap.model import EntityId, Side, Size

    rng = random.Random(5)
    bodies: list[Body] = []
    taken: set[tuple[int, int]] = set()
    while len(bodies) < count:
        large = len(bodies) % 10 == 9
        x, y = rng.randrange(1, cells - 3), rng.randrange(1, cells - 3)
        k = 1 + large
        space = {(x + i, y + j) for i in range(k) for j in range(k)}
        if space & taken or not fits(x, y, k):
            continue
        taken |= space
        side = Side.PARTY if len(bodies) % 2 else Side.HOSTILE
        size = Size.LARGE if large else Size.MEDIUM
        bodies.append(Body(EntityId(f"c{len(bodies)}"), size, side, x, y))
    return tuple(bodies)


def _painted_terrain(cells: int, difficult_cells: int, *, seed: int) -> tuple[TerrainRegion, ...]:
    """Irregular blobs of difficult terrain (7-12 jittered vertices, radius 1.5-3.5 cells),
    added until at least ``difficult_cells`` cell centres lie inside one."""
    import shapely

    from battlemap.model import EntityId, TerrainRegion

    rng = random.Random(seed)
    painted = np.zeros((cells, cells), dtype=bool)
    regions: list[TerrainRegion] = []
    while int(painted.sum()) < difficult_cells:
        cx, cy = rng.uniform(2, cells - 2), rng.uniform(2, cells - 2)
        radius = rng.uniform(1.5, 3.5)
        corners = rng.randint(7, 12)
        points = []
        for i in range(corners):
            angle = math.tau * i / corners + rng.uniform(-0.2, 0.2)
            r = radius * rng.uniform(0.7, 1.2)
            points.append((round(cx + r * math.cos(angle), 3), round(cy + r * math.sin(angle), 3)))
        polygon = shapely.Polygon(points)
        x0, y0, x1, y1 = (int(v) for v in polygon.bounds)
        ys, xs = np.mgrid[max(0, y0) : min(cells, y1 + 1), max(0, x0) : min(cells, x1 + 1)]
        inside = shapely.contains_xy(polygon, xs + 0.5, ys + 0.5)
        painted[ys[inside], xs[inside]] = True
        regions.append(TerrainRegion(id=EntityId(f"t{len(regions)}"), points=points))
    return tuple(regions)


def _cave_field(cells: int, samples_per_cell: int, *, seed: int) -> np.ndarray:
    """Value noise in [0, 1] on a lattice of ``cells * samples_per_cell + 1`` points a side
    (three octaves, features of about 12, 5 and 2 cells), fading to rock at the map's edge."""
    rng = np.random.default_rng(seed)
    n = cells * samples_per_cell + 1
    coords = np.arange(n) / samples_per_cell
    total = np.zeros((n, n))
    for spacing, weight in ((12.0, 1.0), (5.0, 0.45), (2.0, 0.2)):
        knots = int(cells / spacing) + 2
        lattice = rng.random((knots, knots))
        u = coords / spacing
        i = np.minimum(u.astype(int), knots - 2)
        t = u - i
        t = t * t * (3 - 2 * t)  # smoothstep: no creases along the knots' lines
        rows = lattice[i][:, i] * (1 - t)[None, :] + lattice[i][:, i + 1] * t[None, :]
        rows_next = lattice[i + 1][:, i] * (1 - t)[None, :] + lattice[i + 1][:, i + 1] * t[None, :]
        total += weight * (rows * (1 - t)[:, None] + rows_next * t[:, None])
    total /= 1.65
    edge = np.minimum(coords, cells - coords)
    fade = np.clip(edge / 6.0, 0.0, 1.0)
    return np.asarray(total * np.minimum.outer(fade, fade) ** 0.5)


# Marching squares: edges 0 top, 1 right, 2 bottom, 3 left; corner bits 1 top-left, 2 top-right,
# 4 bottom-right, 8 bottom-left (set where the field is above the level).
_CASE_EDGES: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((3, 0),), 2: ((0, 1),), 3: ((3, 1),), 4: ((1, 2),), 5: ((3, 0), (1, 2)), 6: ((0, 2),),
    7: ((3, 2),), 8: ((2, 3),), 9: ((0, 2),), 10: ((0, 1), (2, 3)), 11: ((1, 2),),
    12: ((1, 3),), 13: ((0, 1),), 14: ((3, 0),),
}  # fmt: skip


def _marching_squares(values: np.ndarray, level: float, step: float) -> list[Segment]:
    """The ``level`` contour of ``values`` (rows = y) as segments, ``step`` cells per sample."""
    tl, tr = values[:-1, :-1], values[:-1, 1:]
    bl, br = values[1:, :-1], values[1:, 1:]
    case = (tl > level) * 1 + (tr > level) * 2 + (br > level) * 4 + (bl > level) * 8
    rows, cols = np.mgrid[0 : case.shape[0], 0 : case.shape[1]].astype(np.float64)

    def cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.asarray(np.clip(np.nan_to_num((level - a) / (b - a), nan=0.5), 0.0, 1.0))

    edge_points = [
        (cols + cross(tl, tr), rows),
        (cols + 1, rows + cross(tr, br)),
        (cols + cross(bl, br), rows + 1),
        (cols, rows + cross(tl, bl)),
    ]
    segments: list[Segment] = []
    for code, pairs in _CASE_EDGES.items():
        where = case == code
        if not where.any():
            continue
        for ea, eb in pairs:
            ax, ay = (edge_points[ea][0][where] * step, edge_points[ea][1][where] * step)
            bx, by = (edge_points[eb][0][where] * step, edge_points[eb][1][where] * step)
            for x1, y1, x2, y2 in zip(ax, ay, bx, by, strict=True):
                a, b = (
                    (round(float(x1), 4), round(float(y1), 4)),
                    (round(float(x2), 4), round(float(y2), 4)),
                )
                if a != b:
                    segments.append((a, b))
    return segments
