"""Saves due block Next turn until they are made (issue 16): a concentration save after
damage (its DC is the ruleset's ``concentration`` section: no document states it) and a save
that ends a condition at the end of the creature's turn ("At the end of each of its turns,
the target can make another Wisdom saving throw"). They are decisions of the fight, listed
as cards (``pending_decisions``) with the reason Next turn is refused."""

from __future__ import annotations

import pytest

from battlemap.model.combat import SaveEnds
from battlemap.model.encounter import Encounter
from battlemap.rules.concentration import concentrate, concentration_save
from battlemap.rules.damage import DamageInstance, apply_damage
from battlemap.rules.effects import apply_effect, effect_save
from battlemap.rules.errors import IllegalActionError
from battlemap.rules.pending import DecisionKind, next_turn_refusal, pending_decisions
from battlemap.rules.schema import Ruleset
from battlemap.rules.turn_steps import next_turn
from tests.rules.conftest import RULESET_IDS
from tests.rules.test_effects import CLERIC, OGRE, _fight


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_a_concentration_save_due_blocks_next_turn_until_made(
    rulesets: dict[str, Ruleset], ruleset_id: str
) -> None:
    ruleset = rulesets[ruleset_id]
    enc = concentrate(_fight(ruleset_id), ruleset, CLERIC, "Bless").encounter
    enc = apply_damage(enc, ruleset, CLERIC, [DamageInstance(4, "fire")]).encounter
    (decision,) = pending_decisions(enc, ruleset)
    assert (decision.kind, decision.creature_id, decision.blocks_next_turn) == (
        DecisionKind.SAVE_DUE,
        CLERIC,
        True,
    )
    reason = "make the saves due first: Cleric: Constitution save DC 10 to keep concentrating on"
    assert (next_turn_refusal(enc, ruleset) or "").startswith(reason)
    with pytest.raises(IllegalActionError, match=reason):
        next_turn(enc, ruleset)
    made = concentration_save(enc, ruleset, CLERIC, typed=(15,)).encounter
    assert pending_decisions(made, ruleset) == () and next_turn_refusal(made, ruleset) is None
    assert next_turn(made, ruleset).result.started == OGRE


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_an_end_of_turn_save_blocks_the_next_turn_change(
    rulesets: dict[str, Ruleset], ruleset_id: str
) -> None:
    ruleset = rulesets[ruleset_id]
    enc = apply_effect(
        _fight(ruleset_id), ruleset, OGRE, "paralyzed", save=SaveEnds(ability="wis", dc=14)
    ).encounter
    enc = next_turn(next_turn(enc, ruleset).encounter, ruleset).encounter  # the ogre's turn ends
    assert [d.kind for d in pending_decisions(enc, ruleset)] == [DecisionKind.SAVE_DUE]
    with pytest.raises(IllegalActionError, match="Wisdom save DC 14 to end paralyzed"):
        next_turn(enc, ruleset)
    failed = effect_save(enc, ruleset, OGRE, "paralyzed", typed=(2,)).encounter
    assert next_turn(failed, ruleset).result.started == OGRE  # still paralyzed, saved already


def test_srd_outside_a_combat_a_save_due_is_a_card_that_blocks_nothing(
    rulesets: dict[str, Ruleset],
) -> None:
    ruleset = rulesets["srd-5e"]
    enc: Encounter = _fight().model_copy(update={"combat": None})
    enc = concentrate(enc, ruleset, CLERIC, "Bless").encounter
    enc = apply_damage(enc, ruleset, CLERIC, [DamageInstance(12, "fire")]).encounter
    (decision,) = pending_decisions(enc, ruleset)
    assert decision.kind is DecisionKind.SAVE_DUE and not decision.blocks_next_turn
    assert "Constitution save DC 10" in decision.text  # half of 12 is less than 10
