"""Hypothesis: any sequence of engine requests keeps the combat state consistent and replayable.

Every request either returns a new state or raises a ``CombatError`` (a ``ValueError``) and
leaves the state it was given untouched; replaying the same requests from the same start gives
the very same state (the dice are part of it).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from battlemap.model.combat import CombatState
from battlemap.model.creature import Side
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.rules.conditions import apply_condition, remove_condition
from battlemap.rules.economy import interact_with_object, take_action, use_reaction
from battlemap.rules.errors import CombatError
from battlemap.rules.movement import movement_budget, spend_movement, stand_up
from battlemap.rules.outcome import with_combat
from battlemap.rules.schema import Ruleset
from battlemap.rules.turns import end_turn
from tests.rules.conftest import RULESET_IDS
from tests.rules.helpers import StateAndEvents, creature, encounter, fight, state_and_events

IDS = [EntityId(n) for n in ("a", "b", "c", "d")]
ACTIONS = ["attack", "dash", "disengage", "dodge", "hide", "search", "use-object", "help"]
CONDITIONS = ["prone", "grappled", "stunned", "poisoned", "restrained"]

Request = tuple[str, int, int]
requests = st.lists(
    st.tuples(
        st.sampled_from(["end", "act", "bonus", "move", "react", "cond", "uncond", "stand", "obj"]),
        st.integers(min_value=0, max_value=3),
        st.integers(min_value=0, max_value=40),
    ),
    max_size=25,
)


def build(ruleset: Ruleset, ruleset_id: str, seed: int) -> tuple[CombatState, Encounter]:
    enc = encounter(
        creature("A", Side.PARTY, dex=14, wis=12),
        creature("B", Side.HOSTILE, dex=12),
        creature("C", Side.PARTY, fly=30),
        creature("D", Side.HOSTILE, wis=8),
        ruleset=ruleset_id,
    )
    return fight(ruleset, enc, seed), enc


def perform(
    state: CombatState, ruleset: Ruleset, enc: Encounter, request: Request
) -> StateAndEvents:
    kind, who_index, amount = request
    who = IDS[who_index]
    other = IDS[(who_index + 1) % 4]
    calls: dict[str, Callable[[], StateAndEvents]] = {
        "end": lambda: state_and_events(end_turn(with_combat(enc, state), ruleset)),
        "act": lambda: state_and_events(
            take_action(
                with_combat(enc, state),
                ruleset,
                who,
                ACTIONS[amount % len(ACTIONS)],
                target_id=other,
            )
        ),
        "bonus": lambda: state_and_events(
            take_action(with_combat(enc, state), ruleset, who, "dash", as_bonus_action=True)
        ),
        "move": lambda: state_and_events(
            spend_movement(with_combat(enc, state), ruleset, who, amount)
        ),
        "react": lambda: state_and_events(
            use_reaction(with_combat(enc, state), ruleset, who, "opportunity attack")
        ),
        "cond": lambda: state_and_events(
            apply_condition(
                with_combat(enc, state), ruleset, who, CONDITIONS[amount % len(CONDITIONS)]
            )
        ),
        "uncond": lambda: state_and_events(
            remove_condition(
                with_combat(enc, state), ruleset, who, CONDITIONS[amount % len(CONDITIONS)]
            )
        ),
        "stand": lambda: state_and_events(stand_up(with_combat(enc, state), ruleset, who)),
        "obj": lambda: state_and_events(
            interact_with_object(with_combat(enc, state), ruleset, who, "a lever")
        ),
    }
    return calls[kind]()


def run(ruleset: Ruleset, ruleset_id: str, seed: int, script: list[Request]) -> CombatState:
    state, enc = build(ruleset, ruleset_id, seed)
    for request in script:
        # A snapshot, not ``before = state``: comparing an object with itself can't fail.
        before = state.model_dump()
        try:
            after, events = perform(state, ruleset, enc, request)
        except CombatError:
            assert state.model_dump() == before
            continue
        assert after.log[len(after.log) - len(events) :] == events
        assert after.dice.draws >= state.dice.draws and len(after.log) >= len(state.log)
        state = after
        check_invariants(state, ruleset, enc)
    return state


def check_invariants(state: CombatState, ruleset: Ruleset, enc: Encounter) -> None:
    assert state.round >= 1 and 0 <= state.turn_index < len(state.order)
    regular = Counter(s.creature_id for s in state.order if not s.extra)
    assert regular == Counter(c.creature_id for c in state.combatants)
    assert all(v == 1 for v in regular.values())
    for combatant in state.combatants:
        budget = movement_budget(state, ruleset, enc, combatant.creature_id)
        assert budget.remaining >= 0 and combatant.turn.movement_used >= 0
        assert len({c.name for c in combatant.conditions}) == len(combatant.conditions)


@settings(max_examples=40, deadline=None)
@given(
    ruleset_id=st.sampled_from(RULESET_IDS),
    seed=st.integers(min_value=0, max_value=10_000),
    script=requests,
)
def test_any_request_sequence_is_consistent_and_replays(
    rulesets: dict[str, Ruleset], ruleset_id: str, seed: int, script: list[Request]
) -> None:
    ruleset = rulesets[ruleset_id]
    first = run(ruleset, ruleset_id, seed, script)
    second = run(ruleset, ruleset_id, seed, script)
    assert first == second
