"""Shared plumbing of the attack, damage and death engine: one unit of work, errors, HP facts.

Hit points live on the ``Creature`` (in the ``Encounter``); dying, conditions and the dice live
on the ``Combatant`` (in the ``CombatState``). An engine call changes both, so it collects its
changes in a ``Work`` and returns one ``Outcome`` (``rules.outcome``): the new encounter
holding the new combat state, the structured result and the log events. The UI turns one
``Outcome`` into one undo step.

Nothing is mutated: the inputs stay as they were, also when an error is raised.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection
from typing import TypeVar

from battlemap.model.combat import (
    ActiveCondition,
    Combatant,
    CombatEvent,
    CombatState,
    DeathState,
    DiceState,
    Expiry,
    RollRecord,
)
from battlemap.model.creature import Creature, Side
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.model.limits import MAX_EVENT_TEXT
from battlemap.rules.combat_ops import Log, StateStep, name_of
from battlemap.rules.conditions import apply_condition, remove_condition, set_exhaustion
from battlemap.rules.enums import ConditionEffect, ExhaustionEffect, MonsterDeathAtZero, Rounding
from battlemap.rules.errors import IllegalActionError, InvalidRequestError
from battlemap.rules.outcome import Outcome, with_combat
from battlemap.rules.schema import RollTable, Ruleset, TableRow

R = TypeVar("R")

TYPED_IN = "typed in"
"""How a roll line names a result typed in from physical dice ("1d20 typed in: 14")."""
ROLLED_BY_APP = "rolled by the app"
"""How it names dice a dialog rolled from fresh dice outside a combat and handed in as typed."""


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
    if rules is None or maximum <= 0:
        return False
    limit = rules.fraction_of_max * maximum
    return creature.hp <= limit + 1e-9 if rules.at_or_below else creature.hp < limit - 1e-9


def dies_at_zero(ruleset: Ruleset, creature: Creature, combatant: Combatant | None) -> bool:
    """Whether this creature dies outright at 0 HP (the monsters rule and the DM's switch)."""
    if combatant is not None and combatant.death.unconscious_at_zero is not None:
        return not combatant.death.unconscious_at_zero
    return ruleset.hit_points.monsters_at_zero is MonsterDeathAtZero.DIE and is_monster(creature)


class Work:
    """The changes of one engine call, applied to copies; ``done`` packs them up (``Outcome``)."""

    def __init__(self, encounter: Encounter, combat: CombatState | None, ruleset: Ruleset) -> None:
        self.encounter = encounter
        self.ruleset = ruleset
        self.log: Log | None = Log(combat) if combat is not None else None
        self._loose: list[CombatEvent] = []

    # --- look-ups --------------------------------------------------------------------------

    def creature(self, creature_id: EntityId) -> Creature:
        try:
            return self.encounter.creature(creature_id)
        except KeyError:
            raise AbsentTargetError(f"no creature '{creature_id}' in the encounter") from None

    def combatant(self, creature_id: EntityId) -> Combatant | None:
        """The creature's combatant; outside a combat, its lasting state (``Creature.lasting``)
        as a combatant, so rests and healing read and update it; None without either."""
        if self.log is None:
            return self._lasting_combatant(creature_id)
        if not self.log.state.has(creature_id):
            return None
        return self.log.state.combatant(creature_id)

    def _lasting_combatant(self, creature_id: EntityId) -> Combatant | None:
        try:
            lasting = self.encounter.creature(creature_id).lasting
        except KeyError:
            return None
        if lasting is None:
            return None
        return Combatant(creature_id=creature_id, group="").with_lasting(lasting)

    def fighting(self, creature_id: EntityId) -> Combatant:
        """The combatant; a combat is required.

        Raises:
            AbsentTargetError: no combat, or the creature isn't in it.
        """
        combatant = self.combatant(creature_id) if self.log is not None else None
        if combatant is None:
            who = name_of(self.encounter, creature_id)
            if self.log is None:
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

    # --- changes ---------------------------------------------------------------------------

    def put_creature(self, creature: Creature) -> None:
        """Store the creature's HP and stats. Outside a combat its lasting state belongs to
        ``put``: the stored one is kept, so a copy taken before a ``put`` doesn't undo it."""
        if self.log is None:
            stored = self.creature(creature.id).lasting
            if creature.lasting != stored:
                creature = creature.model_copy(update={"lasting": stored})
        self.encounter = self.encounter.replace_creature(creature)

    def put(self, combatant: Combatant) -> None:
        """Store the combatant; outside a combat, its lasting state on its creature."""
        if self.log is not None:
            self.log.put(combatant)
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

    def add(self, kind: str, text: str, creature_id: EntityId | None = None) -> None:
        if self.log is not None:
            self.log.add(kind, text, creature_id)
        else:
            self._loose.append(CombatEvent(round=0, kind=kind, creature_id=creature_id, text=text))

    def run(self, step: Callable[[CombatState], StateStep]) -> None:
        """Let a turn-engine call (conditions, economy) continue from the current state."""
        if self.log is not None:
            self.log.run(step)

    def run_on_lasting(
        self, creature_id: EntityId, step: Callable[[CombatState], StateStep]
    ) -> None:
        """Outside a combat: run a turn-engine call (``apply_condition``, ``set_exhaustion``)
        on the creature's lasting state as a lone stand-in combatant in an empty round-0
        combat, store the result back (``put``: only never-expiring conditions last) and keep
        the call's log lines.

        Raises:
            AbsentTargetError: no such creature.
            InvalidRequestError: a combat is running (change its combatant instead).
        """
        self.creature(creature_id)
        if self.log is not None:
            raise InvalidRequestError("a combat is running: change the creature's combatant")
        standin = self._lasting_combatant(creature_id) or Combatant(
            creature_id=creature_id, group=""
        )
        alone = CombatState(ruleset="", combatants=(standin,), dice=DiceState(seed=0))
        state, events = step(alone)
        self.put(state.combatant(creature_id))
        self._loose.extend(events)

    def has_condition(self, creature_id: EntityId, name: str) -> bool:
        combatant = self.combatant(creature_id)
        return combatant is not None and combatant.has_condition(name)

    def condition(
        self,
        creature_id: EntityId,
        name: str,
        *,
        expiry: Expiry = Expiry.NEVER,
        source_id: EntityId | None = None,
        value: int = 1,
    ) -> None:
        """Give a condition (needs a combat; outside one conditions aren't tracked)."""
        if self.combatant(creature_id) is None or name not in self.ruleset.conditions:
            return
        ruleset, encounter = self.ruleset, self.encounter
        self.run(
            lambda state: apply_condition(
                state,
                ruleset,
                encounter,
                creature_id,
                name,
                expiry=expiry,
                source_id=source_id,
                value=value,
            )
        )
        if ConditionEffect.INCAPACITATED in ruleset.condition_effects(name):
            self.release_grapples(creature_id, f"{self.name(creature_id)} is {name}")

    def release_grapples(self, grappler_id: EntityId, why: str) -> None:
        """Grappled ends on everyone this creature grapples (it is incapacitated or dead)."""
        if self.log is None:
            return
        for other in self.log.state.combatants:
            held = [
                c for c in other.conditions if c.name == "grappled" and c.source_id == grappler_id
            ]
            if held:
                kept = tuple(c for c in other.conditions if c not in held)
                self.put(other.model_copy(update={"conditions": kept}))
                self.add(
                    "condition-ends",
                    f"{self.name(other.creature_id)} is no longer grappled ({why})",
                    other.creature_id,
                )

    def uncondition(self, creature_id: EntityId, name: str) -> None:
        """End a condition; outside a combat, on the creature's lasting state."""
        if not self.has_condition(creature_id, name):
            return
        encounter = self.encounter

        def step(state: CombatState) -> StateStep:
            return remove_condition(state, encounter, creature_id, name)

        if self.log is None:
            self.run_on_lasting(creature_id, step)
        else:
            self.run(step)

    def condition_value(self, creature_id: EntityId, name: str) -> int:
        combatant = self.combatant(creature_id)
        if combatant is None:
            return 0
        found: list[ActiveCondition] = [c for c in combatant.conditions if c.name == name]
        return found[0].value if found else 0

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
        a typed d20 roll records its kept face as ``natural``.

        Raises:
            InvalidRequestError: nothing typed and no combat to roll the dice of.
        """
        if typed is not None:
            record = RollRecord(
                expression=expression,
                total=typed,
                detail=f"{expression} {TYPED_IN}: "
                + (f"{', '.join(map(str, faces))} -> {typed}" if len(faces) > 1 else str(typed)),
                purpose=purpose[:200],
                natural=typed if expression in ("1d20", "d20", "2d20kh1", "2d20kl1") else None,
                first_draw=self.log.state.dice.draws if self.log is not None else 0,
            )
            if self.log is not None:
                self.log.rolls.append(record)
            self.add("roll", f"{purpose}: {record.detail}", creature_id)
            return record
        if self.log is None:
            raise InvalidRequestError(f"{purpose}: no combat dice to roll; type the result in")
        return self.log.roll(expression, purpose, creature_id)

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

    def done(self, result: R) -> Outcome[R]:
        if self.log is None:
            return Outcome(self.encounter, result, tuple(self._loose))
        state, events = self.log.commit()
        return Outcome(with_combat(self.encounter, state), result, events)


def switch_lasting_condition(
    encounter: Encounter, ruleset: Ruleset, creature_id: EntityId, name: str, on: bool
) -> Outcome[None]:
    """Outside a combat: give the creature a condition from the ruleset (``apply_condition``,
    always ``Expiry.NEVER``: no turns count down) or end it, on its lasting state
    (``Creature.lasting``), where the next combat starts from it. Ending one it lacks
    changes nothing and logs nothing.

    Raises:
        AbsentTargetError; InvalidRequestError: not a condition of the ruleset, or a combat
            is running.
    """
    if encounter.combat is not None:
        raise InvalidRequestError("a combat is running: change the creature's combatant")
    work = Work(encounter, None, ruleset)
    if on:
        work.run_on_lasting(
            creature_id,
            lambda s: apply_condition(
                s, ruleset, encounter, creature_id, name, expiry=Expiry.NEVER
            ),
        )
    else:
        work.uncondition(creature_id, name)
    return work.done(None)


def set_lasting_exhaustion(
    encounter: Encounter, ruleset: Ruleset, creature_id: EntityId, level: int
) -> Outcome[None]:
    """Outside a combat: set the creature's exhaustion level on its lasting state
    (``set_exhaustion``: the level whose effect is ``death`` kills).

    Raises:
        AbsentTargetError; InvalidRequestError: a level outside the ruleset's table, or a
            combat is running.
    """
    if encounter.combat is not None:
        raise InvalidRequestError("a combat is running: change the creature's combatant")
    work = Work(encounter, None, ruleset)
    work.run_on_lasting(
        creature_id, lambda s: set_exhaustion(s, ruleset, encounter, creature_id, level)
    )
    return work.done(None)


def rolled_by_the_app(
    events: tuple[CombatEvent, ...], creature_ids: Collection[EntityId] | None = None
) -> tuple[CombatEvent, ...]:
    """``events`` with the roll lines of dice the app rolled from fresh dice outside a combat
    saying "rolled by the app" instead of "typed in" (the dialogs hand such rolls to the
    engine as typed results). ``creature_ids`` limits it to those creatures' roll lines
    (None: every roll line)."""

    def said(event: CombatEvent) -> CombatEvent:
        text = event.text.replace(f" {TYPED_IN}: ", f" {ROLLED_BY_APP}: ", 1)
        return event.model_copy(update={"text": text[:MAX_EVENT_TEXT]})

    return tuple(
        said(event)
        if event.kind == "roll" and (creature_ids is None or event.creature_id in creature_ids)
        else event
        for event in events
    )


def is_dead(encounter: Encounter, creature_id: EntityId) -> bool:
    """Dead in the running combat, or (outside one, or not fighting) by its lasting state."""
    combat = encounter.combat
    if combat is not None and combat.has(creature_id):
        return combat.combatant(creature_id).death.dead
    lasting = next((c.lasting for c in encounter.creatures if c.id == creature_id), None)
    return lasting is not None and lasting.death.dead
