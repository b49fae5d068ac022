"""attacks.flanking.min_reach_feet and attacks.flanking.both_must_threaten drive the geometry's
flanking (gms-den, the only ruleset with flanking on), and a wall that leaves an ally no way to
attack the defender keeps it from helping.

gms-den "Flanking": "Only a creature or character that threatens the defender can help an
attacker get a flanking bonus. Creatures with a reach of 0 feet can't flank an opponent."
Each field is checked with its shipped value and with a changed value in a copy of the ruleset.
"""

from __future__ import annotations

from typing import Any

from battlemap.geometry import FlankTerms
from battlemap.geometry.map_index import MapIndex
from battlemap.model.creature import Creature, Side
from battlemap.model.encounter import Encounter
from battlemap.model.features import Wall
from battlemap.model.ids import EntityId
from battlemap.rules.attack_situation import attack_situation, flank_terms
from battlemap.rules.attacks import AttackProfile
from battlemap.rules.damage import DamageRoll
from battlemap.rules.schema import Ruleset
from tests.rules.fighters import combat_of, creature

SWORD = AttackProfile("Shortsword", 5, damage=(DamageRoll("1d6", "piercing"),))
Rulesets = dict[str, Ruleset]


def flanking_changed(ruleset: Ruleset, **update: Any) -> Ruleset:
    """``ruleset`` with ``attacks.flanking`` fields changed, as a DM's file would."""
    flanking = ruleset.attacks.flanking.model_copy(update=update)
    attacks = ruleset.attacks.model_copy(update={"flanking": flanking})
    return ruleset.model_copy(update={"attacks": attacks})


def situation(ruleset: Ruleset, *creatures: Creature, walls: tuple[Wall, ...] = ()):  # type: ignore[no-untyped-def]
    """The attack of "a" on the orc "t" at (3, 2), in a running gms-den combat."""
    encounter = Encounter(ruleset="gms-den", creatures=creatures, walls=walls)
    return attack_situation(
        MapIndex.build(encounter),
        encounter,
        combat_of(encounter),
        ruleset,
        EntityId("a"),
        EntityId("t"),
        SWORD,
    )


ORC = creature("t", x=3, y=2, side=Side.HOSTILE)


def test_gms_den_ships_both_must_threaten_and_5_ft_reach(rulesets: Rulesets) -> None:
    rules = rulesets["gms-den"].attacks.flanking
    assert rules.enabled and rules.both_must_threaten and rules.min_reach_feet == 5
    assert flank_terms(rulesets["gms-den"]) == FlankTerms(min_reach_feet=5, both_must_threaten=True)


def test_gms_den_reach_0_cannot_flank(rulesets: Rulesets) -> None:
    # "Creatures with a reach of 0 feet can't flank an opponent."
    gms = rulesets["gms-den"]
    fighter, imp = creature("a", x=2, y=2), creature("b", x=4, y=2, reach=0)
    assert not situation(gms, fighter, ORC, imp).flanked
    assert situation(gms, fighter, ORC, creature("b", x=4, y=2)).flanked
    assert not situation(
        gms, creature("a", x=2, y=2, reach=0), ORC, creature("b", x=4, y=2)
    ).flanked


def test_gms_den_only_a_threatening_ally_helps(rulesets: Rulesets) -> None:
    # "Only a creature or character that threatens the defender can help": an ally opposite
    # but out of reach doesn't.
    gms = rulesets["gms-den"]
    far = situation(gms, creature("a", x=2, y=2), ORC, creature("b", x=5, y=2))
    assert not far.flanked
    assert "not flanked: B opposite, out of reach" in far.reasons


def test_gms_den_an_ally_behind_a_wall_does_not_threaten(rulesets: Rulesets) -> None:
    # To threaten is to be able to attack in melee; through a wall (total cover) it can't.
    gms = rulesets["gms-den"]
    fighter, rogue = creature("a", x=2, y=2), creature("b", x=4, y=2)
    walled = situation(gms, fighter, ORC, rogue, walls=(Wall(a=(4.0, 0.0), b=(4.0, 10.0)),))
    assert not walled.flanked
    assert "not flanked: B opposite, total cover" in walled.reasons


def test_both_must_threaten_false_lets_any_ally_opposite_help(rulesets: Rulesets) -> None:
    loose = flanking_changed(rulesets["gms-den"], both_must_threaten=False)
    fighter = creature("a", x=2, y=2)
    assert situation(loose, fighter, ORC, creature("b", x=5, y=2)).flanked
    wall = (Wall(a=(4.0, 0.0), b=(4.0, 10.0)),)
    assert situation(loose, fighter, ORC, creature("b", x=4, y=2), walls=wall).flanked
    # The attacker still attacks in melee, so it must still reach.
    assert not situation(loose, creature("a", x=1, y=2), ORC, creature("b", x=4, y=2)).flanked


def test_a_higher_min_reach_keeps_5_ft_creatures_from_flanking(rulesets: Rulesets) -> None:
    pikes = flanking_changed(rulesets["gms-den"], min_reach_feet=10)
    short = situation(pikes, creature("a", x=2, y=2), ORC, creature("b", x=4, y=2))
    assert not short.flanked
    long_ = situation(
        pikes, creature("a", x=2, y=2, reach=10), ORC, creature("b", x=5, y=2, reach=10)
    )
    assert long_.flanked


def test_min_reach_0_lets_reach_0_allies_flank_when_threat_is_not_needed(
    rulesets: Rulesets,
) -> None:
    gms = rulesets["gms-den"]
    anyone = flanking_changed(gms, min_reach_feet=0, both_must_threaten=False)
    fighter, imp = creature("a", x=2, y=2), creature("b", x=4, y=2, reach=0)
    assert not situation(flanking_changed(gms, both_must_threaten=False), fighter, ORC, imp).flanked
    assert situation(anyone, fighter, ORC, imp).flanked
