"""The one result type of every engine operation (python-chess: one ``Board``, one ``Outcome``).

An operation takes the encounter (which holds its combat, ``Encounter.combat``) and the
ruleset, and returns an ``Outcome``: the new encounter carrying the new combat state, the
structured result with its reasons, and the log events it added. The UI swaps the new
encounter in as one undo step; the input encounter is never mutated.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from battlemap.model.combat import CombatEvent, CombatState
from battlemap.model.encounter import Encounter
from battlemap.rules.errors import InvalidRequestError
from battlemap.rules.schema import Ruleset

R = TypeVar("R")
R_co = TypeVar("R_co", covariant=True)


@dataclass(frozen=True)
class Outcome(Generic[R_co]):
    """The new encounter (with its new combat state), the result and the log events."""

    encounter: Encounter
    result: R_co
    events: tuple[CombatEvent, ...]

    @property
    def combat(self) -> CombatState | None:
        """The new combat state: the one in ``encounter`` (there is no second copy)."""
        return self.encounter.combat


def with_combat(encounter: Encounter, combat: CombatState | None) -> Encounter:
    """``encounter`` holding ``combat`` (the same object when it already does)."""
    if encounter.combat is combat:
        return encounter
    return encounter.model_copy(update={"combat": combat})


EngineCall = Callable[[Encounter, Ruleset], Outcome[R]]
"""An engine operation with its arguments bound: the one shape the UI bridge runs."""

NO_COMBAT = "No combat is running: start one in the Initiative dock."


def running_combat(encounter: Encounter) -> CombatState:
    """The encounter's combat.

    Raises:
        InvalidRequestError: no combat is running.
    """
    if encounter.combat is None:
        raise InvalidRequestError(NO_COMBAT)
    return encounter.combat
