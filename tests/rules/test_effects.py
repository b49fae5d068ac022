"""Conditions that end on a save at the end of each turn, and durations counted in rounds
(issue 16). srd-5e.txt "Combat Round": "Each round represents about 6 seconds", so "1 minute"
is 10 rounds. A save "at the end of each of its turns" is the SRD's wording for effects such as
Hold Person ("At the end of each of its turns, the target can make another Wisdom saving
throw. On a success, the spell ends on the target"); none of the five documents changes it.
"""

from __future__ import annotations

import pytest

from battlemap.model.combat import SaveEnds
from battlemap.model.creature import Side
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.rules.concentration import concentrate
from battlemap.rules.effects import apply_effect, effect_save, rounds_in
from battlemap.rules.errors import InvalidRequestError
from battlemap.rules.initiative import start_combat
from battlemap.rules.saves_due import SaveKind, saves_due
from battlemap.rules.schema import Ruleset
from battlemap.rules.turn_steps import next_turn
from battlemap.rules.turns import end_turn
from tests.rules.conftest import RULESET_IDS
from tests.rules.fighters import combat_of, creature, encounter_of

Rulesets = dict[str, Ruleset]
CLERIC, OGRE = EntityId("cleric"), EntityId("ogre")


def _fight(ruleset_id: str = "srd-5e") -> Encounter:
    """Cleric then Ogre, round 1, the cleric's turn."""
    enc = encounter_of(
        creature("cleric"), creature("ogre", hp=59, side=Side.HOSTILE), ruleset=ruleset_id
    )
    return enc.model_copy(update={"combat": combat_of(enc)})


def _conditions(enc: Encounter, who: EntityId) -> list[str]:
    assert enc.combat is not None
    return [c.name for c in enc.combat.combatant(who).conditions]


def _turns(enc: Encounter, ruleset: Ruleset, count: int) -> Encounter:
    for _ in range(count):
        enc = next_turn(enc, ruleset).encounter
    return enc


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_a_save_at_the_end_of_each_turn_ends_the_condition_on_a_success(
    rulesets: Rulesets, ruleset_id: str
) -> None:
    """The cleric paralyzes the ogre (Wisdom DC 14, save at the end of each of its turns). The
    ogre's turn ends: the save is due; it types 3 (+0): still paralyzed, nothing owed until
    its next turn ends; then a 16: the paralysis ends."""
    ruleset = rulesets[ruleset_id]
    enc = apply_effect(
        _fight(ruleset_id), ruleset, OGRE, "paralyzed", save=SaveEnds(ability="wis", dc=14)
    ).encounter
    assert saves_due(enc) == ()
    enc = _turns(enc, ruleset, 1)  # the cleric's turn ends: nothing for the ogre yet
    assert saves_due(enc) == ()
    turned = next_turn(enc, ruleset)  # the ogre's turn ends
    assert "Ogre: Wisdom save DC 14 due to end paralyzed" in [e.text for e in turned.events]
    (due,) = saves_due(turned.encounter)
    assert (due.kind, due.condition, due.dc, due.ability.value) == (
        SaveKind.ENDS_CONDITION,
        "paralyzed",
        14,
        "wis",
    )
    failed = effect_save(turned.encounter, ruleset, OGRE, "paralyzed", typed=(3,))
    assert not failed.result.ended and _conditions(failed.encounter, OGRE) == ["paralyzed"]
    assert saves_due(failed.encounter) == ()
    with pytest.raises(InvalidRequestError, match="owes no save to end paralyzed"):
        effect_save(failed.encounter, ruleset, OGRE, "paralyzed", typed=(16,))
    again = _turns(failed.encounter, ruleset, 2)  # round 2: cleric, then the ogre again
    saved = effect_save(again, ruleset, OGRE, "paralyzed", typed=(16,))
    assert saved.result.ended and _conditions(saved.encounter, OGRE) == []


def test_srd_one_minute_is_ten_rounds_of_the_creature_s_turns(rulesets: Rulesets) -> None:
    srd = rulesets["srd-5e"]
    enc = apply_effect(_fight(), srd, OGRE, "poisoned", rounds=rounds_in(1)).encounter
    assert rounds_in(1) == 10
    enc = _turns(enc, srd, 2 * 9)  # nine rounds: cleric and ogre each end nine turns
    assert enc.combat is not None and enc.combat.round == 10
    (poisoned,) = enc.combat.combatant(OGRE).conditions
    assert poisoned.rounds_left == 1
    enc = _turns(enc, srd, 1)  # the cleric's 10th turn ends: not the ogre's count
    assert _conditions(enc, OGRE) == ["poisoned"]
    last = next_turn(enc, srd)  # the ogre's 10th turn ends
    assert _conditions(last.encounter, OGRE) == []
    assert "Ogre: poisoned ends (its duration is over)" in [e.text for e in last.events]


def test_srd_a_duration_can_count_on_the_caster_s_turns(rulesets: Rulesets) -> None:
    """Counted on the cleric (who acts first): 1 round ends when her turn ends."""
    srd = rulesets["srd-5e"]
    enc = apply_effect(_fight(), srd, OGRE, "frightened", rounds=1, counted_on=CLERIC).encounter
    assert _conditions(_turns(enc, srd, 1), OGRE) == []


def test_srd_held_conditions_need_a_concentrating_holder(rulesets: Rulesets) -> None:
    srd = rulesets["srd-5e"]
    with pytest.raises(InvalidRequestError, match="Cleric is not concentrating"):
        apply_effect(_fight(), srd, OGRE, "paralyzed", held_by=CLERIC)
    holding = concentrate(_fight(), srd, CLERIC, "Hold Person").encounter
    held = apply_effect(holding, srd, OGRE, "paralyzed", held_by=CLERIC)
    assert held.result.held_by == CLERIC
    assert any("held by Cleric's concentration" in e.text for e in held.events)
    with pytest.raises(InvalidRequestError, match="1 to 14400 rounds"):
        apply_effect(holding, srd, OGRE, "poisoned", rounds=0)


def test_srd_outside_a_combat_the_rounds_wait_for_the_next_combat(rulesets: Rulesets) -> None:
    srd = rulesets["srd-5e"]
    enc = encounter_of(creature("cleric"), creature("ogre", side=Side.HOSTILE))
    enc = apply_effect(
        enc, srd, OGRE, "poisoned", rounds=10, save=SaveEnds(ability="con", dc=12)
    ).encounter
    lasting = enc.creature(OGRE).lasting
    assert lasting is not None
    (poisoned,) = lasting.conditions
    assert poisoned.rounds_left == 10 and poisoned.save_ends is not None
    combat = start_combat(enc, "srd-5e", 1)
    assert combat.combatant(OGRE).conditions == (poisoned,)


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_turns_end_turn_alone_counts_durations_and_makes_saves_due(
    rulesets: Rulesets, ruleset_id: str
) -> None:
    """The engine's own turn change (``turns.end_turn``, no UI path, no death-save step)
    counts the ogre's 1-round poison down and makes its paralysis save due, as
    ``turn_steps.next_turn`` does: one place."""
    ruleset = rulesets[ruleset_id]
    enc = apply_effect(_fight(ruleset_id), ruleset, OGRE, "poisoned", rounds=1).encounter
    enc = apply_effect(
        enc, ruleset, OGRE, "paralyzed", save=SaveEnds(ability="wis", dc=14)
    ).encounter
    enc = end_turn(enc, ruleset).encounter  # the cleric's turn
    assert _conditions(enc, OGRE) == ["poisoned", "paralyzed"] and saves_due(enc) == ()
    ended = end_turn(enc, ruleset)  # the ogre's turn
    assert _conditions(ended.encounter, OGRE) == ["paralyzed"]
    assert [d.condition for d in saves_due(ended.encounter)] == ["paralyzed"]
    texts = [e.text for e in ended.events]
    assert "Ogre: poisoned ends (its duration is over)" in texts
    assert texts.count("Ogre: Wisdom save DC 14 due to end paralyzed") == 1
