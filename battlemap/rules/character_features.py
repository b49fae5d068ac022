"""Class features a player character's sheet brings into a combat: Cunning Action's bonus
actions and Action Surge's uses (``model/character.py``).

Looked up from the creature's stat block when the engine checks an action, so the sheet
stays the one source: a combatant needs no copy of them made when the combat starts.
``Combatant.bonus_action_features`` still holds what the DM or another rule granted.
"""

from __future__ import annotations

from battlemap.model.combat import Combatant
from battlemap.model.creature import Creature
from battlemap.model.encounter import Encounter
from battlemap.rules.schema import Ruleset
from battlemap.rules.schema_roles import ActionRoles

SHEET_ACTION_ROLES = {"dash": "dash"}
"""The sheet's action ids that name a role (the sheet says "dash"; the ruleset's Dash action
is ``roles.actions.dash``)."""


def sheet_bonus_actions(ruleset: Ruleset, creature: Creature) -> tuple[str, ...]:
    """The ruleset's action ids the creature's sheet lets it take as a bonus action (Cunning
    Action: Dash, by its role, Disengage, Hide); () for a creature without a sheet."""
    block = creature.statblock
    if block is None or block.character is None:
        return ()
    roles: ActionRoles = ruleset.roles.actions
    return tuple(
        getattr(roles, SHEET_ACTION_ROLES[a]) if a in SHEET_ACTION_ROLES else a
        for a in block.character.bonus_actions
    )


def with_sheet_features(encounter: Encounter, ruleset: Ruleset, combatant: Combatant) -> Combatant:
    """The combatant with its sheet's bonus actions added to ``bonus_action_features`` (the
    same object when there are none to add)."""
    try:
        creature = encounter.creature(combatant.creature_id)
    except KeyError:
        return combatant
    more = [
        a
        for a in sheet_bonus_actions(ruleset, creature)
        if a not in combatant.bonus_action_features
    ]
    if not more:
        return combatant
    features = (*combatant.bonus_action_features, *more)
    return combatant.model_copy(update={"bonus_action_features": features})


def action_surges(creature: Creature) -> int:
    """Action Surge uses per short rest on the creature's sheet (0: it has none)."""
    block = creature.statblock
    if block is None or block.character is None:
        return 0
    return block.character.action_surge_uses


def action_surges_left(creature: Creature) -> int:
    """Uses left until its next short or long rest."""
    return max(0, action_surges(creature) - creature.action_surges_used)
