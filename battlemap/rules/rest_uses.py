"""What a finished rest gives back of a creature's limited uses, written once.

bloodied-brink.txt "Resting": "Any entity can take 1 hour-long Short Rests in the midst of a
day and an 8-hour Long Rest to end it", and of both rests: "Special Feature. Some features
are recharged by a Short Rest [Long Rest]. If you have such a feature, it recharges in the
way specified in its description." So each use comes back as its own text says:

- a short rest: Action Surge ("you must finish a short or long rest before you can use it
  again": the SRD 5.1 fighter's text, which none of the five documents has), the stat block's
  "Recharges after a Short or Long Rest" uses, and Recharge X-6 actions;
- a long rest, which ends the day: all of those and the "N/Day" uses, Legendary Resistance
  ("3/Day") among them.

None of the other four documents has rest rules, so there the DM says a rest was finished
(``regain_after_rest``); in bloodied-brink its own rests (``rests.short_rest`` and
``long_rest``) do it, and ``regain_after_rest`` points there. A combat ending gives nothing
back: the uses stay on the creature (``Creature.spent_uses``, ``action_surges_used``).
"""

from __future__ import annotations

from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.model.statblock_actions import UsageKind
from battlemap.rules.combat_ops import creature_of
from battlemap.rules.draft import Draft
from battlemap.rules.enums import RestType as RestType  # its home: the UI needs it at start
from battlemap.rules.errors import IllegalActionError
from battlemap.rules.limited_actions import use_statuses, with_spent
from battlemap.rules.outcome import Outcome
from battlemap.rules.schema import Ruleset

ACTION_SURGE_NAME = "Action Surge"


REGAINED_BY: dict[RestType, frozenset[UsageKind]] = {
    RestType.SHORT: frozenset({UsageKind.PER_REST, UsageKind.RECHARGE}),
    RestType.LONG: frozenset({UsageKind.PER_REST, UsageKind.RECHARGE, UsageKind.PER_DAY}),
}
"""The kinds of stat-block uses each rest gives back."""


def uses_to_regain(encounter: Encounter, creature_id: EntityId, kind: RestType) -> tuple[str, ...]:
    """The spent uses a ``kind`` rest would give the creature back, by name (Action Surge
    first, then its stat block's in order); () when nothing is spent."""
    creature = creature_of(encounter, creature_id)
    names = [ACTION_SURGE_NAME] if creature.action_surges_used else []
    names += [
        status.key
        for status in use_statuses(encounter, creature_id)
        if status.left < status.usage.times and status.usage.kind in REGAINED_BY[kind]
    ]
    return tuple(names)


def restore_uses(draft: Draft, creature_id: EntityId, kind: RestType) -> tuple[str, ...]:
    """Give back on ``draft`` what a finished ``kind`` rest restores (``REGAINED_BY``, Action
    Surge), logged in one line; the names regained."""
    names = uses_to_regain(draft.encounter, creature_id, kind)
    if not names:
        return ()
    creature = draft.creature(creature_id).model_copy(update={"action_surges_used": 0})
    for status in use_statuses(draft.encounter, creature_id):
        if status.usage.kind in REGAINED_BY[kind]:
            creature = with_spent(creature, status.key, 0)
    draft.put_creature(creature)
    draft.add(
        "rest-uses",
        f"{creature.name} regains after the {kind.value} rest: {', '.join(names)}",
        creature_id,
    )
    return names


def regain_refusal(ruleset: Ruleset, kind: RestType) -> str | None:
    """Why the DM can't just say a ``kind`` rest was finished (None: they can): the ruleset
    has its own rules for that rest, which give the uses back when it is taken."""
    rules = ruleset.rests.short if kind is RestType.SHORT else ruleset.rests.long
    if rules is not None:
        return (
            f"{ruleset.name} has its own {kind.value} rest: take it (Combat menu, Rest) and the"
            " uses come back with it"
        )
    return None


def regain_after_rest(
    encounter: Encounter, ruleset: Ruleset, creature_id: EntityId, kind: RestType
) -> Outcome[tuple[str, ...]]:
    """The DM says the creature finished a ``kind`` rest, in a ruleset without rules for that
    rest: its uses come back as ``restore_uses`` says (in or out of a combat). The result
    names what came back.

    Raises:
        InvalidRequestError: no such creature.
        IllegalActionError: ``regain_refusal``'s reason.
    """
    creature_of(encounter, creature_id)
    refusal = regain_refusal(ruleset, kind)
    if refusal is not None:
        raise IllegalActionError(refusal)
    draft = Draft(encounter, ruleset)
    return draft.done(restore_uses(draft, creature_id, kind))
