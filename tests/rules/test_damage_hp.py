"""Hit points: temporary HP, healing, Bloodied, and the [0, max] invariant (hypothesis)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from battlemap.model.ids import EntityId
from battlemap.rules.damage import DamageInstance, DamageResult, apply_damage
from battlemap.rules.healing import HealResult, TempChoice, TempHpResult, grant_temp_hp, heal
from battlemap.rules.outcome import Outcome, with_combat
from battlemap.rules.schema import Ruleset
from battlemap.rules.vitals import DeadTargetError, NegativeAmountError
from tests.rules.conftest import RULESET_IDS
from tests.rules.fighters import creature, fight


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_five_temp_hp_taking_7_loses_2_hp(rulesets: dict[str, Ruleset], ruleset_id: str) -> None:
    # hyrule "Temporary Heart Points", bloodied-brink "Lose Temporary Hit Points First".
    encounter, combat = fight(creature("hero", hp=20, temp_hp=5), ruleset=ruleset_id)
    damage_type = "pierce" if ruleset_id == "final-fantasy-d20" else "piercing"
    applied = apply_damage(
        with_combat(encounter, combat),
        rulesets[ruleset_id],
        EntityId("hero"),
        [DamageInstance(7, damage_type)],
    )
    result = applied.result
    assert (result.temp_hp_absorbed, result.hp_lost, result.hp_after, result.temp_hp_after) == (
        5,
        2,
        18,
        0,
    )


@pytest.mark.parametrize(
    "ruleset_id", ["srd-5e", "legends-of-hyrule", "final-fantasy-d20", "gms-den"]
)
def test_temp_hp_dont_add_up(rulesets: dict[str, Ruleset], ruleset_id: str) -> None:
    # hyrule: "if a spell grants you 12 temporary heart points when you already have 10, you
    # can have 12 or 10, not 22".
    encounter, combat = fight(creature("hero", hp=37, temp_hp=10), ruleset=ruleset_id)
    ruleset = rulesets[ruleset_id]
    assert (
        grant_temp_hp(with_combat(encounter, combat), ruleset, EntityId("hero"), 12).result.after
        == 12
    )
    assert (
        grant_temp_hp(
            with_combat(encounter, combat), ruleset, EntityId("hero"), 12, choice=TempChoice.OLD
        ).result.after
        == 10
    )
    assert (
        grant_temp_hp(with_combat(encounter, combat), ruleset, EntityId("hero"), 8).result.after
        == 10
    )
    assert (
        grant_temp_hp(
            with_combat(encounter, combat), ruleset, EntityId("hero"), 8, choice=TempChoice.NEW
        ).result.after
        == 8
    )


def test_bloodied_brink_temp_hp_stack_to_half_max(rulesets: dict[str, Ruleset]) -> None:
    # "12 Temporary Hit Points when you already have 10 ... maximum is 37 ... total of 18".
    encounter, combat = fight(creature("hero", hp=37, temp_hp=10), ruleset="bloodied-brink")
    result = grant_temp_hp(
        with_combat(encounter, combat), rulesets["bloodied-brink"], EntityId("hero"), 12
    ).result
    assert (result.before, result.after, result.cap) == (10, 18, 18)


def test_temp_hp_do_not_wake_the_unconscious(rulesets: dict[str, Ruleset]) -> None:
    ruleset = rulesets["bloodied-brink"]
    encounter, combat = fight(
        creature("hero", hp=0, max_hp=20),
        ruleset="bloodied-brink",
        conditions={"hero": ("unconscious",)},
    )
    applied = grant_temp_hp(with_combat(encounter, combat), ruleset, EntityId("hero"), 6)
    assert applied.encounter.creature(EntityId("hero")).temp_hp == 6
    assert applied.combat is not None and applied.combat.combatant(EntityId("hero")).has_condition(
        "unconscious"
    )


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_8_healing_at_14_of_20_regains_6(rulesets: dict[str, Ruleset], ruleset_id: str) -> None:
    # srd/hyrule/ff/bloodied-brink "Healing": 8 HP at 14 of 20 regains 6, not 8.
    encounter, combat = fight(creature("ranger", hp=14, max_hp=20), ruleset=ruleset_id)
    result = heal(
        with_combat(encounter, combat), rulesets[ruleset_id], EntityId("ranger"), 8
    ).result
    assert (result.regained, result.wasted, result.hp_after) == (6, 2, 20)


def test_healing_wakes_and_resets_death_saves_but_the_dead_stay_dead(
    rulesets: dict[str, Ruleset],
) -> None:
    srd = rulesets["srd-5e"]
    encounter, combat = fight(creature("hero", hp=5, max_hp=20))
    down = apply_damage(
        with_combat(encounter, combat), srd, EntityId("hero"), [DamageInstance(8, "fire")]
    )
    assert down.combat is not None
    assert down.combat.combatant(EntityId("hero")).has_condition("unconscious")
    assert down.combat.combatant(EntityId("hero")).has_condition("prone")
    up = heal(with_combat(down.encounter, down.combat), srd, EntityId("hero"), 3)
    assert up.result.woke and up.combat is not None
    assert not up.combat.combatant(EntityId("hero")).has_condition("unconscious")
    assert up.combat.combatant(EntityId("hero")).has_condition("prone")  # has to stand up
    dead = apply_damage(
        with_combat(encounter, combat), srd, EntityId("hero"), [DamageInstance(30, "fire")]
    )
    assert dead.result.died
    with pytest.raises(DeadTargetError):
        heal(with_combat(dead.encounter, dead.combat), srd, EntityId("hero"), 5)
    with pytest.raises(NegativeAmountError):
        heal(with_combat(encounter, combat), srd, EntityId("hero"), -1)


def test_bloodied_at_half_or_less(rulesets: dict[str, Ruleset]) -> None:
    bb = rulesets["bloodied-brink"]
    encounter, combat = fight(creature("hero", hp=20), ruleset="bloodied-brink")
    assert not apply_damage(
        with_combat(encounter, combat), bb, EntityId("hero"), [DamageInstance(9, "fire")]
    ).result.bloodied
    assert apply_damage(
        with_combat(encounter, combat), bb, EntityId("hero"), [DamageInstance(10, "fire")]
    ).result.bloodied
    srd = rulesets["srd-5e"]
    assert not apply_damage(
        with_combat(encounter, combat), srd, EntityId("hero"), [DamageInstance(15, "fire")]
    ).result.bloodied


operations = st.lists(
    st.tuples(st.sampled_from(["damage", "heal", "temp", "crit"]), st.integers(0, 40)),
    max_size=25,
)


@settings(max_examples=60, deadline=None)
@given(ruleset_index=st.integers(0, len(RULESET_IDS) - 1), ops=operations, start=st.integers(1, 40))
def test_hp_stays_within_zero_and_max(
    rulesets: dict[str, Ruleset], ruleset_index: int, ops: list[tuple[str, int]], start: int
) -> None:
    ruleset_id = RULESET_IDS[ruleset_index]
    ruleset = rulesets[ruleset_id]
    damage_type = "fire"
    encounter, combat = fight(creature("hero", hp=start, max_hp=40), ruleset=ruleset_id)
    applied: Outcome[DamageResult] | Outcome[HealResult] | Outcome[TempHpResult]
    for kind, amount in ops:
        try:
            if kind in ("damage", "crit"):
                applied = apply_damage(
                    with_combat(encounter, combat),
                    ruleset,
                    EntityId("hero"),
                    [DamageInstance(amount, damage_type)],
                    critical=kind == "crit",
                )
            elif kind == "heal":
                applied = heal(with_combat(encounter, combat), ruleset, EntityId("hero"), amount)
            else:
                applied = grant_temp_hp(
                    with_combat(encounter, combat), ruleset, EntityId("hero"), amount
                )
        except DeadTargetError:
            assert combat.combatant(EntityId("hero")).death.dead
            continue
        encounter, new_combat = applied.encounter, applied.combat
        assert new_combat is not None
        combat = new_combat
        hero = encounter.creature(EntityId("hero"))
        assert 0 <= hero.hp <= hero.max_hp
        assert hero.temp_hp >= 0
        if ruleset.hit_points.temp_hp_stacking.value == "stack-to-cap":
            assert hero.temp_hp <= 20  # half of 40


def test_damage_and_healing_outside_a_combat_change_only_hp(rulesets: dict[str, Ruleset]) -> None:
    from tests.rules.fighters import encounter_of

    srd = rulesets["srd-5e"]
    encounter = encounter_of(creature("hero", hp=10, temp_hp=3))
    hit = apply_damage(
        with_combat(encounter, None), srd, EntityId("hero"), [DamageInstance(8, "fire")]
    )
    assert hit.combat is None and hit.encounter.creature(EntityId("hero")).hp == 5
    assert [e.kind for e in hit.events][-1] == "damage"
    down = apply_damage(
        with_combat(hit.encounter, None), srd, EntityId("hero"), [DamageInstance(9, "fire")]
    )
    assert down.encounter.creature(EntityId("hero")).hp == 0 and down.result.zero.unconscious
    up = heal(with_combat(down.encounter, None), srd, EntityId("hero"), 4)
    assert up.encounter.creature(EntityId("hero")).hp == 4 and up.result.woke
