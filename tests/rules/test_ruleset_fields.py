"""Every ruleset field drives the engine: the shipped value as the document says, then a changed
value (``model_copy``) that changes the behaviour.

economy.reactions_per_round, damage.instances_stack, damage.area_damage_rolled_once,
death_saves.reset_on_healing_or_stable, hit_points.temp_hp_wakes and
hit_points.falls_prone_when_unconscious. (squeezing.dex_saves_with_disadvantage is in
test_saves.py.)
"""

from __future__ import annotations

from typing import Any

import pytest

from battlemap.model.creature import Side
from battlemap.model.ids import EntityId
from battlemap.rules.damage import (
    AreaTarget,
    DamageInstance,
    DamageRoll,
    Defenses,
    apply_area_damage,
    compute_damage,
)
from battlemap.rules.economy import take_action, use_reaction
from battlemap.rules.errors import IllegalActionError, InvalidRequestError
from battlemap.rules.opportunity import opportunity_offers
from battlemap.rules.schema import Ruleset
from battlemap.rules.turns import end_turn
from tests.rules import fighters
from tests.rules.helpers import creature, encounter, fight

Rulesets = dict[str, Ruleset]
A, B = EntityId("a"), EntityId("b")


def changed(ruleset: Ruleset, section: str, **update: Any) -> Ruleset:
    """``ruleset`` with fields of one section changed (the way a DM's file overrides them)."""
    part = getattr(ruleset, section)
    return ruleset.model_copy(update={section: part.model_copy(update=update)})


# --- economy.reactions_per_round ----------------------------------------------------------


def _duel(ruleset: Ruleset, ruleset_id: str):  # type: ignore[no-untyped-def]
    enc = encounter(
        creature("A", Side.PARTY, init_bonus=40, wis=30),
        creature("B", init_bonus=0, wis=1),
        ruleset=ruleset_id,
    )
    return fight(ruleset, enc), enc


@pytest.mark.parametrize("ruleset_id", ["srd-5e", "gms-den"])
def test_one_reaction_until_the_start_of_the_next_turn(rulesets: Rulesets, ruleset_id: str) -> None:
    # srd "Reactions": "When you take a reaction, you can't take another one until the start
    # of your next turn." gms-den "Ready": "you can take only one reaction per round".
    ruleset = rulesets[ruleset_id]
    assert ruleset.economy.reactions_per_round == 1
    state, enc = _duel(ruleset, ruleset_id)
    state, _ = use_reaction(state, ruleset, enc, B, "opportunity attack")
    with pytest.raises(IllegalActionError, match="already used its reaction"):
        use_reaction(state, ruleset, enc, B, "a second one")
    offers = opportunity_offers(enc, state, ruleset, A, [B])
    assert not offers[0].available and "reaction" in offers[0].reason


def test_two_reactions_per_round_when_the_ruleset_says_so(rulesets: Rulesets) -> None:
    ruleset = changed(rulesets["srd-5e"], "economy", reactions_per_round=2)
    state, enc = _duel(ruleset, "srd-5e")
    state, _ = use_reaction(state, ruleset, enc, B, "opportunity attack")
    assert not state.combatant(B).reaction_used
    assert opportunity_offers(enc, state, ruleset, A, [B])[0].available
    state, _ = take_action(state, ruleset, enc, B, "opportunity-attack", target_id=A)
    assert state.combatant(B).reaction_used
    with pytest.raises(IllegalActionError, match="its 2 reactions"):
        use_reaction(state, ruleset, enc, B, "a third one")
    state, _ = end_turn(state, ruleset, enc)  # B's turn begins: both come back
    state, _ = use_reaction(state, ruleset, enc, B, "again")
    state, _ = use_reaction(state, ruleset, enc, B, "and again")


def test_no_reactions_when_the_ruleset_gives_none(rulesets: Rulesets) -> None:
    ruleset = changed(rulesets["srd-5e"], "economy", reactions_per_round=0)
    state, enc = _duel(ruleset, "srd-5e")
    with pytest.raises(IllegalActionError, match="no reactions in this ruleset"):
        use_reaction(state, ruleset, enc, B, "opportunity attack")
    assert not opportunity_offers(enc, state, ruleset, A, [B])[0].available


# --- damage.instances_stack ---------------------------------------------------------------

TWO_FIRE_RESISTANCES = Defenses(resistances=("fire", "all"))


@pytest.mark.parametrize("ruleset_id", ["srd-5e", "legends-of-hyrule", "bloodied-brink"])
def test_resistance_instances_count_once(rulesets: Rulesets, ruleset_id: str) -> None:
    # srd "Damage Resistance and Vulnerability": resistance to fire and to all nonmagical
    # damage halve nonmagical fire, "not reduced by three-quarters" (hyrule, bloodied-brink
    # "No Stacking" say the same).
    ruleset = rulesets[ruleset_id]
    assert not ruleset.damage.instances_stack
    (result,) = compute_damage(ruleset, [DamageInstance(20, "fire")], TWO_FIRE_RESISTANCES)
    assert result.final == 10
    assert "2 instances count once" in result.steps[-1].reason


def test_instances_stack_when_the_ruleset_says_so(rulesets: Rulesets) -> None:
    ruleset = changed(rulesets["srd-5e"], "damage", instances_stack=True)
    (resisted,) = compute_damage(ruleset, [DamageInstance(20, "fire")], TWO_FIRE_RESISTANCES)
    assert resisted.final == 5  # x0.5 twice: reduced by three-quarters
    assert "2 instances stack" in resisted.steps[-1].reason
    doubled = Defenses(vulnerabilities=("fire", "fire"))
    (vulnerable,) = compute_damage(ruleset, [DamageInstance(7, "fire")], doubled)
    assert vulnerable.final == 28
    (single,) = compute_damage(ruleset, [DamageInstance(7, "fire")], Defenses(("fire",)))
    assert single.final == 3  # one instance: as before


# --- damage.area_damage_rolled_once --------------------------------------------------------


def _three_goblins(ruleset_id: str):  # type: ignore[no-untyped-def]
    return fighters.fight(
        *(fighters.creature(f"g{i}", hp=200, side=Side.HOSTILE) for i in range(3)),
        ruleset=ruleset_id,
    )


@pytest.mark.parametrize("ruleset_id", ["srd-5e", "final-fantasy-d20", "bloodied-brink"])
def test_area_damage_is_rolled_once_for_every_target(rulesets: Rulesets, ruleset_id: str) -> None:
    # srd "Damage Rolls": "roll the damage once for all of them"; ff: Fira is rolled once;
    # bloodied-brink "Damage against Multiple Targets": Fireball rolled once.
    ruleset = rulesets[ruleset_id]
    fire = "fire"
    encounter, combat = _three_goblins(ruleset_id)
    targets = [AreaTarget(EntityId(f"g{i}")) for i in range(3)]
    applied = apply_area_damage(encounter, combat, ruleset, [DamageRoll("8d6", fire)], targets)
    assert applied.combat is not None
    assert len(applied.combat.rolls) == 1
    assert len({r.total for r in applied.result}) == 1


def test_area_damage_rolled_per_target_when_the_ruleset_says_so(rulesets: Rulesets) -> None:
    ruleset = changed(rulesets["srd-5e"], "damage", area_damage_rolled_once=False)
    encounter, combat = _three_goblins("srd-5e")
    targets = [AreaTarget(EntityId(f"g{i}")) for i in range(3)]
    applied = apply_area_damage(encounter, combat, ruleset, [DamageRoll("8d6", "fire")], targets)
    assert applied.combat is not None
    rolls = applied.combat.rolls
    assert len(rolls) == 3 and [r.total for r in rolls] == [r.total for r in applied.result]
    assert [r.purpose for r in rolls][1] == "area damage for G1 (fire)"
    typed = apply_area_damage(
        encounter,
        combat,
        ruleset,
        [DamageRoll("8d6", "fire")],
        targets,
        typed_each=[[10], [20], [30]],
    )
    assert [r.total for r in typed.result] == [10, 20, 30]
    with pytest.raises(InvalidRequestError, match="type the totals of each target"):
        apply_area_damage(
            encounter, combat, ruleset, [DamageRoll("8d6", "fire")], targets, typed=[10]
        )
    with pytest.raises(InvalidRequestError, match="once for every target"):
        apply_area_damage(
            encounter,
            combat,
            rulesets["srd-5e"],
            [DamageRoll("8d6", "fire")],
            targets,
            typed_each=[[10], [20], [30]],
        )
