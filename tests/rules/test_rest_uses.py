"""Limited uses outlive a combat and come back with rests (issue 16), per ruleset.

bloodied-brink.txt "Resting": "Any entity can take 1 hour-long Short Rests in the midst of a
day and an 8-hour Long Rest to end it"; "Some features are recharged by a Short Rest [Long
Rest]. If you have such a feature, it recharges in the way specified in its description."
The SRD Adult Red Dragon's "Legendary Resistance (3/Day)" is a day's: a long rest. Fire
Breath (Recharge 5-6) and Action Surge ("a short or long rest") come back with either. The
other four documents have no rest rules: the DM says a rest was finished.
"""

from __future__ import annotations

import pytest

from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.model.statblock_actions import LEGENDARY_RESISTANCE
from battlemap.rules.errors import IllegalActionError
from battlemap.rules.limited_actions import (
    legendary_resistance_left,
    use_legendary_resistance,
    use_limited,
    use_save_action,
    use_statuses,
)
from battlemap.rules.rest_uses import RestType, regain_after_rest
from battlemap.rules.rests import long_rest, short_rest
from battlemap.rules.schema import Ruleset
from tests.rules.conftest import RULESET_IDS
from tests.rules.test_monster_actions import DRAGON, _dragon_fight

NO_REST_RULES = [r for r in RULESET_IDS if r != "bloodied-brink"]


def _left(encounter: Encounter, key: str) -> int:
    return next(s.left for s in use_statuses(encounter, DRAGON) if s.key == key)


def _spent_then_ended(ruleset: Ruleset, ruleset_id: str) -> Encounter:
    """The dragon breathes and uses Legendary Resistance twice; the combat ends."""
    fight = _dragon_fight().model_copy(update={"ruleset": ruleset_id})
    enc = use_save_action(fight, ruleset, DRAGON, "Fire Breath").encounter
    for _ in range(2):
        enc = use_limited(enc, ruleset, DRAGON, LEGENDARY_RESISTANCE).encounter
    return enc.with_combat_ended()


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_spent_uses_stay_on_the_creature_when_the_combat_ends(
    rulesets: dict[str, Ruleset], ruleset_id: str
) -> None:
    ended = _spent_then_ended(rulesets[ruleset_id], ruleset_id)
    assert ended.combat is None
    assert (_left(ended, LEGENDARY_RESISTANCE), _left(ended, "Fire Breath")) == (1, 0)
    again = Encounter.model_validate_json(ended.model_dump_json())  # saved and reopened
    assert _left(again, LEGENDARY_RESISTANCE) == 1


@pytest.mark.parametrize("ruleset_id", NO_REST_RULES)
def test_without_rest_rules_the_dm_says_a_rest_was_finished(
    rulesets: dict[str, Ruleset], ruleset_id: str
) -> None:
    ruleset = rulesets[ruleset_id]
    ended = _spent_then_ended(ruleset, ruleset_id)
    short = regain_after_rest(ended, ruleset, DRAGON, RestType.SHORT)
    assert short.result == ("Fire Breath",)  # not the day's Legendary Resistance
    assert (
        _left(short.encounter, LEGENDARY_RESISTANCE),
        _left(short.encounter, "Fire Breath"),
    ) == (
        1,
        1,
    )
    assert short.events[-1].text == "Adult Red Dragon regains after the short rest: Fire Breath"
    long = regain_after_rest(short.encounter, ruleset, DRAGON, RestType.LONG)
    assert long.result == (LEGENDARY_RESISTANCE,)
    assert _left(long.encounter, LEGENDARY_RESISTANCE) == 3
    assert regain_after_rest(long.encounter, ruleset, DRAGON, RestType.LONG).result == ()


def test_bloodied_brink_rests_give_the_uses_back_by_their_kind(
    rulesets: dict[str, Ruleset],
) -> None:
    ruleset = rulesets["bloodied-brink"]
    ended = _spent_then_ended(ruleset, "bloodied-brink")
    with pytest.raises(IllegalActionError, match="has its own short rest"):
        regain_after_rest(ended, ruleset, DRAGON, RestType.SHORT)
    short = short_rest(ended, ruleset, DRAGON, level=1, dice_total=4)
    assert (
        _left(short.encounter, LEGENDARY_RESISTANCE),
        _left(short.encounter, "Fire Breath"),
    ) == (
        1,
        1,
    )
    long = long_rest(short.encounter, ruleset, DRAGON, level=1, dice_total=6)
    assert _left(long.encounter, LEGENDARY_RESISTANCE) == 3
    assert "Adult Red Dragon regains after the long rest: Legendary Resistance" in [
        e.text for e in long.events
    ]


def test_regained_uses_are_one_step_that_the_old_encounter_keeps(
    rulesets: dict[str, Ruleset],
) -> None:
    """The engine changes a copy: the encounter before the rest (what undo returns to) still
    has the spent uses."""
    ruleset = rulesets["srd-5e"]
    ended = _spent_then_ended(ruleset, "srd-5e")
    regain_after_rest(ended, ruleset, DRAGON, RestType.LONG)
    assert _left(ended, LEGENDARY_RESISTANCE) == 1 and ended.creature(EntityId("dragon")).spent_uses


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_legendary_resistance_turns_a_failed_save_into_a_success_logged(
    rulesets: dict[str, Ruleset], ruleset_id: str
) -> None:
    """The SRD Adult Red Dragon: "Legendary Resistance (3/Day). If the dragon fails a saving
    throw, it can choose to succeed instead." In a combat and outside one."""
    ruleset = rulesets[ruleset_id]
    fight = _dragon_fight().model_copy(update={"ruleset": ruleset_id})
    used = use_legendary_resistance(fight, ruleset, DRAGON, "Wisdom save DC 17")
    assert used.result.left == 2
    assert used.events[-1].text == (
        "Adult Red Dragon uses Legendary Resistance (3/Day): 2 of 3 left:"
        " the failed Wisdom save DC 17 succeeds instead"
    )
    assert legendary_resistance_left(used.encounter, DRAGON) == 2
    outside = used.encounter.with_combat_ended()
    again = use_legendary_resistance(outside, ruleset, DRAGON, "Dexterity save DC 15")
    assert legendary_resistance_left(again.encounter, DRAGON) == 1
