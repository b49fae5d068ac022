"""Turn steps that join the turn engine with the damage engine, as one new state each.

``turns.TurnHook`` returns only a combat state, but a death save's natural 20 restores a hit
point, which lives on the ``Creature``; so instead of a hook, ``next_turn`` ends the turn with
``turns.end_turn`` and then makes the death saving throw the new creature owes, in one
``Outcome`` (one undo step). It also applies bloodied-brink's Brink of Death pause (no turn
ends while someone must choose) and Last Breath's farewell at the end of that final turn.
"""

from __future__ import annotations

from dataclasses import dataclass

from battlemap.model.combat import CombatState
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.rules.combat_ops import creature_of
from battlemap.rules.death import DeathSaveResult, death_save, end_last_breath
from battlemap.rules.errors import IllegalActionError
from battlemap.rules.outcome import Outcome, running_combat, with_combat
from battlemap.rules.saves_due import saves_due
from battlemap.rules.schema import Ruleset
from battlemap.rules.turns import current_creature, end_turn


@dataclass(frozen=True)
class TurnStep:
    ended: EntityId
    started: EntityId
    last_breath_died: bool = False
    death_save: DeathSaveResult | None = None


def death_save_due(encounter: Encounter, combat: CombatState, creature_id: EntityId) -> bool:
    """At 0 HP, not dead, not stable, not on the Brink and without Last Breath."""
    if not combat.has(creature_id):
        return False
    death = combat.combatant(creature_id).death
    hp = creature_of(encounter, creature_id).hp
    return hp == 0 and not (death.dead or death.stable or death.brink or death.last_breath)


def brink_pause(encounter: Encounter, ruleset: Ruleset) -> str | None:
    """Why no turn may end now: someone is on the Brink of Death and the ruleset pauses
    initiative until they choose (bloodied-brink); None otherwise."""
    brink = ruleset.death_saves.brink_of_death
    combat = encounter.combat
    if brink is None or not brink.pauses_initiative or combat is None:
        return None
    waiting = [c for c in combat.combatants if c.death.brink and not c.death.dead]
    if not waiting:
        return None
    names = ", ".join(encounter.creature(c.creature_id).name for c in waiting)
    return f"initiative is paused: {names} must choose on the Brink"


MAX_REASONS_LISTED = 3


def saves_pause(encounter: Encounter) -> str | None:
    """Why no turn may end now: saves are due (a concentration save after damage, a save
    that ends a condition at the end of a turn: ``saves_due``) and are made first; None
    when none is."""
    due = saves_due(encounter)
    if not due:
        return None
    listed = "; ".join(d.reason for d in due[:MAX_REASONS_LISTED])
    more = f" and {len(due) - MAX_REASONS_LISTED} more" if len(due) > MAX_REASONS_LISTED else ""
    return f"make the saves due first: {listed}{more}"


def next_turn(
    encounter: Encounter,
    ruleset: Ruleset,
    *,
    death_save_d20: int | None = None,
    death_save_bonus: int = 0,
) -> Outcome[TurnStep]:
    """End the current turn (durations counted on the creature lose a round, its saves that
    end conditions fall due: ``turns.end_turn``), start the next, and roll the death save
    it owes (``death_save_d20`` typed in, else rolled).

    Raises:
        IllegalActionError: the combat hasn't begun, someone is on the Brink of Death and
            the ruleset pauses initiative until they choose, or saves are due
            (``saves_pause``).
    """
    combat = running_combat(encounter)
    paused = brink_pause(encounter, ruleset) or saves_pause(encounter)
    if paused is not None:
        raise IllegalActionError(paused)
    ended = current_creature(combat)
    died = False
    ended_turn = end_turn(encounter, ruleset)  # durations and saves due counted there
    state, events = running_combat(ended_turn.encounter), ended_turn.events
    if combat.combatant(ended).death.last_breath:
        applied_breath = end_last_breath(with_combat(encounter, state), ruleset, ended)
        assert applied_breath.combat is not None
        state, events = applied_breath.combat, events + applied_breath.events
        died = True
    started = current_creature(state)
    save = None
    if death_save_due(encounter, state, started):
        applied = death_save(
            with_combat(encounter, state),
            ruleset,
            started,
            d20=death_save_d20,
            bonus=death_save_bonus,
        )
        assert applied.combat is not None
        encounter, state, events = applied.encounter, applied.combat, events + applied.events
        save = applied.result
    return Outcome(with_combat(encounter, state), TurnStep(ended, started, died, save), events)
