"""Light on the map feeds the attack, end to end: ``attack_situation`` reads the map's light
(``geometry.illumination``) and the creatures' senses, ``plan_attack`` rolls with the reason.

The map: a dark room (ambient darkness), the archer "a" at cell (0, 5), its target "t" at
(10, 5), 50 ft away, a line of sight between them; a torch lying at (10, 2), bright 20 ft
(4 cells) and dim 20 ft more, 3.5 cells from the target's centre and beyond reach of the
archer; a wall at y = 3.5 between the torch and the target (it shades the target, not the
archer's line).

srd-5e "Unseen Attackers and Targets": "When you attack a target that you can't see, you have
disadvantage on the attack roll [...] when a creature can't see you, you have advantage on
attack rolls against it." gms-den "Heavily Obscured": "effectively suffers from the Blinded
condition [...] when trying to see something in that area".
"""

from __future__ import annotations

import pytest

from battlemap.geometry.map_index import MapIndex
from battlemap.model.creature import Creature, Side
from battlemap.model.encounter import Encounter
from battlemap.model.features import Light, LightLevel, MapLighting, Wall
from battlemap.model.ids import EntityId
from battlemap.model.statblock import Senses, StatBlock
from battlemap.rules.attack_plan import AttackPlan, plan_attack
from battlemap.rules.attack_situation import attack_situation
from battlemap.rules.attacks import AttackOptions, AttackProfile, Delivery, RollMode
from battlemap.rules.damage import DamageRoll
from battlemap.rules.outcome import with_combat
from battlemap.rules.schema import Ruleset
from tests.rules.fighters import combat_of, creature

BOW = AttackProfile(
    "Shortbow",
    5,
    Delivery.RANGED,
    damage=(DamageRoll("1d6", "piercing"),),
    range_normal=80,
    range_long=320,
)
TORCH_ON_THE_FLOOR = Light(position=(10.0, 2.0), bright_cells=4.0, dim_cells=8.0, name="torch")
SHADING_WALL = Wall(a=(8.0, 3.5), b=(12.0, 3.5))
DARK = MapLighting(ambient=LightLevel.DARK)
NO_SENSES = Senses()


def with_senses(who: Creature, senses: Senses) -> Creature:
    return who.model_copy(update={"statblock": StatBlock(name=who.name, senses=senses)})


def room(
    *,
    lights: tuple[Light, ...] = (TORCH_ON_THE_FLOOR,),
    walls: tuple[Wall, ...] = (SHADING_WALL,),
    archer: Senses = NO_SENSES,
    ruleset: str = "srd-5e",
) -> Encounter:
    a = with_senses(creature("a", x=0, y=5), archer)
    t = creature("t", x=10, y=5, side=Side.HOSTILE)
    return Encounter(
        ruleset=ruleset,
        creatures=(a, t),
        walls=walls,
        lights=lights,
        lighting=DARK,
        grid=Encounter().grid.model_copy(update={"width": 20, "height": 12}),
    )


def plan(encounter: Encounter, ruleset: Ruleset) -> AttackPlan:
    combat = combat_of(encounter)
    situation = attack_situation(
        MapIndex.build(encounter), encounter, combat, ruleset, EntityId("a"), EntityId("t"), BOW
    )
    fighting = with_combat(encounter, combat)
    return plan_attack(
        fighting, ruleset, EntityId("a"), EntityId("t"), BOW, situation, AttackOptions()
    )


def test_srd_the_wall_shades_the_torch_so_the_target_is_unseen(
    rulesets: dict[str, Ruleset],
) -> None:
    # Both stand in darkness without darkvision: neither sees the other, and the attacker's
    # disadvantage (target unseen) and advantage (attacker unseen) cancel to a normal roll.
    report = plan(room(), rulesets["srd-5e"]).roll_mode
    assert report.mode is RollMode.NORMAL
    assert report.disadvantages == (
        "the attacker can't see the target: target in darkness, no darkvision",
    )
    assert report.advantages == (
        "the target can't see the attacker: attacker in darkness, no darkvision",
    )


def test_srd_a_carried_torch_lights_the_archer_not_the_target(
    rulesets: dict[str, Ruleset],
) -> None:
    # The archer's own torch (3 + 3 cells) doesn't reach the target 10 cells off, in the
    # wall's shade; the target sees the lit archer: only the disadvantage is left.
    torch = Light(position=(0.0, 0.0), bright_cells=3.0, dim_cells=6.0, carried_by=EntityId("a"))
    encounter = room(lights=(TORCH_ON_THE_FLOOR, torch))
    report = plan(encounter, rulesets["srd-5e"]).roll_mode
    assert report.mode is RollMode.DISADVANTAGE
    assert report.disadvantages == (
        "the attacker can't see the target: target in darkness, no darkvision",
    )
    assert report.advantages == ()


def test_srd_without_the_wall_the_torch_lights_the_target(rulesets: dict[str, Ruleset]) -> None:
    # The target now stands in the torch's bright light; the archer is still in darkness.
    report = plan(room(walls=()), rulesets["srd-5e"]).roll_mode
    assert report.disadvantages == ()
    assert report.mode is RollMode.ADVANTAGE
    assert report.advantages == (
        "the target can't see the attacker: attacker in darkness, no darkvision",
    )


def test_srd_darkvision_sees_the_target_in_darkness(rulesets: dict[str, Ruleset]) -> None:
    encounter = room(archer=Senses(darkvision=60))
    result = plan(encounter, rulesets["srd-5e"])
    assert result.roll_mode.disadvantages == ()
    assert "target in darkness, seen as dim light by darkvision 60 ft" in result.notes
    short = plan(room(archer=Senses(darkvision=30)), rulesets["srd-5e"])  # 50 ft away
    assert short.roll_mode.disadvantages == (
        "the attacker can't see the target: target in darkness 50 ft away, beyond darkvision 30 ft",
    )


def test_srd_blindsight_perceives_the_target(rulesets: dict[str, Ruleset]) -> None:
    encounter = room(archer=Senses(blindsight=60))
    assert plan(encounter, rulesets["srd-5e"]).roll_mode.disadvantages == ()


def test_gms_den_the_target_in_darkness_is_heavily_obscured(
    rulesets: dict[str, Ruleset],
) -> None:
    report = plan(room(ruleset="gms-den"), rulesets["gms-den"]).roll_mode
    assert report.disadvantages == (
        "the attacker can't see the target: target in darkness, no darkvision: heavily"
        " obscured, effectively blinded",
    )


@pytest.mark.parametrize("ruleset_id", ["srd-5e", "gms-den"])
def test_a_bright_map_changes_nothing(rulesets: dict[str, Ruleset], ruleset_id: str) -> None:
    encounter = room(ruleset=ruleset_id).model_copy(update={"lighting": MapLighting()})
    report = plan(encounter, rulesets[ruleset_id]).roll_mode
    assert (report.mode, report.advantages, report.disadvantages) == (RollMode.NORMAL, (), ())
