"""Facts the attack, damage and death engine shares: its errors, dice checks and HP facts.

The working copy an operation changes is ``rules.draft.Draft``.
"""

from __future__ import annotations

import math

from battlemap.model.combat import Combatant
from battlemap.model.creature import Creature, Side
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.rules.enums import ExhaustionEffect, MonsterDeathAtZero, Rounding
from battlemap.rules.errors import IllegalActionError, InvalidRequestError
from battlemap.rules.schema import Ruleset
from battlemap.rules.schema_vitals import BloodiedRules


class UnknownDamageTypeError(InvalidRequestError):
    """A damage type the encounter's ruleset doesn't have (final-fantasy-d20 has its own)."""


class NegativeAmountError(InvalidRequestError):
    """Damage, healing or temporary hit points below 0."""


class AbsentTargetError(InvalidRequestError):
    """The creature isn't in the encounter (or not in the combat when one is needed)."""


class DeadTargetError(IllegalActionError):
    """The creature is dead: it can't take damage, be healed or act."""


class NotTargetableError(IllegalActionError):
    """The target can't be attacked: total cover, out of reach or range."""


class BadDieError(InvalidRequestError):
    """A typed-in die result outside the die's faces."""


def rounded(value: float, rounding: Rounding) -> int:
    """``value`` to a whole number: down is floor, up is ceiling (exact for .0)."""
    return math.floor(value + 1e-9) if rounding is Rounding.DOWN else math.ceil(value - 1e-9)


def check_die(value: int, sides: int, what: str) -> int:
    """A typed-in die face, checked.

    Raises:
        BadDieError: outside 1..sides.
    """
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= sides:
        raise BadDieError(f"{what}: {value!r} is not a face of a d{sides}")
    return value


def is_monster(creature: Creature) -> bool:
    """Anything not on the party's side counts as a monster for "monsters die at 0"."""
    return creature.side is not Side.PARTY


def effective_max_hp(ruleset: Ruleset, creature: Creature, combatant: Combatant | None) -> int:
    """The HP maximum after life drain (``hp_max_reduction``) and exhaustion's "max HP halved".

    Halving rounds down and is applied once, after the reduction. Never below 0.
    """
    maximum = creature.max_hp
    if combatant is None:
        return maximum
    maximum = max(0, maximum - combatant.death.hp_max_reduction)
    if ExhaustionEffect.HALF_HP_MAX in ruleset.exhaustion_effects(combatant.exhaustion):
        maximum //= 2
    return maximum


def is_bloodied(ruleset: Ruleset, creature: Creature, maximum: int) -> bool:
    """bloodied-brink: at or below half the maximum (other rulesets: never)."""
    rules = ruleset.hit_points.bloodied
    return rules is not None and _at_threshold(rules, creature.hp, maximum)


def looks_bloodied(
    ruleset: Ruleset | None, creature: Creature, combatant: Combatant | None = None
) -> bool:
    """What both windows show as "bloodied" (the DM's token ring, the players' token, the
    docks): above 0 HP and ``is_bloodied`` at the effective maximum (``effective_max_hp``).

    Only a ruleset with the bloodied state has it (bloodied-brink "Hit Points": "half your Hit
    Points or fewer"); the other four rulesets' documents have no such state, so nothing looks
    bloodied under them, nor when the ruleset is unknown (docs/rules-choices.md).
    """
    if ruleset is None or creature.hp <= 0:
        return False
    return is_bloodied(ruleset, creature, effective_max_hp(ruleset, creature, combatant))


def _at_threshold(rules: BloodiedRules, hp: int, maximum: int) -> bool:
    if maximum <= 0:
        return False
    limit = rules.fraction_of_max * maximum
    return hp <= limit + 1e-9 if rules.at_or_below else hp < limit - 1e-9


def dies_at_zero(ruleset: Ruleset, creature: Creature, combatant: Combatant | None) -> bool:
    """Whether this creature dies outright at 0 HP (the monsters rule and the DM's switch)."""
    if combatant is not None and combatant.death.unconscious_at_zero is not None:
        return not combatant.death.unconscious_at_zero
    return ruleset.hit_points.monsters_at_zero is MonsterDeathAtZero.DIE and is_monster(creature)


def is_dead(encounter: Encounter, creature_id: EntityId) -> bool:
    """Dead in the running combat, or (outside one, or not fighting) by its lasting state."""
    combat = encounter.combat
    if combat is not None and combat.has(creature_id):
        return combat.combatant(creature_id).death.dead
    lasting = next((c.lasting for c in encounter.creatures if c.id == creature_id), None)
    return lasting is not None and lasting.death.dead
