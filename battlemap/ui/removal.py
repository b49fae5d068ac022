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


def leaving_combat_too(encounter: Encounter, ruleset: Ruleset | None, command: Command) -> Command:
    """``command`` (which removes creatures), preceded by each removed combatant leaving
    the running combat (``turns.remove_combatant``: the next turn starts if it was its
    turn), as one step named like ``command``.

    When every combatant is removed the combat ends (the engine won't let the last one
    leave a running combat), its log kept in the encounter log (``end_combat``).
    ``command`` is returned unchanged when there is no combat, no combatant is removed, or
    the ruleset is unknown (None: the engine can't be asked).
    """
    combat = encounter.combat
    if combat is None or ruleset is None:
        return command
    kept = {creature.id for creature in command.apply(encounter).creatures}
    leaving = [c.creature_id for c in combat.combatants if c.creature_id not in kept]
    if not leaving:
        return command
    after: CombatState | None
    try:
        state = combat
        for creature_id in leaving:
            state, _events = remove_combatant(state, ruleset, encounter, creature_id)
        after = state
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
