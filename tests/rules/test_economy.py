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
from battlemap.rules.outcome import with_combat
from battlemap.rules.schema import Ruleset
from battlemap.rules.turns import end_turn
from tests.rules.helpers import creature, encounter, fight, state_and_events

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
    state, events = state_and_events(take_action(with_combat(enc, state), ruleset, A, "dodge"))
    assert "A takes Dodge (action)" in [e.text for e in events]
    before = state.model_dump()  # a snapshot: ``before = state`` compared the object with itself
    with pytest.raises(IllegalActionError, match="already used its action"):
        state_and_events(take_action(with_combat(enc, state), ruleset, A, "dash"))
    assert state.model_dump() == before


def test_acting_out_of_turn_is_refused(rulesets: Rulesets) -> None:
    ruleset = rulesets["srd-5e"]
    state, enc = duel(ruleset)
    with pytest.raises(IllegalActionError, match="isn't B's turn"):
        state_and_events(take_action(with_combat(enc, state), ruleset, B, "dodge"))


def test_unknown_action_or_missing_target(rulesets: Rulesets) -> None:
    ruleset = rulesets["srd-5e"]
    state, enc = duel(ruleset)
    with pytest.raises(InvalidRequestError, match="'fly-away' is not an action"):
        state_and_events(take_action(with_combat(enc, state), ruleset, A, "fly-away"))
    with pytest.raises(InvalidRequestError, match="needs a target"):
        state_and_events(take_action(with_combat(enc, state), ruleset, A, "help"))
    with pytest.raises(InvalidRequestError, match="not an action of this ruleset"):
        state_and_events(
            take_action(with_combat(enc, state), ruleset, A, "called-shot")
        )  # gms-den only


def test_bonus_action_only_when_a_feature_grants_one(rulesets: Rulesets) -> None:
    ruleset = rulesets["srd-5e"]
    state, enc = duel(ruleset)
    with pytest.raises(IllegalActionError, match="no feature to Dash as a bonus action"):
        state_and_events(
            take_action(with_combat(enc, state), ruleset, A, "dash", as_bonus_action=True)
        )
    state, _ = state_and_events(
        grant_bonus_action(with_combat(enc, state), ruleset, A, ("dash", "disengage"))
    )
    state, _ = state_and_events(
        take_action(with_combat(enc, state), ruleset, A, "dash", as_bonus_action=True)
    )
    with pytest.raises(IllegalActionError, match="already used its bonus action"):
        state_and_events(
            take_action(with_combat(enc, state), ruleset, A, "disengage", as_bonus_action=True)
        )
    state, _ = state_and_events(
        take_action(with_combat(enc, state), ruleset, A, "disengage")
    )  # the action is still there


def test_gms_den_drink_a_potion_is_a_bonus_action(rulesets: Rulesets) -> None:
    ruleset = rulesets["gms-den"]
    state, enc = duel(ruleset, "gms-den")
    state, _ = state_and_events(take_action(with_combat(enc, state), ruleset, A, "drink-potion"))
    turn = state.combatant(A).turn
    assert turn.bonus_action_used and not turn.action_used
    with pytest.raises(InvalidRequestError):
        state_and_events(
            take_action(with_combat(enc, state), rulesets["srd-5e"], A, "drink-potion")
        )


def test_two_weapon_bonus_attack_follows_the_attack_action(rulesets: Rulesets) -> None:
    for ruleset_id in ("srd-5e", "gms-den"):
        ruleset = rulesets[ruleset_id]
        state, enc = duel(ruleset, ruleset_id)
        with pytest.raises(IllegalActionError, match="follows the Attack action"):
            state_and_events(
                take_action(with_combat(enc, state), ruleset, A, "offhand-attack", target_id=B)
            )
        state, _ = state_and_events(
            take_action(with_combat(enc, state), ruleset, A, "attack", target_id=B)
        )
        state, _ = state_and_events(
            take_action(with_combat(enc, state), ruleset, A, "offhand-attack", target_id=B)
        )
        assert state.combatant(A).turn.bonus_action_used


def test_hyrule_two_weapon_fighting_costs_nothing(rulesets: Rulesets) -> None:
    ruleset = rulesets["legends-of-hyrule"]
    state, enc = duel(ruleset, "legends-of-hyrule")
    state, _ = state_and_events(
        take_action(with_combat(enc, state), ruleset, A, "attack", target_id=B)
    )
    state, _ = state_and_events(
        take_action(with_combat(enc, state), ruleset, A, "offhand-attack", target_id=B)
    )
    assert not state.combatant(A).turn.bonus_action_used


def test_attack_action_with_extra_attack_and_a_grapple_replacing_one(rulesets: Rulesets) -> None:
    ruleset = rulesets["legends-of-hyrule"]
    state, enc = duel(ruleset, "legends-of-hyrule")
    state = state.with_combatant(state.combatant(A).model_copy(update={"extra_attacks": 1}))
    state, _ = state_and_events(
        take_action(with_combat(enc, state), ruleset, A, "grapple", target_id=B)
    )
    assert state.combatant(A).turn.action_used and state.combatant(A).turn.attacks_left == 1
    state, _ = state_and_events(
        spend_movement(with_combat(enc, state), ruleset, A, 10)
    )  # moving between attacks
    state, _ = state_and_events(
        take_action(with_combat(enc, state), ruleset, A, "shove", target_id=B)
    )
    assert state.combatant(A).turn.attacks_left == 0
    with pytest.raises(IllegalActionError, match="already used its action"):
        state_and_events(take_action(with_combat(enc, state), ruleset, A, "shove", target_id=B))


def test_spend_attack_counts_the_attacks_of_the_attack_action(rulesets: Rulesets) -> None:
    ruleset = rulesets["srd-5e"]
    state, enc = duel(ruleset)
    with pytest.raises(IllegalActionError, match="take the Attack action"):
        state_and_events(spend_attack(with_combat(enc, state), ruleset, A))
    state = state.with_combatant(state.combatant(A).model_copy(update={"extra_attacks": 1}))
    state, _ = state_and_events(
        take_action(with_combat(enc, state), ruleset, A, "attack", target_id=B)
    )
    state, _ = state_and_events(spend_attack(with_combat(enc, state), ruleset, A))
    state, _ = state_and_events(spend_attack(with_combat(enc, state), ruleset, A))
    with pytest.raises(IllegalActionError, match="no attacks left"):
        state_and_events(spend_attack(with_combat(enc, state), ruleset, A))


def test_one_free_object_interaction_then_the_action(rulesets: Rulesets) -> None:
    ruleset = rulesets["srd-5e"]
    state, enc = duel(ruleset)
    state, events = state_and_events(
        interact_with_object(with_combat(enc, state), ruleset, A, "draw sword")
    )
    assert "(free)" in events[0].text and not state.combatant(A).turn.action_used
    state, events = state_and_events(
        interact_with_object(with_combat(enc, state), ruleset, A, "open door")
    )
    assert "(the action)" in events[0].text and state.combatant(A).turn.action_used
    with pytest.raises(IllegalActionError, match="free object interaction and its action"):
        state_and_events(interact_with_object(with_combat(enc, state), ruleset, A, "pull lever"))


def test_one_reaction_per_round_on_anyones_turn(rulesets: Rulesets) -> None:
    ruleset = rulesets["srd-5e"]
    state, enc = duel(ruleset)
    state, _ = state_and_events(
        use_reaction(with_combat(enc, state), ruleset, B, "opportunity attack")
    )
    with pytest.raises(IllegalActionError, match="reaction"):
        state_and_events(
            take_action(with_combat(enc, state), ruleset, B, "opportunity-attack", target_id=A)
        )
    state, _ = state_and_events(
        end_turn(with_combat(enc, state), ruleset)
    )  # B's turn: reaction back
    state, _ = state_and_events(
        take_action(with_combat(enc, state), ruleset, B, "opportunity-attack", target_id=A)
    )


def test_incapacitated_creatures_cant_act_or_react(rulesets: Rulesets) -> None:
    ruleset = rulesets["srd-5e"]
    state, enc = duel(ruleset)
    state, _ = state_and_events(apply_condition(with_combat(enc, state), ruleset, A, "paralyzed"))
    with pytest.raises(IllegalActionError, match="incapacitated"):
        state_and_events(take_action(with_combat(enc, state), ruleset, A, "dodge"))
    with pytest.raises(IllegalActionError, match="incapacitated"):
        state_and_events(use_reaction(with_combat(enc, state), ruleset, A, "opportunity attack"))


def test_ready_and_release_a_readied_move(rulesets: Rulesets) -> None:
    ruleset = rulesets["srd-5e"]
    state, enc = duel(ruleset)
    with pytest.raises(InvalidRequestError, match="trigger"):
        state_and_events(take_action(with_combat(enc, state), ruleset, A, "ready"))
    state, _ = state_and_events(
        take_action(
            with_combat(enc, state), ruleset, A, "ready", trigger="the goblin steps next to me"
        )
    )
    assert state.combatant(A).readied is not None
    state, _ = state_and_events(end_turn(with_combat(enc, state), ruleset))  # B's turn
    state, _ = state_and_events(take_action(with_combat(enc, state), ruleset, A, "readied-release"))
    assert state.combatant(A).reaction_used and state.combatant(A).readied is None
    state, _ = state_and_events(spend_movement(with_combat(enc, state), ruleset, A, 30))
    with pytest.raises(IllegalActionError):
        state_and_events(spend_movement(with_combat(enc, state), ruleset, A, 5))


def test_a_readied_action_ends_at_the_start_of_the_next_turn(rulesets: Rulesets) -> None:
    ruleset = rulesets["srd-5e"]
    state, enc = duel(ruleset)
    state, _ = state_and_events(
        take_action(
            with_combat(enc, state),
            ruleset,
            A,
            "ready",
            trigger="the door opens",
            readied_action="attack",
        )
    )
    assert state.combatant(A).readied.action == "attack"  # type: ignore[union-attr]
    with pytest.raises(InvalidRequestError, match="can be readied"):
        state_and_events(
            take_action(
                with_combat(enc, state), ruleset, B, "ready", trigger="x", readied_action="nope"
            )
        )
    state, _ = state_and_events(end_turn(with_combat(enc, state), ruleset))
    state, _ = state_and_events(end_turn(with_combat(enc, state), ruleset))
    assert state.combatant(A).readied is None
    with pytest.raises(IllegalActionError, match="nothing readied"):
        state_and_events(take_action(with_combat(enc, state), ruleset, A, "readied-release"))


def test_help_and_hide_and_search(rulesets: Rulesets) -> None:
    ruleset = rulesets["srd-5e"]
    state, enc = duel(ruleset)
    state, _ = state_and_events(
        take_action(with_combat(enc, state), ruleset, A, "help", target_id=B)
    )
    assert state.combatant(A).helping == B
    state, _ = state_and_events(end_turn(with_combat(enc, state), ruleset))
    state, events = state_and_events(take_action(with_combat(enc, state), ruleset, B, "hide"))
    assert state.combatant(B).hidden_stealth == state.rolls[-1].total
    assert any(e.kind == "roll" and "Stealth" in e.text for e in events)


def test_bonus_action_spell_limits_the_action_to_a_cantrip(rulesets: Rulesets) -> None:
    ruleset = rulesets["gms-den"]
    state, enc = duel(ruleset, "gms-den")
    state, _ = state_and_events(
        grant_bonus_action(with_combat(enc, state), ruleset, A, ("cast-a-spell",))
    )
    state, _ = state_and_events(
        take_action(with_combat(enc, state), ruleset, A, "cast-a-spell", as_bonus_action=True)
    )
    with pytest.raises(IllegalActionError, match="only cast a cantrip"):
        state_and_events(take_action(with_combat(enc, state), ruleset, A, "cast-a-spell"))
    state, _ = state_and_events(
        take_action(with_combat(enc, state), ruleset, A, "cast-a-spell", cantrip=True)
    )


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
        state, events = state_and_events(
            take_action(with_combat(enc, state), ruleset, A, action_id, target_id=target)
        )
        assert state.combatant(A).turn.action_used
        if ruleset.actions[action_id].resolved_by == "attacks":
            assert any(e.kind == "resolve" for e in events)


def test_gms_den_grapple_move_takes_the_action(rulesets: Rulesets) -> None:
    ruleset = rulesets["gms-den"]
    state, enc = duel(ruleset, "gms-den")
    state, _ = state_and_events(
        take_action(with_combat(enc, state), ruleset, A, "grapple-move", target_id=B)
    )
    assert state.combatant(A).turn.action_used
