"""Concentration's bookkeeping, shared by the engine operations that end or test it.

A creature concentrates on one spell at a time (``Concentration`` on its combatant, or on its
lasting state outside a combat); conditions its spell holds on others carry ``held_by``.
Taking damage calls for a Constitution save, DC 10 or half the damage taken, whichever is
higher (the ruleset's ``concentration`` section: none of the five documents in
../shared/rules-sources/ states this DC, so srd-5e.yaml writes the SRD 5.1 "Concentration"
rule's numbers out, and the others inherit them); failing it, being incapacitated or dying
ends the concentration and every condition it holds.

These helpers work on anything that reads and stores combatants the way an engine
operation's working copy does (``Changes``), in a combat or outside one.
"""

from __future__ import annotations

from typing import Protocol

from battlemap.model.combat import MAX_SAVES_DUE, Combatant, Concentration
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.rules.schema import Ruleset


class Changes(Protocol):
    """The working copy of one engine operation, as these helpers use it."""

    @property
    def encounter(self) -> Encounter: ...

    def combatant(self, creature_id: EntityId) -> Combatant | None: ...

    def put(self, combatant: Combatant) -> None: ...

    def add(self, kind: str, text: str, creature_id: EntityId | None = None) -> None: ...

    def name(self, creature_id: EntityId) -> str: ...

    @property
    def ruleset(self) -> Ruleset: ...


def concentration_dc(ruleset: Ruleset, damage: int) -> int:
    """The DC of the Constitution save ``damage`` calls for (``ruleset.concentration``):
    shipped, 10 or half of it (rounded down), whichever is higher. 25 damage: DC 12; 19
    damage: DC 10."""
    rules = ruleset.concentration
    return max(rules.save_dc_minimum, damage // rules.save_dc_damage_divisor)


def call_for_save(changes: Changes, creature_id: EntityId, damage: int) -> int | None:
    """The creature took ``damage``: if it concentrates, a Constitution save is now due (each
    time it takes damage, a separate save). Returns the DC, or None when no save is called
    for (no concentration, no damage). Saves beyond ``MAX_SAVES_DUE`` unmade are not added."""
    combatant = changes.combatant(creature_id)
    if combatant is None or combatant.concentration is None or damage <= 0:
        return None
    held = combatant.concentration
    dc = concentration_dc(changes.ruleset, damage)
    if len(held.saves_due) < MAX_SAVES_DUE:
        held = held.model_copy(update={"saves_due": (*held.saves_due, dc)})
        changes.put(combatant.model_copy(update={"concentration": held}))
    changes.add(
        "concentration-save-due",
        f"{changes.name(creature_id)} takes {damage} damage: DC {dc} Constitution save"
        f" to keep concentrating on {held.spell}",
        creature_id,
    )
    return dc


def end_concentration(changes: Changes, creature_id: EntityId, reason: str) -> Concentration | None:
    """End the creature's concentration, and every condition it holds on anyone, with a
    log line naming ``reason``; returns what ended (None: it wasn't concentrating)."""
    combatant = changes.combatant(creature_id)
    if combatant is None or combatant.concentration is None:
        return None
    ended = combatant.concentration
    changes.put(combatant.model_copy(update={"concentration": None}))
    name = changes.name(creature_id)
    changes.add(
        "concentration-ends", f"{name} stops concentrating on {ended.spell} ({reason})", creature_id
    )
    for creature in changes.encounter.creatures:
        other = changes.combatant(creature.id)
        if other is None:
            continue
        held = [c for c in other.conditions if c.held_by == creature_id]
        if not held:
            continue
        kept = tuple(c for c in other.conditions if c.held_by != creature_id)
        changes.put(other.model_copy(update={"conditions": kept}))
        for condition in held:
            changes.add(
                "condition-ends",
                f"{creature.name}: {condition.name} ends ({name}'s {ended.spell} ended)",
                creature.id,
            )
    return ended
