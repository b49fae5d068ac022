"""Concentration as engine operations: the DM marks a creature concentrating on a spell, ends
it, and resolves the Constitution saves damage called for (``concentration_core`` has the
rule and its citation). In a combat or outside one; each returns one ``Outcome``."""

from __future__ import annotations

from dataclasses import dataclass

from battlemap.model.combat import Concentration
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.model.limits import MAX_NAME
from battlemap.rules.concentration_core import end_concentration
from battlemap.rules.conditions import is_incapacitated
from battlemap.rules.draft import Draft
from battlemap.rules.enums import Ability
from battlemap.rules.errors import IllegalActionError, InvalidRequestError
from battlemap.rules.outcome import Outcome
from battlemap.rules.saves import SaveResult, saving_throw
from battlemap.rules.schema import Ruleset


@dataclass(frozen=True)
class ConcentrationSave:
    """One concentration save: the spell, the save with its reasons, and whether it held."""

    spell: str
    dc: int
    save: SaveResult
    kept: bool


def concentrate(
    encounter: Encounter, ruleset: Ruleset, creature_id: EntityId, spell: str
) -> Outcome[Concentration]:
    """The creature starts concentrating on ``spell``; a spell it concentrated on before ends
    (and what that one held), as casting another concentration spell ends it.

    Raises:
        AbsentTargetError; DeadTargetError; InvalidRequestError: an empty or over-long spell
            name, or the creature is left out of the running combat; IllegalActionError:
            it is incapacitated.
    """
    spell = spell.strip()
    if not spell or len(spell) > MAX_NAME:
        raise InvalidRequestError(f"a spell's name is 1 to {MAX_NAME} characters, got {spell!r}")
    draft = Draft(encounter, ruleset)
    creature = draft.require_alive(creature_id)
    combatant = draft.combatant(creature_id)
    if combatant is None:
        raise InvalidRequestError(f"{creature.name} is not in this combat")
    if is_incapacitated(ruleset, combatant):
        raise IllegalActionError(f"{creature.name} is incapacitated and can't concentrate")
    if combatant.concentration is not None:
        end_concentration(draft, creature_id, f"now concentrating on {spell}")
        combatant = draft.combatant(creature_id)
        assert combatant is not None
    held = Concentration(spell=spell)
    draft.put(combatant.model_copy(update={"concentration": held}))
    draft.add("concentration", f"{creature.name} concentrates on {spell}", creature_id)
    return draft.done(held)


def stop_concentrating(
    encounter: Encounter, ruleset: Ruleset, creature_id: EntityId, reason: str = "ended by the DM"
) -> Outcome[Concentration | None]:
    """End the creature's concentration and what it holds (nothing happens without one)."""
    draft = Draft(encounter, ruleset)
    draft.creature(creature_id)
    return draft.done(end_concentration(draft, creature_id, reason))


def concentration_save(
    encounter: Encounter,
    ruleset: Ruleset,
    creature_id: EntityId,
    *,
    typed: tuple[int, ...] | None = None,
    save_bonus: int | None = None,
) -> Outcome[ConcentrationSave]:
    """Make the oldest Constitution save damage called for (``saving_throw``, with its roll
    mode and reasons; ``typed`` d20 faces from physical dice, else the combat's dice). A
    failure ends the concentration and every condition it holds.

    Raises:
        InvalidRequestError: no concentration save is due (or as ``saving_throw``).
    """
    draft = Draft(encounter, ruleset)
    creature = draft.creature(creature_id)
    combatant = draft.combatant(creature_id)
    held = combatant.concentration if combatant is not None else None
    if held is None or not held.saves_due:
        raise InvalidRequestError(f"{creature.name} owes no concentration save")
    dc = held.saves_due[0]
    rolled = saving_throw(
        encounter, ruleset, creature_id, Ability.CON, dc, save_bonus=save_bonus, typed=typed
    )
    after = Draft(rolled.encounter, ruleset)
    if rolled.result.success:
        combatant = after.combatant(creature_id)
        assert combatant is not None and combatant.concentration is not None
        rest = combatant.concentration.saves_due[1:]
        kept = combatant.concentration.model_copy(update={"saves_due": rest})
        after.put(combatant.model_copy(update={"concentration": kept}))
        after.add(
            "concentration", f"{creature.name} keeps concentrating on {held.spell}", creature_id
        )
    else:
        end_concentration(after, creature_id, f"failed the DC {dc} Constitution save")
    done = after.done(ConcentrationSave(held.spell, dc, rolled.result, rolled.result.success))
    return Outcome(done.encounter, done.result, rolled.events + done.events)
