"""Lair actions (issue 16): on initiative count 20, losing initiative ties, once a round, and
where the stat block says so not the same effect two rounds in a row. The SRD dragons' lair
text (not in the 5e-database JSON, so written here as a stat block from a loaded file gives
it): "On initiative count 20 (losing initiative ties), the dragon takes a lair action ...
The dragon can't use the same effect two rounds in a row." The five rules documents don't
change it."""

from __future__ import annotations

import pytest

from battlemap.model.encounter import Encounter
from battlemap.model.statblock import StatBlock
from battlemap.model.statblock_actions import ActionSource, TextAction
from battlemap.rules.errors import IllegalActionError
from battlemap.rules.lair import lair_row_index, lair_status, take_lair_action
from battlemap.rules.legendary import next_turn
from battlemap.rules.schema import Ruleset
from tests.rules.conftest import RULESET_IDS
from tests.rules.fighters import creature
from tests.rules.test_monster_actions import DRAGON, SRD, _fight, _monster

NO_REPEAT = "The dragon can't use the same effect two rounds in a row."


def _lair_fight(ruleset_id: str, text: str = NO_REPEAT) -> Encounter:
    """Dragon (initiative 20), hero (19): the lair comes after the dragon's turn."""
    lair = tuple(
        TextAction(name=name, source=ActionSource.LAIR, text=f"{name}. {text}")
        for name in ("Magma Eruption", "Tremor")
    )
    block: StatBlock = SRD["Adult Red Dragon"].model_copy(update={"lair_actions": lair})
    dragon = _monster("Adult Red Dragon", "dragon").model_copy(update={"statblock": block})
    fight = _fight(dragon, creature("hero"))
    return fight.model_copy(update={"ruleset": ruleset_id})


def _reasons(encounter: Encounter, ruleset: Ruleset) -> dict[str, str | None]:
    status = lair_status(encounter, ruleset, DRAGON)
    assert status is not None
    return {action.name: reason for action, reason in status.options}


def _round_on(encounter: Encounter, ruleset: Ruleset) -> Encounter:
    """From the hero's turn to the hero's turn of the next round."""
    return next_turn(next_turn(encounter, ruleset).encounter, ruleset).encounter


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_the_lair_acts_after_count_20_once_a_round_not_twice_in_a_row(
    rulesets: dict[str, Ruleset], ruleset_id: str
) -> None:
    ruleset = rulesets[ruleset_id]
    fight = _lair_fight(ruleset_id)
    assert fight.combat is not None and lair_row_index(fight.combat, fight) == 1
    first = _reasons(fight, ruleset)  # the dragon's own turn, on 20: the lair loses the tie
    assert all(r is not None and "after Adult Red Dragon's turn" in r for r in first.values())
    heros = next_turn(fight, ruleset).encounter
    assert _reasons(heros, ruleset) == {"Magma Eruption": None, "Tremor": None}
    taken = take_lair_action(heros, ruleset, DRAGON, "Magma Eruption")
    assert taken.events[-1].text == "Initiative 20: Adult Red Dragon's lair: Magma Eruption"
    with pytest.raises(IllegalActionError, match="acted this round"):
        take_lair_action(taken.encounter, ruleset, DRAGON, "Tremor")
    round_2 = _round_on(taken.encounter, ruleset)
    reasons = _reasons(round_2, ruleset)
    assert reasons["Tremor"] is None
    assert reasons["Magma Eruption"] == (
        "used last round: the lair can't use the same effect two rounds in a row"
    )
    tremor = take_lair_action(round_2, ruleset, DRAGON, "Tremor").encounter
    assert _reasons(_round_on(tremor, ruleset), ruleset)["Magma Eruption"] is None


def test_srd_without_the_stat_block_s_words_it_may_repeat(rulesets: dict[str, Ruleset]) -> None:
    ruleset = rulesets["srd-5e"]
    heros = next_turn(_lair_fight("srd-5e", text="The ground shakes."), ruleset).encounter
    taken = take_lair_action(heros, ruleset, DRAGON, "Magma Eruption").encounter
    assert _reasons(_round_on(taken, ruleset), ruleset)["Magma Eruption"] is None


def test_srd_a_lair_use_is_saved_and_reopened(rulesets: dict[str, Ruleset]) -> None:
    ruleset = rulesets["srd-5e"]
    heros = next_turn(_lair_fight("srd-5e"), ruleset).encounter
    taken = take_lair_action(heros, ruleset, DRAGON, "Tremor").encounter
    reopened = Encounter.model_validate_json(taken.model_dump_json())
    assert reopened == taken
    status = lair_status(reopened, ruleset, DRAGON)
    assert status is not None and status.text == "Lair: Tremor (round 1)"
