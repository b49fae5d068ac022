"""Turns and rounds: starting the fight, ending a turn, lasting effects, joining and leaving.

Start of a creature's turn: its reaction and movement come back (``TurnState`` resets), its
Dodge, Help and readied action end, and effects lasting "until the start of its next turn" end
on everyone. In legends-of-hyrule, effects lasting "until the start of the group's next turn"
(Disengage) end when the first member of that group starts a turn. End of its turn: effects
lasting "until the end of its turn" end (and those lasting "until the end of its next turn"
that began before this turn), Disengage (srd: "for the rest of the turn") ends, and
a surprised creature stops being surprised. gms-den's extra turns (natural 20) come after
everyone's round-1 turn and are dropped when round 1 ends. A dead creature's turn is skipped.

The start-of-turn death saving throw belongs to the damage engine: pass it in ``hooks``;
without one, the draft notes that a save is due.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

from battlemap.model.combat import (
    ActiveCondition,
    Combatant,
    CombatState,
    Expiry,
    TurnState,
)
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.rules.combat_ops import (
    combatant_of,
    creature_of,
    is_dying,
    name_of,
    require,
)
from battlemap.rules.draft import Draft
from battlemap.rules.durations import count_turn_end
from battlemap.rules.enums import DisengageDuration
from battlemap.rules.errors import IllegalActionError, InvalidRequestError
from battlemap.rules.initiative import insert_sorted, roll_one
from battlemap.rules.outcome import Outcome, running_combat, with_combat
from battlemap.rules.schema import Ruleset

TurnHook = Callable[[Encounter, Ruleset, EntityId], Outcome[object]]
"""Called at the start of a creature's turn after the resets (e.g. the death saving throw)."""


def begin_combat(
    encounter: Encounter, ruleset: Ruleset, hooks: Sequence[TurnHook] = ()
) -> Outcome[None]:
    """Round 1 begins with the first creature in the order.

    Raises:
        IllegalActionError: already started, no combatants, or someone has no initiative.
    """
    state = running_combat(encounter)
    require(not state.started, "the combat has already begun")
    require(bool(state.order), "roll or enter initiative first")
    missing = [name_of(encounter, c.creature_id) for c in state.combatants if c.initiative is None]
    require(not missing, f"no initiative yet for {', '.join(missing)}")
    draft = Draft(
        with_combat(encounter, state.model_copy(update={"round": 1, "turn_index": 0})), ruleset
    )
    draft.add("round", "round 1 begins")
    _start_turn(draft, ruleset, encounter, hooks)
    return draft.done(None)


def end_turn(
    encounter: Encounter, ruleset: Ruleset, hooks: Sequence[TurnHook] = ()
) -> Outcome[None]:
    """End the current turn and start the next one (a new round after the last slot). The
    ending turn counts durations and makes end-of-turn saves due (``durations``).

    Raises:
        IllegalActionError: the combat hasn't begun.
    """
    state = running_combat(encounter)
    require(state.started and bool(state.order), "the combat hasn't begun")
    draft = Draft(encounter, ruleset)
    count_turn_end(draft, state.order[state.turn_index].creature_id)
    _finish_turn(draft, encounter)
    draft.combat = draft.combat.model_copy(update={"turn_ending": False})
    _advance(draft)
    _skip_the_dead(draft, encounter)
    _start_turn(draft, ruleset, encounter, hooks)
    return draft.done(None)


def _advance(draft: Draft) -> None:
    """To the next slot, or the first of a new round after the last."""
    index = draft.combat.turn_index + 1
    if index >= len(draft.combat.order):
        _new_round(draft)
    else:
        draft.combat = draft.combat.model_copy(update={"turn_index": index})


def _skip_the_dead(draft: Draft, encounter: Encounter) -> None:
    """A dead creature's turn is skipped, logged (``turn-skipped``); what lasts until the
    start or the end of its turn ends as the turn passes. A dying creature still has its turn
    (its death save). Once round the order at most: when everyone is dead, the next turn
    starts anyway."""
    for _ in range(len(draft.combat.order)):
        creature_id = draft.combat.order[draft.combat.turn_index].creature_id
        if not combatant_of(draft.combat, creature_id).death.dead:
            return
        name = name_of(encounter, creature_id)
        draft.add("turn-skipped", f"{name}'s turn is skipped: dead", creature_id)
        passed = (Expiry.START_OF_TURN, Expiry.END_OF_TURN, Expiry.END_OF_NEXT_TURN)
        _expire(draft, encounter, passed, {creature_id}, f"{name}'s turn passed")
        _advance(draft)


def upcoming_creature(state: CombatState) -> EntityId | None:
    """The creature whose turn comes after the current one's (dead ones skipped, as
    ``end_turn`` skips them; into the next round, without its extra turns), or None."""
    later = (*state.order[state.turn_index + 1 :], *(s for s in state.order if not s.extra))
    for slot in later:
        if not combatant_of(state, slot.creature_id).death.dead:
            return slot.creature_id
    return None


def _new_round(draft: Draft) -> None:
    state = draft.combat
    order = tuple(s for s in state.order if not s.extra)  # extra turns happen in round 1 only
    combatants = tuple(
        c.model_copy(update={"acted_this_round": False, "extra_turn": False})
        for c in state.combatants
    )
    draft.combat = state.model_copy(
        update={
            "round": state.round + 1,
            "turn_index": 0,
            "order": order,
            "combatants": combatants,
        }
    )
    draft.add("round", f"round {state.round + 1} begins")


def _expire(
    draft: Draft,
    encounter: Encounter,
    expiries: tuple[Expiry, ...],
    owners: set[EntityId],
    why: str,
) -> None:
    """End conditions with one of ``expiries`` tied to any creature in ``owners``, on every
    combatant. An ``END_OF_NEXT_TURN`` condition with a turn end to skip loses that skip
    instead (it started during this turn: "until the end of your next turn")."""
    for combatant in draft.combat.combatants:
        if not combatant.conditions:
            continue
        kept: list[ActiveCondition] = []
        changed = False
        for condition in combatant.conditions:
            if condition.expiry not in expiries or condition.expiry_creature not in owners:
                kept.append(condition)
                continue
            changed = True
            if condition.turn_ends_to_skip > 0:
                skip = condition.turn_ends_to_skip - 1
                kept.append(condition.model_copy(update={"turn_ends_to_skip": skip}))
            else:
                draft.add(
                    "condition-ends",
                    f"{name_of(encounter, combatant.creature_id)}: {condition.name} ends ({why})",
                    combatant.creature_id,
                )
        if changed:
            draft.put(combatant.model_copy(update={"conditions": tuple(kept)}))


def _start_turn(
    draft: Draft, ruleset: Ruleset, encounter: Encounter, hooks: Sequence[TurnHook]
) -> None:
    state = draft.combat
    slot = state.order[state.turn_index]
    creature_id = slot.creature_id
    name = name_of(encounter, creature_id)
    draft.add("turn-start", f"{name}'s {'extra ' if slot.extra else ''}turn", creature_id)
    combatant = combatant_of(state, creature_id)
    previous = state.order[state.turn_index - 1] if state.turn_index > 0 else None
    group_starts = previous is None or combatant_of(state, previous.creature_id).group != (
        combatant.group
    )
    if group_starts:
        members = {c.creature_id for c in state.combatants if c.group == combatant.group}
        _expire(draft, encounter, (Expiry.START_OF_GROUP_TURN,), members, "its group's turn began")
        for member_id in members:
            member = combatant_of(draft.combat, member_id)
            if member.disengaged and member.disengage_expiry is Expiry.START_OF_GROUP_TURN:
                draft.put(member.model_copy(update={"disengaged": False}))
                draft.add(
                    "effect-ends", f"{name_of(encounter, member_id)}: Disengage ends", member_id
                )
    _expire(draft, encounter, (Expiry.START_OF_TURN,), {creature_id}, f"start of {name}'s turn")
    combatant = combatant_of(draft.combat, creature_id)
    for flag, label in (("dodging", "Dodge"), ("helping", "Help"), ("readied", "readied action")):
        if getattr(combatant, flag):
            draft.add("effect-ends", f"{name}: {label} ends", creature_id)
    draft.put(
        combatant.model_copy(
            update={
                "reaction_used": False,
                "reactions_taken": 0,
                "reaction_move_left": 0,
                "turn": TurnState(),
                "dodging": False,
                "helping": None,
                "readied": None,
            }
        )
    )
    if combatant.surprised and combatant.turns_taken == 0:
        denied = ", ".join(part.value for part in ruleset.surprise.denied_on_first_turn)
        draft.add("surprised", f"{name} is surprised: no {denied} this turn", creature_id)
    creature = creature_of(encounter, creature_id)
    if is_dying(creature, combatant) and not hooks:
        draft.add("death-save-due", f"{name} starts the turn at 0 HP: death save due", creature_id)
    for hook in hooks:
        draft.run(partial(_run_hook, hook, ruleset, creature_id))


def _run_hook(
    hook: TurnHook, ruleset: Ruleset, creature_id: EntityId, encounter: Encounter
) -> Outcome[object]:
    return hook(encounter, ruleset, creature_id)


def _finish_turn(draft: Draft, encounter: Encounter) -> None:
    slot = draft.combat.order[draft.combat.turn_index]
    creature_id = slot.creature_id
    name = name_of(encounter, creature_id)
    _expire(
        draft,
        encounter,
        (Expiry.END_OF_TURN, Expiry.END_OF_NEXT_TURN),
        {creature_id},
        f"end of {name}'s turn",
    )
    combatant = combatant_of(draft.combat, creature_id)
    update: dict[str, object] = {
        "turns_taken": combatant.turns_taken + 1,
        "acted_this_round": True,
        "surprised": False,
        "reaction_move_left": 0,
    }
    if combatant.disengaged and combatant.disengage_expiry is Expiry.END_OF_TURN:
        update["disengaged"] = False
        draft.add("effect-ends", f"{name}: Disengage ends", creature_id)
    if combatant.surprised:
        draft.add("surprise-ends", f"{name} is no longer surprised", creature_id)
    draft.put(combatant.model_copy(update=update))
    draft.add("turn-end", f"{name}'s turn ends", creature_id)


def take_turn_now(encounter: Encounter, ruleset: Ruleset, creature_id: EntityId) -> Outcome[None]:
    """legends-of-hyrule: a member of the acting group who hasn't gone yet takes the turn now.

    Allowed while the current creature has spent nothing this turn; the two swap places.

    Raises:
        IllegalActionError: not the same group, already acted, or the current turn is used.
    """
    state = running_combat(encounter)
    require(state.started, "the combat hasn't begun")
    current = state.order[state.turn_index]
    if current.creature_id == creature_id:
        return Outcome(encounter, None, ())
    mover = combatant_of(state, creature_id)
    now = combatant_of(state, current.creature_id)
    require(mover.group == now.group, "only a member of the acting group can go now")
    index = next(
        (i for i, s in enumerate(state.order) if s.creature_id == creature_id and not s.extra),
        -1,
    )
    require(index > state.turn_index, f"{name_of(encounter, creature_id)} has already acted")
    require(now.turn == TurnState(), "the current creature has already started its turn")
    order = list(state.order)
    order[state.turn_index], order[index] = order[index], order[state.turn_index]
    draft = Draft(with_combat(encounter, state.model_copy(update={"order": tuple(order)})), ruleset)
    draft.put(
        mover.model_copy(update={"turn": TurnState(), "reaction_used": False, "reactions_taken": 0})
    )
    draft.add("turn-start", f"{name_of(encounter, creature_id)} goes now instead", creature_id)
    return draft.done(None)


def add_combatant(
    encounter: Encounter,
    ruleset: Ruleset,
    creature_id: EntityId,
    initiative: int | None = None,
) -> Outcome[None]:
    """A creature joins: rolls initiative (or takes ``initiative``) and slots into the order.

    Joining mid-round after its place has passed, it acts from the next round.

    Raises:
        InvalidRequestError: the creature isn't in the encounter or is already fighting.
    """
    state = running_combat(encounter)
    creature_of(encounter, creature_id)
    if state.has(creature_id):
        raise InvalidRequestError(f"{name_of(encounter, creature_id)} is already in the combat")
    draft = Draft(encounter, ruleset)
    combatant = roll_one(draft, ruleset, encounter, creature_id)
    if initiative is not None:
        combatant = combatant.model_copy(update={"initiative": initiative})
    draft.combat = draft.combat.model_copy(
        update={"combatants": (*draft.combat.combatants, combatant)}
    )
    if draft.combat.order or state.started:
        draft.combat = insert_sorted(draft.combat, ruleset, encounter)
    draft.add("joins", f"{name_of(encounter, creature_id)} joins the combat", creature_id)
    return draft.done(None)


def remove_combatant(
    encounter: Encounter,
    ruleset: Ruleset,
    creature_id: EntityId,
    hooks: Sequence[TurnHook] = (),
) -> Outcome[None]:
    """A creature leaves the combat. If it was its turn, the next creature's turn starts. A
    mount it controlled becomes independent.

    Raises:
        InvalidRequestError: it isn't in the combat.
        IllegalActionError: it is the last combatant of a running combat.
    """
    state = running_combat(encounter)
    combatant_of(state, creature_id)
    was_current = state.current is not None and state.current.creature_id == creature_id
    order = [s for s in state.order if s.creature_id != creature_id]
    require(not (state.started and not order), "the last combatant can't leave; end the combat")
    before = sum(
        1
        for i, s in enumerate(state.order)
        if s.creature_id == creature_id and i < state.turn_index
    )
    index = state.turn_index - before
    combatants = tuple(
        c.model_copy(update={"controlled_by": None}) if c.controlled_by == creature_id else c
        for c in state.combatants
        if c.creature_id != creature_id
    )
    new_round = state.started and index >= len(order)
    draft = Draft(
        with_combat(
            encounter,
            state.model_copy(
                update={
                    "order": tuple(order),
                    "combatants": combatants,
                    "turn_index": 0 if new_round else index,
                }
            ),
        ),
        ruleset,
    )
    draft.add("leaves", f"{name_of(encounter, creature_id)} leaves the combat", creature_id)
    if new_round:
        _new_round(draft)
    if was_current:
        _start_turn(draft, ruleset, encounter, hooks)
    return draft.done(None)


def disengage_expiry(ruleset: Ruleset) -> Expiry:
    """When Disengage ends under ``ruleset``."""
    if ruleset.economy.disengage_duration is DisengageDuration.START_OF_GROUP_NEXT_TURN:
        return Expiry.START_OF_GROUP_TURN
    return Expiry.END_OF_TURN


def current_creature(state: CombatState) -> EntityId:
    """The creature whose turn it is.

    Raises:
        IllegalActionError: the combat hasn't begun.
    """
    slot = state.current
    if slot is None:
        raise IllegalActionError("the combat hasn't begun")
    return slot.creature_id


def combatants_in_order(state: CombatState) -> list[Combatant]:
    """Combatants in turn order (each once)."""
    seen: set[EntityId] = set()
    ordered = []
    for slot in state.order:
        if slot.creature_id not in seen:
            seen.add(slot.creature_id)
            ordered.append(combatant_of(state, slot.creature_id))
    return ordered
