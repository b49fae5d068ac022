"""``plan_attack``: what an attack will roll against, with the engine's own checks and no dice.

The UI shows the roll mode and the AC before the roll from it (no dry run with a placeholder
d20). It must agree with ``make_attack`` on every ruleset: the same roll mode and reasons, the
same AC and parts, the same refusal before the d20 (a damage type the ruleset lacks included:
final-fantasy-d20 replaces the 13 standard types with its own); and it changes nothing (the
dice don't move).
srd-5e "Making an Attack": prone targets are attacked with advantage within 5 feet; a
blinded attacker has disadvantage; half cover is +2 AC.
"""

from __future__ import annotations

import pytest

from battlemap.model.creature import Side
from battlemap.model.features import CoverDegree
from battlemap.model.ids import EntityId
from battlemap.rules.attacks import (
    AttackOptions,
    AttackProfile,
    AttackSituation,
    RollMode,
    make_attack,
    plan_attack,
)
from battlemap.rules.damage import DamageRoll
from battlemap.rules.errors import CombatError
from battlemap.rules.outcome import with_combat
from battlemap.rules.schema import Ruleset
from battlemap.rules.vitals import UnknownDamageTypeError
from tests.rules.conftest import RULESET_IDS
from tests.rules.fighters import creature, fight

HERO, FOE = EntityId("hero"), EntityId("foe")


def sword(ruleset: Ruleset) -> AttackProfile:
    """A sword dealing one of the ruleset's own damage types (final-fantasy-d20 has "slash")."""
    kind = "slashing" if "slashing" in ruleset.damage.types else "slash"
    return AttackProfile("Sword", to_hit=5, damage=(DamageRoll("1d8", kind),))


SITUATIONS = (
    ((), (), AttackSituation(distance_feet=5)),
    ((), ("prone",), AttackSituation(distance_feet=5)),
    (("blinded",), (), AttackSituation(distance_feet=5, cover=CoverDegree.HALF)),
    (("blinded",), ("prone",), AttackSituation(distance_feet=5)),
    ((), (), AttackSituation(distance_feet=5, cover=CoverDegree.TOTAL)),
)


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_the_plan_is_what_the_attack_rolls_against(
    rulesets: dict[str, Ruleset], ruleset_id: str
) -> None:
    ruleset = rulesets[ruleset_id]
    profile = sword(ruleset)
    checked = refused = 0
    for attacker_has, target_has, situation in SITUATIONS:
        conditions = {
            "hero": tuple(c for c in attacker_has if c in ruleset.conditions),
            "foe": tuple(c for c in target_has if c in ruleset.conditions),
        }
        encounter, combat = fight(
            creature("hero", hp=30),
            creature("foe", hp=30, ac=15, side=Side.HOSTILE),
            ruleset=ruleset_id,
            conditions=conditions,
        )
        fighting = with_combat(encounter, combat)
        try:
            attack = make_attack(fighting, ruleset, HERO, FOE, profile, situation, AttackOptions())
        except CombatError as error:
            with pytest.raises(type(error), match=str(error)):
                plan_attack(fighting, ruleset, HERO, FOE, profile, situation, AttackOptions())
            refused += 1
            continue
        plan = plan_attack(fighting, ruleset, HERO, FOE, profile, situation, AttackOptions())
        assert plan.roll_mode == attack.result.roll_mode
        assert plan.armor_class == attack.result.armor_class
        assert plan.spent == attack.result.spent
        checked += 1
    assert (checked, refused) == (4, 1)  # total cover is refused on every ruleset


def test_planning_rolls_nothing_and_changes_nothing(rulesets: dict[str, Ruleset]) -> None:
    ruleset = rulesets["srd-5e"]
    encounter, combat = fight(
        creature("hero", hp=30),
        creature("foe", hp=30, ac=15, side=Side.HOSTILE),
        conditions={"foe": ("prone",)},
    )
    fighting = with_combat(encounter, combat)
    plan = plan_attack(
        fighting,
        ruleset,
        HERO,
        FOE,
        sword(ruleset),
        AttackSituation(distance_feet=5),
        AttackOptions(),
    )
    assert plan.roll_mode.mode is RollMode.ADVANTAGE
    assert plan.armor_class.value == 15
    assert fighting.combat == combat  # the input is untouched: no draw, no log line
    assert combat.dice.draws == 0


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_a_damage_type_the_ruleset_lacks_is_refused_before_any_die(
    rulesets: dict[str, Ruleset], ruleset_id: str
) -> None:
    ruleset = rulesets[ruleset_id]
    lacking = next(t for t in ("slashing", "slash") if t not in ruleset.damage.types)
    profile = AttackProfile("Sword", to_hit=5, damage=(DamageRoll("1d8", lacking),))
    encounter, combat = fight(
        creature("hero", hp=30),
        creature("foe", hp=30, side=Side.HOSTILE),
        ruleset="final-fantasy-d20",
    )
    fighting = with_combat(encounter, combat)
    situation = AttackSituation(distance_feet=5)
    for attack in (plan_attack, make_attack):
        with pytest.raises(UnknownDamageTypeError, match=f"Sword damage: '{lacking}' is not"):
            attack(fighting, ruleset, HERO, FOE, profile, situation, AttackOptions())
    assert combat.dice.draws == 0  # make_attack refused before its d20


def test_an_off_hand_weapon_of_a_type_the_ruleset_lacks_is_refused_too(
    rulesets: dict[str, Ruleset],
) -> None:
    ruleset = rulesets["final-fantasy-d20"]
    encounter, combat = fight(
        creature("hero", hp=30),
        creature("foe", hp=30, side=Side.HOSTILE),
        ruleset="final-fantasy-d20",
    )
    options = AttackOptions(offhand_dice=DamageRoll("1d4", "piercing"))
    with pytest.raises(UnknownDamageTypeError, match="'piercing' is not a damage type"):
        plan_attack(
            with_combat(encounter, combat),
            ruleset,
            HERO,
            FOE,
            sword(ruleset),
            AttackSituation(distance_feet=5),
            options,
        )
