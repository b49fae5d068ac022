"""Small pure helpers the engine modules share: look-ups, checks and dice notation."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

from battlemap.model.combat import Combatant, CombatState
from battlemap.model.creature import CombatStats, Creature
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.rules.errors import IllegalActionError, InvalidRequestError

DEFAULT_STATS = CombatStats()
T = TypeVar("T")


def stats_of(creature: Creature) -> CombatStats:
    """The creature's combat stats, or all-10s defaults when it has none."""
    return creature.stats if creature.stats is not None else DEFAULT_STATS


def creature_of(encounter: Encounter, creature_id: EntityId) -> Creature:
    """The creature with this id.

    Raises:
        InvalidRequestError: when the encounter has no such creature.
    """
    try:
        return encounter.creature(creature_id)
    except KeyError:
        raise InvalidRequestError(f"no creature '{creature_id}' in the encounter") from None


def combatant_of(state: CombatState, creature_id: EntityId) -> Combatant:
    """The combatant of this creature.

    Raises:
        InvalidRequestError: when the creature is not in the combat.
    """
    try:
        return state.combatant(creature_id)
    except KeyError:
        raise InvalidRequestError(f"'{creature_id}' is not in this combat") from None


def name_of(encounter: Encounter, creature_id: EntityId) -> str:
    try:
        return encounter.creature(creature_id).name
    except KeyError:
        return str(creature_id)


def is_dying(creature: Creature, combatant: Combatant) -> bool:
    """At 0 HP and neither dead nor stable: it makes death saves (or chooses on the Brink)."""
    return creature.hp == 0 and not combatant.death.dead and not combatant.death.stable


def signed(value: int) -> str:
    """``+3`` / ``-1`` / ``+0`` for dice expressions."""
    return f"+{value}" if value >= 0 else str(value)


def require(condition: bool, reason: str) -> None:
    """Raise ``IllegalActionError(reason)`` unless ``condition``."""
    if not condition:
        raise IllegalActionError(reason)


def ids_in(creatures: Iterable[Creature]) -> list[EntityId]:
    return [c.id for c in creatures]


def allowed_option(
    options: Iterable[tuple[T, str | None]], name_of_option: Callable[[T], str], name: str
) -> T:
    """The option called ``name`` among ``(option, refusal)`` pairs, which must be allowed
    (a legendary or lair action: its reason None).

    Raises:
        InvalidRequestError: none of that name (the message lists the names there are).
        IllegalActionError: the refusal of the one found.
    """
    listed = list(options)
    for option, refusal in listed:
        if name_of_option(option) == name:
            require(refusal is None, refusal or "")
            return option
    known = ", ".join(name_of_option(option) for option, _ in listed)
    raise InvalidRequestError(f"no '{name[:80]}' here; there are: {known}")
