"""The party's seen areas read darkvision through the ruleset's ``light`` rules (issue 20):
``light.darkvision_one_level_brighter`` is read in one place, and the players' window follows
it as the attack rules do.

A dark 20 x 10 map, no light: an elf with darkvision 60 ft (12 cells) stands at the west end.
srd-5e: darkvision sees darkness as dim light, so the elf sees the dark room around it as dim.
"srd-5e, darkvision changes nothing" (srd-5e built with the rule false): the elf sees only
its own space.
"""

from __future__ import annotations

import shapely

from battlemap.model import Creature, Encounter, Grid, LightLevel, MapLighting, Side
from battlemap.model.fog import FogMode, FogOfWar
from battlemap.model.statblock import Senses, StatBlock
from battlemap.rules.loader import load_registry
from battlemap.rules.schema import Ruleset
from battlemap.ui.players.party_fog import PartyFog

ELF = Creature(
    name="Elf",
    side=Side.PARTY,
    x=1,
    y=4,
    statblock=StatBlock(name="Elf", senses=Senses(darkvision=60)),
)
ELF_FAR_POINT = shapely.Point(10.5, 4.5)
"""9.5 cells east of the elf's centre: within its darkvision."""


def dark_room() -> Encounter:
    return Encounter(
        grid=Grid(width=20, height=10),
        creatures=(ELF,),
        lighting=MapLighting(ambient=LightLevel.DARK),
        fog=FogOfWar(mode=FogMode.DYNAMIC),
    )


def srd() -> Ruleset:
    return load_registry().get("srd-5e")


def without_darkvision_reading(ruleset: Ruleset) -> Ruleset:
    """``ruleset`` built with ``light.darkvision_one_level_brighter`` false."""
    light = ruleset.light.model_copy(update={"darkvision_one_level_brighter": False})
    return ruleset.model_copy(update={"light": light})


def test_srd_5e_darkvision_shows_the_dark_room_as_dim() -> None:
    ruleset = srd()
    assert ruleset.light.darkvision_one_level_brighter
    fog = PartyFog(light_rules=lambda: ruleset.light)
    seen = fog.seen_light(dark_room())
    assert seen is not None
    assert seen.bright.is_empty  # darkness read one level brighter is dim, not bright
    assert seen.dim.contains(ELF_FAR_POINT)
    assert (10, 4) in fog.visible(dark_room())  # 9.5 cells from the elf's centre: in range


def test_srd_5e_built_with_darkvision_changing_nothing_shows_only_the_elfs_space() -> None:
    ruleset = without_darkvision_reading(srd())
    fog = PartyFog(light_rules=lambda: ruleset.light)
    seen = fog.seen_light(dark_room())
    assert seen is not None
    assert seen.seen.is_empty  # no light, and darkvision reads nothing
    assert fog.visible(dark_room()) == frozenset({(1, 4)})  # a viewer sees its own space
