"""``LitMap.levels_only`` (the light levels without the lit areas' polygons, what the rules'
``sight_on_map.light_levels`` reads) reads the same level as ``LitMap.build`` everywhere:
random dark and dim maps with walls and lights, random points; and it refuses the readers of
the polygons it does not have."""

from __future__ import annotations

import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from battlemap.geometry.illumination import LitMap, Viewer, seen_areas
from battlemap.geometry.map_index import MapIndex
from battlemap.model.encounter import Encounter
from battlemap.model.features import Light, LightLevel, MapLighting, Wall

CHECKED: list[int] = []

coordinate = st.floats(0, 20, allow_nan=False)
point = st.tuples(coordinate, coordinate)
radii = st.tuples(st.floats(0, 6), st.floats(0, 6)).map(sorted)
lights = st.lists(st.tuples(point, radii), max_size=6)
walls = st.lists(st.tuples(point, point).filter(lambda w: w[0] != w[1]), max_size=6)


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from([LightLevel.DARK, LightLevel.DIM]),
    lights,
    walls,
    st.lists(point, min_size=1, max_size=10),
)
def test_levels_only_reads_as_the_lit_map(
    ambient: LightLevel,
    placed: list[tuple[tuple[float, float], list[float]]],
    segments: list[tuple[tuple[float, float], tuple[float, float]]],
    points: list[tuple[float, float]],
) -> None:
    encounter = Encounter(
        grid=Encounter().grid.model_copy(update={"width": 20, "height": 20}),
        lights=tuple(
            Light(position=at, bright_cells=bright, dim_cells=dim) for at, (bright, dim) in placed
        ),
        walls=tuple(Wall(a=a, b=b) for a, b in segments),
        lighting=MapLighting(ambient=ambient),
    )
    index = MapIndex.build(encounter)
    full, cheap = LitMap.build(index, encounter), LitMap.levels_only(index, encounter)
    for p in points:
        assert cheap.level_at(p) is full.level_at(p)
        CHECKED.append(1)


def test_the_property_checked_many_points() -> None:
    # Run after the property (file order): it really compared levels.
    assert len(CHECKED) >= 150


def test_a_levels_only_map_refuses_the_polygons_readers() -> None:
    encounter = Encounter(
        lights=(Light(position=(5, 5), bright_cells=4, dim_cells=8),),
        lighting=MapLighting(ambient=LightLevel.DARK),
    )
    index = MapIndex.build(encounter)
    cheap = LitMap.levels_only(index, encounter)
    assert cheap.level_at((5, 5)) is LightLevel.BRIGHT  # what it is for
    with pytest.raises(ValueError, match="levels-only"):
        _ = cheap.lit_area
    with pytest.raises(ValueError, match="levels-only"):
        seen_areas(cheap, [Viewer((5, 5))], [shapely.box(0, 0, 10, 10)])
