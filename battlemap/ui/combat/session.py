"""The bridge between the combat docks and the rules engine: one undo step per engine call.

Every dock asks the ``CombatSession`` to ``run`` an engine operation (``EngineCall``: the
encounter, which holds its combat, and the ruleset in; one ``Outcome`` out), and the session
pushes the outcome as ONE undo command (``ReplaceEncounterField`` for the combat alone,
``ApplyCombatStep`` when creatures change too). A refused request (a ``ValueError``: the
engine's typed errors, ``CombatError`` with its reason) changes nothing and is reported
through ``refused`` for the status bar. A ``KeyError`` is a bug and is not caught.

Outside a combat the engine's events (area damage before initiative, damage and healing from
the Creature dock, rests) go into the encounter's own log (``Encounter.log``) in the same undo
step; ending a combat keeps its log there too, so the Log dock shows the whole session.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any, TypeVar

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoStack

from battlemap.model.combat import MAX_SEED, CombatEvent, CombatState, clip_event_text, keep_newest
from battlemap.model.combat_commands import ApplyCombatStep, end_combat
from battlemap.model.creature import Side
from battlemap.model.document import Change, Document, ReplaceEncounterField
from battlemap.model.encounter import COMBAT_STARTED, Encounter, bounded_log
from battlemap.model.ids import EntityId
from battlemap.model.map_commands import CommandGroup
from battlemap.rules.errors import CombatError
from battlemap.rules.loader import RulesetError, RulesetRegistry, load_registry
from battlemap.rules.outcome import EngineCall, Outcome
from battlemap.rules.schema import Ruleset
from battlemap.rules.schema_roles import ConditionRoles
from battlemap.ui.players.projection import CombatFacts
from battlemap.ui.undo import push

# The engine and the heavier geometry are imported in the functions that use them, so
# the window is built without them (issue 17; tests/ui/test_start_up_imports.py).

R = TypeVar("R")


class CombatSession(QObject):
    """Runs engine calls against the open encounter and records each as one undo step.

    Signals:
        changed(): the combat state (or a combatant's creature) changed, or combat began/ended.
        refused(str): the engine refused a request; the text is its reason.
        reported(str): a short result for the status bar ("Goblin takes 7 damage").
    """

    changed = Signal()
    refused = Signal(str)
    reported = Signal(str)

    def __init__(
        self,
        document: Document,
        undo_stack: QUndoStack,
        registry: Callable[[], RulesetRegistry] | None = None,
        parent: QObject | None = None,
    ) -> None:
        """``registry`` hands out the window's rulesets (shipped plus the DM's own, reloaded
        from the Rules menu); without it the shipped rulesets are loaded once."""
        super().__init__(parent)
        self.document = document
        self.undo_stack = undo_stack
        self._registry_source = registry
        self._registry: RulesetRegistry | None = None
        self._reported_ruleset: str | None = None
        self.last_refusal = ""
        """The engine's last reason for refusing a request (also sent through ``refused``)."""
        self.last_error: ValueError | None = None
        """The error of the last refused ``run`` (None after one that ran): its type says
        which refusal it was, where a dialog offers a way out."""
        self.refused.connect(self._remember_refusal)
        self.seed_source: Callable[[], int] = lambda: secrets.randbelow(MAX_SEED)
        """Where a new combat's dice seed comes from (tests fix it for a replayable fight)."""
        document.subscribe(self._on_change)

    # --- reading ------------------------------------------------------------------

    @property
    def encounter(self) -> Encounter:
        return self.document.encounter

    @property
    def state(self) -> CombatState | None:
        return self.document.encounter.combat

    @property
    def registry(self) -> RulesetRegistry:
        if self._registry_source is not None:
            return self._registry_source()
        if self._registry is None:
            self._registry = load_registry()
        return self._registry

    def ruleset(self) -> Ruleset | None:
        """The encounter's ruleset, or None (reported) when it is unknown or broken."""
        wanted = self.encounter.ruleset
        try:
            return self.registry.get(wanted)
        except (RulesetError, ValueError) as error:
            if wanted != self._reported_ruleset:  # say it once, not on every refresh
                self._reported_ruleset = wanted
                self.refused.emit(f"Ruleset '{wanted}' can't be used: {error}")
            return None

    def name(self, creature_id: EntityId) -> str:
        try:
            return self.encounter.creature(creature_id).name
        except KeyError:
            return str(creature_id)

    def _remember_refusal(self, reason: str) -> None:
        self.last_refusal = reason

    def _on_change(self, change: Change) -> None:
        if change.other or change.creatures:
            self.changed.emit()

    # --- engine calls -------------------------------------------------------------------

    def why_not(self, call: EngineCall[Any]) -> str | None:
        """Ask the engine whether ``call`` would be allowed now, without recording anything.

        Returns None when it would succeed, else the engine's reason.
        """
        ruleset = self.ruleset()
        if self.state is None or ruleset is None:
            return "no combat is running"
        try:
            call(self.encounter, ruleset)
        except ValueError as error:  # the engine's refusals; a KeyError is a bug, not a "no"
            return error.reason if isinstance(error, CombatError) else str(error)
        return None

    def run(
        self, text: str | Callable[[Outcome[R]], str], call: EngineCall[R]
    ) -> Outcome[R] | None:
        """Run one engine operation on the open encounter and push its outcome as ONE undo
        step (nothing when nothing changed), named ``text`` (or ``text(outcome)``: a name that
        depends on the result, "Next turn: Goblin 2"). A refusal (a ``ValueError``: the
        engine's typed errors) changes nothing, is sent through ``refused`` and returns None."""
        ruleset = self.ruleset()
        if ruleset is None:
            return None
        before = self.encounter
        try:
            outcome = call(before, ruleset)
        except ValueError as error:
            self.last_error = error
            self.refused.emit(str(error))
            return None
        self.last_error = None
        if callable(text):
            text = text(outcome)
        command = ApplyCombatStep.between(before, outcome.encounter, outcome.combat, text)
        if before.combat is None and outcome.events:  # no combat log: the encounter's keeps them
            logged = ReplaceEncounterField(
                "log", before.log, bounded_log(before.log, outcome.events), text=text
            )
            push(self.undo_stack, self.document, CommandGroup((command, logged), text=text))
        elif command.new_creatures:
            push(self.undo_stack, self.document, command)
        elif command.new_combat != command.old_combat:  # the combat alone
            field = ReplaceEncounterField("combat", before.combat, outcome.combat, text=text)
            push(self.undo_stack, self.document, field)
        return outcome

    # --- starting and ending ---------------------------------------------------------------

    def start(self, creature_ids: list[EntityId] | None = None) -> bool:
        """A new combat (round 0) with these creatures, or all of them; one undo step."""
        from battlemap.rules.initiative import start_combat

        if self.state is not None:
            self.refused.emit("A combat is already running; end it first.")
            return False
        ruleset = self.ruleset()
        if ruleset is None:
            return False
        try:
            state = start_combat(
                self.encounter, self.encounter.ruleset, self.seed_source(), creature_ids
            )
        except ValueError as error:
            self.refused.emit(str(error))
            return False
        state = state.model_copy(
            update={"log": keep_newest(state.log, [self._started_line(state)])}
        )
        push(
            self.undo_stack,
            self.document,
            ReplaceEncounterField("combat", None, state, text="Start combat"),
        )
        return True

    def _started_line(self, state: CombatState) -> CombatEvent:
        """The new combat's first log line: who fights, in map order (the selection's order
        varies), cut to the line's length limit."""
        fighting = {c.creature_id for c in state.combatants}
        names = ", ".join(c.name for c in self.encounter.creatures if c.id in fighting)
        text = f"Combat started: {names}" if names else "Combat started"
        return CombatEvent(round=0, kind=COMBAT_STARTED, text=clip_event_text(text))

    def end(self) -> None:
        """End the combat; its log stays in the encounter log under a ``combat-ended`` line.
        One undo step (undo brings the combat back and takes its lines out again)."""
        if self.state is not None:
            push(self.undo_stack, self.document, end_combat(self.encounter))

    def party_ids(self) -> set[EntityId]:
        return {c.id for c in self.encounter.creatures if c.side is Side.PARTY}


def combat_facts(encounter: Encounter, ruleset: Ruleset | None = None) -> CombatFacts | None:
    """What the players' window shows of the combat: round, order, whose turn, the dead, and
    who hides or is invisible (``ruleset``'s invisible condition: not drawn unless it is the
    party's or the DM shows it; None: the default role's)."""
    invisible = (ruleset.roles.conditions if ruleset is not None else ConditionRoles()).invisible
    state = encounter.combat
    if state is None:
        return None
    order: list[EntityId] = []
    for slot in state.order:
        if slot.creature_id not in order:
            order.append(slot.creature_id)
    current = state.current
    return CombatFacts(
        round=state.round,
        order=tuple(order),
        acting=current.creature_id if current is not None else None,
        conditions={c.creature_id: tuple(x.name for x in c.conditions) for c in state.combatants},
        dead=frozenset(c.creature_id for c in state.combatants if c.death.dead),
        exhaustion={c.creature_id: c.exhaustion for c in state.combatants if c.exhaustion},
        unseen=frozenset(
            c.creature_id
            for c in state.combatants
            if c.hidden_stealth is not None or c.has_condition(invisible)
        ),
        invisible=invisible,
    )
