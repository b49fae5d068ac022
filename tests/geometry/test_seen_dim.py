"""What the party sees (``seen_areas``), kept between moves (``SeenMemo``) or not, on random
dark, dim and bright maps with walls, lights and viewers with and without darkvision and
blindsight (srd-5e "Vision and Light" senses): the same areas as first written (the party's
seen area by a cascaded ``union_all``, less its bright area), where the unions now go by
disjoint subsets and, when no viewer sees bright by its senses, the dim area is the union of
each viewer's own; and no dim area where no viewer sees."""

from __future__ import annotations

from collections import Counter

import shapely
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.errors import GEOSException
from shapely.geometry.base import BaseGeometry

from battlemap.geometry.illumination import (
    LightLevel,
    LitAreas,
    LitMap,
    SeenAreas,
    SeenMemo,
    Viewer,
    seen_areas,
)
from battlemap.geometry.map_index import MapIndex
from battlemap.geometry.sight import visibility_polygon
from battlemap.model import Encounter, Grid, Light, MapLighting, Wall
from battlemap.model.ids import EntityId

WIDTH, HEIGHT = 24, 16
TOLERANCE = 1e-7
"""Square cells: two overlays of the same set differ by float noise only."""

spot = st.tuples(
    st.integers(1, 4 * WIDTH - 1).map(lambda v: v / 4),
    st.integers(1, 4 * HEIGHT - 1).map(lambda v: v / 4),
)
wall = st.tuples(spot, spot).filter(lambda ends: ends[0] != ends[1])
radii = st.tuples(st.integers(0, 8), st.integers(1, 10)).map(lambda r: (min(r), max(r)))
sense = st.sampled_from([0.0, 0.0, 3.0, 6.0, 12.0])
viewer = st.builds(Viewer, centre=spot, darkvision_cells=sense, blindsight_cells=sense)
ambient = st.sampled_from([LightLevel.DARK, LightLevel.DARK, LightLevel.DIM, LightLevel.BRIGHT])


def encounter_of(
    walls: list[tuple[tuple[float, float], tuple[float, float]]],
    lights: list[tuple[tuple[float, float], tuple[int, int]]],
    level: LightLevel,
) -> Encounter:
    return Encounter(
        grid=Grid(width=WIDTH, height=HEIGHT),
        walls=tuple(Wall(id=EntityId(f"wall-{i}"), a=a, b=b) for i, (a, b) in enumerate(walls)),
        lights=tuple(
            Light(id=EntityId(f"light-{i}"), position=p, bright_cells=b, dim_cells=d)
            for i, (p, (b, d)) in enumerate(lights)
        ),
        lighting=MapLighting(ambient=level),
    )


def dim_as_first_written(seen: SeenAreas) -> BaseGeometry:
    """The party's seen area (every viewer's, unioned by ``union_all``) less its bright area."""
    return shapely.difference(shapely.union_all(list(seen.each)), seen.bright)


def assert_same_area(a: BaseGeometry, b: BaseGeometry) -> None:
    assert shapely.symmetric_difference(a, b).area < TOLERANCE


def test_the_seen_areas_kept_or_afresh_are_those_unioned_as_first_written() -> None:
    seen_cases: Counter[str] = Counter()

    @settings(max_examples=120, deadline=None)
    @given(
        walls=st.lists(wall, max_size=6),
        lights=st.lists(st.tuples(spot, radii), min_size=1, max_size=4),
        viewers=st.lists(viewer, min_size=1, max_size=4),
        level=ambient,
        moves=st.lists(st.tuples(st.integers(0, 3), spot), min_size=1, max_size=3),
        senseless=st.booleans(),
    )
    def check(
        walls: list[tuple[tuple[float, float], tuple[float, float]]],
        lights: list[tuple[tuple[float, float], tuple[int, int]]],
        viewers: list[Viewer],
        level: LightLevel,
        moves: list[tuple[int, tuple[float, float]]],
        senseless: bool,
    ) -> None:
        if senseless:  # half the parties see by light alone
            viewers = [Viewer(v.centre) for v in viewers]
        encounter = encounter_of(walls, lights, level)
        index = MapIndex.build(encounter)
        memo, lit_areas = SeenMemo(), LitAreas()
        views: dict[tuple[float, float], BaseGeometry] = {}
        for step, (who, to) in enumerate([(0, viewers[0].centre), *moves]):
            if step > 0:  # a viewer moves, or, every other move, a light
                if step % 2:
                    i = who % len(viewers)
                    viewers[i] = Viewer(
                        to, viewers[i].darkvision_cells, viewers[i].blindsight_cells
                    )
                else:
                    i = who % len(lights)
                    lights[i] = (to, lights[i][1])
                    encounter = encounter_of(walls, lights, level)
            shown = [
                views.setdefault(v.centre, visibility_polygon(index, v.centre)) for v in viewers
            ]
            kept = seen_areas(LitMap.build(index, encounter, lit_areas), viewers, shown, memo)
            afresh = seen_areas(LitMap.build(index, encounter), viewers, shown)
            try:
                expected = dim_as_first_written(afresh)
            except GEOSException:  # as first written, it failed on some maps ("Ring edge missing")
                seen_cases["failed as first written"] += 1
                expected = afresh.dim
            assert_same_area(kept.dim, expected)
            assert_same_area(afresh.dim, expected)
            assert_same_area(kept.bright, afresh.bright)
            for a, b in zip(kept.each, afresh.each, strict=True):
                assert_same_area(a, b)
            # Nothing is drawn dim where no viewer sees.
            assert shapely.difference(kept.dim, shapely.union_all(list(kept.each))).area < TOLERANCE
            seen_cases["computed"] += 1
            seen_cases["some dim"] += not expected.is_empty
            sensed = any(v.darkvision_cells or v.blindsight_cells for v in viewers)
            seen_cases["with senses"] += sensed and not expected.is_empty
            seen_cases["without senses"] += not sensed and not expected.is_empty
            seen_cases[f"ambient {level.value}"] += 1

    check()
    failed = seen_cases.pop("failed as first written", 0)
    assert failed < seen_cases["computed"] / 20, seen_cases
    assert min(seen_cases.values()) >= 25, seen_cases
    assert seen_cases["computed"] >= 250, seen_cases


def test_a_small_light_in_a_maps_corner_is_seen_where_geos_cannot_clip_the_view() -> None:
    """GEOS's clip of this view to the light's box raised "Invalid number of points in
    LinearRing": the players' light failed to build."""
    encounter = encounter_of(
        [((3.75, 7.5), (3.75, 7.75))], [((0.25, 0.25), (0, 1))], LightLevel.DARK
    )
    index = MapIndex.build(encounter)
    bat = Viewer((4.0, 4.5), blindsight_cells=3.0)
    seen = seen_areas(
        LitMap.build(index, encounter), [bat], [visibility_polygon(index, bat.centre)]
    )
    assert seen.dim.contains(shapely.Point(0.5, 0.5))  # the light's dim disc, in the corner
    assert seen.bright.contains(shapely.Point(4.0, 6.0))  # within the blindsight
    assert not seen.dim.contains(shapely.Point(2.0, 2.0))  # dark, out of every sense


def test_a_view_grazing_a_walls_end_sees_nothing_behind_it_by_a_light_there() -> None:
    """A torch-like light (1 cell bright, 10 dim) beside the end of a wall, seen from the
    map's corner: the seen area stays inside the view (GEOS's clip of the view to the
    light's box kept a wedge 0.0075 cells outside it, 0.03 square cells behind the wall)."""
    walls = [((0.25, 8.25), (9.0, 9.5))]
    encounter = encounter_of(walls, [((9.75, 10.25), (1, 10))], LightLevel.DARK)
    index = MapIndex.build(encounter)
    human = Viewer((0.25, 0.25))
    view = visibility_polygon(index, human.centre)
    seen = seen_areas(LitMap.build(index, encounter), [human], [view])
    assert shapely.difference(seen.each[0], view).area < 1e-12
    assert not seen.seen.contains(shapely.Point(9.717, 10.269))  # the wedge's inside
