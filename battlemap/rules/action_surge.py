"""Action Surge: "On your turn, you can take one additional action. Once you use this feature,
you must finish a short or long rest before you can use it again. Starting at 17th level, you
can use it twice before a rest, but only once on the same turn." That is the SRD 5.1
fighter's text: none of the five documents in ``../shared/rules-sources`` describes Action
Surge (they are combat rules, not class features). bloodied-brink.txt "Resting" is the one
that says how such a feature comes back: "Some features are recharged by a Short Rest. If you
have such a feature, it recharges in the way specified in its description."

The uses come from the character's sheet (``CharacterSheet.action_surge_uses``); the uses
spent are kept on the creature (``Creature.action_surges_used``, saved with the encounter)
until a rest gives them back (``rest_uses``). The extra action is
``TurnState.extra_actions``: the economy lets the action be taken once more.
"""

from __future__ import annotations

from dataclasses import dataclass

from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.rules.character_features import action_surges, action_surges_left
from battlemap.rules.combat_ops import combatant_of, creature_of
from battlemap.rules.conditions import denial
from battlemap.rules.draft import Draft
from battlemap.rules.economy import turn_refusal
from battlemap.rules.enums import EconomyPart
from battlemap.rules.errors import IllegalActionError
from battlemap.rules.outcome import Outcome, running_combat
from battlemap.rules.schema import Ruleset

ACTION_SURGE = "action-surge"
"""Its id in the legal query and in ``TurnState.actions_taken``."""
ACTION_SURGE_NAME = "Action Surge"


@dataclass(frozen=True)
class ActionSurgeResult:
    """What the surge gave: the extra actions now open this turn and the uses left."""

    extra_actions: int
    uses_left: int


def action_surge_refusal(
    encounter: Encounter, ruleset: Ruleset, creature_id: EntityId
) -> str | None:
    """Why the creature can't use Action Surge now (None: it can).

    Raises:
        InvalidRequestError: no combat is running, or the creature isn't in it.
    """
    state = running_combat(encounter)
    combatant = combatant_of(state, creature_id)
    creature = creature_of(encounter, creature_id)
    name = creature.name
    if combatant.death.dead:
        return f"{name} is dead"
    if action_surges(creature) == 0:
        return f"{name} has no Action Surge"
    refusal = turn_refusal(state, encounter, creature_id)
    if refusal is not None:
        return refusal
    denied = denial(ruleset, combatant, EconomyPart.ACTION, name).reason
    if denied is not None:
        return denied
    if ACTION_SURGE in combatant.turn.actions_taken:
        return f"{name} has already used Action Surge this turn (only once on the same turn)"
    if action_surges_left(creature) == 0:
        return f"{name} has used its Action Surge: it returns after a short or long rest"
    return None


def action_surge(
    encounter: Encounter, ruleset: Ruleset, creature_id: EntityId
) -> Outcome[ActionSurgeResult]:
    """Use Action Surge: one more action this turn, one use spent until a rest.

    Raises:
        InvalidRequestError: no combat is running, or the creature isn't in it.
        IllegalActionError: ``action_surge_refusal``'s reason.
    """
    refusal = action_surge_refusal(encounter, ruleset, creature_id)
    if refusal is not None:
        raise IllegalActionError(refusal)
    draft = Draft(encounter, ruleset)
    combatant = draft.fighting(creature_id)
    creature = draft.creature(creature_id)
    turn = combatant.turn.model_copy(
        update={
            "extra_actions": combatant.turn.extra_actions + 1,
            "actions_taken": (*combatant.turn.actions_taken, ACTION_SURGE),
        }
    )
    spent = creature.model_copy(update={"action_surges_used": creature.action_surges_used + 1})
    draft.put(combatant.model_copy(update={"turn": turn}))
    draft.put_creature(spent)
    left = action_surges_left(spent)
    draft.add(
        "feature",
        f"{creature.name} uses Action Surge: one more action this turn"
        f" ({left} use{'s' if left != 1 else ''} left until a rest)",
        creature_id,
    )
    return draft.done(ActionSurgeResult(turn.extra_actions, left))
