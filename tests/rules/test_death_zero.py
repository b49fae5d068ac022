"""Dropping to 0 HP per ruleset: instant death, monsters, unconscious, damage at 0, knockout."""

from __future__ import annotations

from typing import Any

import pytest

from battlemap.model.creature import Side
from battlemap.model.ids import EntityId
from battlemap.rules.damage import DamageInstance, DamageResult, apply_damage
from battlemap.rules.death import reduce_hp_max, set_unconscious_at_zero
from battlemap.rules.errors import IllegalActionError
from battlemap.rules.outcome import Outcome, with_combat
from battlemap.rules.schema import Ruleset
from tests.rules.fighters import creature, fight


def _hit(
    rulesets: dict[str, Ruleset], ruleset_id: str, amount: int, **kwargs: Any
) -> Outcome[DamageResult]:
    encounter, combat = fight(
        creature("pc", hp=kwargs.pop("hp", 6), max_hp=kwargs.pop("max_hp", 12)),
        ruleset=ruleset_id,
    )
    return apply_damage(
        with_combat(encounter, combat),
        rulesets[ruleset_id],
        EntityId("pc"),
        [DamageInstance(amount, "fire")],
        **kwargs,
    )


@pytest.mark.parametrize(
    "ruleset_id", ["srd-5e", "legends-of-hyrule", "final-fantasy-d20", "gms-den"]
)
def test_cleric_with_12_max_taking_18_at_6_dies(
    rulesets: dict[str, Ruleset], ruleset_id: str
) -> None:
    # srd "Instant Death" (hyrule: a sage, ff: a White Mage): 12 left over = maximum -> dead.
    applied = _hit(rulesets, ruleset_id, 18)
    assert applied.result.died and "12 >= 12" in applied.result.zero.reason
    assert applied.combat is not None and applied.combat.combatant(EntityId("pc")).death.dead


@pytest.mark.parametrize("ruleset_id", ["srd-5e", "gms-den"])
def test_one_less_leftover_only_knocks_unconscious(
    rulesets: dict[str, Ruleset], ruleset_id: str
) -> None:
    applied = _hit(rulesets, ruleset_id, 17)
    assert not applied.result.died and applied.result.zero.unconscious
    assert applied.combat is not None
    pc = applied.combat.combatant(EntityId("pc"))
    assert pc.has_condition("unconscious") and pc.has_condition("prone")


def test_bloodied_brink_17_max_taking_15_at_6_dies(rulesets: dict[str, Ruleset]) -> None:
    # bloodied-brink "Massive Damage": 9 remain = half of 17 rounded up -> dies.
    applied = _hit(rulesets, "bloodied-brink", 15, hp=6, max_hp=17)
    assert applied.result.died and "9 >= 9" in applied.result.zero.reason
    srd = _hit(rulesets, "srd-5e", 15, hp=6, max_hp=17)
    assert not srd.result.died  # srd needs 17 left over


@pytest.mark.parametrize("ruleset_id", ["srd-5e", "bloodied-brink"])
def test_monsters_die_at_zero_unless_the_dm_says_otherwise(
    rulesets: dict[str, Ruleset], ruleset_id: str
) -> None:
    ruleset = rulesets[ruleset_id]
    encounter, combat = fight(
        creature("ogre", hp=5, max_hp=59, side=Side.HOSTILE), ruleset=ruleset_id
    )
    assert apply_damage(
        with_combat(encounter, combat), ruleset, EntityId("ogre"), [DamageInstance(6, "fire")]
    ).result.died
    villain = set_unconscious_at_zero(
        with_combat(encounter, combat), ruleset, EntityId("ogre"), True
    )
    assert villain.combat is not None
    down = apply_damage(
        with_combat(encounter, villain.combat),
        ruleset,
        EntityId("ogre"),
        [DamageInstance(6, "fire")],
    )
    assert not down.result.died and down.result.zero.unconscious


def test_damage_at_zero_is_a_failure_two_on_a_crit_and_kills_at_maximum(
    rulesets: dict[str, Ruleset],
) -> None:
    srd = rulesets["srd-5e"]
    down = _hit(rulesets, "srd-5e", 6)
    assert down.combat is not None
    one = apply_damage(
        with_combat(down.encounter, down.combat), srd, EntityId("pc"), [DamageInstance(1, "fire")]
    )
    assert one.combat is not None and one.combat.combatant(EntityId("pc")).death.failures == 1
    crit = apply_damage(
        with_combat(down.encounter, down.combat),
        srd,
        EntityId("pc"),
        [DamageInstance(1, "fire")],
        critical=True,
    )
    assert crit.combat is not None and crit.combat.combatant(EntityId("pc")).death.failures == 2
    third = apply_damage(
        with_combat(crit.encounter, crit.combat), srd, EntityId("pc"), [DamageInstance(1, "fire")]
    )
    assert third.result.died
    massive = apply_damage(
        with_combat(down.encounter, down.combat), srd, EntityId("pc"), [DamageInstance(12, "fire")]
    )
    assert massive.result.died


def test_bloodied_brink_damage_at_zero_kills_at_half_maximum(rulesets: dict[str, Ruleset]) -> None:
    bb = rulesets["bloodied-brink"]
    down = _hit(rulesets, "bloodied-brink", 6)  # max 12, 0 left over
    assert down.combat is not None and not down.result.died
    assert apply_damage(
        with_combat(down.encounter, down.combat), bb, EntityId("pc"), [DamageInstance(6, "fire")]
    ).result.died
    five = apply_damage(
        with_combat(down.encounter, down.combat), bb, EntityId("pc"), [DamageInstance(5, "fire")]
    )
    assert not five.result.died
    assert five.combat is not None and five.combat.combatant(EntityId("pc")).death.failures == 1
    brink = apply_damage(
        with_combat(down.encounter, down.combat),
        bb,
        EntityId("pc"),
        [DamageInstance(5, "fire")],
        critical=True,
    )
    assert (
        brink.combat is not None and brink.combat.combatant(EntityId("pc")).death.brink
    )  # 2 failures


def test_srd_knockout_leaves_0_hp_unconscious_and_stable(rulesets: dict[str, Ruleset]) -> None:
    applied = _hit(rulesets, "srd-5e", 30, melee=True, knockout=True)
    assert not applied.result.died and applied.result.zero.knocked_out
    assert applied.encounter.creature(EntityId("pc")).hp == 0
    assert applied.combat is not None and applied.combat.combatant(EntityId("pc")).death.stable


def test_bloodied_brink_knockout_leaves_1_hp_and_unconscious(rulesets: dict[str, Ruleset]) -> None:
    applied = _hit(rulesets, "bloodied-brink", 8, melee=True, knockout=True)
    assert applied.encounter.creature(EntityId("pc")).hp == 1
    assert applied.combat is not None
    assert applied.combat.combatant(EntityId("pc")).has_condition("unconscious")
    assert applied.combat.combatant(EntityId("pc")).death.knocked_out


@pytest.mark.parametrize("ruleset_id", ["srd-5e", "legends-of-hyrule", "gms-den"])
def test_knockout_needs_a_melee_attack(rulesets: dict[str, Ruleset], ruleset_id: str) -> None:
    with pytest.raises(IllegalActionError, match="melee"):
        _hit(rulesets, ruleset_id, 8, knockout=True, melee=False)


def test_final_fantasy_wounded_starts_with_failures(rulesets: dict[str, Ruleset]) -> None:
    ff = rulesets["final-fantasy-d20"]
    encounter, combat = fight(
        creature("pc", hp=5, max_hp=20),
        ruleset="final-fantasy-d20",
        conditions={"pc": ("wounded",)},
    )
    applied = apply_damage(
        with_combat(encounter, combat), ff, EntityId("pc"), [DamageInstance(5, "fire")]
    )
    assert applied.combat is not None
    assert applied.combat.combatant(EntityId("pc")).death.failures == 1
    srd = apply_damage(
        with_combat(encounter, combat),
        rulesets["srd-5e"],
        EntityId("pc"),
        [DamageInstance(5, "fire")],
    )
    assert srd.combat is not None and srd.combat.combatant(EntityId("pc")).death.failures == 0


def test_gms_den_massive_damage_table(rulesets: dict[str, Ruleset]) -> None:
    gms = rulesets["gms-den"]
    encounter, combat = fight(creature("pc", hp=30, max_hp=30), ruleset="gms-den")
    stunned = apply_damage(
        with_combat(encounter, combat),
        gms,
        EntityId("pc"),
        [DamageInstance(15, "fire")],
        from_attack=True,
        massive_d20=1,
    )
    assert stunned.result.massive is not None and stunned.result.massive.result.startswith(
        "stunned"
    )
    assert stunned.combat is not None and stunned.combat.combatant(EntityId("pc")).has_condition(
        "stunned"
    )
    prone = apply_damage(
        with_combat(encounter, combat),
        gms,
        EntityId("pc"),
        [DamageInstance(15, "fire")],
        from_attack=True,
        massive_d20=10,
    )
    assert prone.combat is not None and prone.combat.combatant(EntityId("pc")).has_condition(
        "prone"
    )
    fine = apply_damage(
        with_combat(encounter, combat),
        gms,
        EntityId("pc"),
        [DamageInstance(15, "fire")],
        from_attack=True,
        massive_d20=11,
    )
    assert fine.result.massive is not None and fine.result.massive.result == "unfazed"
    small = apply_damage(
        with_combat(encounter, combat),
        gms,
        EntityId("pc"),
        [DamageInstance(14, "fire")],
        from_attack=True,
    )
    assert small.result.massive is None
    srd = apply_damage(
        with_combat(encounter, combat),
        rulesets["srd-5e"],
        EntityId("pc"),
        [DamageInstance(15, "fire")],
        from_attack=True,
    )
    assert srd.result.massive is None


def test_hp_maximum_reduction_and_bloodied_brink_zero_maximum_kills(
    rulesets: dict[str, Ruleset],
) -> None:
    srd, bb = rulesets["srd-5e"], rulesets["bloodied-brink"]
    encounter, combat = fight(creature("pc", hp=10, max_hp=10), ruleset="bloodied-brink")
    drained = reduce_hp_max(with_combat(encounter, combat), srd, EntityId("pc"), 4)
    assert drained.result == 6 and drained.encounter.creature(EntityId("pc")).hp == 6
    at_zero_max = reduce_hp_max(with_combat(encounter, combat), bb, EntityId("pc"), 10).combat
    assert at_zero_max is not None and at_zero_max.combatant(EntityId("pc")).death.dead
    under_srd = reduce_hp_max(with_combat(encounter, combat), srd, EntityId("pc"), 10).combat
    assert under_srd is not None and not under_srd.combatant(EntityId("pc")).death.dead


def test_exhaustion_4_halves_the_maximum_for_healing(rulesets: dict[str, Ruleset]) -> None:
    from battlemap.rules.healing import heal

    srd = rulesets["srd-5e"]
    encounter, combat = fight(creature("pc", hp=5, max_hp=30))
    tired = combat.with_combatant(
        combat.combatant(EntityId("pc")).model_copy(update={"exhaustion": 4})
    )
    assert heal(with_combat(encounter, tired), srd, EntityId("pc"), 20).result.hp_after == 15
    assert heal(with_combat(encounter, combat), srd, EntityId("pc"), 20).result.hp_after == 25


def test_knockout_choice_after_the_damage_by_replaying_the_same_dice(
    rulesets: dict[str, Ruleset],
) -> None:
    from battlemap.rules.attacks import AttackOptions, AttackProfile, make_attack
    from battlemap.rules.damage import DamageRoll

    srd = rulesets["srd-5e"]
    club = AttackProfile("Greatclub", 30, damage=(DamageRoll("3d8+20", "bludgeoning"),))
    encounter, combat = fight(
        creature("brute"), creature("thief", hp=5, max_hp=30, side=Side.HOSTILE)
    )
    preview = make_attack(
        with_combat(encounter, combat), srd, EntityId("brute"), EntityId("thief"), club
    )
    assert preview.result.damage is not None and preview.result.damage.died  # a monster at 0
    chosen = make_attack(
        with_combat(encounter, combat),
        srd,
        EntityId("brute"),
        EntityId("thief"),
        club,
        options=AttackOptions(knockout=True),
    )
    assert chosen.result.damage_rolled == preview.result.damage_rolled
    assert chosen.result.damage is not None and chosen.result.damage.zero.knocked_out
    assert chosen.combat is not None and chosen.combat.combatant(EntityId("thief")).death.stable
