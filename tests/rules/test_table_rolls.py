"""The dice roller's rolls (``roll_for_the_log``): d20 notation, a line in the session's log,
one undoable step that redo replays with the same result."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from battlemap.model.combat import CombatEvent, CombatState, DiceState
from battlemap.model.encounter import Encounter
from battlemap.rules.dice import DiceExpressionError, new_dice_state, roll
from battlemap.rules.table_rolls import MAX_PURPOSE, ROLLER_KIND, roll_for_the_log

EARLIER = CombatEvent(round=0, kind="note", text="earlier")


def test_outside_a_combat_the_roll_goes_into_the_encounter_log() -> None:
    encounter = Encounter(log=(EARLIER,))
    dice = new_dice_state(41)
    rolled = roll_for_the_log(encounter, dice, " 1d20+5 ")
    _, same = roll(dice, "1d20+5")  # the roller's dice are the project's seeded dice
    assert rolled.record == same
    assert rolled.dice.draws > dice.draws  # the next roll draws on
    after = rolled.command.apply(encounter)
    assert after.log == (EARLIER, rolled.event)
    assert rolled.event.kind == ROLLER_KIND and rolled.event.round == 0
    assert rolled.event.text == f"Dice roller: {same.detail}"
    assert rolled.event.text.endswith(f"= {same.total}")
    assert rolled.command.text == f"Roll 1d20+5 = {same.total}"
    assert rolled.command.revert(after) == encounter


def test_in_a_combat_the_roll_goes_into_the_combats_log_and_its_dice_stay() -> None:
    combat = CombatState(ruleset="srd-5e", round=3, dice=DiceState(seed=5, draws=9), log=())
    encounter = Encounter(log=(EARLIER,), combat=combat)
    rolled = roll_for_the_log(encounter, new_dice_state(1), "8d6", purpose="Fireball")
    after = rolled.command.apply(encounter)
    assert after.log == (EARLIER,)
    assert after.combat is not None and after.combat.log == (rolled.event,)
    assert after.combat.dice == combat.dice  # the engine's next rolls are not shifted
    assert rolled.event.round == 3
    assert rolled.event.text.startswith("Dice roller, Fireball: 8d6 (")
    assert after.session_log()[-1] == rolled.event
    assert rolled.command.revert(after) == encounter


def test_a_bad_expression_rolls_nothing() -> None:
    with pytest.raises(DiceExpressionError, match="syntax error"):
        roll_for_the_log(Encounter(), new_dice_state(1), "1d20+")
    with pytest.raises(DiceExpressionError, match="empty"):
        roll_for_the_log(Encounter(), new_dice_state(1), "   ")


def test_a_long_purpose_is_cut() -> None:
    rolled = roll_for_the_log(Encounter(), new_dice_state(1), "1d4", purpose="x" * 500)
    assert rolled.record.purpose == "x" * MAX_PURPOSE


@settings(max_examples=60, deadline=None)
@given(
    count=st.integers(1, 20),
    sides=st.sampled_from([4, 6, 8, 10, 12, 20, 100]),
    bonus=st.integers(-10, 10),
    seed=st.integers(0, 2**31),
)
def test_the_total_is_within_the_dice_and_the_line_names_it(
    count: int, sides: int, bonus: int, seed: int
) -> None:
    expression = f"{count}d{sides}{bonus:+d}"
    rolled = roll_for_the_log(Encounter(), new_dice_state(seed), expression)
    assert count + bonus <= rolled.record.total <= count * sides + bonus
    assert len(rolled.record.kept) == count
    assert rolled.event.text.endswith(f"= {rolled.record.total}")
    CHECKED.append(expression)


CHECKED: list[str] = []


def test_the_property_checked_many_expressions() -> None:
    """Runs after the property test (file order): it really tried many cases."""
    assert len(CHECKED) >= 50
