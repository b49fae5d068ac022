"""The action economy: actions, bonus actions, reactions, object interactions, readied actions.

One action and (only when a feature or the action entry grants one) one bonus action on the
creature's own turn, ``economy.reactions_per_round`` reactions (srd: one; back at the start of
its turn), one free object
interaction (a second costs the action). Entries with ``cost: attack`` (Grapple, Shove...)
replace one attack of the Attack action: the first one takes the action and leaves the rest
of the attacks. Using what is spent raises ``IllegalActionError`` with the reason.

What the turn engine resolves itself: Dash, Disengage, Dodge, Help, Hide, Ready, Search, Use an
Object and readied releases. Entries with ``resolved_by: attacks`` (Attack, Grapple, Target
Strike...) only spend the economy here; the attack engine resolves them. A controlled mount
(``mounts.control_mount``) takes only its ruleset's controlled-mount actions.
"""

from __future__ import annotations

from battlemap.model.combat import Combatant, CombatState, Readied, SpeedMode
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.model.limits import MAX_TRIGGER
from battlemap.rules.attacks_left import attack_action_count, spend_one
from battlemap.rules.character_features import with_sheet_features
from battlemap.rules.combat_ops import (
    combatant_of,
    creature_of,
    name_of,
    require,
    signed,
    stats_of,
)
from battlemap.rules.conditions import denial, reactions_left, with_reaction_spent
from battlemap.rules.draft import Draft
from battlemap.rules.enums import ActionCost, ActionKind, EconomyPart
from battlemap.rules.errors import IllegalActionError, InvalidRequestError
from battlemap.rules.mounts import controlled_action_refusal
from battlemap.rules.movement import effective_speed
from battlemap.rules.outcome import Outcome, running_combat
from battlemap.rules.schema import ActionDef, Ruleset
from battlemap.rules.sight_checks import search_roll
from battlemap.rules.turns import disengage_expiry


def _on_turn(state: CombatState, creature_id: EntityId, name: str) -> None:
    current = state.current
    require(current is not None, "the combat hasn't begun")
    assert current is not None
    require(current.creature_id == creature_id, f"it isn't {name}'s turn")
    require(not state.turn_ending, f"{name}'s turn has ended (legendary actions now)")


def turn_refusal(state: CombatState, encounter: Encounter, creature_id: EntityId) -> str | None:
    """Why it isn't the creature's turn to act (None: it is)."""
    try:
        _on_turn(state, creature_id, name_of(encounter, creature_id))
    except IllegalActionError as error:
        return error.reason
    return None


def _deny(ruleset: Ruleset, combatant: Combatant, part: EconomyPart, name: str) -> None:
    reason = denial(ruleset, combatant, part, name).reason
    require(reason is None, reason or "")


def _require_reaction(ruleset: Ruleset, combatant: Combatant, name: str) -> None:
    per_round = ruleset.economy.reactions_per_round
    if per_round == 0:
        why = f"{name} has no reactions in this ruleset"
    elif per_round == 1:
        why = f"{name} has already used its reaction this round"
    else:
        why = f"{name} has already used its {per_round} reactions this round"
    require(reactions_left(ruleset, combatant) > 0, why)


def _spend(
    state: CombatState,
    ruleset: Ruleset,
    combatant: Combatant,
    action_id: str,
    action: ActionDef,
    name: str,
    as_bonus_action: bool,
    attacks_per_action: int,
) -> tuple[Combatant, str]:
    """Spend what the action costs; the updated combatant and what was spent."""
    turn = combatant.turn
    cost = action.cost
    if as_bonus_action:
        require(
            action_id in combatant.bonus_action_features or cost is ActionCost.BONUS_ACTION,
            f"{name} has no feature to {action.name} as a bonus action",
        )
        cost = ActionCost.BONUS_ACTION
    if cost is ActionCost.REACTION:
        _deny(ruleset, combatant, EconomyPart.REACTION, name)
        _require_reaction(ruleset, combatant, name)
        return with_reaction_spent(ruleset, combatant), "reaction"
    _on_turn(state, combatant.creature_id, name)
    if cost is ActionCost.FREE:
        return combatant, "nothing"
    if cost is ActionCost.BONUS_ACTION:
        _deny(ruleset, combatant, EconomyPart.BONUS_ACTION, name)
        require(not turn.bonus_action_used, f"{name} has already used its bonus action")
        if action.kind is ActionKind.OFFHAND_ATTACK:
            require(
                ruleset.roles.actions.attack in turn.actions_taken,
                "two-weapon fighting follows the Attack action",
            )
        new_turn = turn.model_copy(update={"bonus_action_used": True})
        return combatant.model_copy(update={"turn": new_turn}), "bonus action"
    if cost is ActionCost.ATTACK and turn.attacks_left > 0:
        _deny(ruleset, combatant, EconomyPart.ACTION, name)
        new_turn = turn.model_copy(update={"attacks_left": turn.attacks_left - 1})
        return combatant.model_copy(update={"turn": new_turn}), "one attack"
    _deny(ruleset, combatant, EconomyPart.ACTION, name)
    extra = turn.action_used and turn.extra_actions > 0  # Action Surge's action
    require(not turn.action_used or extra, f"{name} has already used its action this turn")
    update: dict[str, object] = {"action_used": True}
    if extra:
        update["extra_actions"] = turn.extra_actions - 1
    if cost is ActionCost.ATTACK or action.kind is ActionKind.ATTACK:
        attacks = attacks_per_action
        update["attacks_left"] = attacks - 1 if cost is ActionCost.ATTACK else attacks
    return combatant.model_copy(update={"turn": turn.model_copy(update=update)}), "action"


def action_def(ruleset: Ruleset, action_id: str) -> ActionDef:
    """The ruleset's action ``action_id``.

    Raises:
        InvalidRequestError: the ruleset has no such action.
    """
    action = ruleset.actions.get(action_id)
    if action is None:
        known = ", ".join(sorted(ruleset.actions))
        raise InvalidRequestError(f"'{action_id}' is not an action of this ruleset; known: {known}")
    return action


def take_action(
    encounter: Encounter,
    ruleset: Ruleset,
    creature_id: EntityId,
    action_id: str,
    *,
    as_bonus_action: bool = False,
    target_id: EntityId | None = None,
    trigger: str | None = None,
    readied_action: str | None = None,
    cantrip: bool = False,
) -> Outcome[None]:
    """Take the ruleset's action ``action_id`` (``dash``, ``dodge``, ``grapple``...).

    ``as_bonus_action`` uses a feature that grants it as a bonus action (Cunning Action's
    Dash). Ready needs ``trigger`` and ``readied_action`` (None: a move). Cast a Spell takes
    ``cantrip``: after a bonus-action spell, the action can only cast a cantrip.

    Raises:
        InvalidRequestError: unknown action, a missing target or trigger.
        IllegalActionError: out of turn, spent economy, incapacitated, surprised...
    """
    state = running_combat(encounter)
    action = action_def(ruleset, action_id)
    combatant = combatant_of(state, creature_id)
    name = name_of(encounter, creature_id)
    # The Attack action's attacks each pick their own target (the attack engine's).
    if action.needs_target and action.kind is not ActionKind.ATTACK and target_id is None:
        raise InvalidRequestError(f"{action.name} needs a target")
    if target_id is not None:
        combatant_of(state, target_id)
    if action.kind is ActionKind.READY and not (trigger and trigger.strip()):
        raise InvalidRequestError("Ready needs a trigger")
    if action.kind is ActionKind.READY and readied_action is not None:
        readied_def = ruleset.actions.get(readied_action)
        if readied_def is None or readied_def.cost is not ActionCost.ACTION:
            raise InvalidRequestError(f"'{readied_action}' is not an action that can be readied")
    spent, what = _check_and_spend(
        state, ruleset, encounter, combatant, action_id, action, as_bonus_action, cantrip
    )
    spell_rule = ruleset.economy.bonus_action_spell_limits_action_to_cantrip
    bonus_cast = as_bonus_action or action.cost is ActionCost.BONUS_ACTION
    draft = Draft(encounter, ruleset)
    taken = action_id
    if action.kind is ActionKind.CAST_SPELL:
        taken = f"{action_id}:{'cantrip' if cantrip else 'leveled'}"
    turn_update: dict[str, object] = {"actions_taken": (*spent.turn.actions_taken, taken)}
    if action.kind is ActionKind.CAST_SPELL and bonus_cast and spell_rule:
        turn_update["cantrip_only"] = True
    spent = spent.model_copy(update={"turn": spent.turn.model_copy(update=turn_update)})
    target_text = f" on {name_of(encounter, target_id)}" if target_id else ""
    draft.add("action", f"{name} takes {action.name}{target_text} ({what})", creature_id)
    spent = _resolve(
        draft, ruleset, encounter, spent, action, name, target_id, trigger, readied_action
    )
    draft.put(spent)
    return draft.done(None)


def action_refusal(
    state: CombatState,
    ruleset: Ruleset,
    encounter: Encounter,
    creature_id: EntityId,
    action_id: str,
    *,
    as_bonus_action: bool = False,
    cantrip: bool = False,
) -> str | None:
    """Why the rules refuse the action now (None: ``take_action`` would accept it, given a
    target and a trigger where it needs one). The same checks ``take_action`` makes; nothing
    is rolled.

    Raises:
        InvalidRequestError: unknown action or creature.
    """
    action = action_def(ruleset, action_id)
    combatant = combatant_of(state, creature_id)
    try:
        _check_and_spend(
            state, ruleset, encounter, combatant, action_id, action, as_bonus_action, cantrip
        )
    except IllegalActionError as error:
        return error.reason
    return None


def _check_and_spend(
    state: CombatState,
    ruleset: Ruleset,
    encounter: Encounter,
    combatant: Combatant,
    action_id: str,
    action: ActionDef,
    as_bonus_action: bool,
    cantrip: bool,
) -> tuple[Combatant, str]:
    """Every rule that may refuse the action in this state; the combatant with its cost spent
    and what was spent.

    Raises:
        IllegalActionError: with the first reason.
    """
    creature_id = combatant.creature_id
    name = name_of(encounter, creature_id)
    require(not combatant.death.dead, f"{name} is dead")
    if action.kind is ActionKind.READIED_RELEASE:
        require(combatant.readied is not None, f"{name} has nothing readied")
    if action.cost in (ActionCost.ACTION, ActionCost.ATTACK) and not as_bonus_action:
        refusal = controlled_action_refusal(ruleset, encounter, state, creature_id, action_id)
        require(refusal is None, refusal or "")
    spell_rule = ruleset.economy.bonus_action_spell_limits_action_to_cantrip
    bonus_cast = as_bonus_action or action.cost is ActionCost.BONUS_ACTION
    if action.kind is ActionKind.CAST_SPELL and spell_rule:
        if not bonus_cast:
            require(
                cantrip or not combatant.turn.cantrip_only,
                f"{name} cast a bonus-action spell: the action can only cast a cantrip",
            )
        else:
            require(
                "cast-a-spell:leveled" not in combatant.turn.actions_taken,
                f"{name} cast a leveled spell with its action: no bonus-action spell this turn",
            )
    combatant = with_sheet_features(encounter, ruleset, combatant)  # Cunning Action
    attacks = attack_action_count(encounter, combatant)
    return _spend(state, ruleset, combatant, action_id, action, name, as_bonus_action, attacks)


def _resolve(
    draft: Draft,
    ruleset: Ruleset,
    encounter: Encounter,
    combatant: Combatant,
    action: ActionDef,
    name: str,
    target_id: EntityId | None,
    trigger: str | None,
    readied_action: str | None,
) -> Combatant:
    creature_id = combatant.creature_id
    kind = action.kind
    if kind is ActionKind.DASH:
        count = combatant.turn.dash_count + 1
        if count > 1 and not ruleset.economy.dash_stacks:
            draft.add(
                "dash", f"{name}: a further Dash adds no movement in this ruleset", creature_id
            )
        return combatant.model_copy(
            update={"turn": combatant.turn.model_copy(update={"dash_count": count})}
        )
    if kind is ActionKind.DISENGAGE:
        return combatant.model_copy(
            update={"disengaged": True, "disengage_expiry": disengage_expiry(ruleset)}
        )
    if kind is ActionKind.DODGE:
        return combatant.model_copy(update={"dodging": True})
    if kind is ActionKind.HELP:
        return combatant.model_copy(update={"helping": target_id})
    if kind is ActionKind.HIDE:
        bonus = stats_of(creature_of(encounter, creature_id)).stealth_bonus()
        record = draft.roll(f"1d20{signed(bonus)}", f"{name} Stealth (Hide)", creature_id)
        return combatant.model_copy(update={"hidden_stealth": record.total})
    if kind is ActionKind.SEARCH:
        search_roll(draft, encounter, ruleset, creature_id, name, target_id)
        return combatant
    if kind is ActionKind.READY:
        assert trigger is not None
        readied = Readied(trigger=trigger.strip()[:MAX_TRIGGER], action=readied_action)
        what = ruleset.actions[readied_action].name if readied_action else "a move"
        draft.add("ready", f"{name} readies {what}: when {readied.trigger}", creature_id)
        return combatant.model_copy(update={"readied": readied})
    if kind is ActionKind.READIED_RELEASE:
        released = combatant.readied
        assert released is not None
        update: dict[str, object] = {"readied": None}
        if released.action is None:
            creature = creature_of(encounter, creature_id)
            speed = effective_speed(ruleset, creature, combatant, SpeedMode.WALK).speed
            update["reaction_move_left"] = float(speed)
            draft.add("ready", f"{name} releases the readied move (up to {speed} ft)", creature_id)
        else:
            draft.add(
                "ready",
                f"{name} releases {ruleset.actions[released.action].name}: the trigger happened",
                creature_id,
            )
        return combatant.model_copy(update=update)
    if action.resolved_by.value == "attacks":
        draft.add("resolve", f"{action.name}: to be resolved by the attack engine", creature_id)
    return combatant


def spend_attack(
    encounter: Encounter,
    ruleset: Ruleset,
    creature_id: EntityId,
    attack_name: str | None = None,
) -> Outcome[None]:
    """Use one attack of an Attack action taken this turn (the attack engine calls this),
    with ``attack_name``'s count when a Multiattack names it (``rules.attacks_left``).

    Raises:
        IllegalActionError: out of turn, no attacks left, or not one the Multiattack allows.
    """
    state = running_combat(encounter)
    combatant = combatant_of(state, creature_id)
    name = name_of(encounter, creature_id)
    _on_turn(state, creature_id, name)
    draft = Draft(encounter, ruleset)
    turn = spend_one(combatant.turn, name, attack_name)
    draft.put(combatant.model_copy(update={"turn": turn}))
    draft.add("attack", f"{name} attacks ({turn.attacks_left} left)", creature_id)
    return draft.done(None)


def use_reaction(
    encounter: Encounter, ruleset: Ruleset, creature_id: EntityId, why: str
) -> Outcome[None]:
    """Spend the reaction for ``why`` (an opportunity attack, a reaction spell...).

    Raises:
        IllegalActionError: already used this round, incapacitated, or surprised.
    """
    state = running_combat(encounter)
    combatant = combatant_of(state, creature_id)
    name = name_of(encounter, creature_id)
    _deny(ruleset, combatant, EconomyPart.REACTION, name)
    _require_reaction(ruleset, combatant, name)
    draft = Draft(encounter, ruleset)
    draft.put(with_reaction_spent(ruleset, combatant))
    draft.add("reaction", f"{name} uses its reaction: {why}", creature_id)
    return draft.done(None)


def interact_with_object(
    encounter: Encounter, ruleset: Ruleset, creature_id: EntityId, what: str
) -> Outcome[None]:
    """Interact with an object (draw a sword, open a door): free once, then it takes the action.

    Raises:
        IllegalActionError: out of turn, or a further interaction with the action spent.
    """
    state = running_combat(encounter)
    combatant = combatant_of(state, creature_id)
    name = name_of(encounter, creature_id)
    _on_turn(state, creature_id, name)
    turn = combatant.turn
    draft = Draft(encounter, ruleset)
    if turn.object_interactions < ruleset.economy.free_object_interactions:
        spent = "free"
        new_turn = turn.model_copy(update={"object_interactions": turn.object_interactions + 1})
    else:
        cost = ruleset.economy.extra_object_interaction_costs
        _deny(ruleset, combatant, EconomyPart.ACTION, name)
        require(
            cost is not ActionCost.ACTION or not turn.action_used,
            f"{name} already used its free object interaction and its action",
        )
        spent = "the action"
        new_turn = turn.model_copy(
            update={
                "object_interactions": turn.object_interactions + 1,
                "action_used": turn.action_used or cost is ActionCost.ACTION,
                "actions_taken": (*turn.actions_taken, ruleset.roles.actions.use_object),
            }
        )
    draft.put(combatant.model_copy(update={"turn": new_turn}))
    draft.add("object", f"{name}: {what[:200]} ({spent})", creature_id)
    return draft.done(None)


def grant_bonus_action(
    encounter: Encounter, ruleset: Ruleset, creature_id: EntityId, action_ids: tuple[str, ...]
) -> Outcome[None]:
    """Record the features that let a creature take these actions as a bonus action."""
    state = running_combat(encounter)
    combatant = combatant_of(state, creature_id)
    draft = Draft(encounter, ruleset)
    draft.put(combatant.model_copy(update={"bonus_action_features": action_ids}))
    draft.add(
        "feature",
        f"{name_of(encounter, creature_id)} may take {', '.join(action_ids) or 'nothing'} "
        "as a bonus action",
        creature_id,
    )
    return draft.done(None)
