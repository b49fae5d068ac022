"""Turns and rounds: resets, expiries, surprise on the first turn, joining and leaving."""

from __future__ import annotations

import pytest

from battlemap.model.combat import CombatState, Expiry
from battlemap.model.creature import Side
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.rules.conditions import apply_condition
from battlemap.rules.economy import take_action, use_reaction
from battlemap.rules.errors import IllegalActionError, InvalidRequestError
from battlemap.rules.initiative import determine_surprise, roll_initiative, start_combat
from battlemap.rules.movement import spend_movement
from battlemap.rules.outcome import Outcome, with_combat
from battlemap.rules.schema import Ruleset
from battlemap.rules.turns import (
    add_combatant,
    begin_combat,
    end_turn,
    remove_combatant,
    take_turn_now,
)
from tests.rules.helpers import creature, encounter, fight, state_and_events, whose_turn

Rulesets = dict[str, Ruleset]
A, B, C = EntityId("a"), EntityId("b"), EntityId("c")


def three(ruleset: Ruleset, ruleset_id: str = "srd-5e") -> tuple[CombatState, Encounter]:
    """A acts first, then B, then C (initiative bonuses decide)."""
    enc = encounter(
        creature("A", Side.PARTY, init_bonus=40),
        creature("B", init_bonus=20),
        creature("C", Side.PARTY),
        ruleset=ruleset_id,
    )
    return fight(ruleset, enc), enc


def test_turns_advance_and_rounds_wrap(rulesets: Rulesets) -> None:
    ruleset = rulesets["srd-5e"]
    state, enc = three(ruleset)
    seen = [whose_turn(state)]
    for _ in range(3):
        state, _ = state_and_events(end_turn(with_combat(enc, state), ruleset))
        seen.append(whose_turn(state))
    assert seen == [A, B, C, A] and state.round == 2
    assert [e.kind for e in state.log].count("round") == 2


def test_start_of_turn_resets_reaction_and_movement(rulesets: Rulesets) -> None:
    ruleset = rulesets["srd-5e"]
    state, enc = three(ruleset)
    state, _ = state_and_events(spend_movement(with_combat(enc, state), ruleset, A, 20))
    state, _ = state_and_events(end_turn(with_combat(enc, state), ruleset))
    state, _ = state_and_events(
        use_reaction(with_combat(enc, state), ruleset, A, "opportunity attack on B")
    )
    with pytest.raises(IllegalActionError, match="already used its reaction"):
        state_and_events(use_reaction(with_combat(enc, state), ruleset, A, "again"))
    for _ in range(2):
        state, _ = state_and_events(end_turn(with_combat(enc, state), ruleset))
    combatant = state.combatant(A)
    assert whose_turn(state) == A and not combatant.reaction_used
    assert combatant.turn.movement_used == 0 and not combatant.turn.action_used


def test_start_and_end_of_turn_expiries(rulesets: Rulesets) -> None:
    ruleset = rulesets["srd-5e"]
    state, enc = three(ruleset)
    state, _ = state_and_events(
        apply_condition(
            with_combat(enc, state),
            ruleset,
            B,
            "blinded",
            expiry=Expiry.START_OF_TURN,
            expiry_creature=A,
        )
    )
    state, _ = state_and_events(
        apply_condition(
            with_combat(enc, state),
            ruleset,
            C,
            "poisoned",
            expiry=Expiry.END_OF_TURN,
            expiry_creature=C,
        )
    )
    state, _ = state_and_events(end_turn(with_combat(enc, state), ruleset))  # B's turn
    assert state.combatant(B).has_condition("blinded")
    state, _ = state_and_events(end_turn(with_combat(enc, state), ruleset))  # C's turn
    assert state.combatant(C).has_condition("poisoned")
    state, events = state_and_events(
        end_turn(with_combat(enc, state), ruleset)
    )  # C's turn ends, A starts
    assert not state.combatant(C).has_condition("poisoned")
    assert not state.combatant(B).has_condition("blinded")
    ended = [e.text for e in events if e.kind == "condition-ends"]
    assert len(ended) == 2


def test_dodge_lasts_until_the_start_of_the_next_turn(rulesets: Rulesets) -> None:
    ruleset = rulesets["srd-5e"]
    state, enc = three(ruleset)
    state, _ = state_and_events(take_action(with_combat(enc, state), ruleset, A, "dodge"))
    for _ in range(2):
        state, _ = state_and_events(end_turn(with_combat(enc, state), ruleset))
        assert state.combatant(A).dodging
    state, _ = state_and_events(end_turn(with_combat(enc, state), ruleset))
    assert not state.combatant(A).dodging


@pytest.mark.parametrize(
    ("ruleset_id", "ends_at_speed_0"),
    [("srd-5e", False), ("legends-of-hyrule", True), ("gms-den", True)],
)
def test_dodge_ends_early(rulesets: Rulesets, ruleset_id: str, ends_at_speed_0: bool) -> None:
    ruleset = rulesets[ruleset_id]
    state, enc = three(ruleset, ruleset_id)
    first = whose_turn(state)
    state, _ = state_and_events(take_action(with_combat(enc, state), ruleset, first, "dodge"))
    grappled, _ = state_and_events(
        apply_condition(with_combat(enc, state), ruleset, first, "grappled")
    )
    assert grappled.combatant(first).dodging is not ends_at_speed_0
    stunned, _ = state_and_events(
        apply_condition(with_combat(enc, state), ruleset, first, "stunned")
    )
    assert not stunned.combatant(first).dodging


def test_srd_disengage_lasts_for_the_rest_of_the_turn(rulesets: Rulesets) -> None:
    ruleset = rulesets["srd-5e"]
    state, enc = three(ruleset)
    state, _ = state_and_events(take_action(with_combat(enc, state), ruleset, A, "disengage"))
    assert state.combatant(A).disengaged
    state, _ = state_and_events(end_turn(with_combat(enc, state), ruleset))
    assert not state.combatant(A).disengaged


def hyrule_party_fight(ruleset: Ruleset) -> tuple[CombatState, Encounter]:
    """Party members A and C against hostile B in a legends-of-hyrule fight (seed 2)."""
    enc = encounter(
        creature("A", Side.PARTY, wis=30),
        creature("C", Side.PARTY, wis=30),
        creature("B", wis=1),
        ruleset="legends-of-hyrule",
    )
    return fight(ruleset, enc, seed=2), enc


def test_hyrule_disengage_lasts_until_the_groups_next_turn(rulesets: Rulesets) -> None:
    ruleset = rulesets["legends-of-hyrule"]
    state, enc = hyrule_party_fight(ruleset)
    assert state.group_order[0] == "side:party"
    first = whose_turn(state)
    state, _ = state_and_events(take_action(with_combat(enc, state), ruleset, first, "disengage"))
    state, _ = state_and_events(
        end_turn(with_combat(enc, state), ruleset)
    )  # the other party member
    assert state.combatant(first).disengaged
    state, _ = state_and_events(end_turn(with_combat(enc, state), ruleset))  # B (hostile side)
    assert whose_turn(state) == B and state.combatant(first).disengaged
    state, _ = state_and_events(
        end_turn(with_combat(enc, state), ruleset)
    )  # the party's group turn begins
    assert not state.combatant(first).disengaged


def test_hyrule_group_members_act_in_any_order(rulesets: Rulesets) -> None:
    ruleset = rulesets["legends-of-hyrule"]
    state, enc = hyrule_party_fight(ruleset)
    first = whose_turn(state)
    other = C if first == A else A
    swapped, _ = state_and_events(take_turn_now(with_combat(enc, state), ruleset, other))
    assert whose_turn(swapped) == other
    with pytest.raises(IllegalActionError, match="acting group"):
        state_and_events(take_turn_now(with_combat(enc, state), ruleset, B))
    moved, _ = state_and_events(spend_movement(with_combat(enc, state), ruleset, first, 5))
    with pytest.raises(IllegalActionError, match="already started"):
        state_and_events(take_turn_now(with_combat(enc, moved), ruleset, other))


def surprised_fight(ruleset: Ruleset, ruleset_id: str) -> tuple[CombatState, Encounter]:
    """The hidden rogue (A) acts first; the guard (B) is surprised and acts second."""
    enc = encounter(
        creature("A", Side.PARTY, stealth=40, init_bonus=40),
        creature("B", passive=1, init_bonus=20),
        ruleset=ruleset_id,
    )
    state = start_combat(enc, ruleset_id, 1)
    state, _ = state_and_events(determine_surprise(with_combat(enc, state), ruleset, [A]))
    state, _ = state_and_events(roll_initiative(with_combat(enc, state), ruleset))
    state, _ = state_and_events(begin_combat(with_combat(enc, state), ruleset))
    return state, enc


@pytest.mark.parametrize("ruleset_id", ["srd-5e", "gms-den"])
def test_surprised_creature_cant_move_act_or_react_until_its_turn_ends(
    rulesets: Rulesets, ruleset_id: str
) -> None:
    ruleset = rulesets[ruleset_id]
    state, enc = surprised_fight(ruleset, ruleset_id)
    assert state.combatant(B).surprised
    with pytest.raises(IllegalActionError, match="surprised"):
        state_and_events(use_reaction(with_combat(enc, state), ruleset, B, "opportunity attack"))
    state, events = state_and_events(end_turn(with_combat(enc, state), ruleset))
    assert any(e.kind == "surprised" for e in events)
    with pytest.raises(IllegalActionError, match="surprised"):
        state_and_events(take_action(with_combat(enc, state), ruleset, B, "dodge"))
    with pytest.raises(IllegalActionError, match="surprised"):
        state_and_events(spend_movement(with_combat(enc, state), ruleset, B, 5))
    state, _ = state_and_events(end_turn(with_combat(enc, state), ruleset))
    assert not state.combatant(B).surprised
    state, _ = state_and_events(
        use_reaction(with_combat(enc, state), ruleset, B, "opportunity attack")
    )


@pytest.mark.parametrize(("ruleset_id", "bonus_denied"), [("srd-5e", False), ("gms-den", True)])
def test_gms_den_surprise_also_denies_the_bonus_action(
    rulesets: Rulesets, ruleset_id: str, bonus_denied: bool
) -> None:
    ruleset = rulesets[ruleset_id]
    state, enc = surprised_fight(ruleset, ruleset_id)
    state, _ = state_and_events(end_turn(with_combat(enc, state), ruleset))
    state = state.with_combatant(
        state.combatant(B).model_copy(update={"bonus_action_features": ("dash",)})
    )
    if bonus_denied:
        with pytest.raises(IllegalActionError, match="surprised: no bonus-action"):
            state_and_events(
                take_action(with_combat(enc, state), ruleset, B, "dash", as_bonus_action=True)
            )
    else:
        state, _ = state_and_events(
            take_action(with_combat(enc, state), ruleset, B, "dash", as_bonus_action=True)
        )
        assert state.combatant(B).turn.bonus_action_used


def test_adding_a_combatant_mid_combat(rulesets: Rulesets) -> None:
    ruleset = rulesets["srd-5e"]
    state, enc = three(ruleset)
    enc = enc.model_copy(update={"creatures": (*enc.creatures, creature("D", init_bonus=30))})
    state, _ = state_and_events(add_combatant(with_combat(enc, state), ruleset, EntityId("d")))
    assert [s.creature_id for s in state.order] == [A, EntityId("d"), B, C]
    assert whose_turn(state) == A
    state, _ = state_and_events(end_turn(with_combat(enc, state), ruleset))
    assert whose_turn(state) == EntityId("d")
    with pytest.raises(InvalidRequestError, match="already in the combat"):
        state_and_events(add_combatant(with_combat(enc, state), ruleset, EntityId("d")))
    with pytest.raises(InvalidRequestError):
        state_and_events(add_combatant(with_combat(enc, state), ruleset, EntityId("ghost")))


def test_removing_the_current_combatant_starts_the_next_turn(rulesets: Rulesets) -> None:
    ruleset = rulesets["srd-5e"]
    state, enc = three(ruleset)
    state, _ = state_and_events(end_turn(with_combat(enc, state), ruleset))  # B's turn
    state, events = state_and_events(remove_combatant(with_combat(enc, state), ruleset, B))
    assert whose_turn(state) == C and not state.has(B)
    assert [e.kind for e in events][-1] == "turn-start"
    state, _ = state_and_events(
        remove_combatant(with_combat(enc, state), ruleset, A)
    )  # not current: C keeps the turn
    assert whose_turn(state) == C
    with pytest.raises(IllegalActionError, match="last combatant"):
        state_and_events(remove_combatant(with_combat(enc, state), ruleset, C))


def test_removing_the_last_in_order_on_its_turn_wraps_the_round(rulesets: Rulesets) -> None:
    ruleset = rulesets["srd-5e"]
    state, enc = three(ruleset)
    state, _ = state_and_events(end_turn(with_combat(enc, state), ruleset))
    state, _ = state_and_events(end_turn(with_combat(enc, state), ruleset))  # C's turn
    state, _ = state_and_events(remove_combatant(with_combat(enc, state), ruleset, C))
    assert whose_turn(state) == A and state.round == 2


def test_death_save_hook_runs_at_the_start_of_the_turn(rulesets: Rulesets) -> None:
    ruleset = rulesets["srd-5e"]
    enc = encounter(
        creature("A", Side.PARTY, init_bonus=40),
        creature("B", Side.PARTY, hp=0),
    )
    state = fight(ruleset, enc)
    state, events = state_and_events(end_turn(with_combat(enc, state), ruleset))
    assert any(e.kind == "death-save-due" for e in events)
    calls: list[EntityId] = []

    def hook(current: Encounter, rs: Ruleset, who: EntityId) -> Outcome[None]:
        calls.append(who)
        return Outcome(current, None, ())

    state, _ = state_and_events(end_turn(with_combat(enc, state), ruleset, hooks=[hook]))
    assert calls == [A]


def test_ending_a_turn_before_the_combat_begins(rulesets: Rulesets) -> None:
    ruleset = rulesets["srd-5e"]
    enc = encounter(creature("A"), creature("B"))
    state = start_combat(enc, "srd-5e", 1)
    with pytest.raises(IllegalActionError, match="hasn't begun"):
        state_and_events(end_turn(with_combat(enc, state), ruleset))
    with pytest.raises(IllegalActionError, match="initiative"):
        state_and_events(begin_combat(with_combat(enc, state), ruleset))


def test_combat_state_saves_with_the_encounter(rulesets: Rulesets) -> None:
    ruleset = rulesets["srd-5e"]
    state, enc = three(ruleset)
    state, _ = state_and_events(spend_movement(with_combat(enc, state), ruleset, A, 10))
    saved = enc.model_copy(update={"combat": state})
    loaded = type(enc).model_validate_json(saved.model_dump_json())
    assert loaded.combat == state
    # replay: the same request on the loaded state gives the same rolls
    again, _ = state_and_events(take_action(with_combat(enc, loaded.combat), ruleset, A, "hide"))
    first, _ = state_and_events(take_action(with_combat(enc, state), ruleset, A, "hide"))
    assert again.rolls[-1] == first.rolls[-1]


def test_condition_default_duration_comes_from_the_ruleset(rulesets: Rulesets) -> None:
    base = rulesets["srd-5e"]
    dazed = base.conditions["stunned"].model_copy(
        update={"name": "Dazed", "default_duration": "start-of-turn"}
    )
    ruleset = base.model_copy(update={"conditions": {**base.conditions, "dazed": dazed}})
    state, enc = three(ruleset)
    state, _ = state_and_events(apply_condition(with_combat(enc, state), ruleset, B, "dazed"))
    assert state.combatant(B).conditions[0].expiry is Expiry.START_OF_TURN
    state, _ = state_and_events(
        end_turn(with_combat(enc, state), ruleset)
    )  # B's turn starts: dazed ends
    assert not state.combatant(B).has_condition("dazed")
    with pytest.raises(InvalidRequestError, match="not a condition of this ruleset"):
        state_and_events(
            apply_condition(with_combat(enc, state), ruleset, B, "wounded")
        )  # final-fantasy-d20 only
