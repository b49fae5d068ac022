"""Conditions and exhaustion on combatants, and what they deny in the action economy.

Conditions are the ruleset's data (``Ruleset.conditions``); a condition's effects include those
of the conditions it implies (paralyzed -> incapacitated). This module applies the effects on
the turn (actions, reactions, movement); the attack engine applies those on rolls.
"""

from __future__ import annotations

from dataclasses import dataclass

from battlemap.model.combat import (
    LASTS_PAST_COMBAT,
    ActiveCondition,
    Combatant,
    Expiry,
    SpeedMode,
)
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.rules.combat_ops import combatant_of
from battlemap.rules.concentration_core import end_concentration
from battlemap.rules.draft import Draft
from battlemap.rules.enums import (
    ConditionDuration,
    ConditionEffect,
    DodgeEnd,
    EconomyPart,
    ExhaustionEffect,
)
from battlemap.rules.errors import InvalidRequestError
from battlemap.rules.outcome import Outcome, running_combat
from battlemap.rules.schema import Ruleset

_INCAPACITATING = {ConditionEffect.INCAPACITATED}
_DEFAULT_EXPIRY = {
    ConditionDuration.UNTIL_REMOVED: Expiry.NEVER,
    ConditionDuration.UNTIL_START_OF_TURN: Expiry.START_OF_TURN,
    ConditionDuration.UNTIL_END_OF_TURN: Expiry.END_OF_TURN,
    ConditionDuration.UNTIL_END_OF_NEXT_TURN: Expiry.END_OF_NEXT_TURN,
}
_SPEED_ZERO = {ConditionEffect.SPEED_ZERO, ConditionEffect.CANT_MOVE}


def effects_of(ruleset: Ruleset, combatant: Combatant) -> frozenset[ConditionEffect]:
    """Every condition effect on the combatant, implied conditions included.

    Conditions the ruleset doesn't define (a file changed under a saved combat) add nothing.
    """
    effects: set[ConditionEffect] = set()
    for condition in combatant.conditions:
        effects |= ruleset.condition_effects(condition.name)
    return frozenset(effects)


def exhaustion_effects(ruleset: Ruleset, combatant: Combatant) -> frozenset[ExhaustionEffect]:
    """Cumulative effects of the combatant's exhaustion level."""
    return ruleset.exhaustion_effects(combatant.exhaustion)


def is_incapacitated(ruleset: Ruleset, combatant: Combatant) -> bool:
    return bool(effects_of(ruleset, combatant) & _INCAPACITATING)


def speed_is_zero_by_conditions(ruleset: Ruleset, combatant: Combatant) -> bool:
    effects = effects_of(ruleset, combatant)
    return bool(effects & _SPEED_ZERO) or ExhaustionEffect.SPEED_ZERO in exhaustion_effects(
        ruleset, combatant
    )


def reactions_left(ruleset: Ruleset, combatant: Combatant) -> int:
    """Reactions the combatant may still take before its next turn begins.

    ``economy.reactions_per_round`` of them (srd "Reactions": one, then none until the start
    of your next turn); ``reaction_used`` marks them all spent (also in files saved before the
    count existed). Conditions and surprise are ``denial``'s business, not counted here.
    """
    if combatant.reaction_used:
        return 0
    return max(0, ruleset.economy.reactions_per_round - combatant.reactions_taken)


def with_reaction_spent(ruleset: Ruleset, combatant: Combatant) -> Combatant:
    """The combatant after one more reaction; ``reaction_used`` once none is left."""
    taken = combatant.reactions_taken + 1
    left = max(0, ruleset.economy.reactions_per_round - taken)
    return combatant.model_copy(update={"reactions_taken": taken, "reaction_used": left == 0})


@dataclass(frozen=True)
class Denial:
    """Why a part of the economy is unavailable; ``reason`` is None when it is available."""

    part: EconomyPart
    reason: str | None


def denial(ruleset: Ruleset, combatant: Combatant, part: EconomyPart, name: str) -> Denial:
    """Whether conditions or surprise deny ``part`` to the combatant now, and why.

    Surprise denies what the ruleset lists until the creature's first turn ends (the
    reaction included, although that can come up before the turn).
    """
    effects = effects_of(ruleset, combatant)
    first_turn = combatant.surprised and combatant.turns_taken == 0
    if first_turn and part in ruleset.surprise.denied_on_first_turn:
        return Denial(part, f"{name} is surprised: no {part.value} until its first turn ends")
    if part is not EconomyPart.MOVE and ConditionEffect.INCAPACITATED in effects:
        names = [c.name for c in combatant.conditions]
        return Denial(part, f"{name} is incapacitated ({', '.join(names)})")
    if part is EconomyPart.BONUS_ACTION and ConditionEffect.NO_BONUS_ACTION in effects:
        return Denial(part, f"{name} can't take bonus actions")
    if part is EconomyPart.REACTION and ConditionEffect.NO_REACTION in effects:
        return Denial(part, f"{name} can't take reactions")
    return Denial(part, None)


def apply_condition(
    encounter: Encounter,
    ruleset: Ruleset,
    creature_id: EntityId,
    name: str,
    *,
    expiry: Expiry | None = None,
    expiry_creature: EntityId | None = None,
    source_id: EntityId | None = None,
    value: int = 1,
) -> Outcome[None]:
    """Give a combatant a condition from the ruleset (again: replaces the old one).

    ``expiry`` None takes the condition's ``default_duration`` from the ruleset;
    ``END_OF_NEXT_TURN`` given during ``expiry_creature``'s own turn lasts through its next
    one (the current turn's end is skipped). An
    incapacitating condition (and, where the ruleset says so, one that makes speed 0) ends
    Dodge. Unconscious (``drops-held``) also makes the creature prone where the ruleset's
    ``hit_points.falls_prone_when_unconscious`` says so (srd: "drops whatever it's holding and
    falls prone"). legends-of-hyrule: a
    creature flying this turn without hover falls when knocked prone or its speed drops to 0
    (logged as ``falls``; the fall itself is the DM's or the damage engine's).

    Raises:
        InvalidRequestError: no combat, the ruleset has no such condition, the creature isn't
            fighting, or a ``value`` other than 1 for a condition without ``has_value`` (only
            valued conditions such as final-fantasy-d20's Wounded carry a number).
    """
    combatant = combatant_of(running_combat(encounter), creature_id)
    draft = Draft(encounter, ruleset)
    _give(
        draft,
        combatant,
        name,
        expiry=expiry,
        expiry_creature=expiry_creature,
        source_id=source_id,
        value=value,
    )
    return draft.done(None)


def _give(
    draft: Draft,
    combatant: Combatant,
    name: str,
    *,
    expiry: Expiry | None = None,
    expiry_creature: EntityId | None = None,
    source_id: EntityId | None = None,
    value: int = 1,
) -> None:
    ruleset = draft.ruleset
    if name not in ruleset.conditions:
        known = ", ".join(sorted(ruleset.conditions))
        raise InvalidRequestError(f"'{name}' is not a condition of this ruleset; known: {known}")
    definition = ruleset.conditions[name]
    if value != 1 and not definition.has_value:
        raise InvalidRequestError(f"'{name}' carries no number in this ruleset (got {value})")
    creature_id = combatant.creature_id
    if expiry is None:
        expiry = _DEFAULT_EXPIRY[definition.default_duration]
    if expiry is not Expiry.NEVER and expiry_creature is None:
        expiry_creature = creature_id
    # "Until the end of your next turn" said during that creature's own turn skips its end.
    current = draft.combat.current if draft.in_combat else None
    own_turn = current is not None and current.creature_id == expiry_creature
    condition = ActiveCondition(
        name=name,
        value=value,
        source_id=source_id,
        expiry=expiry,
        expiry_creature=expiry_creature,
        turn_ends_to_skip=1 if expiry is Expiry.END_OF_NEXT_TURN and own_turn else 0,
    )
    conditions = [c for c in combatant.conditions if c.name != name] + [condition]
    effects = ruleset.condition_effects(name)
    falls_prone = (
        ConditionEffect.DROPS_HELD in effects and ruleset.hit_points.falls_prone_when_unconscious
    )
    prone = ruleset.roles.conditions.prone
    if falls_prone and not any(c.name == prone for c in conditions):
        conditions.append(ActiveCondition(name=prone))
    updated = combatant.model_copy(update={"conditions": tuple(conditions)})
    who = draft.name(creature_id)
    draft.add("condition", f"{who} is {name}" + (f" {value}" if value != 1 else ""), creature_id)
    updated = _end_dodge_if_lost(draft, updated, who)
    draft.put(updated)
    if ConditionEffect.INCAPACITATED in effects:
        end_concentration(draft, creature_id, f"{name}: incapacitated")
    _fall_if_flying(draft, updated, who)


def _fall_if_flying(draft: Draft, combatant: Combatant, who: str) -> None:
    ruleset = draft.ruleset
    if not ruleset.movement.flying_falls_when_prone_or_speed_zero:
        return
    creature = draft.creature(combatant.creature_id)
    if creature.speeds.hover or combatant.turn.speed_mode is not SpeedMode.FLY:
        return
    effects = effects_of(ruleset, combatant)
    if ConditionEffect.CRAWL_ONLY in effects or speed_is_zero_by_conditions(ruleset, combatant):
        draft.add("falls", f"{who} is flying without hovering and falls", combatant.creature_id)


def _end_dodge_if_lost(draft: Draft, combatant: Combatant, who: str) -> Combatant:
    if not combatant.dodging:
        return combatant
    ruleset = draft.ruleset
    ends = ruleset.economy.dodge_ends_when
    reason = None
    if DodgeEnd.INCAPACITATED in ends and is_incapacitated(ruleset, combatant):
        reason = "incapacitated"
    elif DodgeEnd.SPEED_ZERO in ends and speed_is_zero_by_conditions(ruleset, combatant):
        reason = "speed 0"
    if reason is None:
        return combatant
    draft.add("effect-ends", f"{who}: Dodge ends ({reason})", combatant.creature_id)
    return combatant.model_copy(update={"dodging": False})


def remove_condition(
    encounter: Encounter, ruleset: Ruleset, creature_id: EntityId, name: str
) -> Outcome[None]:
    """Remove a condition (nothing happens if the creature doesn't have it).

    Raises:
        InvalidRequestError: no combat, or the creature isn't fighting.
    """
    combatant = combatant_of(running_combat(encounter), creature_id)
    draft = Draft(encounter, ruleset)
    _remove(draft, combatant, name)
    return draft.done(None)


def _remove(draft: Draft, combatant: Combatant, name: str) -> None:
    if not combatant.has_condition(name):
        return
    kept = tuple(c for c in combatant.conditions if c.name != name)
    draft.put(combatant.model_copy(update={"conditions": kept}))
    creature_id = combatant.creature_id
    draft.add("condition-ends", f"{draft.name(creature_id)}: {name} removed", creature_id)


def set_exhaustion(
    encounter: Encounter, ruleset: Ruleset, creature_id: EntityId, level: int
) -> Outcome[None]:
    """Set the exhaustion level (0 = none). The level whose effect is ``death`` kills.

    Raises:
        InvalidRequestError: no combat, the creature isn't fighting, or a level outside
            0..the table's last level.
    """
    combatant = combatant_of(running_combat(encounter), creature_id)
    draft = Draft(encounter, ruleset)
    _exhaust(draft, combatant, level)
    return draft.done(None)


def _exhaust(draft: Draft, combatant: Combatant, level: int) -> None:
    ruleset = draft.ruleset
    top = len(ruleset.exhaustion)
    if not 0 <= level <= top:
        raise InvalidRequestError(f"exhaustion level {level} is outside 0..{top}")
    creature_id = combatant.creature_id
    who = draft.name(creature_id)
    updated = combatant.model_copy(update={"exhaustion": level})
    rows = [r.description for r in ruleset.exhaustion if r.level <= level]
    draft.add(
        "exhaustion", f"{who}: exhaustion {level}" + (f" ({rows[-1]})" if rows else ""), creature_id
    )
    if ExhaustionEffect.DEATH in ruleset.exhaustion_effects(level):
        updated = updated.model_copy(
            update={"death": updated.death.model_copy(update={"dead": True})}
        )
        draft.add("death", f"{who} dies of exhaustion", creature_id)
    updated = _end_dodge_if_lost(draft, updated, who)
    draft.put(updated)
    if updated.death.dead:
        end_concentration(draft, creature_id, "died")


# --- conditions inside other operations (damage, death, contests) ------------------------


def give_condition(
    draft: Draft,
    creature_id: EntityId,
    name: str,
    *,
    expiry: Expiry | None = Expiry.NEVER,
    source_id: EntityId | None = None,
    value: int = 1,
) -> None:
    """Give a condition inside another operation (``expiry`` None: the ruleset's default);
    outside a combat on the creature's lasting state, where only never-expiring ones last
    (``LASTS_PAST_COMBAT``); a condition the ruleset lacks is skipped. An incapacitating one
    releases the creature's grapples."""
    combatant = draft.combatant(creature_id)
    if combatant is None or name not in draft.ruleset.conditions:
        return
    if not draft.in_combat and expiry is not None and expiry not in LASTS_PAST_COMBAT:
        return  # "until the end of your next turn" with no turns passing: nothing to keep
    _give(draft, combatant, name, expiry=expiry, source_id=source_id, value=value)
    if ConditionEffect.INCAPACITATED in draft.ruleset.condition_effects(name):
        release_grapples(draft, creature_id, f"{draft.name(creature_id)} is {name}")


def end_condition(draft: Draft, creature_id: EntityId, name: str) -> None:
    """End a condition inside another operation; outside a combat, on the lasting state."""
    combatant = draft.combatant(creature_id)
    if combatant is not None:
        _remove(draft, combatant, name)


def release_grapples(draft: Draft, grappler_id: EntityId, why: str) -> None:
    """Grappled ends on everyone this creature grapples (it is incapacitated or dead)."""
    if not draft.in_combat:
        return
    for other in draft.combat.combatants:
        held = [
            c
            for c in other.conditions
            if c.name == draft.ruleset.roles.conditions.grappled and c.source_id == grappler_id
        ]
        if held:
            kept = tuple(c for c in other.conditions if c not in held)
            draft.put(other.model_copy(update={"conditions": kept}))
            draft.add(
                "condition-ends",
                f"{draft.name(other.creature_id)} is no longer grappled ({why})",
                other.creature_id,
            )


# --- outside a combat: the lasting state -------------------------------------------------


def switch_lasting_condition(
    encounter: Encounter, ruleset: Ruleset, creature_id: EntityId, name: str, on: bool
) -> Outcome[None]:
    """Outside a combat: give the creature a condition from the ruleset (as ``apply_condition``,
    always ``Expiry.NEVER``: no turns count down) or end it, on its lasting state
    (``Creature.lasting``), where the next combat starts from it. Ending one it lacks
    changes nothing and logs nothing.

    Raises:
        AbsentTargetError; InvalidRequestError: not a condition of the ruleset, or a combat
            is running.
    """
    draft = _outside_combat(encounter, ruleset)
    combatant = draft.standing_in(creature_id)
    if on:
        _give(draft, combatant, name, expiry=Expiry.NEVER)
    else:
        _remove(draft, combatant, name)
    return draft.done(None)


def set_lasting_exhaustion(
    encounter: Encounter, ruleset: Ruleset, creature_id: EntityId, level: int
) -> Outcome[None]:
    """Outside a combat: set the creature's exhaustion level on its lasting state
    (as ``set_exhaustion``: the level whose effect is ``death`` kills).

    Raises:
        AbsentTargetError; InvalidRequestError: a level outside the ruleset's table, or a
            combat is running.
    """
    draft = _outside_combat(encounter, ruleset)
    _exhaust(draft, draft.standing_in(creature_id), level)
    return draft.done(None)


def _outside_combat(encounter: Encounter, ruleset: Ruleset) -> Draft:
    if encounter.combat is not None:
        raise InvalidRequestError("a combat is running: change the creature's combatant")
    return Draft(encounter, ruleset)
