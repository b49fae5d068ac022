"""What a DM's token shows of a creature's state: its turn, down/dying/stable/dead, bloodied
(by the ruleset's own rule, ``rules.vitals.looks_bloodied``, as the players' window) and its
conditions.

Plain data, worked out once per change of the encounter, never per frame; a token's look is
keyed by it, so a state change redraws that token's pixmaps and nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from battlemap.model.combat import ActiveCondition, Combatant, DeathState
from battlemap.model.creature import Creature
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.rules.loader import RulesetError, RulesetRegistry
from battlemap.rules.schema import Ruleset
from battlemap.rules.vitals import looks_bloodied
from battlemap.ui.condition_icons import ConditionMark, marks_for

CONCENTRATING = "concentrating"
"""The badge of a creature concentrating on a spell (``Concentration``)."""
UNCONSCIOUS = "unconscious"
"""The condition id every shipped ruleset uses for it."""


class Vital(StrEnum):
    """How alive a creature looks on the map."""

    UP = "up"
    DYING = "dying"
    """At 0 HP, neither stable nor dead: death saves to make."""
    STABLE = "stable"
    """At 0 HP and stable."""
    UNCONSCIOUS = "unconscious"
    """Unconscious above 0 HP (asleep, knocked out) or knocked out at 0."""
    DEAD = "dead"
    DOWN = "down"
    """At 0 HP, as the players' window knows it (not told dying from stable)."""


@dataclass(frozen=True)
class TokenState:
    acting: bool = False
    """It is this creature's turn."""
    vital: Vital = Vital.UP
    bloodied: bool = False
    marks: tuple[ConditionMark, ...] = ()


def vital_of(
    creature: Creature, death: DeathState, conditions: tuple[ActiveCondition, ...]
) -> Vital:
    if death.dead:
        return Vital.DEAD
    if creature.hp <= 0:
        if death.knocked_out:
            return Vital.UNCONSCIOUS
        return Vital.STABLE if death.stable else Vital.DYING
    if any(condition.name == UNCONSCIOUS for condition in conditions):
        return Vital.UNCONSCIOUS
    return Vital.UP


def state_of(
    creature: Creature,
    combatant: Combatant | None,
    ruleset: Ruleset | None,
    acting: bool = False,
) -> TokenState:
    """A creature's look: from its combatant in a combat, else from what it keeps between
    combats (``Creature.lasting``). Without a ruleset nothing counts as bloodied."""
    concentrating = False
    if combatant is not None:
        death, conditions, exhaustion = combatant.death, combatant.conditions, combatant.exhaustion
        concentrating = combatant.concentration is not None
    elif creature.lasting is not None:
        lasting = creature.lasting
        death, conditions, exhaustion = lasting.death, lasting.conditions, lasting.exhaustion
        concentrating = lasting.concentration is not None
    else:
        death, conditions, exhaustion = DeathState(), (), 0
    vital = vital_of(creature, death, conditions)
    bloodied = vital is Vital.UP and looks_bloodied(ruleset, creature, combatant)
    marks = marks_for([(c.name, c.value) for c in conditions], exhaustion)
    if concentrating:  # the DM's badge ("Co"); the players' window doesn't show it
        marks += (ConditionMark(CONCENTRATING),)
    return TokenState(acting=acting, vital=vital, bloodied=bloodied, marks=marks)


def token_states(encounter: Encounter, ruleset: Ruleset | None) -> dict[EntityId, TokenState]:
    """Every creature's ``TokenState`` in ``encounter``."""
    combat = encounter.combat
    combatants = {c.creature_id: c for c in combat.combatants} if combat is not None else {}
    current = combat.current if combat is not None else None
    acting = current.creature_id if current is not None else None
    return {
        creature.id: state_of(
            creature, combatants.get(creature.id), ruleset, acting=creature.id == acting
        )
        for creature in encounter.creatures
    }


def quiet_ruleset(registry: RulesetRegistry, ruleset_id: str) -> Ruleset | None:
    """The ruleset, or None when unknown or broken: the map only shows less then (the
    combat docks report the problem, once, when the DM uses them)."""
    try:
        return registry.get(ruleset_id)
    except (RulesetError, ValueError):
        return None
