"""The bridge between the combat docks and the rules engine: one undo step per engine call.

Every dock asks the ``CombatSession`` to run an engine call; the session hands it the current
``CombatState``, the encounter's ruleset and the encounter, and pushes the result as ONE undo
command (``ReplaceEncounterField`` for the combat alone, ``ApplyCombatStep`` when creatures
change too). A refused request (``CombatError``: a ``ValueError`` with the engine's reason)
changes nothing and is reported through ``refused`` for the status bar.

Outside a combat the engine's events (area damage before initiative, damage and healing from
the Creature dock, rests) go into the encounter's own log (``Encounter.log``) in the same undo
step; ending a combat keeps its log there too, so the Log dock shows the whole session.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Collection
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoStack

from battlemap.model.combat import MAX_SEED, CombatEvent, CombatState, keep_newest
from battlemap.model.combat_commands import ApplyCombatStep, end_combat
from battlemap.model.creature import Side
from battlemap.model.document import Change, Document, ReplaceEncounterField
from battlemap.model.encounter import COMBAT_STARTED, Encounter, bounded_log
from battlemap.model.ids import EntityId
from battlemap.model.limits import MAX_EVENT_TEXT
from battlemap.model.map_commands import CommandGroup
from battlemap.rules.errors import CombatError
from battlemap.rules.initiative import start_combat
from battlemap.rules.loader import RulesetError, RulesetRegistry, load_registry
from battlemap.rules.schema import Ruleset
from battlemap.rules.vitals import Applied
from battlemap.ui.players.projection import CombatFacts
from battlemap.ui.undo import push

Outcome = tuple[CombatState, Any]
EngineStep = Callable[[CombatState, Ruleset, Encounter], Outcome]


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
        except (RulesetError, KeyError, ValueError) as error:
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

    def why_not(self, step: EngineStep) -> str | None:
        """Ask the engine whether ``step`` would be allowed now, without recording anything.

        Returns None when it would succeed, else the engine's reason.
        """
        state, ruleset = self.state, self.ruleset()
        if state is None or ruleset is None:
            return "no combat is running"
        try:
            step(state, ruleset, self.encounter)
        except CombatError as error:
            return error.reason
        except (ValueError, KeyError) as error:
            return str(error)
        return None

    def step(self, text: str, step: EngineStep) -> bool:
        """Run an engine call on the combat state and push its result as one undo step."""
        state, ruleset = self.state, self.ruleset()
        if state is None or ruleset is None:
            self.refused.emit("No combat is running: start one in the Initiative dock.")
            return False
        try:
            new_state, _events = step(state, ruleset, self.encounter)
        except (ValueError, KeyError) as error:
            self.refused.emit(str(error))
            return False
        if new_state != state:
            push(
                self.undo_stack,
                self.document,
                ReplaceEncounterField("combat", state, new_state, text=text),
            )
        return True

    def apply(
        self, text: str, call: Callable[[Encounter, CombatState | None, Ruleset], Applied[Any]]
    ) -> Applied[Any] | None:
        """Run an engine call that may change creatures (``Applied`` result); one undo step."""
        ruleset = self.ruleset()
        if ruleset is None:
            return None
        before = self.encounter
        try:
            applied = call(before, before.combat, ruleset)
        except (ValueError, KeyError) as error:
            self.refused.emit(str(error))
            return None
        combat = applied.combat if before.combat is not None else None
        command = ApplyCombatStep.between(before, applied.encounter, combat, text)
        if before.combat is None and applied.events:  # no combat log: the encounter's keeps them
            logged = ReplaceEncounterField(
                "log", before.log, bounded_log(before.log, applied.events), text=text
            )
            push(self.undo_stack, self.document, CommandGroup((command, logged), text=text))
        elif command.new_creatures or command.new_combat != command.old_combat:
            push(self.undo_stack, self.document, command)
        return applied

    def apply_in_combat(
        self, text: str, call: Callable[[Encounter, CombatState, Ruleset], Applied[Any]]
    ) -> Applied[Any] | None:
        """``apply`` for an engine call that needs a running combat: refused without one."""
        if self.state is None:
            self.refused.emit("No combat is running: start one in the Initiative dock.")
            return None

        def in_combat(e: Encounter, c: CombatState | None, r: Ruleset) -> Applied[Any]:
            assert c is not None  # the same encounter as self.state's
            return call(e, c, r)

        return self.apply(text, in_combat)

    # --- starting and ending ---------------------------------------------------------------

    def start(self, creature_ids: list[EntityId] | None = None) -> bool:
        """A new combat (round 0) with these creatures, or all of them; one undo step."""
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
        except (ValueError, KeyError) as error:
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
        if len(text) > MAX_EVENT_TEXT:
            text = text[: MAX_EVENT_TEXT - 1] + "…"
        return CombatEvent(round=0, kind=COMBAT_STARTED, text=text)

    def end(self) -> None:
        """End the combat; its log stays in the encounter log under a ``combat-ended`` line.
        One undo step (undo brings the combat back and takes its lines out again)."""
        if self.state is not None:
            push(self.undo_stack, self.document, end_combat(self.encounter))

    def party_ids(self) -> set[EntityId]:
        return {c.id for c in self.encounter.creatures if c.side is Side.PARTY}


def rolled_by_the_app(
    events: tuple[CombatEvent, ...], creature_ids: Collection[EntityId] | None = None
) -> tuple[CombatEvent, ...]:
    """``events`` with the roll lines of dice the app rolled from fresh dice outside a combat
    saying "rolled by the app" instead of "typed in" (the dialogs hand such rolls to the
    engine as typed results). ``creature_ids`` limits it to those creatures' roll lines
    (None: every roll line)."""

    def said(event: CombatEvent) -> CombatEvent:
        text = event.text.replace(" typed in: ", " rolled by the app: ", 1)
        return event.model_copy(update={"text": text[:MAX_EVENT_TEXT]})

    return tuple(
        said(event)
        if event.kind == "roll" and (creature_ids is None or event.creature_id in creature_ids)
        else event
        for event in events
    )


def combat_facts(encounter: Encounter) -> CombatFacts | None:
    """What the players' window shows of the combat: round, order, whose turn, the dead."""
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
    )
