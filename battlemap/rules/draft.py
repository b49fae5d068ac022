"""The working copy of one engine operation: the one way the engine builds an ``Outcome``.

Hit points live on the ``Creature`` (in the ``Encounter``); dying, conditions and the dice live
on the ``Combatant`` (in the ``CombatState``, ``Encounter.combat``). An operation changes
both, so it makes its changes, rolls and log lines on a ``Draft`` and returns ``done(result)``:
the new encounter holding the new combat state, the result and the events, which the UI turns
into one undo step. ``run`` lets another operation continue from the draft (a hook, a spent
action), so operations compose without a second accumulator.

Nothing is mutated: the input encounter stays as it was, also when an error is raised.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from battlemap.model.combat import (
    Combatant,
    CombatEvent,
    CombatState,
    DeathState,
    RolledBy,
    RollRecord,
    keep_newest,
)
from battlemap.model.creature import Creature
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.rules.combat_ops import name_of
from battlemap.rules.dice import AppRoll, roll
from battlemap.rules.errors import InvalidRequestError
from battlemap.rules.outcome import NO_COMBAT, Outcome, with_combat
from battlemap.rules.schema import RollTable, Ruleset, TableRow
from battlemap.rules.vitals import (
    AbsentTargetError,
    DeadTargetError,
    check_die,
    effective_max_hp,
)

R = TypeVar("R")
S = TypeVar("S")

D20_EXPRESSIONS = ("1d20", "d20", "2d20kh1", "2d20kl1")
"""Expressions whose typed result is a d20's kept face (recorded as ``natural``)."""

HANDED_IN_WORDS = {RolledBy.TABLE: "typed in", RolledBy.APP: "rolled by the app"}
"""How a roll line names a result handed in rather than drawn from the combat's dice:
"1d20 typed in: 14" (physical dice), "1d20 rolled by the app: 14" (a dialog's fresh dice)."""


def handed_in_by(typed: int, faces: tuple[int, ...]) -> RolledBy:
    """Who rolled a handed-in result: the app when it (and every face) is an ``AppRoll``."""
    if isinstance(typed, AppRoll) and all(isinstance(face, AppRoll) for face in faces):
        return RolledBy.APP
    return RolledBy.TABLE


class Draft:
    """The changes of one engine operation, applied to copies; ``done`` packs them up."""

    def __init__(self, encounter: Encounter, ruleset: Ruleset) -> None:
        self.encounter = encounter
        self.ruleset = ruleset
        self._combat = encounter.combat
        self.events: list[CombatEvent] = []
        self.rolls: list[RollRecord] = []
        self._earlier: tuple[CombatEvent, ...] = ()

    # --- the combat ------------------------------------------------------------------------

    @property
    def in_combat(self) -> bool:
        return self._combat is not None

    @property
    def combat(self) -> CombatState:
        """The combat as changed so far.

        Raises:
            InvalidRequestError: no combat is running.
        """
        if self._combat is None:
            raise InvalidRequestError(NO_COMBAT)
        return self._combat

    @combat.setter
    def combat(self, combat: CombatState) -> None:
        self._combat = combat

    # --- look-ups --------------------------------------------------------------------------

    def creature(self, creature_id: EntityId) -> Creature:
        try:
            return self.encounter.creature(creature_id)
        except KeyError:
            raise AbsentTargetError(f"no creature '{creature_id}' in the encounter") from None

    def combatant(self, creature_id: EntityId) -> Combatant | None:
        """The creature's combatant; outside a combat, its lasting state (``Creature.lasting``)
        as a combatant (a blank one when nothing lasts yet), so dropping to 0, dying, stable,
        rests and healing read and update it exactly as in a combat; None for a creature not
        in the encounter, or left out of the running combat."""
        if self._combat is None:
            return self._lasting_combatant(creature_id)
        if not self._combat.has(creature_id):
            return None
        return self._combat.combatant(creature_id)

    def _lasting_combatant(self, creature_id: EntityId) -> Combatant | None:
        try:
            lasting = self.encounter.creature(creature_id).lasting
        except KeyError:
            return None
        return Combatant(creature_id=creature_id, group="").with_lasting(lasting)

    def standing_in(self, creature_id: EntityId) -> Combatant:
        """Outside a combat: the creature's lasting state as a combatant (a blank one when it
        has none), for the condition and exhaustion rules to change and ``put`` back."""
        self.creature(creature_id)
        return self._lasting_combatant(creature_id) or Combatant(creature_id=creature_id, group="")

    def fighting(self, creature_id: EntityId) -> Combatant:
        """The combatant; a combat is required.

        Raises:
            AbsentTargetError: no combat, or the creature isn't in it.
        """
        combatant = self.combatant(creature_id) if self._combat is not None else None
        if combatant is None:
            who = name_of(self.encounter, creature_id)
            if self._combat is None:
                raise AbsentTargetError(f"no combat is running ({who})")
            raise AbsentTargetError(f"{who} is not in this combat")
        return combatant

    def name(self, creature_id: EntityId) -> str:
        return name_of(self.encounter, creature_id)

    def death(self, creature_id: EntityId) -> DeathState:
        combatant = self.combatant(creature_id)
        return combatant.death if combatant is not None else DeathState()

    def max_hp(self, creature_id: EntityId) -> int:
        return effective_max_hp(
            self.ruleset, self.creature(creature_id), self.combatant(creature_id)
        )

    def require_alive(self, creature_id: EntityId) -> Creature:
        """The creature, which must exist and not be dead.

        Raises:
            AbsentTargetError, DeadTargetError.
        """
        creature = self.creature(creature_id)
        if self.death(creature_id).dead:
            raise DeadTargetError(f"{creature.name} is dead")
        return creature

    def has_condition(self, creature_id: EntityId, name: str) -> bool:
        combatant = self.combatant(creature_id)
        return combatant is not None and combatant.has_condition(name)

    def condition_value(self, creature_id: EntityId, name: str) -> int:
        combatant = self.combatant(creature_id)
        if combatant is None:
            return 0
        found = [c for c in combatant.conditions if c.name == name]
        return found[0].value if found else 0

    # --- changes ---------------------------------------------------------------------------

    def put_creature(self, creature: Creature) -> None:
        """Store the creature's HP and stats. Outside a combat its lasting state belongs to
        ``put``: the stored one is kept, so a copy taken before a ``put`` doesn't undo it."""
        if self._combat is None:
            stored = self.creature(creature.id).lasting
            if creature.lasting != stored:
                creature = creature.model_copy(update={"lasting": stored})
        self.encounter = self.encounter.replace_creature(creature)

    def put(self, combatant: Combatant) -> None:
        """Store the combatant; outside a combat, its lasting state on its creature (only
        never-expiring conditions last)."""
        if self._combat is not None:
            self._combat = self._combat.with_combatant(combatant)
            return
        creature = self.creature(combatant.creature_id)
        kept = creature.model_copy(update={"lasting": combatant.lasting()})
        self.encounter = self.encounter.replace_creature(kept)

    def put_death(self, creature_id: EntityId, **update: object) -> None:
        combatant = self.combatant(creature_id)
        if combatant is not None:
            self.put(
                combatant.model_copy(update={"death": combatant.death.model_copy(update=update)})
            )

    def add(
        self,
        kind: str,
        text: str,
        creature_id: EntityId | None = None,
        rolled_by: RolledBy | None = None,
    ) -> None:
        """A log line, in the current round (0 outside a combat)."""
        round_ = self._combat.round if self._combat is not None else 0
        self.events.append(
            CombatEvent(
                round=round_, kind=kind, creature_id=creature_id, text=text, rolled_by=rolled_by
            )
        )

    def run(self, operation: Callable[[Encounter], Outcome[S]]) -> S | None:
        """In a combat, let another engine operation continue from the draft (its events
        follow this one's so far) and return its result; outside a combat, do nothing."""
        if self._combat is None:
            return None
        outcome = operation(self._committed())
        self._earlier += tuple(self.events) + outcome.events
        self.events, self.rolls = [], []
        self.encounter = outcome.encounter
        if outcome.encounter.combat is not None:
            self._combat = outcome.encounter.combat
        return outcome.result

    # --- dice ------------------------------------------------------------------------------

    def roll(
        self,
        expression: str,
        purpose: str,
        creature_id: EntityId | None,
        typed: int | None = None,
        faces: tuple[int, ...] = (),
    ) -> RollRecord:
        """Roll from the combat's dice, or record a result typed in from physical dice.

        ``faces`` are the typed-in dice behind ``typed`` (both d20s of an advantage roll);
        a typed d20 roll records its kept face as ``natural``. The log line and its event say
        who rolled (``RolledBy``): a typed ``AppRoll`` was rolled by the app, any other typed
        result at the table.

        Raises:
            InvalidRequestError: nothing typed and no combat to roll the dice of.
        """
        if typed is not None:
            rolled_by = handed_in_by(typed, faces)
            record = RollRecord(
                expression=expression,
                total=typed,
                detail=f"{expression} {HANDED_IN_WORDS[rolled_by]}: "
                + (f"{', '.join(map(str, faces))} -> {typed}" if len(faces) > 1 else str(typed)),
                purpose=purpose[:200],
                natural=typed if expression in D20_EXPRESSIONS else None,
                first_draw=self._combat.dice.draws if self._combat is not None else 0,
            )
        elif self._combat is None:
            raise InvalidRequestError(f"{purpose}: no combat dice to roll; type the result in")
        else:
            rolled_by = RolledBy.COMBAT_DICE
            dice, record = roll(self._combat.dice, expression, purpose)
            self._combat = self._combat.model_copy(update={"dice": dice})
        if self._combat is not None:
            self.rolls.append(record)
        self.add("roll", f"{purpose}: {record.detail}", creature_id, rolled_by)
        return record

    def table_roll(
        self, table: RollTable, purpose: str, creature_id: EntityId | None, typed: int | None
    ) -> tuple[int, TableRow]:
        """Roll the table's die (typed in or rolled) and look the face up.

        Raises:
            BadDieError: a typed face the die doesn't have.
        """
        if typed is not None:
            check_die(typed, table.sides, purpose)
        record = self.roll(table.die, purpose, creature_id, typed)
        face = record.natural if record.natural is not None else record.total
        return face, table.lookup(face)

    def d20(self, purpose: str, creature_id: EntityId | None, typed: int | None = None) -> int:
        """One d20's face (typed in or rolled)."""
        if typed is not None:
            check_die(typed, 20, purpose)
        record = self.roll("1d20", purpose, creature_id, typed)
        return record.natural if record.natural is not None else record.total

    # --- result ----------------------------------------------------------------------------

    def _committed(self) -> Encounter:
        """The encounter holding the combat with this draft's rolls and log lines so far."""
        if self._combat is None:
            return self.encounter
        combat = self._combat.model_copy(
            update={
                "log": keep_newest(self._combat.log, self.events),
                "rolls": keep_newest(self._combat.rolls, self.rolls),
            }
        )
        return with_combat(self.encounter, combat)

    def done(self, result: R) -> Outcome[R]:
        """The new encounter (and combat), ``result`` and every event of the operation."""
        return Outcome(self._committed(), result, self._earlier + tuple(self.events))
