"""Removing creatures from the map during a combat (no Qt).

A creature deleted from the map (Delete, or Remove on its token's menu) must leave the
combat in the same step: a combat naming a creature the encounter no longer has breaks
every place that looks it up (the Actions dock of its turn, the turn engine, ...).
"""

from __future__ import annotations

from battlemap.model.combat import CombatState
from battlemap.model.combat_commands import end_combat
from battlemap.model.document import Command, ReplaceEncounterField
from battlemap.model.encounter import Encounter
from battlemap.model.map_commands import CommandGroup
from battlemap.rules.errors import IllegalActionError
from battlemap.rules.schema import Ruleset
from battlemap.rules.turns import remove_combatant


class RemovalRefusedError(ValueError):
    """A removal that would leave the running combat naming a creature the map no longer has
    (its ruleset can't be loaded, so the engine can't take the creature out of the turn order).
    The message names the creatures and says what the DM can do."""


def leaving_combat_too(encounter: Encounter, ruleset: Ruleset | None, command: Command) -> Command:
    """``command`` (which removes creatures), preceded by each removed combatant leaving
    the running combat (``turns.remove_combatant``: the next turn starts if it was its
    turn), as one step named like ``command``.

    When every combatant is removed the combat ends (the engine won't let the last one
    leave a running combat), its log kept in the encounter log (``end_combat``).
    ``command`` is returned unchanged when there is no combat or no combatant is removed.

    Raises:
        RemovalRefusedError: a combatant would be removed but the ruleset is unknown (None: the
            engine can't be asked to move the turn on); nothing may be pushed, so the map and
            the combat keep the same creatures. Ending the combat needs no ruleset.
    """
    combat = encounter.combat
    if combat is None:
        return command
    kept = {creature.id for creature in command.apply(encounter).creatures}
    leaving = [c.creature_id for c in combat.combatants if c.creature_id not in kept]
    if not leaving:
        return command
    if ruleset is None:
        names = ", ".join(encounter.creature(creature_id).name for creature_id in leaving)
        raise RemovalRefusedError(
            f"{names} can't be removed: the combat's ruleset '{combat.ruleset}' can't be loaded,"
            " so it can't leave the turn order. Use End combat in the Initiative dock first."
        )
    after: CombatState | None
    try:
        leaves = encounter
        for creature_id in leaving:
            leaves = remove_combatant(leaves, ruleset, creature_id).encounter
        after = leaves.combat
    except IllegalActionError:  # the last combatant of a running combat
        after = None
    step: Command
    if after is None:  # the combat's log stays in the encounter log
        step = end_combat(encounter, text=f"{command.text} (ends the combat)")
    else:
        step = ReplaceEncounterField(
            "combat", combat, after, text=f"{command.text} (leave the combat)"
        )
    return CommandGroup((step, command), text=command.text)
