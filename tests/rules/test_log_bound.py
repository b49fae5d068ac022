"""A long fight keeps at most MAX_LOG log lines and roll records, dropping the oldest, so the
combat it saves is one the file loader accepts (the model refuses longer logs)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from battlemap.model.combat import CombatState, keep_newest
from battlemap.model.limits import MAX_LOG
from battlemap.rules.outcome import with_combat
from battlemap.rules.schema import Ruleset
from battlemap.rules.turns import end_turn
from tests.rules.helpers import creature, encounter, fight, state_and_events


def test_a_full_log_drops_its_oldest_lines_and_still_validates(
    rulesets: dict[str, Ruleset],
) -> None:
    """srd-5e: a combat whose log and rolls are already full goes on: ending a turn logs its
    lines, the oldest go, and the state still passes the model's own limits."""
    ruleset = rulesets["srd-5e"]
    enc = encounter(creature("Goblin"), creature("Orc"))
    state = fight(ruleset, enc)
    assert state.log and state.rolls
    full = state.model_copy(
        update={"log": (state.log[0],) * MAX_LOG, "rolls": (state.rolls[0],) * MAX_LOG}
    )
    after, events = state_and_events(end_turn(with_combat(enc, full), ruleset))
    assert events
    assert len(after.log) == MAX_LOG and after.log[-len(events) :] == events
    assert len(after.rolls) <= MAX_LOG
    CombatState.model_validate(after.model_dump())  # what opening the saved file does


@given(st.integers(0, 9), st.integers(0, 9), st.integers(1, 6))
def test_keep_newest_keeps_the_newest_items_in_order(old: int, new: int, limit: int) -> None:
    earlier = tuple(f"old {i}" for i in range(old))
    later = [f"new {i}" for i in range(new)]
    kept = keep_newest(earlier, later, limit)
    everything = earlier + tuple(later)
    assert kept == everything[max(0, len(everything) - limit) :]
