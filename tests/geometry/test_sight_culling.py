"""The ray cast (``occlusion.view_cast``, what a viewpoint touching a wall is left to) casts
only against walls it may see; it must equal the polygon cast against every wall."""

from __future__ import annotations

import itertools
import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry.base import BaseGeometry

from battlemap.geometry import MapIndex
from battlemap.geometry.occlusion import _cast_from, _within, nearest_distances, view_cast
from battlemap.geometry.sight import cast_polygon, polygon_of_cast
from battlemap.model import CoverDegree, EntityId, Grid, Obstacle, Wall, WallKind
from tests.geometry.helpers import door, wall

MAPS = 100
SIZE = 40


def every_wall_polygon(
    world: MapIndex, origin: tuple[float, float], radius: float | None
) -> BaseGeometry:
    """The brute force: rays cast against every sight segment within range (no culling)."""
    rel = world.sight_outline - np.array(origin)
    if radius is not None:
        rel = rel[_within(world.sight_outline_lines, origin, radius, nearest_distances(rel))]
    limit = math.hypot(world.width, world.height) * 2 if radius is None else radius
    return polygon_of_cast(world, origin, _cast_from(rel, radius, limit))


def _chain(rng: np.random.Generator, start: np.ndarray, steps: int) -> list[Wall]:
    """A wobbly chain of short joined segments, like a cave wall."""
    points = [start]
    heading = rng.uniform(0, math.tau)
    for _ in range(steps):
        heading += rng.normal(0, 0.6)
        step = rng.uniform(0.2, 0.6) * np.array([math.cos(heading), math.sin(heading)])
        points.append(np.clip(points[-1] + step, 0, SIZE))
    return [
        wall((float(a[0]), float(a[1])), (float(b[0]), float(b[1])), f"c{len(points)}-{i}")
        for i, (a, b) in enumerate(itertools.pairwise(points))
        if not np.array_equal(a, b)
    ]


def random_map(seed: int) -> MapIndex:
    """Cave chains, room walls on grid lines with doors (open and closed), a window, a
    pillar and loose slanted segments (some crossing others)."""
    rng = np.random.default_rng(seed)
    walls: list[Wall] = []
    for _ in range(int(rng.integers(1, 6))):
        walls += _chain(rng, rng.uniform(0, SIZE, 2), int(rng.integers(5, 60)))
    for i in range(int(rng.integers(0, 12))):
        x, y = (int(v) for v in rng.integers(0, SIZE, 2))
        dx, dy = (1, 0) if rng.random() < 0.5 else (0, 1)
        if rng.random() < 0.2:
            walls.append(
                door((x, y), (x + dx, y + dy), open_=bool(rng.random() < 0.5), name=f"d{i}")
            )
        else:
            walls.append(wall((x, y), (x + dx * 3, y + dy * 3), f"g{i}"))
    for i in range(int(rng.integers(0, 8))):
        a = rng.uniform(0, SIZE, 2)
        b = np.clip(a + rng.uniform(-3, 3, 2), 0, SIZE)
        walls.append(wall((float(a[0]), float(a[1])), (float(b[0]), float(b[1])), f"s{i}"))
    walls.append(Wall(id=EntityId("win"), a=(2, 2), b=(2, 6), kind=WallKind.WINDOW))
    x, y = rng.uniform(2, SIZE - 3, 2)
    pillar = Obstacle(
        id=EntityId("pillar"),
        points=[(x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1)],
        cover=CoverDegree.TOTAL,
    )
    return MapIndex(Grid(width=SIZE, height=SIZE), walls, [pillar])


def test_culled_visibility_equals_the_polygon_cast_against_every_wall() -> None:
    culled: list[int] = []

    @settings(max_examples=MAPS, deadline=None, database=None)
    @given(
        st.integers(0, 2**32 - 1),
        st.tuples(st.floats(0.01, SIZE - 0.01), st.floats(0.01, SIZE - 0.01)),
        st.one_of(st.none(), st.floats(0.5, 30.0)),
    )
    def compare(seed: int, origin: tuple[float, float], radius: float | None) -> None:
        world = random_map(seed)
        fast = cast_polygon(world, origin, radius)
        slow = every_wall_polygon(world, origin, radius)
        assert math.isclose(fast.area, slow.area, rel_tol=1e-9, abs_tol=1e-7)
        assert fast.symmetric_difference(slow).area <= 1e-7
        limit = math.hypot(SIZE, SIZE) * 2 if radius is None else radius
        cast = view_cast(
            world.sight_outline,
            world.sight_outline_lines,
            world.sight_buckets,
            origin,
            radius,
            limit,
        )
        culled.append(len(world.sight_outline) - len(cast.segments))

    compare()
    assert len(culled) == MAPS
    # The culling really ran: most views left walls out.
    assert sum(c > 0 for c in culled) >= MAPS // 2, culled
