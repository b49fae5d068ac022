"""Terrain rasterised for all regions at once equals each region rasterised on its own."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from battlemap.geometry import MapIndex
from battlemap.geometry.map_index import MapProblem, rasterise
from battlemap.model import EntityId, Grid, TerrainKind, TerrainRegion

CASES = 120
Point = tuple[float, float]

coordinate = st.one_of(st.integers(-3, 23).map(float), st.floats(-3.0, 23.0))
ring = st.lists(st.tuples(coordinate, coordinate), min_size=3, max_size=7)


def one_by_one(
    width: int, height: int, regions: list[TerrainRegion]
) -> tuple[dict[TerrainKind, np.ndarray], list[MapProblem]]:
    """The cells of each kind, each region made into its polygon and rasterised alone, and
    the problems met on the way."""
    world = MapIndex(Grid(width=width, height=height))
    grids = {kind: np.zeros((height, width), dtype=bool) for kind in TerrainKind}
    for region in regions:
        polygon = world._polygon(region.id, region.points)
        if polygon is not None:
            rasterise(polygon, grids[region.kind])
    return grids, world.problems


def test_terrain_of_many_regions_equals_the_regions_one_by_one() -> None:
    checked = 0

    @settings(max_examples=CASES, deadline=None, database=None)
    @given(
        st.lists(st.tuples(ring, st.sampled_from(list(TerrainKind))), max_size=12),
        st.integers(1, 20),
        st.integers(1, 20),
    )
    def compare(shapes: list[tuple[list[Point], TerrainKind]], width: int, height: int) -> None:
        nonlocal checked
        regions = [
            TerrainRegion(id=EntityId(f"t{i}"), kind=kind, points=points)
            for i, (points, kind) in enumerate(shapes)
        ]
        world = MapIndex(Grid(width=width, height=height), terrain=regions)
        expected, problems = one_by_one(width, height, regions)
        assert np.array_equal(world.difficult, expected[TerrainKind.DIFFICULT])
        assert np.array_equal(world.water, expected[TerrainKind.WATER])
        assert np.array_equal(world.impassable, expected[TerrainKind.IMPASSABLE])
        assert sorted(world.problems, key=str) == sorted(problems, key=str)
        checked += 1

    compare()
    assert checked == CASES
