"""Legendary actions, lair actions, and the monster's part of a turn change.

The SRD stat blocks say it (the 5e-database JSON's ``legendary_actions`` text, e.g. the Adult
Red Dragon): "The dragon can take 3 legendary actions, choosing from the options below. Only
one legendary action option can be used at a time and only at the end of another creature's
turn. The dragon regains spent legendary actions at the start of its turn." So a legendary
creature takes ``Legendary.per_round`` a round, each costing 1-3 of them, and only in the
moment between one creature's turn and the next: ``end_of_turn`` opens it
(``CombatState.turn_ending``: the creature whose turn it was can do nothing more), and
``next_turn`` closes it as it starts the next turn. ``legendary_pause_due`` says whether the
moment is worth a stop (someone other than the creature whose turn ends could act in it).

Lair actions come on initiative count 20, losing ties: when the turn passes from initiative
20 or more to below 20 (or a round starts below it), the log says which lair acts.
``next_turn`` is ``turn_steps.next_turn`` plus these: the start of the new creature's turn
rolls its recharges and gives back its legendary actions, in the same undo step.
"""

from __future__ import annotations

from dataclasses import dataclass

from battlemap.model.combat import Combatant, CombatState
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.model.statblock_actions import LegendaryAction
from battlemap.rules.attacks_left import statblock_in
from battlemap.rules.combat_ops import allowed_option, combatant_of, name_of, require
from battlemap.rules.conditions import is_incapacitated
from battlemap.rules.draft import Draft
from battlemap.rules.errors import InvalidRequestError
from battlemap.rules.lair import LAIR_INITIATIVE
from battlemap.rules.limited_actions import RechargeRoll, roll_recharges
from battlemap.rules.outcome import Outcome, running_combat
from battlemap.rules.schema import Ruleset
from battlemap.rules.turn_steps import TurnStep, brink_pause
from battlemap.rules.turn_steps import next_turn as next_turn_step


@dataclass(frozen=True)
class LegendaryStatus:
    """A legendary creature's actions left this round, and each action allowed or not."""

    creature_id: EntityId
    per_round: int
    left: int
    actions: tuple[tuple[LegendaryAction, str | None], ...]
    """Each legendary action with the reason it can't be taken now (None: it can)."""

    @property
    def text(self) -> str:
        return f"Legendary {self.left}/{self.per_round}"


def legendary_status(
    encounter: Encounter, ruleset: Ruleset, creature_id: EntityId
) -> LegendaryStatus | None:
    """The creature's legendary actions now; None when its stat block has none."""
    state = running_combat(encounter)
    combatant = combatant_of(state, creature_id)
    block = statblock_in(encounter, combatant)
    legendary = block.legendary if block is not None else None
    if legendary is None or not legendary.actions or legendary.per_round == 0:
        return None
    left = max(0, legendary.per_round - combatant.legendary_used)
    name = name_of(encounter, creature_id)
    current = state.current
    general: str | None = None
    if not state.started:
        general = "the combat hasn't begun"
    elif current is not None and current.creature_id == creature_id:
        general = f"only at the end of another creature's turn, not on {name}'s own"
    elif not state.turn_ending:
        who = name_of(encounter, current.creature_id) if current is not None else "this"
        general = f"only at the end of another creature's turn: {who}'s turn hasn't ended yet"
    elif combatant.death.dead:
        general = f"{name} is dead"
    elif is_incapacitated(ruleset, combatant):
        general = f"{name} is incapacitated"
    actions = tuple(
        (
            action,
            general
            or (
                f"costs {action.cost}; {name} has {left} legendary action{'s' if left != 1 else ''}"
                " left this round"
                if action.cost > left
                else None
            ),
        )
        for action in legendary.actions
    )
    return LegendaryStatus(creature_id, legendary.per_round, left, actions)


def legendary_text(encounter: Encounter, combatant: Combatant) -> str:
    """``Legendary 2/3`` for the Initiative dock; empty when it has no legendary actions."""
    block = statblock_in(encounter, combatant)
    legendary = block.legendary if block is not None else None
    if legendary is None or not legendary.actions or legendary.per_round == 0:
        return ""
    left = max(0, legendary.per_round - combatant.legendary_used)
    return f"Legendary {left}/{legendary.per_round}"


def take_legendary_action(
    encounter: Encounter, ruleset: Ruleset, creature_id: EntityId, action_name: str
) -> Outcome[LegendaryAction]:
    """Spend the legendary action ``action_name``'s cost. Its attack or save then goes
    through the attack dialog (no action spent) or the area flow; text ones are the DM's.

    Raises:
        InvalidRequestError: no combat, no legendary actions, or no such action.
        IllegalActionError: its own turn, dead, incapacitated, or too few left.
    """
    status = legendary_status(encounter, ruleset, creature_id)
    name = name_of(encounter, creature_id)
    if status is None:
        raise InvalidRequestError(f"{name} has no legendary actions")
    action = allowed_option(status.actions, lambda a: a.name, action_name)
    draft = Draft(encounter, ruleset)
    combatant = draft.fighting(creature_id)
    used = combatant.legendary_used + action.cost
    draft.put(combatant.model_copy(update={"legendary_used": used}))
    left = status.per_round - used
    cost = f"costs {action.cost}, " if action.cost > 1 else ""
    text = f"{name} takes a legendary action: {action.name} ({cost}{left} left)"
    draft.add("legendary", text, creature_id)
    return draft.done(action)


def _with_turn_ending(encounter: Encounter) -> Encounter:
    state = running_combat(encounter)
    return encounter.model_copy(update={"combat": state.model_copy(update={"turn_ending": True})})


def legendary_now(encounter: Encounter, ruleset: Ruleset) -> tuple[LegendaryStatus, ...]:
    """Every legendary creature in the fight with its actions now, in initiative order."""
    state = running_combat(encounter)
    found = (legendary_status(encounter, ruleset, c.creature_id) for c in state.combatants)
    return tuple(status for status in found if status is not None)


def legendary_pause_due(encounter: Encounter, ruleset: Ruleset) -> tuple[EntityId, ...]:
    """Who could take a legendary action if the current turn ended now (none: ``next_turn``
    may go straight on). () before round 1 or once the turn has ended."""
    state = running_combat(encounter)
    if not state.started or state.turn_ending:
        return ()
    ending = _with_turn_ending(encounter)
    return tuple(
        status.creature_id
        for status in legendary_now(ending, ruleset)
        if any(reason is None for _, reason in status.actions)
    )


def end_of_turn(encounter: Encounter, ruleset: Ruleset) -> Outcome[tuple[EntityId, ...]]:
    """End the current creature's turn and stop before the next one: the moment legendary
    actions are taken in. The result is who may take one (``legendary_pause_due``); the
    turn's own end-of-turn effects come with ``next_turn``, which goes on from here.

    Raises:
        IllegalActionError: the combat hasn't begun, the turn has already ended, or the
            Brink of Death pauses initiative (``turn_steps.brink_pause``).
    """
    state = running_combat(encounter)
    require(state.started and state.current is not None, "the combat hasn't begun")
    require(not state.turn_ending, "the turn has already ended: Next turn goes on")
    paused = brink_pause(encounter, ruleset)  # no turn ends while someone must choose
    require(paused is None, paused or "")
    may_act = legendary_pause_due(encounter, ruleset)
    assert state.current is not None
    ended = state.current.creature_id
    draft = Draft(_with_turn_ending(encounter), ruleset)
    names = ", ".join(draft.name(c) for c in may_act) or "no one"
    draft.add(
        "turn-ending",
        f"End of {draft.name(ended)}'s turn: legendary actions may be taken ({names})",
        ended,
    )
    return draft.done(may_act)


@dataclass(frozen=True)
class MonsterTurnStep:
    """The turn change, with the new creature's recharge rolls and the lairs that act."""

    step: TurnStep
    recharges: tuple[RechargeRoll, ...]
    lairs: tuple[EntityId, ...]


def _initiative(combat: CombatState, creature_id: EntityId) -> int:
    combatant = combat.combatant(creature_id)
    return combatant.initiative if combatant.initiative is not None else 0


def lairs(encounter: Encounter) -> tuple[EntityId, ...]:
    """The combatants whose stat blocks have lair actions (and aren't dead)."""
    state = running_combat(encounter)
    found = []
    for combatant in state.combatants:
        block = statblock_in(encounter, combatant)
        if block is not None and block.lair_actions and not combatant.death.dead:
            found.append(combatant.creature_id)
    return tuple(found)


def next_turn(
    encounter: Encounter,
    ruleset: Ruleset,
    *,
    death_save_d20: int | None = None,
    recharge_d6: int | None = None,
) -> Outcome[MonsterTurnStep]:
    """``turn_steps.next_turn``, then the start of the new creature's turn: its legendary
    actions back, its spent Recharge actions rolled (``recharge_d6`` typed for the first),
    and the lair actions when initiative count 20 passed. One outcome: one undo step.

    Raises:
        IllegalActionError / InvalidRequestError: as ``turn_steps.next_turn``.
    """
    first_round = running_combat(encounter).round
    draft = Draft(encounter, ruleset)
    step = draft.run(lambda e: next_turn_step(e, ruleset, death_save_d20=death_save_d20))
    assert step is not None  # a combat is running
    started = step.started
    combatant = draft.fighting(started)
    if combatant.legendary_used:
        draft.put(combatant.model_copy(update={"legendary_used": 0}))
    recharges = draft.run(lambda e: roll_recharges(e, ruleset, started, d6=recharge_d6))
    now = draft.combat
    crossed = _initiative(now, started) < LAIR_INITIATIVE and (
        _initiative(now, step.ended) >= LAIR_INITIATIVE or now.round != first_round
    )
    acting = lairs(draft.encounter) if crossed else ()
    for creature_id in acting:
        block = statblock_in(draft.encounter, now.combatant(creature_id))
        options = ", ".join(a.name for a in block.lair_actions) if block else ""
        draft.add(
            "lair",
            f"Initiative 20: {draft.name(creature_id)}'s lair acts ({options})",
            creature_id,
        )
    return draft.done(MonsterTurnStep(step, recharges or (), acting))
