"""The legal-actions query: what a creature may do now, each choice allowed or refused with
the reason (python-chess's ``Board.legal_moves``, with the reasons of the refused ones).

The answers come from the same checks the engine makes when the choice is taken
(``economy.action_refusal``, ``movement.move_refusal``, ``turn_steps.death_save_due``), so the
UI enables a button exactly when the engine would accept it; nothing is rolled.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from battlemap.model.combat import Combatant, CombatState, SpeedMode
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.rules.action_surge import ACTION_SURGE, ACTION_SURGE_NAME, action_surge_refusal
from battlemap.rules.attacks_left import (
    AttacksLeft,
    attack_action_id,
    attacks_left,
    statblock_in,
)
from battlemap.rules.character_features import action_surges, with_sheet_features
from battlemap.rules.combat_ops import combatant_of, creature_of, is_dying, name_of
from battlemap.rules.economy import action_refusal, turn_refusal
from battlemap.rules.enums import ActionCost, ActionKind
from battlemap.rules.legendary import legendary_status
from battlemap.rules.movement import move_refusal
from battlemap.rules.outcome import running_combat
from battlemap.rules.schema import ActionDef, Ruleset
from battlemap.rules.turn_steps import death_save_due

DEATH_SAVE_NAME = "Death saving throw"


class ChoiceKind(StrEnum):
    """What a choice spends."""

    ACTION = "action"
    BONUS_ACTION = "bonus-action"
    REACTION = "reaction"
    FREE = "free"
    MOVE = "move"
    DEATH_SAVE = "death-save"
    LEGENDARY = "legendary"


@dataclass(frozen=True)
class Choice:
    """One thing the creature could do now: an action id (or speed mode, or ``death-save``),
    allowed or not; ``reason`` says why not (None when allowed)."""

    kind: ChoiceKind
    id: str
    name: str
    reason: str | None

    @property
    def allowed(self) -> bool:
        return self.reason is None


@dataclass(frozen=True)
class LegalActions:
    """Every choice of ``creature_id`` now, in the ruleset's order: actions (a bonus-action
    use of an action a feature grants is a second choice: Cunning Action's Dash), then
    Action Surge when its sheet has it, then the speed modes, then the death saving throw.
    ``attacks`` are the attacks left in its Attack action (``2 attacks left``);
    ``multiattack`` the stat block's Multiattack options, as choices of the Attack action
    (id ``multiattack:<index>``)."""

    creature_id: EntityId
    choices: tuple[Choice, ...]
    attacks: AttacksLeft = field(default_factory=lambda: AttacksLeft(0))
    multiattack: tuple[Choice, ...] = ()
    legendary: tuple[Choice, ...] = ()
    """Its legendary actions (id ``legendary:<name>``), allowed only at the end of another
    creature's turn (``legendary.legendary_status``)."""

    def choice(self, kind: ChoiceKind, choice_id: str) -> Choice:
        """The choice of this kind and id.

        Raises:
            KeyError: the query has no such choice (a programming error: ask for what the
                ruleset has).
        """
        for choice in self.choices:
            if choice.kind is kind and choice.id == choice_id:
                return choice
        raise KeyError(f"no {kind.value} choice '{choice_id}'")

    def action(self, action_id: str) -> Choice:
        """The choice of the ruleset's action ``action_id`` (as an action, bonus action,
        reaction or free action: whatever its cost is)."""
        for choice in self.choices:
            if choice.id == action_id and choice.kind not in (ChoiceKind.MOVE,):
                return choice
        raise KeyError(f"no action choice '{action_id}'")

    def allowed(self) -> tuple[Choice, ...]:
        return tuple(c for c in self.choices if c.allowed)


_KIND_OF_COST = {
    ActionCost.ACTION: ChoiceKind.ACTION,
    ActionCost.ATTACK: ChoiceKind.ACTION,
    ActionCost.BONUS_ACTION: ChoiceKind.BONUS_ACTION,
    ActionCost.REACTION: ChoiceKind.REACTION,
    ActionCost.FREE: ChoiceKind.FREE,
}


def legal_actions(encounter: Encounter, ruleset: Ruleset, creature_id: EntityId) -> LegalActions:
    """Every action, bonus action, reaction, movement mode and the death save of the creature
    in the encounter's running combat, each allowed or refused with the engine's reason.

    Raises:
        InvalidRequestError: no combat is running, or the creature isn't in it.
    """
    state = running_combat(encounter)
    combatant = with_sheet_features(encounter, ruleset, combatant_of(state, creature_id))
    creature_of(encounter, creature_id)
    if combatant.death.dead:  # its token may still be dragged: a body, moved by the DM
        return _all_refused(
            encounter, ruleset, combatant, f"{name_of(encounter, creature_id)} is dead"
        )
    choices: list[Choice] = []
    for action_id, action in ruleset.actions.items():
        kind = _KIND_OF_COST[action.cost]
        reason = _action_reason(state, ruleset, encounter, combatant, action_id, action)
        choices.append(Choice(kind, action_id, action.name, reason))
        if action_id in combatant.bonus_action_features and kind is ChoiceKind.ACTION:
            reason = action_refusal(
                state, ruleset, encounter, creature_id, action_id, as_bonus_action=True
            )
            choices.append(Choice(ChoiceKind.BONUS_ACTION, action_id, action.name, reason))
    if action_surges(creature_of(encounter, creature_id)):  # a feature on its sheet
        reason = action_surge_refusal(encounter, ruleset, creature_id)
        choices.append(Choice(ChoiceKind.FREE, ACTION_SURGE, ACTION_SURGE_NAME, reason))
    for mode in _modes(encounter, creature_id):
        reason = move_refusal(state, ruleset, encounter, creature_id, mode)
        choices.append(Choice(ChoiceKind.MOVE, mode.value, mode.value, reason))
    choices.append(_death_save(encounter, state, combatant))
    status = legendary_status(encounter, ruleset, creature_id)
    legendary = tuple(
        Choice(ChoiceKind.LEGENDARY, f"legendary:{action.name}", action.name, reason)
        for action, reason in (status.actions if status is not None else ())
    )
    return LegalActions(
        creature_id,
        tuple(choices),
        attacks_left(combatant.turn),
        _multiattack(state, ruleset, encounter, combatant),
        legendary,
    )


def _multiattack(
    state: CombatState, ruleset: Ruleset, encounter: Encounter, combatant: Combatant
) -> tuple[Choice, ...]:
    """The Multiattack options, allowed when the Attack action may be taken now."""
    block = statblock_in(encounter, combatant)
    if block is None or not block.multiattack:
        return ()
    attack_id = attack_action_id(ruleset)
    if attack_id is None:
        reason: str | None = f"{ruleset.name} has no Attack action"
    elif combatant.turn.attacks_left:
        left = attacks_left(combatant.turn).text
        reason = f"{name_of(encounter, combatant.creature_id)} is making its Attack action ({left})"
    else:
        reason = action_refusal(state, ruleset, encounter, combatant.creature_id, attack_id)
    return tuple(
        Choice(ChoiceKind.ACTION, f"multiattack:{index}", f"Multiattack: {option.label}", reason)
        for index, option in enumerate(block.multiattack)
    )


def _all_refused(
    encounter: Encounter, ruleset: Ruleset, combatant: Combatant, reason: str
) -> LegalActions:
    creature_id = combatant.creature_id
    choices = [
        Choice(_KIND_OF_COST[action.cost], action_id, action.name, reason)
        for action_id, action in ruleset.actions.items()
    ]
    choices.extend(
        Choice(ChoiceKind.MOVE, mode.value, mode.value, reason)
        for mode in _modes(encounter, creature_id)
    )
    choices.append(Choice(ChoiceKind.DEATH_SAVE, "death-save", DEATH_SAVE_NAME, reason))
    return LegalActions(creature_id, tuple(choices))


def _action_reason(
    state: CombatState,
    ruleset: Ruleset,
    encounter: Encounter,
    combatant: Combatant,
    action_id: str,
    action: ActionDef,
) -> str | None:
    creature_id = combatant.creature_id
    if action.kind is ActionKind.ATTACK and combatant.turn.attacks_left:
        return turn_refusal(state, encounter, creature_id)  # the Attack action goes on
    reason = action_refusal(state, ruleset, encounter, creature_id, action_id)
    if reason is None and action.kind is ActionKind.STABILIZE:
        creatures = {c.id: c for c in encounter.creatures}
        dying = [
            c
            for c in state.combatants
            if c.creature_id != creature_id
            and c.creature_id in creatures
            and is_dying(creatures[c.creature_id], c)
        ]
        if not dying:
            return "no creature in the combat is dying"
    return reason


def _modes(encounter: Encounter, creature_id: EntityId) -> list[SpeedMode]:
    """Walking, and every other mode the creature has a speed in."""
    speeds = creature_of(encounter, creature_id).speeds
    return [m for m in SpeedMode if m is SpeedMode.WALK or getattr(speeds, m.value) > 0]


def _death_save(encounter: Encounter, state: CombatState, combatant: Combatant) -> Choice:
    creature_id = combatant.creature_id
    name = name_of(encounter, creature_id)
    reason: str | None = None
    death = combatant.death
    if not is_dying(creature_of(encounter, creature_id), combatant):
        reason = f"{name} is not dying" if not death.stable else f"{name} is stable"
    elif not death_save_due(encounter, state, creature_id):
        reason = f"{name} chooses on the Brink or takes its Last Breath instead"
    return Choice(ChoiceKind.DEATH_SAVE, "death-save", DEATH_SAVE_NAME, reason)
