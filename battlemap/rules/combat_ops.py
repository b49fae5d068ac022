"""Small pure helpers the turn engine modules share: look-ups, logging and rolling into state."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from battlemap.model.combat import Combatant, CombatEvent, CombatState, RollRecord, keep_newest
from battlemap.model.creature import CombatStats, Creature
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.rules.dice import roll
from battlemap.rules.errors import IllegalActionError, InvalidRequestError

StateStep = tuple[CombatState, tuple[CombatEvent, ...]]
"""What every engine call returns: the new state and the events it added to the log."""

DEFAULT_STATS = CombatStats()


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


class Log:
    """Collects the events of one engine call and the rolls it makes, then commits them."""

    def __init__(self, state: CombatState) -> None:
        self.state = state
        self.events: list[CombatEvent] = []
        self.rolls: list[RollRecord] = []
        self._earlier: tuple[CombatEvent, ...] = ()

    def add(self, kind: str, text: str, creature_id: EntityId | None = None) -> None:
        self.events.append(
            CombatEvent(round=self.state.round, kind=kind, creature_id=creature_id, text=text)
        )

    def roll(
        self, expression: str, purpose: str, creature_id: EntityId | None = None
    ) -> RollRecord:
        """Roll from the state's dice, advancing them, and log the roll."""
        dice, record = roll(self.state.dice, expression, purpose)
        self.state = self.state.model_copy(update={"dice": dice})
        self.rolls.append(record)
        self.add("roll", f"{purpose}: {record.detail}", creature_id)
        return record

    def update(self, state: CombatState) -> None:
        self.state = state

    def put(self, combatant: Combatant) -> None:
        self.state = self.state.with_combatant(combatant)

    def commit(self) -> StateStep:
        """The state with this call's rolls and events appended, and those events."""
        final = self.state.model_copy(
            update={
                "log": keep_newest(self.state.log, self.events),
                "rolls": keep_newest(self.state.rolls, self.rolls),
            }
        )
        return final, self._earlier + tuple(self.events)

    def run(self, step: Callable[[CombatState], StateStep]) -> None:
        """Commit what is collected, then let another engine call (a hook) continue."""
        state, events = self.commit()
        self.state, more = step(state)
        self._earlier = events + more
        self.events, self.rolls = [], []


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
