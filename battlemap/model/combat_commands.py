"""Undo commands for combat steps that change the combat state and creatures together.

An engine call (an attack, damage, healing, a death save) returns a new combat state and may
change creatures too (hit points, temporary HP). ``ApplyCombatStep`` swaps both in one undo
step. It holds only the creatures that changed, by value, so undoing restores them exactly.
"""

from __future__ import annotations

from dataclasses import dataclass

from battlemap.model.combat import CombatState
from battlemap.model.creature import Creature
from battlemap.model.document import Command, ReplaceEncounterField
from battlemap.model.encounter import Encounter
from battlemap.model.map_commands import CommandGroup


@dataclass(frozen=True)
class ApplyCombatStep(Command):
    """Set ``combat`` and replace the changed creatures (same ids) in one step."""

    old_combat: CombatState | None
    new_combat: CombatState | None
    old_creatures: tuple[Creature, ...] = ()
    new_creatures: tuple[Creature, ...] = ()
    text: str = "Combat step"

    @staticmethod
    def between(
        before: Encounter, after: Encounter, combat: CombatState | None, text: str
    ) -> ApplyCombatStep:
        """The step from ``before`` to ``after``'s creatures with ``combat`` as the new state.

        Only creatures present in both and different are recorded; the engine never adds or
        removes creatures.
        """
        old_by_id = {c.id: c for c in before.creatures}
        changed = [c for c in after.creatures if c.id in old_by_id and old_by_id[c.id] != c]
        return ApplyCombatStep(
            old_combat=before.combat,
            new_combat=combat,
            old_creatures=tuple(old_by_id[c.id] for c in changed),
            new_creatures=tuple(changed),
            text=text,
        )

    @staticmethod
    def _swap(
        encounter: Encounter, creatures: tuple[Creature, ...], combat: CombatState | None
    ) -> Encounter:
        for creature in creatures:
            encounter = encounter.replace_creature(creature)
        return encounter.model_copy(update={"combat": combat})

    def apply(self, encounter: Encounter) -> Encounter:
        return self._swap(encounter, self.new_creatures, self.new_combat)

    def revert(self, encounter: Encounter) -> Encounter:
        return self._swap(encounter, self.old_creatures, self.old_combat)


def end_combat(encounter: Encounter, text: str = "End combat") -> Command:
    """One step ending the running combat whose log stays in the encounter log, closed by a
    ``combat-ended`` line, each creature keeping its lasting state
    (``Encounter.with_combat_ended``); undo brings the combat back, takes its lines out of the
    encounter log and restores the creatures as they were."""
    after = encounter.with_combat_ended()
    return CommandGroup(
        (
            ApplyCombatStep.between(encounter, after, None, text),
            ReplaceEncounterField("log", encounter.log, after.log),
        ),
        text=text,
    )
