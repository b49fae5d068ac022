"""Legendary actions only at the end of another creature's turn (issue 16), as the SRD stat
blocks say (the 5e-database JSON, Adult Red Dragon): "Only one legendary action option can be
used at a time and only at the end of another creature's turn. The dragon regains spent
legendary actions at the start of its turn." None of the five rules documents changes it, so
every ruleset plays it the same."""

from __future__ import annotations

import pytest

from battlemap.model.combat import DeathState
from battlemap.model.encounter import Encounter
from battlemap.rules.economy import take_action
from battlemap.rules.errors import IllegalActionError
from battlemap.rules.legal import legal_actions
from battlemap.rules.legendary import (
    end_of_turn,
    legendary_pause_due,
    legendary_status,
    next_turn,
    take_legendary_action,
)
from battlemap.rules.outcome import with_combat
from battlemap.rules.schema import Ruleset
from tests.rules.conftest import RULESET_IDS
from tests.rules.test_monster_actions import DRAGON, HERO, _dragon_fight


def _heros_turn(ruleset: Ruleset, ruleset_id: str) -> Encounter:
    fight = _dragon_fight().model_copy(update={"ruleset": ruleset_id})
    return next_turn(fight, ruleset).encounter  # the dragon (20) -> the hero (19)


def _reasons(encounter: Encounter, ruleset: Ruleset) -> list[str | None]:
    status = legendary_status(encounter, ruleset, DRAGON)
    assert status is not None
    return [reason for _, reason in status.actions]


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_not_during_the_hero_s_turn_only_at_its_end(
    rulesets: dict[str, Ruleset], ruleset_id: str
) -> None:
    ruleset = rulesets[ruleset_id]
    during = _heros_turn(ruleset, ruleset_id)
    assert all(
        r == "only at the end of another creature's turn: Hero's turn hasn't ended yet"
        for r in _reasons(during, ruleset)
    )
    with pytest.raises(IllegalActionError, match="Hero's turn hasn't ended yet"):
        take_legendary_action(during, ruleset, DRAGON, "Tail Attack")
    assert legendary_pause_due(during, ruleset) == (DRAGON,)
    ended = end_of_turn(during, ruleset)
    assert ended.result == (DRAGON,)
    assert ended.events[-1].text == (
        "End of Hero's turn: legendary actions may be taken (Adult Red Dragon)"
    )
    assert _reasons(ended.encounter, ruleset) == [None, None, None]
    assert legendary_pause_due(ended.encounter, ruleset) == ()  # the moment is open already
    with pytest.raises(IllegalActionError, match="Hero's turn has ended"):
        take_action(ended.encounter, ruleset, HERO, "dodge")  # the hero is done
    with pytest.raises(IllegalActionError, match="already ended"):
        end_of_turn(ended.encounter, ruleset)
    tail = take_legendary_action(ended.encounter, ruleset, DRAGON, "Tail Attack").encounter
    dragons_turn = next_turn(tail, ruleset).encounter  # the moment closes; the dragon's turn
    assert dragons_turn.combat is not None and not dragons_turn.combat.turn_ending
    assert legendary_pause_due(dragons_turn, ruleset) == ()  # its own turn: no one else has any
    status = legendary_status(dragons_turn, ruleset, DRAGON)
    assert status is not None and status.left == 3  # regained at the start of its turn


def test_srd_the_pause_is_due_again_next_round_and_never_for_the_dead(
    rulesets: dict[str, Ruleset],
) -> None:
    ruleset = rulesets["srd-5e"]
    during = _heros_turn(ruleset, "srd-5e")
    ended = end_of_turn(during, ruleset).encounter
    for action in ("Wing Attack", "Tail Attack"):  # 2 + 1: all three spent
        ended = take_legendary_action(ended, ruleset, DRAGON, action).encounter
    assert all(r is not None and "has 0 legendary" in r for r in _reasons(ended, ruleset))
    spent = next_turn(ended, ruleset).encounter  # the dragon's turn: all back
    round_2 = next_turn(spent, ruleset).encounter  # the hero's turn again
    assert legendary_pause_due(round_2, ruleset) == (DRAGON,)
    state = round_2.combat
    assert state is not None
    dead = state.combatant(DRAGON).model_copy(update={"death": DeathState(dead=True)})
    assert legendary_pause_due(with_combat(round_2, state.with_combatant(dead)), ruleset) == ()


def test_srd_the_legal_query_offers_them_only_at_the_turn_s_end(
    rulesets: dict[str, Ruleset],
) -> None:
    ruleset = rulesets["srd-5e"]
    during = _heros_turn(ruleset, "srd-5e")
    choices = legal_actions(during, ruleset, DRAGON).legendary
    assert [c.id for c in choices] == [
        "legendary:Detect",
        "legendary:Tail Attack",
        "legendary:Wing Attack",
    ]
    assert not any(c.allowed for c in choices)
    ended = end_of_turn(during, ruleset).encounter
    assert all(c.allowed for c in legal_actions(ended, ruleset, DRAGON).legendary)
    assert legal_actions(ended, ruleset, HERO).legendary == ()  # the hero has none


def test_bloodied_brink_no_turn_ends_while_someone_chooses_on_the_brink(
    rulesets: dict[str, Ruleset],
) -> None:
    """bloodied-brink pauses initiative until a creature on the Brink of Death chooses: the
    end of the turn, the legendary moment, waits too."""
    ruleset = rulesets["bloodied-brink"]
    during = _heros_turn(ruleset, "bloodied-brink")
    state = during.combat
    assert state is not None
    brink = state.combatant(HERO).model_copy(update={"death": DeathState(brink=True)})
    paused = with_combat(during, state.with_combatant(brink))
    with pytest.raises(IllegalActionError, match="must choose on the Brink"):
        end_of_turn(paused, ruleset)
