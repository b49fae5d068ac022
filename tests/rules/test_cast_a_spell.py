"""Cast a Spell (SRD 5.1 "Actions in Combat > Cast a Spell"; gms-den's and legends-of-hyrule's
documents list it too): a spell with a casting time of 1 action spends the action, and
"Casting Time > Bonus Action" leaves the action only a cantrip (srd-5e.yaml's economy)."""

from __future__ import annotations

import pytest

from battlemap.rules.economy import grant_bonus_action, take_action
from battlemap.rules.enums import ActionCost, ActionKind
from battlemap.rules.errors import IllegalActionError
from battlemap.rules.legal import ChoiceKind, legal_actions
from battlemap.rules.outcome import with_combat
from battlemap.rules.schema import Ruleset
from tests.rules.helpers import state_and_events
from tests.rules.test_economy import A, duel

RULESETS = ["srd-5e", "bloodied-brink", "final-fantasy-d20", "gms-den", "legends-of-hyrule"]


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_every_ruleset_casts_a_spell_with_its_action(
    rulesets: dict[str, Ruleset], ruleset_id: str
) -> None:
    """srd-5e has it; the variants inherit it (bloodied-brink, final-fantasy-d20: silent on
    it) or restate it (gms-den "Action > Cast a Spell", legends-of-hyrule "Cast a Spell")."""
    action = rulesets[ruleset_id].actions["cast-a-spell"]
    assert (action.kind, action.cost) == (ActionKind.CAST_SPELL, ActionCost.ACTION)
    assert action.source and action.description


def test_srd_a_levelled_spell_spends_the_action(rulesets: dict[str, Ruleset]) -> None:
    ruleset = rulesets["srd-5e"]
    state, enc = duel(ruleset)
    before = legal_actions(with_combat(enc, state), ruleset, A).choice(
        ChoiceKind.ACTION, "cast-a-spell"
    )
    assert before.allowed
    state, events = state_and_events(
        take_action(with_combat(enc, state), ruleset, A, "cast-a-spell")
    )
    caster = state.combatant(A)
    assert caster.turn.action_used
    assert caster.turn.actions_taken == ("cast-a-spell:leveled",)
    assert any("takes Cast a Spell" in event.text for event in events)
    after = legal_actions(with_combat(enc, state), ruleset, A)
    for action_id in ("cast-a-spell", "dodge", "dash"):  # the action is gone for all of them
        assert not after.choice(ChoiceKind.ACTION, action_id).allowed, action_id
    with pytest.raises(IllegalActionError):
        take_action(with_combat(enc, state), ruleset, A, "cast-a-spell", cantrip=True)


def test_srd_a_bonus_action_spell_leaves_the_action_a_cantrip(
    rulesets: dict[str, Ruleset],
) -> None:
    ruleset = rulesets["srd-5e"]
    state, enc = duel(ruleset)
    state, _ = state_and_events(
        grant_bonus_action(with_combat(enc, state), ruleset, A, ("cast-a-spell",))
    )
    state, _ = state_and_events(
        take_action(with_combat(enc, state), ruleset, A, "cast-a-spell", as_bonus_action=True)
    )
    with pytest.raises(IllegalActionError, match="only cast a cantrip"):
        take_action(with_combat(enc, state), ruleset, A, "cast-a-spell")
    state, _ = state_and_events(
        take_action(with_combat(enc, state), ruleset, A, "cast-a-spell", cantrip=True)
    )
    assert state.combatant(A).turn.action_used
