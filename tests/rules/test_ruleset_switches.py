"""More ruleset fields that drive the engine: initiative.manual_reorder, conditions' has_value,
massive_damage.single_attack and the die of a roll table (fumbles, massive damage)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from battlemap.model.creature import Side
from battlemap.model.ids import EntityId
from battlemap.rules.attacks import AttackOptions, AttackProfile, AttackSituation, make_attack
from battlemap.rules.conditions import apply_condition
from battlemap.rules.damage import (
    AreaTarget,
    DamageInstance,
    DamageRoll,
    apply_area_damage,
    apply_damage,
)
from battlemap.rules.errors import IllegalActionError, InvalidRequestError
from battlemap.rules.initiative import reorder, set_initiative
from battlemap.rules.outcome import with_combat
from battlemap.rules.schema import RollTable, Ruleset, TableRow
from battlemap.rules.vitals import BadDieError
from tests.rules import fighters
from tests.rules.helpers import creature, encounter, fight, state_and_events

A, B, PC = EntityId("a"), EntityId("b"), EntityId("pc")


def _no_reorder(ruleset: Ruleset) -> Ruleset:
    initiative = ruleset.initiative.model_copy(update={"manual_reorder": False})
    return ruleset.model_copy(update={"initiative": initiative})


# --- initiative.manual_reorder --------------------------------------------------------------


def test_the_dm_may_reorder_and_change_initiative(rulesets: dict[str, Ruleset]) -> None:
    # srd "Initiative": "the DM decides the order among tied DM-controlled creatures, and the
    # players decide the order among their tied characters".
    srd = rulesets["srd-5e"]
    enc = encounter(creature("A", Side.PARTY, init_bonus=40), creature("B"))
    state = fight(srd, enc)
    state, _ = state_and_events(reorder(with_combat(enc, state), srd, [B, A]))
    assert [s.creature_id for s in state.order] == [B, A]
    state_and_events(set_initiative(with_combat(enc, state), srd, B, 3))


def test_no_reordering_when_the_ruleset_says_so(rulesets: dict[str, Ruleset]) -> None:
    fixed = _no_reorder(rulesets["srd-5e"])
    enc = encounter(creature("A", Side.PARTY, init_bonus=40), creature("B"))
    state = fight(fixed, enc)
    with pytest.raises(IllegalActionError, match="can't reorder"):
        state_and_events(reorder(with_combat(enc, state), fixed, [B, A]))
    with pytest.raises(IllegalActionError, match="stays as rolled"):
        state_and_events(set_initiative(with_combat(enc, state), fixed, B, 3))


# --- conditions: has_value -------------------------------------------------------------------


def test_only_valued_conditions_carry_a_number(rulesets: dict[str, Ruleset]) -> None:
    # final-fantasy-d20 "Wounded 1 ... your Wounded value increases by 1": Wounded has a value.
    ff = rulesets["final-fantasy-d20"]
    encounter_, combat = fighters.fight(fighters.creature("pc"), ruleset="final-fantasy-d20")
    combat, _ = state_and_events(
        apply_condition(with_combat(encounter_, combat), ff, PC, "wounded", value=2)
    )
    assert combat.combatant(PC).conditions[-1].value == 2
    with pytest.raises(InvalidRequestError, match="'prone' carries no number"):
        state_and_events(apply_condition(with_combat(encounter_, combat), ff, PC, "prone", value=2))
    # A ruleset whose Prone carries a number takes it.
    prone = ff.conditions["prone"].model_copy(update={"has_value": True})
    valued = ff.model_copy(update={"conditions": {**ff.conditions, "prone": prone}})
    combat, _ = state_and_events(
        apply_condition(with_combat(encounter_, combat), valued, PC, "prone", value=2)
    )
    assert combat.combatant(PC).conditions[-1].value == 2


# --- massive_damage.single_attack --------------------------------------------------------------


def _fireball(ruleset: Ruleset):  # type: ignore[no-untyped-def]
    encounter_, combat = fighters.fight(fighters.creature("pc", hp=30), ruleset="gms-den")
    return apply_area_damage(
        with_combat(encounter_, combat),
        ruleset,
        [DamageRoll("8d6", "fire")],
        [AreaTarget(PC)],
        typed=[15],
    )


def test_gms_den_massive_damage_needs_a_single_attack(rulesets: dict[str, Ruleset]) -> None:
    # gms-den "Massive Damage*": "damage equal to or more than half of your maximum hit points
    # off a single attack": 15 of 30 from a fireball is no attack.
    gms = rulesets["gms-den"]
    assert gms.massive_damage is not None and gms.massive_damage.single_attack
    (result,) = _fireball(gms).result
    assert result.total == 15 and result.massive is None


def test_massive_damage_from_any_damage_when_the_ruleset_says_so(
    rulesets: dict[str, Ruleset],
) -> None:
    gms = rulesets["gms-den"]
    assert gms.massive_damage is not None
    rules = gms.massive_damage.model_copy(update={"single_attack": False})
    (result,) = _fireball(gms.model_copy(update={"massive_damage": rules})).result
    assert result.massive is not None


# --- the die of a roll table -------------------------------------------------------------------


def _d100_massive(gms: Ruleset) -> Ruleset:
    table = RollTable(
        die="1d100",
        rows=(
            TableRow(low=1, high=5, result="stunned", description="Stunned"),
            TableRow(low=6, high=50, result="prone", description="Prone"),
            TableRow(low=51, high=100, result="unfazed", description="Unfazed"),
        ),
    )
    assert gms.massive_damage is not None
    return gms.model_copy(
        update={"massive_damage": gms.massive_damage.model_copy(update={"table": table})}
    )


def test_massive_damage_rolls_the_tables_die(rulesets: dict[str, Ruleset]) -> None:
    # gms-den "Massive Damage*": "roll an unmodified d20"; a d20 can't show 21.
    gms = rulesets["gms-den"]
    encounter_, combat = fighters.fight(fighters.creature("pc", hp=30), ruleset="gms-den")
    hit = [DamageInstance(15, "fire")]
    rolled = apply_damage(with_combat(encounter_, combat), gms, PC, hit, from_attack=True)
    assert rolled.combat is not None and rolled.combat.rolls[-1].expression == "1d20"
    with pytest.raises(BadDieError, match="d20"):
        apply_damage(
            with_combat(encounter_, combat), gms, PC, hit, from_attack=True, massive_d20=21
        )
    d100 = _d100_massive(gms)
    typed = apply_damage(
        with_combat(encounter_, combat), d100, PC, hit, from_attack=True, massive_d20=40
    )
    assert typed.result.massive is not None and typed.result.massive.result == "prone"
    rolled = apply_damage(with_combat(encounter_, combat), d100, PC, hit, from_attack=True)
    assert rolled.combat is not None and rolled.combat.rolls[-1].expression == "1d100"


def test_fumble_table_die(rulesets: dict[str, Ruleset]) -> None:
    gms = rulesets["gms-den"]
    assert gms.attacks.fumble_table is not None
    encounter_, combat = fighters.fight(
        fighters.creature("hero"), fighters.creature("foe", side=Side.HOSTILE, x=1)
    )
    profile = AttackProfile(name="Dagger", to_hit=4)
    options = AttackOptions(d20=(1,), fumble_d20=15)
    missed = make_attack(
        with_combat(encounter_, combat),
        gms,
        EntityId("hero"),
        EntityId("foe"),
        profile,
        AttackSituation(),
        options,
    )
    assert missed.result.fumble == "miss"
    d6_table = RollTable(
        die="1d6", rows=(TableRow(low=1, high=6, result="miss", description="Misses"),)
    )
    d6 = gms.model_copy(
        update={"attacks": gms.attacks.model_copy(update={"fumble_table": d6_table})}
    )
    with pytest.raises(BadDieError, match="d6"):
        make_attack(
            with_combat(encounter_, combat),
            d6,
            EntityId("hero"),
            EntityId("foe"),
            profile,
            AttackSituation(),
            options,
        )


def test_table_rows_must_reach_the_die() -> None:
    with pytest.raises(ValidationError, match="they end at 19, 1d20 goes up to 20"):
        RollTable(rows=(TableRow(low=1, high=19, result="x", description="x"),))
    with pytest.raises(ValidationError, match="pattern"):
        RollTable(die="2d6", rows=(TableRow(low=1, high=12, result="x", description="x"),))
