"""The encounter's session log: bounded, in time order, and an ended combat's log is kept."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from battlemap.model import encounter as encounter_module
from battlemap.model.combat import CombatEvent, CombatState, DiceState
from battlemap.model.encounter import COMBAT_ENDED, Encounter, bounded_log


def line(text: str, round_: int = 0, kind: str = "damage") -> CombatEvent:
    return CombatEvent(round=round_, kind=kind, text=text)


def fight(round_: int, *texts: str) -> CombatState:
    return CombatState(
        ruleset="srd-5e",
        round=round_,
        dice=DiceState(seed=1),
        log=tuple(line(t, round_, "action") for t in texts),
    )


def test_with_log_appends_in_order_and_keeps_the_earlier_lines() -> None:
    first = line("Goblin takes 7 fire")
    encounter = Encounter().with_log([first]).with_log([line("Cleric regains 4 HP")])
    assert [e.text for e in encounter.log] == ["Goblin takes 7 fire", "Cleric regains 4 HP"]
    assert encounter.log[0] is first  # appended, not copied: the Log dock relies on it


def test_the_session_log_is_the_encounter_log_then_the_running_combat() -> None:
    before = line("area damage before initiative")
    encounter = Encounter(combat=fight(2, "Goblin attacks")).with_log([before])
    assert [e.text for e in encounter.session_log()] == [
        "area damage before initiative",
        "Goblin attacks",
    ]
    assert Encounter().with_log([before]).session_log() == (before,)


def test_ending_a_combat_keeps_its_log_under_a_combat_ended_line() -> None:
    encounter = Encounter(combat=fight(3, "round 3 begins", "Orc dies")).with_log([line("a")])
    ended = encounter.with_combat_ended()
    assert ended.combat is None
    assert [e.text for e in ended.log] == [
        "a",
        "round 3 begins",
        "Orc dies",
        "Combat ended in round 3",
    ]
    assert ended.log[-1].kind == COMBAT_ENDED and ended.log[-1].round == 3
    assert ended.session_log() == (*encounter.session_log(), ended.log[-1])


def test_a_combat_ended_before_its_first_round_says_so() -> None:
    ended = Encounter(combat=fight(0)).with_combat_ended()
    assert [e.text for e in ended.log] == ["Combat ended before its first round"]


def test_ending_without_a_combat_changes_nothing() -> None:
    encounter = Encounter().with_log([line("a")])
    assert encounter.with_combat_ended() is encounter


def test_the_log_drops_its_oldest_lines_past_the_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(encounter_module, "MAX_ENCOUNTER_LOG", 3)
    encounter = Encounter().with_log([line(str(i)) for i in range(2)])
    encounter = encounter.with_log([line("2"), line("3"), line("4")])
    assert [e.text for e in encounter.log] == ["2", "3", "4"]
    ended = Encounter(combat=fight(1, "x", "y")).with_log([line("z")]).with_combat_ended()
    assert [e.text for e in ended.log] == ["x", "y", "Combat ended in round 1"]


def test_the_bound_is_the_models_own_limit() -> None:
    assert Encounter.model_fields["log"].metadata[0].max_length == (
        encounter_module.MAX_ENCOUNTER_LOG
    )


@given(st.integers(0, 12), st.integers(0, 12), st.integers(1, 8))
def test_bounded_log_keeps_the_newest_lines(old: int, new: int, limit: int) -> None:
    original = encounter_module.MAX_ENCOUNTER_LOG
    encounter_module.MAX_ENCOUNTER_LOG = limit
    try:
        earlier = tuple(line(f"old {i}") for i in range(old))
        later = [line(f"new {i}") for i in range(new)]
        kept = bounded_log(earlier, later)
    finally:
        encounter_module.MAX_ENCOUNTER_LOG = original
    everything = earlier + tuple(later)
    assert len(kept) == min(len(everything), limit)
    assert kept == everything[len(everything) - len(kept) :]
