"""Taking the Attack action, with one of the stat block's Multiattack options or without.

Without an option the action gives ``attack_action_count`` attacks (Extra Attack); with
option ``i`` of ``StatBlock.multiattack`` it gives that option's total, its named attacks
capped by their counts (``rules.attacks_left``). The attack engine (``make_attack``) then
spends one per attack; a first attack made without taking the action first takes it
without an option.
"""

from __future__ import annotations

from dataclasses import dataclass

from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.model.statblock_actions import MultiattackOption
from battlemap.rules.attacks_left import (
    AttacksLeft,
    attack_action_count,
    attack_action_id,
    attacks_left,
    statblock_in,
)
from battlemap.rules.combat_ops import combatant_of, name_of
from battlemap.rules.draft import Draft
from battlemap.rules.economy import take_action
from battlemap.rules.errors import InvalidRequestError
from battlemap.rules.outcome import Outcome, running_combat
from battlemap.rules.schema import Ruleset

INCLUDED = "multiattack-includes:"
"""``TurnState.actions_taken`` marks the other actions a Multiattack taken includes ("can use
its Frightful Presence"): using one then spends no action (``limited_actions``)."""


@dataclass(frozen=True)
class AttackActionTaken:
    """The Attack action taken: the attacks it gives and the Multiattack option chosen."""

    creature_id: EntityId
    attacks: AttacksLeft
    option: MultiattackOption | None
    reasons: tuple[str, ...]


def multiattack_options(
    encounter: Encounter, creature_id: EntityId
) -> tuple[MultiattackOption, ...]:
    """The Multiattack options of the stat block the creature uses (empty: none)."""
    state = running_combat(encounter)
    block = statblock_in(encounter, combatant_of(state, creature_id))
    return block.multiattack if block is not None else ()


def take_attack_action(
    encounter: Encounter,
    ruleset: Ruleset,
    creature_id: EntityId,
    *,
    multiattack: int | None = None,
) -> Outcome[AttackActionTaken]:
    """Take the Attack action: with ``multiattack`` (an index of the stat block's options)
    its attacks, else ``attack_action_count``'s.

    Raises:
        InvalidRequestError: no combat, an unknown creature or option.
        IllegalActionError: out of turn, the action spent, incapacitated...
    """
    state = running_combat(encounter)
    name = name_of(encounter, creature_id)
    combatant = combatant_of(state, creature_id)
    option: MultiattackOption | None = None
    if multiattack is not None:
        options = multiattack_options(encounter, creature_id)
        if not 0 <= multiattack < len(options):
            raise InvalidRequestError(
                f"{name} has no Multiattack option {multiattack + 1}"
                f" (its stat block has {len(options)})"
            )
        option = options[multiattack]
    action_id = attack_action_id(ruleset)
    if action_id is None:
        raise InvalidRequestError(f"{ruleset.name} has no Attack action")
    draft = Draft(encounter, ruleset)
    draft.run(lambda taking: take_action(taking, ruleset, creature_id, action_id))
    combatant = draft.combat.combatant(creature_id)
    if option is None:
        count = attack_action_count(encounter, combatant)
        reasons: tuple[str, ...] = (
            f"the Attack action: {count} attack{'s' if count != 1 else ''}",
        )
    else:
        included = tuple(f"{INCLUDED}{other}" for other in option.other_actions)
        turn = combatant.turn.model_copy(
            update={
                "attacks_left": option.total,
                "attack_plan": option.attacks,
                "actions_taken": (*combatant.turn.actions_taken, *included),
            }
        )
        combatant = combatant.model_copy(update={"turn": turn})
        reasons = (f"Multiattack: {option.label}",)
        if option.other_actions:
            reasons += (f"{', '.join(option.other_actions)}: its own button, no action spent",)
        draft.put(combatant)
        draft.add(
            "action",
            f"{name}'s Multiattack: {option.label} ({attacks_left(turn).text})",
            creature_id,
        )
    result = AttackActionTaken(creature_id, attacks_left(combatant.turn), option, reasons)
    return draft.done(result)
