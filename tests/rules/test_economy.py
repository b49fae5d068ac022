"""The action economy and the actions of every ruleset."""

from __future__ import annotations

import pytest

from battlemap.model.combat import CombatState
from battlemap.model.creature import Side
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.rules.conditions import apply_condition
from battlemap.rules.economy import (
    grant_bonus_action,
    interact_with_object,
    spend_attack,
    take_action,
    use_reaction,
)
from battlemap.rules.errors import IllegalActionError, InvalidRequestError
from battlemap.rules.movement import spend_movement
from battlemap.rules.schema import Ruleset
from battlemap.rules.turns import end_turn
from tests.rules.helpers import creature, encounter, fight

Rulesets = dict[str, Ruleset]
A, B = EntityId("a"), EntityId("b")


def duel(ruleset: Ruleset, ruleset_id: str = "srd-5e") -> tuple[CombatState, Encounter]:
    """A (party) acts first, then B."""
    enc = encounter(
        creature("A", Side.PARTY, init_bonus=40, wis=30),
        creature("B", init_bonus=0, wis=1),
        ruleset=ruleset_id,
    )
    state = fight(ruleset, enc)
    assert state.current is not None and state.current.creature_id == A
    return state, enc


def test_one_action_per_turn(rulesets: Rulesets) -> None:
    ruleset = rulesets["srd-5e"]
    state, enc = duel(ruleset)
    state, events = take_action(state, ruleset, enc, A, "dodge")
    assert "A takes Dodge (action)" in [e.text for e in events]
    before = state.model_dump()  # a snapshot: ``before = state`` compared the object with itself
    with pytest.raises(IllegalActionError, match="already used its action"):
        take_action(state, ruleset, enc, A, "dash")
    assert state.model_dump() == before


def test_acting_out_of_turn_is_refused(rulesets: Rulesets) -> None:
    ruleset = rulesets["srd-5e"]
    state, enc = duel(ruleset)
    with pytest.raises(IllegalActionError, match="isn't B's turn"):
        take_action(state, ruleset, enc, B, "dodge")


def test_unknown_action_or_missing_target(rulesets: Rulesets) -> None:
    ruleset = rulesets["srd-5e"]
    state, enc = duel(ruleset)
    with pytest.raises(InvalidRequestError, match="'fly-away' is not an action"):
        take_action(state, ruleset, enc, A, "fly-away")
    with pytest.raises(InvalidRequestError, match="needs a target"):
        take_action(state, ruleset, enc, A, "help")
    with pytest.raises(InvalidRequestError, match="not an action of this ruleset"):
        take_action(state, ruleset, enc, A, "called-shot")  # gms-den only


def test_bonus_action_only_when_a_feature_grants_one(rulesets: Rulesets) -> None:
    ruleset = rulesets["srd-5e"]
    state, enc = duel(ruleset)
    with pytest.raises(IllegalActionError, match="no feature to Dash as a bonus action"):
        take_action(state, ruleset, enc, A, "dash", as_bonus_action=True)
    state, _ = grant_bonus_action(state, enc, A, ("dash", "disengage"))
    state, _ = take_action(state, ruleset, enc, A, "dash", as_bonus_action=True)
    with pytest.raises(IllegalActionError, match="already used its bonus action"):
        take_action(state, ruleset, enc, A, "disengage", as_bonus_action=True)
    state, _ = take_action(state, ruleset, enc, A, "disengage")  # the action is still there


def test_gms_den_drink_a_potion_is_a_bonus_action(rulesets: Rulesets) -> None:
    ruleset = rulesets["gms-den"]
    state, enc = duel(ruleset, "gms-den")
    state, _ = take_action(state, ruleset, enc, A, "drink-potion")
    turn = state.combatant(A).turn
    assert turn.bonus_action_used and not turn.action_used
    with pytest.raises(InvalidRequestError):
        take_action(state, rulesets["srd-5e"], enc, A, "drink-potion")


def test_two_weapon_bonus_attack_follows_the_attack_action(rulesets: Rulesets) -> None:
    for ruleset_id in ("srd-5e", "gms-den"):
        ruleset = rulesets[ruleset_id]
        state, enc = duel(ruleset, ruleset_id)
        with pytest.raises(IllegalActionError, match="follows the Attack action"):
            take_action(state, ruleset, enc, A, "offhand-attack", target_id=B)
        state, _ = take_action(state, ruleset, enc, A, "attack", target_id=B)
        state, _ = take_action(state, ruleset, enc, A, "offhand-attack", target_id=B)
        assert state.combatant(A).turn.bonus_action_used


def test_hyrule_two_weapon_fighting_costs_nothing(rulesets: Rulesets) -> None:
    ruleset = rulesets["legends-of-hyrule"]
    state, enc = duel(ruleset, "legends-of-hyrule")
    state, _ = take_action(state, ruleset, enc, A, "attack", target_id=B)
    state, _ = take_action(state, ruleset, enc, A, "offhand-attack", target_id=B)
    assert not state.combatant(A).turn.bonus_action_used


def test_attack_action_with_extra_attack_and_a_grapple_replacing_one(rulesets: Rulesets) -> None:
    ruleset = rulesets["legends-of-hyrule"]
    state, enc = duel(ruleset, "legends-of-hyrule")
    state = state.with_combatant(state.combatant(A).model_copy(update={"extra_attacks": 1}))
    state, _ = take_action(state, ruleset, enc, A, "grapple", target_id=B)
    assert state.combatant(A).turn.action_used and state.combatant(A).turn.attacks_left == 1
    state, _ = spend_movement(state, ruleset, enc, A, 10)  # moving between attacks
    state, _ = take_action(state, ruleset, enc, A, "shove", target_id=B)
    assert state.combatant(A).turn.attacks_left == 0
    with pytest.raises(IllegalActionError, match="already used its action"):
        take_action(state, ruleset, enc, A, "shove", target_id=B)


def test_spend_attack_counts_the_attacks_of_the_attack_action(rulesets: Rulesets) -> None:
    ruleset = rulesets["srd-5e"]
    state, enc = duel(ruleset)
    with pytest.raises(IllegalActionError, match="take the Attack action"):
        spend_attack(state, ruleset, enc, A)
    state = state.with_combatant(state.combatant(A).model_copy(update={"extra_attacks": 1}))
    state, _ = take_action(state, ruleset, enc, A, "attack", target_id=B)
    state, _ = spend_attack(state, ruleset, enc, A)
    state, _ = spend_attack(state, ruleset, enc, A)
    with pytest.raises(IllegalActionError, match="no attacks left"):
        spend_attack(state, ruleset, enc, A)


def test_one_free_object_interaction_then_the_action(rulesets: Rulesets) -> None:
    ruleset = rulesets["srd-5e"]
    state, enc = duel(ruleset)
    state, events = interact_with_object(state, ruleset, enc, A, "draw sword")
    assert "(free)" in events[0].text and not state.combatant(A).turn.action_used
    state, events = interact_with_object(state, ruleset, enc, A, "open door")
    assert "(the action)" in events[0].text and state.combatant(A).turn.action_used
    with pytest.raises(IllegalActionError, match="free object interaction and its action"):
        interact_with_object(state, ruleset, enc, A, "pull lever")


def test_one_reaction_per_round_on_anyones_turn(rulesets: Rulesets) -> None:
    ruleset = rulesets["srd-5e"]
    state, enc = duel(ruleset)
    state, _ = use_reaction(state, ruleset, enc, B, "opportunity attack")
    with pytest.raises(IllegalActionError, match="reaction"):
        take_action(state, ruleset, enc, B, "opportunity-attack", target_id=A)
    state, _ = end_turn(state, ruleset, enc)  # B's turn: reaction back
    state, _ = take_action(state, ruleset, enc, B, "opportunity-attack", target_id=A)


def test_incapacitated_creatures_cant_act_or_react(rulesets: Rulesets) -> None:
    ruleset = rulesets["srd-5e"]
    state, enc = duel(ruleset)
    state, _ = apply_condition(state, ruleset, enc, A, "paralyzed")
    with pytest.raises(IllegalActionError, match="incapacitated"):
        take_action(state, ruleset, enc, A, "dodge")
    with pytest.raises(IllegalActionError, match="incapacitated"):
        use_reaction(state, ruleset, enc, A, "opportunity attack")


def test_ready_and_release_a_readied_move(rulesets: Rulesets) -> None:
    ruleset = rulesets["srd-5e"]
    state, enc = duel(ruleset)
    with pytest.raises(InvalidRequestError, match="trigger"):
        take_action(state, ruleset, enc, A, "ready")
    state, _ = take_action(state, ruleset, enc, A, "ready", trigger="the goblin steps next to me")
    assert state.combatant(A).readied is not None
    state, _ = end_turn(state, ruleset, enc)  # B's turn
    state, _ = take_action(state, ruleset, enc, A, "readied-release")
    assert state.combatant(A).reaction_used and state.combatant(A).readied is None
    state, _ = spend_movement(state, ruleset, enc, A, 30)
    with pytest.raises(IllegalActionError):
        spend_movement(state, ruleset, enc, A, 5)


def test_a_readied_action_ends_at_the_start_of_the_next_turn(rulesets: Rulesets) -> None:
    ruleset = rulesets["srd-5e"]
    state, enc = duel(ruleset)
    state, _ = take_action(
        state, ruleset, enc, A, "ready", trigger="the door opens", readied_action="attack"
    )
    assert state.combatant(A).readied.action == "attack"  # type: ignore[union-attr]
    with pytest.raises(InvalidRequestError, match="can be readied"):
        take_action(state, ruleset, enc, B, "ready", trigger="x", readied_action="nope")
    state, _ = end_turn(state, ruleset, enc)
    state, _ = end_turn(state, ruleset, enc)
    assert state.combatant(A).readied is None
    with pytest.raises(IllegalActionError, match="nothing readied"):
        take_action(state, ruleset, enc, A, "readied-release")


def test_help_and_hide_and_search(rulesets: Rulesets) -> None:
    ruleset = rulesets["srd-5e"]
    state, enc = duel(ruleset)
    state, _ = take_action(state, ruleset, enc, A, "help", target_id=B)
    assert state.combatant(A).helping == B
    state, _ = end_turn(state, ruleset, enc)
    state, events = take_action(state, ruleset, enc, B, "hide")
    assert state.combatant(B).hidden_stealth == state.rolls[-1].total
    assert any(e.kind == "roll" and "Stealth" in e.text for e in events)


def test_bonus_action_spell_limits_the_action_to_a_cantrip(rulesets: Rulesets) -> None:
    ruleset = rulesets["gms-den"]
    state, enc = duel(ruleset, "gms-den")
    state, _ = grant_bonus_action(state, enc, A, ("cast-a-spell",))
    state, _ = take_action(state, ruleset, enc, A, "cast-a-spell", as_bonus_action=True)
    with pytest.raises(IllegalActionError, match="only cast a cantrip"):
        take_action(state, ruleset, enc, A, "cast-a-spell")
    state, _ = take_action(state, ruleset, enc, A, "cast-a-spell", cantrip=True)


@pytest.mark.parametrize(
    ("ruleset_id", "variant_actions"),
    [
        ("legends-of-hyrule", ["cast-a-spell", "grapple", "shove", "target-strike"]),
        ("gms-den", ["disarm", "grapple", "shove", "called-shot"]),
    ],
)
def test_variant_actions_spend_the_economy_for_the_attack_engine(
    rulesets: Rulesets, ruleset_id: str, variant_actions: list[str]
) -> None:
    ruleset = rulesets[ruleset_id]
    for action_id in variant_actions:
        state, enc = duel(ruleset, ruleset_id)
        target = B if ruleset.actions[action_id].needs_target else None
        state, events = take_action(state, ruleset, enc, A, action_id, target_id=target)
        assert state.combatant(A).turn.action_used
        if ruleset.actions[action_id].resolved_by == "attacks":
            assert any(e.kind == "resolve" for e in events)


def test_gms_den_grapple_move_takes_the_action(rulesets: Rulesets) -> None:
    ruleset = rulesets["gms-den"]
    state, enc = duel(ruleset, "gms-den")
    state, _ = take_action(state, ruleset, enc, A, "grapple-move", target_id=B)
    assert state.combatant(A).turn.action_used
