"""``sight_on_map.light_levels`` (the light levels without the lit areas' polygons) reads
the same level as ``geometry.illumination.LitMap.build`` everywhere: random dark and dim maps
with walls and lights, random points."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from battlemap.geometry.illumination import LitMap
from battlemap.geometry.map_index import MapIndex
from battlemap.model.encounter import Encounter
from battlemap.model.features import Light, LightLevel, MapLighting, Wall
from battlemap.rules.sight_on_map import light_levels

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
def test_light_levels_read_as_the_lit_map(
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
    full, cheap = LitMap.build(index, encounter), light_levels(index, encounter)
    for p in points:
        assert cheap.level_at(p) is full.level_at(p)
        CHECKED.append(1)


def test_the_property_checked_many_points() -> None:
    # Run after the property (file order): it really compared levels.
    assert len(CHECKED) >= 150
