"""Conditions with a duration, a save that ends them, or a caster's concentration holding
them; and what the end of a turn does to them.

- A duration in rounds counts down at the end of each turn of the creature it is counted on
  (``expiry_creature``: the affected creature unless said otherwise; the turn it starts in
  counts), and the condition ends with a log line when none is left. "1 minute" is 10 rounds
  (srd-5e.txt "Combat Round": "Each round represents about 6 seconds in the game world").
- "Save at the end of each of its turns": when the affected creature's turn ends, the save is
  due (``SaveEnds.due``, listed by ``saves_due.saves_due``); ``effect_save`` makes it and a
  success ends the condition.
- ``held_by``: the condition ends with that creature's concentration
  (``concentration_core.end_concentration``).

The counting at a turn's end is ``durations.count_turn_end``, which ``turns.end_turn`` runs.
Outside a combat no turns pass: rounds and saves wait for the next combat, which starts from
the creature's lasting state.
"""

from __future__ import annotations

from dataclasses import dataclass

from battlemap.model.combat import MAX_EFFECT_ROUNDS, ActiveCondition, Expiry, SaveEnds
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.rules.conditions import end_condition, give_condition
from battlemap.rules.draft import Draft
from battlemap.rules.enums import Ability
from battlemap.rules.errors import InvalidRequestError
from battlemap.rules.outcome import Outcome
from battlemap.rules.saves import SaveResult, saving_throw
from battlemap.rules.schema import Ruleset

ROUNDS_PER_MINUTE = 10
"""srd-5e "Combat Round": a round is about 6 seconds, so a minute is 10 rounds."""


def rounds_in(minutes: int) -> int:
    """A duration in minutes as rounds: 1 minute = 10 rounds."""
    return minutes * ROUNDS_PER_MINUTE


@dataclass(frozen=True)
class EffectSave:
    """A save that ends a condition: which, against what DC, the save, and whether it ended."""

    condition: str
    dc: int
    save: SaveResult
    ended: bool


def _describe(condition: ActiveCondition, draft: Draft) -> str:
    parts = []
    if condition.rounds_left is not None:
        parts.append(f"{condition.rounds_left} rounds")
    if condition.save_ends is not None:
        ability = Ability(condition.save_ends.ability).description
        parts.append(f"{ability} save DC {condition.save_ends.dc} at the end of each of its turns")
    if condition.held_by is not None:
        parts.append(f"held by {draft.name(condition.held_by)}'s concentration")
    return "; ".join(parts)


def apply_effect(
    encounter: Encounter,
    ruleset: Ruleset,
    creature_id: EntityId,
    name: str,
    *,
    rounds: int | None = None,
    save: SaveEnds | None = None,
    held_by: EntityId | None = None,
    counted_on: EntityId | None = None,
    expiry: Expiry | None = None,
) -> Outcome[ActiveCondition]:
    """Give the creature condition ``name`` with a duration of ``rounds`` (counted at the end
    of ``counted_on``'s turns, default the creature's own), a ``save`` at the end of each of
    its turns, and/or ``held_by`` a concentrating creature. Without ``rounds`` the
    ``expiry`` applies (None: the ruleset's default). In a combat or outside one.

    Raises:
        AbsentTargetError, DeadTargetError; InvalidRequestError: not a condition of the
            ruleset, rounds outside 1..14,400, ``held_by`` not concentrating, the creature
            left out of the running combat.
    """
    if name not in ruleset.conditions:
        raise InvalidRequestError(f"'{name}' is not a condition of this ruleset")
    if rounds is not None and not 1 <= rounds <= MAX_EFFECT_ROUNDS:
        raise InvalidRequestError(f"a duration is 1 to {MAX_EFFECT_ROUNDS} rounds, got {rounds}")
    draft = Draft(encounter, ruleset)
    draft.require_alive(creature_id)
    if draft.combatant(creature_id) is None:
        raise InvalidRequestError(f"{draft.name(creature_id)} is not in this combat")
    if held_by is not None:
        caster = draft.combatant(held_by)
        if caster is None or caster.concentration is None:
            raise InvalidRequestError(f"{draft.name(held_by)} is not concentrating on a spell")
    counter = counted_on if counted_on is not None else creature_id
    timed = Expiry.NEVER if rounds is not None or encounter.combat is None else expiry
    give_condition(draft, creature_id, name, expiry=timed)
    combatant = draft.combatant(creature_id)
    assert combatant is not None
    given = next(c for c in combatant.conditions if c.name == name)
    update: dict[str, object] = {"held_by": held_by, "save_ends": save, "rounds_left": rounds}
    if rounds is not None:
        update["expiry_creature"] = counter
    given = given.model_copy(update=update)
    kept = tuple(given if c.name == name else c for c in combatant.conditions)
    draft.put(combatant.model_copy(update={"conditions": kept}))
    details = _describe(given, draft)
    if details:
        draft.add("condition", f"{draft.name(creature_id)}: {name} ({details})", creature_id)
    return draft.done(given)


def effect_save(
    encounter: Encounter,
    ruleset: Ruleset,
    creature_id: EntityId,
    name: str,
    *,
    typed: tuple[int, ...] | None = None,
    save_bonus: int | None = None,
) -> Outcome[EffectSave]:
    """Make the save due to end condition ``name`` (``saving_throw``: typed d20 faces, else
    the combat's dice); a success ends it, a failure keeps it until the next turn's end.

    Raises:
        InvalidRequestError: no such save is due (or as ``saving_throw``).
    """
    draft = Draft(encounter, ruleset)
    creature = draft.creature(creature_id)
    combatant = draft.combatant(creature_id)
    found = [c for c in combatant.conditions if c.name == name] if combatant else []
    save = found[0].save_ends if found else None
    if save is None or not save.due:
        raise InvalidRequestError(f"{creature.name} owes no save to end {name}")
    rolled = saving_throw(
        encounter,
        ruleset,
        creature_id,
        Ability(save.ability),
        save.dc,
        save_bonus=save_bonus,
        typed=typed,
    )
    after = Draft(rolled.encounter, ruleset)
    if rolled.result.success:
        end_condition(after, creature_id, name)
    else:
        current = after.combatant(creature_id)
        assert current is not None
        waiting = save.model_copy(update={"due": False})
        kept = tuple(
            c.model_copy(update={"save_ends": waiting}) if c.name == name else c
            for c in current.conditions
        )
        after.put(current.model_copy(update={"conditions": kept}))
        after.add("condition", f"{creature.name} is still {name}", creature_id)
    done = after.done(EffectSave(name, save.dc, rolled.result, rolled.result.success))
    return Outcome(done.encounter, done.result, rolled.events + done.events)
