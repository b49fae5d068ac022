"""An area spell placed on a creature's turn: its Cast a Spell action, then the area's effect.

The Area damage dialog places a spell's area (a fireball) in one step: the caster's Cast a
Spell is spent by the economy (``take_action``, so every refusal holds: out of turn, action
spent, a bonus-action spell's cantrip limit) and the saves and damage follow on the encounter
it returns, one ``Outcome`` for the UI's one undo step. An area that spends its own action (a
breath weapon, ``use_save_action``) does not come here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TypeVar

from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.rules.economy import take_action
from battlemap.rules.enums import ActionCost, ActionKind
from battlemap.rules.errors import InvalidRequestError
from battlemap.rules.outcome import Outcome
from battlemap.rules.schema import Ruleset

R = TypeVar("R")


def cast_spell_action(ruleset: Ruleset) -> str:
    """The ruleset's Cast a Spell taken as an action (its first ``cast-spell`` action).

    Raises:
        InvalidRequestError: the ruleset has no such action.
    """
    for action_id, action in ruleset.actions.items():
        if action.kind is ActionKind.CAST_SPELL and action.cost is ActionCost.ACTION:
            return action_id
    raise InvalidRequestError("this ruleset has no Cast a Spell action")


def cast_spell(
    encounter: Encounter, ruleset: Ruleset, caster_id: EntityId, *, cantrip: bool = False
) -> Outcome[None]:
    """``caster_id`` takes Cast a Spell (the area's cast alone: a dialog asks whether this is
    what the rules refuse).

    Raises:
        IllegalActionError: the rules refuse the cast (its reason: the action already spent...).
    """
    return take_action(encounter, ruleset, caster_id, cast_spell_action(ruleset), cantrip=cantrip)


def cast_area_spell(
    encounter: Encounter,
    ruleset: Ruleset,
    caster_id: EntityId,
    effect: Callable[[Encounter], Outcome[R]],
    *,
    cantrip: bool = False,
) -> Outcome[R]:
    """``caster_id`` takes Cast a Spell, then ``effect`` (the area's saves and damage) runs on
    the encounter with the action spent; one outcome with the cast's log line first.

    Raises:
        IllegalActionError: the rules refuse the cast (its reason: the action already spent...).
    """
    cast = cast_spell(encounter, ruleset, caster_id, cantrip=cantrip)
    done = effect(cast.encounter)
    return replace(done, events=(*cast.events, *done.events))
