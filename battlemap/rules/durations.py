"""What the end of a creature's turn does to conditions with a duration or a save that ends
them: one place, called by ``turns.end_turn`` (so every way a turn ends counts them).

- A duration in rounds counted on the creature (``expiry_creature``) loses a round; it ends,
  logged, when none is left.
- Its own conditions that a save ends ("repeat the saving throw at the end of each of its
  turns") have the save fall due (``SaveEnds.due``), made with ``effects.effect_save``.
"""

from __future__ import annotations

from battlemap.model.combat import ActiveCondition
from battlemap.model.ids import EntityId
from battlemap.rules.draft import Draft
from battlemap.rules.enums import Ability


def count_turn_end(draft: Draft, creature_id: EntityId) -> None:
    """The end of ``creature_id``'s turn, on ``draft`` (a combat is running): durations
    counted on it lose a round (ending at 0, logged), then its saves that end a condition
    fall due."""
    for other in draft.combat.combatants:
        timed = [c for c in other.conditions if c.rounds_left is not None]
        if not any(c.expiry_creature == creature_id for c in timed):
            continue
        kept: list[ActiveCondition] = []
        for condition in other.conditions:
            if condition.rounds_left is None or condition.expiry_creature != creature_id:
                kept.append(condition)
            elif condition.rounds_left > 1:
                kept.append(condition.model_copy(update={"rounds_left": condition.rounds_left - 1}))
            else:
                who = draft.name(other.creature_id)
                text = f"{who}: {condition.name} ends (its duration is over)"
                draft.add("condition-ends", text, other.creature_id)
        draft.put(other.model_copy(update={"conditions": tuple(kept)}))
    own = draft.combatant(creature_id)
    if own is None or not any(c.save_ends is not None for c in own.conditions):
        return
    due: list[ActiveCondition] = []
    for condition in own.conditions:
        save = condition.save_ends
        if save is not None:
            ability = Ability(save.ability).description
            draft.add(
                "save-due",
                f"{draft.name(creature_id)}: {ability} save DC {save.dc} due to end"
                f" {condition.name}",
                creature_id,
            )
            condition = condition.model_copy(
                update={"save_ends": save.model_copy(update={"due": True})}
            )
        due.append(condition)
    draft.put(own.model_copy(update={"conditions": tuple(due)}))
