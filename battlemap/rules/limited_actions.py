"""A creature's limited actions: Recharge X-6 and N/day uses, and using a save action.

Uses are kept on the creature (``Creature.spent_uses``), saved with the encounter, undone
with the step that spent them and kept from one combat to the next until a rest gives them
back (``rest_uses``: a long rest the 1/Day ones and Legendary Resistance). A spent Recharge
action is rolled for at the start of the creature's turn (``roll_recharges``: a d6, typed
or rolled, ``recharge_on`` or more brings it back). Using a save action
(``use_save_action``) spends the creature's action and one use; the saving throws and
damage then go through the area or saving-throw flow.
"""

from __future__ import annotations

from dataclasses import dataclass

from battlemap.model.combat import Combatant
from battlemap.model.creature import Creature
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.model.statblock import StatBlock
from battlemap.model.statblock_actions import (
    LEGENDARY_RESISTANCE,
    SaveAction,
    SpentUse,
    Usage,
    UsageKind,
)
from battlemap.rules.attack_action import INCLUDED
from battlemap.rules.attacks_left import statblock_in
from battlemap.rules.combat_ops import combatant_of, creature_of, name_of, require
from battlemap.rules.conditions import is_incapacitated
from battlemap.rules.draft import Draft
from battlemap.rules.economy import turn_refusal
from battlemap.rules.errors import InvalidRequestError
from battlemap.rules.outcome import Outcome, running_combat
from battlemap.rules.schema import Ruleset
from battlemap.rules.statblock_lookup import find_statblock
from battlemap.rules.vitals import check_die


@dataclass(frozen=True)
class UseStatus:
    """One limited action's uses: ``left`` of ``usage.times`` (a Recharge action has one)."""

    key: str
    usage: Usage
    left: int

    @property
    def available(self) -> bool:
        return self.left > 0

    @property
    def text(self) -> str:
        """``Fire Breath (Recharge 5–6): ready``; ``Spit (3/Day): 1 of 3 left``."""
        head = f"{self.key} ({self.usage.text})"
        if self.usage.times == 1:
            return f"{head}: {'ready' if self.left else 'spent'}"
        return f"{head}: {self.left} of {self.usage.times} left"


@dataclass(frozen=True)
class RechargeRoll:
    key: str
    face: int
    recharged: bool


def limited_uses(block: StatBlock | None) -> dict[str, Usage]:
    """Every limited action of the stat block by its uses key (options sharing one, such as
    a dragon's Breath Weapons, once), Legendary Resistance included."""
    if block is None:
        return {}
    uses: dict[str, Usage] = {}
    for save in block.save_actions:
        if save.usage is not None:
            uses.setdefault(save.uses_key, save.usage)
    for text in block.text_actions:
        if text.usage is not None:
            uses.setdefault(text.name, text.usage)
    if block.legendary is not None and block.legendary.resistances:
        times = block.legendary.resistances
        uses[LEGENDARY_RESISTANCE] = Usage(kind=UsageKind.PER_DAY, times=times)
    return uses


def spent_of(creature: Creature, key: str) -> int:
    """Uses of ``key`` the creature has spent since they last came back."""
    return next((s.spent for s in creature.spent_uses if s.key == key), 0)


def with_spent(creature: Creature, key: str, spent: int) -> Creature:
    """A copy with ``spent`` uses of ``key`` spent (0: none, the entry dropped)."""
    others = tuple(s for s in creature.spent_uses if s.key != key)
    kept = (*others, SpentUse(key=key, spent=spent)) if spent > 0 else others
    return creature.model_copy(update={"spent_uses": kept})


def _block(encounter: Encounter, creature_id: EntityId) -> StatBlock | None:
    return find_statblock(creature_of(encounter, creature_id), encounter, {})


def use_statuses(encounter: Encounter, creature_id: EntityId) -> tuple[UseStatus, ...]:
    """The creature's limited actions with the uses left, in stat-block order (in a combat
    or not).

    Raises:
        InvalidRequestError: no such creature.
    """
    creature = creature_of(encounter, creature_id)
    uses = limited_uses(_block(encounter, creature_id))
    return tuple(
        UseStatus(key, usage, max(0, usage.times - spent_of(creature, key)))
        for key, usage in uses.items()
    )


def use_limited(
    encounter: Encounter, ruleset: Ruleset, creature_id: EntityId, key: str, because: str = ""
) -> Outcome[UseStatus]:
    """Spend one use of the creature's limited action ``key`` (in a combat or not);
    ``because`` says what for, in the log line.

    Raises:
        InvalidRequestError: no such creature, or it has no such limited action.
        IllegalActionError: no use left.
    """
    creature = creature_of(encounter, creature_id)
    name = creature.name
    usage = limited_uses(_block(encounter, creature_id)).get(key)
    if usage is None:
        raise InvalidRequestError(f"{name} has no limited action '{key[:80]}'")
    spent = spent_of(creature, key)
    require(spent < usage.times, f"{name}'s {key} is spent ({usage.text})")
    draft = Draft(encounter, ruleset)
    draft.put_creature(with_spent(creature, key, spent + 1))
    status = UseStatus(key, usage, usage.times - spent - 1)
    draft.add("use", f"{name} uses {status.text}{f': {because}' if because else ''}", creature_id)
    return draft.done(status)


def legendary_resistance_left(encounter: Encounter, creature_id: EntityId) -> int:
    """Uses of Legendary Resistance the creature has left (0: none, or it has none)."""
    found = (s for s in use_statuses(encounter, creature_id) if s.key == LEGENDARY_RESISTANCE)
    return next((s.left for s in found), 0)


def use_legendary_resistance(
    encounter: Encounter, ruleset: Ruleset, creature_id: EntityId, failed_save: str
) -> Outcome[UseStatus]:
    """The creature failed ``failed_save`` (``Dexterity save DC 21``) and chooses to succeed
    instead (the SRD stat blocks' "Legendary Resistance (3/Day). If the dragon fails a saving
    throw, it can choose to succeed instead"): one use spent, logged with the save.

    Raises:
        InvalidRequestError: it has no Legendary Resistance. IllegalActionError: none left.
    """
    because = f"the failed {failed_save} succeeds instead"
    return use_limited(encounter, ruleset, creature_id, LEGENDARY_RESISTANCE, because)


def save_action_of(encounter: Encounter, creature_id: EntityId, name: str) -> SaveAction:
    """The creature's save action ``name``.

    Raises:
        InvalidRequestError: it has none of that name.
    """
    combatant = combatant_of(running_combat(encounter), creature_id)
    block = statblock_in(encounter, combatant)
    for save in block.save_actions if block is not None else ():
        if save.name == name:
            return save
    raise InvalidRequestError(f"{name_of(encounter, creature_id)} has no save action '{name[:80]}'")


def _included(combatant: Combatant, name: str) -> bool:
    """The Multiattack taken this turn includes ``name`` and it hasn't been used yet."""
    taken = combatant.turn.actions_taken
    return f"{INCLUDED}{name}" in taken and name not in taken


def save_action_refusal(
    encounter: Encounter, ruleset: Ruleset, creature_id: EntityId, name: str
) -> str | None:
    """Why the creature can't use its save action ``name`` now (None: it can): its turn, its
    action, incapacitated, dead, or the uses spent. Nothing is rolled."""
    state = running_combat(encounter)
    combatant = combatant_of(state, creature_id)
    who = name_of(encounter, creature_id)
    save = save_action_of(encounter, creature_id, name)
    reason = turn_refusal(state, encounter, creature_id)
    if reason is not None:
        return reason
    if combatant.death.dead:
        return f"{who} is dead"
    if is_incapacitated(ruleset, combatant):
        return f"{who} is incapacitated"
    if combatant.turn.action_used and not _included(combatant, name):
        return f"{who} has already used its action this turn"
    spent = spent_of(creature_of(encounter, creature_id), save.uses_key)
    if save.usage is not None and spent >= save.usage.times:
        return f"{who}'s {save.uses_key} is spent ({save.usage.text})"
    return None


def use_save_action(
    encounter: Encounter, ruleset: Ruleset, creature_id: EntityId, name: str
) -> Outcome[SaveAction]:
    """Use the save action ``name`` (a breath weapon): spends the action and one use. The
    result is the action, for the area or saving-throw flow to pre-fill from.

    Raises:
        InvalidRequestError: no combat, or no such save action.
        IllegalActionError: with ``save_action_refusal``'s reason.
    """
    reason = save_action_refusal(encounter, ruleset, creature_id, name)
    require(reason is None, reason or "")
    save = save_action_of(encounter, creature_id, name)
    draft = Draft(encounter, ruleset)
    combatant = draft.fighting(creature_id)
    spends = "part of its Multiattack" if _included(combatant, name) else "action"
    turn = combatant.turn.model_copy(
        update={"action_used": True, "actions_taken": (*combatant.turn.actions_taken, name)}
    )
    draft.put(combatant.model_copy(update={"turn": turn}))
    if save.usage is not None:
        creature = draft.creature(creature_id)
        spent = spent_of(creature, save.uses_key)
        draft.put_creature(with_spent(creature, save.uses_key, spent + 1))
    area = f", {save.area.text}" if save.area is not None else ""
    half = ", half on a success" if save.half_on_success else ""
    text = (
        f"{name_of(encounter, creature_id)} uses {name} ({spends}): DC {save.dc}"
        f" {save.ability.value.capitalize()} save{area}{half}"
    )
    draft.add("action", text, creature_id)
    return draft.done(save)


def recharges_due(encounter: Encounter, creature_id: EntityId) -> tuple[str, ...]:
    """The creature's spent Recharge actions (rolled for at the start of its turn)."""
    return tuple(
        status.key
        for status in use_statuses(encounter, creature_id)
        if status.usage.kind is UsageKind.RECHARGE and not status.available
    )


def roll_recharges(
    encounter: Encounter,
    ruleset: Ruleset,
    creature_id: EntityId,
    *,
    d6: int | None = None,
) -> Outcome[tuple[RechargeRoll, ...]]:
    """Roll a d6 for each spent Recharge action (``d6`` typed in applies to the first one;
    the others are rolled): ``recharge_on`` or more and it is ready again. Logged.

    Raises:
        InvalidRequestError: no combat. BadDieError: a typed face that isn't 1-6.
    """
    running_combat(encounter)
    name = name_of(encounter, creature_id)
    uses = limited_uses(_block(encounter, creature_id))
    draft = Draft(encounter, ruleset)
    results: list[RechargeRoll] = []
    typed = d6
    for key in recharges_due(encounter, creature_id):
        purpose = f"{name}'s {key} recharge"
        if typed is not None:
            check_die(typed, 6, purpose)
        face = draft.roll("1d6", purpose, creature_id, typed).total
        typed = None  # a typed die is the first roll's
        recharged = face >= uses[key].recharge_on
        if recharged:
            draft.put_creature(with_spent(draft.creature(creature_id), key, 0))
        word = "recharged" if recharged else f"not recharged (needs {uses[key].recharge_on}+)"
        draft.add("recharge", f"{name}'s {key}: {word}", creature_id)
        results.append(RechargeRoll(key, face, recharged))
    return draft.done(tuple(results))
