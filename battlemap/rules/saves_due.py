"""What saving throws the fight waits on now: a pure query, for any prompt to read.

- a concentration save per damage taken while concentrating (``Concentration.saves_due``);
- a save that ends a condition, owed at the end of the affected creature's turn
  (``SaveEnds.due``, set when that turn ends).

In a combat the combatants are asked; outside one, the creatures' lasting states. The query
changes nothing: the saves are made with ``concentration.concentration_save`` and
``effects.effect_save``. (15-flow's ``pending.pending_decisions``, the cards on the map, can
list these beside the death saves and the Brink.)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from battlemap.model.combat import Combatant
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.rules.enums import Ability


class SaveKind(StrEnum):
    CONCENTRATION = "concentration"
    """A Constitution save to keep concentrating after taking damage."""
    ENDS_CONDITION = "ends-condition"
    """A save at the end of the creature's turn that ends a condition on a success."""


@dataclass(frozen=True)
class SaveDue:
    """One save owed now, with what it is for in words."""

    creature_id: EntityId
    kind: SaveKind
    ability: Ability
    dc: int
    reason: str
    condition: str | None = None
    """The condition a success ends (``ENDS_CONDITION``)."""


def _combatants(encounter: Encounter) -> list[tuple[str, Combatant]]:
    if encounter.combat is not None:
        names = {c.id: c.name for c in encounter.creatures}
        return [
            (names.get(c.creature_id, str(c.creature_id)), c) for c in encounter.combat.combatants
        ]
    return [
        (c.name, Combatant(creature_id=c.id, group="").with_lasting(c.lasting))
        for c in encounter.creatures
        if c.lasting is not None
    ]


def saves_due(encounter: Encounter) -> tuple[SaveDue, ...]:
    """Every save owed now, in initiative (or listing) order: each creature's concentration
    saves first, oldest first, then its end-of-turn saves."""
    found: list[SaveDue] = []
    for name, combatant in _combatants(encounter):
        held = combatant.concentration
        for dc in held.saves_due if held is not None else ():
            assert held is not None
            found.append(
                SaveDue(
                    combatant.creature_id,
                    SaveKind.CONCENTRATION,
                    Ability.CON,
                    dc,
                    f"{name}: Constitution save DC {dc} to keep concentrating on {held.spell}",
                )
            )
        for condition in combatant.conditions:
            save = condition.save_ends
            if save is None or not save.due:
                continue
            ability = Ability(save.ability)
            found.append(
                SaveDue(
                    combatant.creature_id,
                    SaveKind.ENDS_CONDITION,
                    ability,
                    save.dc,
                    f"{name}: {ability.description} save DC {save.dc} to end {condition.name}",
                    condition.name,
                )
            )
    return tuple(found)
