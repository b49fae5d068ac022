"""Light levels and what viewers see by them (issue 20).

Light levels follow srd-5e "Vision and Light": bright light, dim light (lightly obscured)
and darkness (heavily obscured); a torch sheds bright light in a 20-foot radius and dim
light for an additional 20 feet; darkvision sees dim light as bright and darkness as dim
within its range; blindsight perceives its surroundings without sight within its radius.
"""

from __future__ import annotations

import math

import pytest
import shapely
from shapely.geometry.base import BaseGeometry

from battlemap.geometry.illumination import (
    LightLevel,
    LitAreas,
    LitMap,
    PerceivedBy,
    SeenAreas,
    SeenMemo,
    Viewer,
    light_centre,
    light_level_at,
    perceive,
    seen_areas,
    viewer_of,
)
from battlemap.geometry.map_index import MapIndex
from battlemap.geometry.sight import visibility_polygon
from battlemap.model import Creature, Encounter, Grid, Light, MapLighting, Side, Wall
from battlemap.model.features import TORCH_BRIGHT_FEET, TORCH_DIM_FEET
from battlemap.model.ids import EntityId
from battlemap.model.statblock import Senses, StatBlock

# A 30x10 map at 5 ft a cell, a wall at x = 15 from top to bottom: two rooms.
WALL = Wall(id=EntityId("wall-middle"), a=(15, 0), b=(15, 10))
TORCH_BRIGHT = TORCH_BRIGHT_FEET / 5  # 4 cells
TORCH_DIM = (TORCH_BRIGHT_FEET + TORCH_DIM_FEET) / 5  # 8 cells


def torch(x: float, y: float, carried_by: EntityId | None = None) -> Light:
    return Light(
        id=EntityId("light-torch"),
        position=(x, y),
        bright_cells=TORCH_BRIGHT,
        dim_cells=TORCH_DIM,
        carried_by=carried_by,
    )


def dark_map(
    *lights: Light,
    ambient: LightLevel = LightLevel.DARK,
    creatures: tuple[Creature, ...] = (),
    baked: bool = False,
) -> Encounter:
    return Encounter(
        grid=Grid(width=30, height=10),
        walls=(WALL,),
        lights=lights,
        creatures=creatures,
        lighting=MapLighting(ambient=ambient, baked_lighting=baked),
    )


def level(encounter: Encounter, point: tuple[float, float]) -> LightLevel:
    return light_level_at(MapIndex.build(encounter), encounter, point)


def test_a_torch_lights_bright_to_20_feet_dim_to_40_and_leaves_darkness_beyond() -> None:
    encounter = dark_map(torch(5, 5))
    assert level(encounter, (5, 5)) is LightLevel.BRIGHT
    assert level(encounter, (8.9, 5)) is LightLevel.BRIGHT
    assert level(encounter, (9.1, 5)) is LightLevel.DIM
    assert level(encounter, (12.9, 5)) is LightLevel.DIM
    assert level(encounter, (13.1, 5)) is LightLevel.DARK


@pytest.mark.parametrize(
    ("distance", "expected"),
    [(TORCH_BRIGHT, LightLevel.BRIGHT), (TORCH_DIM, LightLevel.DIM)],
)
def test_a_point_exactly_on_a_radius_is_inside_it(distance: float, expected: LightLevel) -> None:
    # Along a diagonal too, where the distance is not a whole number of cells.
    encounter = dark_map(torch(5, 5))
    assert level(encounter, (5, 5 + distance)) is expected
    diagonal = distance / math.sqrt(2)
    assert level(encounter, (5 + diagonal, 5 - diagonal)) is expected


def test_a_wall_between_the_light_and_the_point_leaves_it_dark() -> None:
    encounter = dark_map(torch(13, 5))  # 2 cells from the wall: its light would reach x = 21
    assert level(encounter, (14.9, 5)) is LightLevel.BRIGHT
    assert level(encounter, (16, 5)) is LightLevel.DARK
    lit = LitMap.build(MapIndex.build(encounter), encounter)
    (area,) = lit.areas
    assert area.dim.bounds[2] <= 15 + 1e-9  # the lit area stops at the wall
    assert area.dim.area == pytest.approx(
        shapely.Point(13, 5).buffer(8, quad_segs=64).intersection(shapely.box(5, 0, 15, 10)).area,
        rel=0.01,
    )


def test_light_passes_an_open_door_and_a_window() -> None:
    for wall in (
        Wall(id=EntityId("door"), a=(15, 0), b=(15, 10), kind="door", open=True),
        Wall(id=EntityId("window"), a=(15, 0), b=(15, 10), kind="window"),
    ):
        encounter = dark_map(torch(13, 5)).model_copy(update={"walls": (wall,)})
        assert level(encounter, (16, 5)) is LightLevel.BRIGHT


def test_a_carried_light_shines_from_its_carrier_and_moves_with_it() -> None:
    hero = Creature(id=EntityId("creature-hero"), name="Hero", side=Side.PARTY, x=20, y=4)
    encounter = dark_map(torch(1, 1, carried_by=hero.id), creatures=(hero,))
    assert light_centre(encounter.lights[0], encounter) == (20.5, 4.5)
    assert level(encounter, (20.5, 8.5)) is LightLevel.BRIGHT  # 4 cells below the hero
    assert level(encounter, (1, 1)) is LightLevel.DARK  # not where it was put down
    moved = encounter.replace_creature(hero.model_copy(update={"x": 2, "y": 1}))
    assert level(moved, (2.5, 1.5)) is LightLevel.BRIGHT
    assert level(moved, (20.5, 8.5)) is LightLevel.DARK


def test_a_light_whose_carrier_left_the_map_lies_at_its_position() -> None:
    encounter = dark_map(torch(5, 5, carried_by=EntityId("creature-gone")))
    assert level(encounter, (5, 5)) is LightLevel.BRIGHT


def test_ambient_dim_is_dim_where_no_light_is_brighter() -> None:
    encounter = dark_map(torch(5, 5), ambient=LightLevel.DIM)
    assert level(encounter, (5, 6)) is LightLevel.BRIGHT
    assert level(encounter, (25, 5)) is LightLevel.DIM
    assert level(encounter, (12, 5)) is LightLevel.DIM  # the torch's dim adds nothing


def test_ambient_bright_is_bright_everywhere_and_drawn_as_today() -> None:
    encounter = dark_map(ambient=LightLevel.BRIGHT)
    lit = LitMap.build(MapIndex.build(encounter), encounter)
    assert lit.level_at((25, 9)) is LightLevel.BRIGHT
    assert not lit.drawn


def test_a_baked_map_keeps_its_levels_but_is_not_lit_twice_on_screen() -> None:
    encounter = dark_map(torch(5, 5), baked=True)
    lit = LitMap.build(MapIndex.build(encounter), encounter)
    assert (lit.level_at((5, 5)), lit.level_at((25, 5))) == (LightLevel.BRIGHT, LightLevel.DARK)
    assert not lit.drawn
    assert LitMap.build(MapIndex.build(dark_map(torch(5, 5))), dark_map(torch(5, 5))).drawn


def test_a_dark_map_without_lights_is_dark_everywhere() -> None:
    encounter = dark_map()
    lit = LitMap.build(MapIndex.build(encounter), encounter)
    assert lit.level_at((5, 5)) is LightLevel.DARK
    assert lit.lit_area.is_empty


def senses(darkvision: int = 0, blindsight: int = 0) -> StatBlock:
    return StatBlock(name="Seer", senses=Senses(darkvision=darkvision, blindsight=blindsight))


def test_darkvision_sees_darkness_as_dim_and_dim_light_as_bright_within_its_range() -> None:
    encounter = dark_map(torch(5, 5))
    lit = LitMap.build(MapIndex.build(encounter), encounter)
    elf = Creature(name="Elf", x=9.5, y=4.5, statblock=senses(darkvision=60))  # 12 cells
    viewer = viewer_of(elf, 5, darkvision_brightens=True)
    assert (viewer.centre, viewer.darkvision_cells) == ((10, 5), 12)
    in_dim = perceive(lit, viewer, (12, 5))
    assert (in_dim.light, in_dim.seen, in_dim.by) == (
        LightLevel.DIM,
        LightLevel.BRIGHT,
        PerceivedBy.DARKVISION,
    )
    in_dark = perceive(lit, viewer, (14.5, 9))
    assert (in_dark.light, in_dark.seen, in_dark.by) == (
        LightLevel.DARK,
        LightLevel.DIM,
        PerceivedBy.DARKVISION,
    )
    far = Viewer(centre=(2, 5), darkvision_cells=2)
    assert perceive(lit, far, (14.5, 9)).by is PerceivedBy.DARKNESS
    assert perceive(lit, far, (12, 5)).seen is LightLevel.DIM  # dim light, seen by itself


def test_darkvision_and_blindsight_stop_at_walls() -> None:
    encounter = dark_map(torch(25, 5))
    lit = LitMap.build(MapIndex.build(encounter), encounter)
    seer = Viewer(centre=(13, 5), darkvision_cells=12, blindsight_cells=12)
    through = perceive(lit, seer, (17, 5))
    assert (through.sees, through.by) == (False, PerceivedBy.WALLS)
    assert perceive(lit, seer, (24, 5)).by is PerceivedBy.WALLS  # lit, but behind the wall


def test_blindsight_perceives_darkness_within_its_range_only() -> None:
    encounter = dark_map()
    lit = LitMap.build(MapIndex.build(encounter), encounter)
    bat = Viewer(centre=(5, 5), blindsight_cells=6)
    assert perceive(lit, bat, (11, 5)).by is PerceivedBy.BLINDSIGHT  # exactly at its range
    assert perceive(lit, bat, (11.01, 5)).by is PerceivedBy.DARKNESS


def test_a_creature_without_senses_sees_only_lit_places() -> None:
    encounter = dark_map(torch(5, 5))
    lit = LitMap.build(MapIndex.build(encounter), encounter)
    human = viewer_of(Creature(name="Human", x=1, y=1), 5, darkvision_brightens=True)
    assert (human.darkvision_cells, human.blindsight_cells) == (0, 0)
    assert perceive(lit, human, (6, 6)).seen is LightLevel.BRIGHT
    assert not perceive(lit, human, (14, 9.5)).sees


def test_the_party_sees_a_torch_bright_and_dim_rings_and_a_darkvision_dim_area() -> None:
    encounter = dark_map(torch(5, 5))
    human = Viewer(centre=(5, 5))
    elf = Viewer(centre=(10, 5), darkvision_cells=12)
    index = MapIndex.build(encounter)
    lit = LitMap.build(index, encounter)
    views = [visibility_polygon(index, v.centre) for v in (human, elf)]
    seen = seen_areas(lit, [human, elf], views)
    for bright_point in [(5, 5), (8, 5), (12, 5)]:  # bright; dim seen bright by the elf
        assert seen.bright.contains(shapely.Point(bright_point))
    assert seen.dim.contains(shapely.Point(14, 9))  # dark, seen dim by darkvision only
    assert not seen.seen.contains(shapely.Point(16, 5))  # behind the wall
    human_alone = seen_areas(lit, [human], views[:1])
    assert human_alone.dim.contains(shapely.Point(12, 5))
    assert not human_alone.seen.contains(shapely.Point(14, 9))
    # Every point's reading agrees with perceive, the exact one.
    checked = 0
    for x in range(1, 30, 2):
        for y in range(1, 10, 2):
            point = (x + 0.25, y + 0.25)
            best = min((perceive(lit, v, point).seen for v in (human, elf)), key=lambda s: s.rank)
            inside_bright = seen.bright.contains(shapely.Point(point))
            inside_dim = seen.dim.contains(shapely.Point(point))
            assert inside_bright == (best is LightLevel.BRIGHT), point
            assert inside_dim == (best is LightLevel.DIM), point
            checked += 1
    assert checked == 75


def test_lit_areas_are_recomputed_only_when_a_light_moves_or_the_map_changes() -> None:
    hero = Creature(id=EntityId("creature-hero"), name="Hero", x=3, y=3)
    other = Light(id=EntityId("light-lamp"), position=(20, 5), bright_cells=2, dim_cells=4)
    encounter = dark_map(torch(0, 0, carried_by=hero.id), other, creatures=(hero,))
    index = MapIndex.build(encounter)
    cache = LitAreas()
    cache.areas(index, encounter)
    assert cache.computed == 2
    cache.areas(index, encounter)
    assert cache.computed == 2
    moved = encounter.replace_creature(hero.model_copy(update={"x": 4}))
    cache.areas(index, moved)
    assert cache.computed == 3  # only the carried torch
    cache.areas(MapIndex.build(moved), moved)
    assert cache.computed == 5  # a new map index: every light again


def test_a_torch_bearers_move_recomputes_only_what_it_touched_and_reads_as_afresh() -> None:
    """srd-5e torches (20 ft bright, 20 ft dim) on the dark two-room map: a human carries one
    in the west room, an elf with darkvision 60 ft stands in the east room by a lamp. The
    views are kept per centre, as the app keeps the view of a viewer that did not move."""
    hero = Creature(id=EntityId("creature-hero"), name="Hero", x=3, y=4)
    lamp = Light(id=EntityId("light-lamp"), position=(22, 5), bright_cells=2, dim_cells=4)
    elf = Viewer(centre=(20, 5), darkvision_cells=12)
    before = dark_map(torch(0, 0, carried_by=hero.id), lamp, creatures=(hero,))
    index = MapIndex.build(before)
    memo, lit_areas = SeenMemo(), LitAreas()
    views: dict[tuple[float, float], BaseGeometry] = {}

    def seen_on(encounter: Encounter) -> tuple[SeenAreas, SeenAreas]:
        viewers = [
            viewer_of(hero_now, 5, darkvision_brightens=True) for hero_now in encounter.creatures
        ]
        viewers.append(elf)
        seen = [views.setdefault(v.centre, visibility_polygon(index, v.centre)) for v in viewers]
        kept = seen_areas(LitMap.build(index, encounter, lit_areas), viewers, seen, memo)
        afresh = seen_areas(LitMap.build(index, encounter), viewers, seen)
        return kept, afresh

    first, _ = seen_on(before)
    computed = memo.computed
    again, _ = seen_on(before)
    assert memo.computed == computed  # nothing moved: everything kept
    assert again.dim is first.dim
    moved = before.replace_creature(hero.model_copy(update={"x": 4}))
    kept, afresh = seen_on(moved)
    assert 0 < memo.computed - computed < computed  # the hero's part, not all again
    assert kept.each[1] is first.each[1]  # the elf's: its view and lights did not move
    for a, b in ((kept.bright, afresh.bright), (kept.dim, afresh.dim)):
        assert shapely.symmetric_difference(a, b).area < 1e-9
