"""Live feedback while the DM drags a token, and what the drop does.

While a token is dragged the map shows the path (straight, through waypoints added with
Space or by resting on a cell, or the cheapest path while Ctrl is held), its cost and what
is left ("25 / 30 ft"), the reachable area (computed once when the drag starts), cells of
difficult terrain on the path, each opportunity attack at the step that provokes it with a
line to the attacker, and an illegal move in red with the reason. Backspace takes back the
last waypoint; Escape calls the move off. On release an illegal move is refused with the
reason in the status bar; Alt places the token without rules. Outside a combat (setting up)
every drop is such a free placement, still measured (``placement``).

A drop that provokes opportunity attacks waits: the token stands at the square where the
first attack happens, the line to the attacker stays drawn, and the non-modal prompt
(``prompt.OpportunityPrompt``) asks the DM about each attack in turn. Nothing is recorded
until the last answer, then the whole move is one undo step. While it waits the map stays
usable: any change to the encounter (another command, a redo, a file opened) or the start of
another drag calls the waiting move off cleanly (nothing of it is recorded). The window's Undo
while it waits only takes the waiting move back (``take_back``).
"""

from __future__ import annotations

import math
import statistics
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import shiboken6
from PySide6.QtCore import QEvent, QObject, QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QGraphicsItem, QGraphicsView

from battlemap.geometry import IllegalReason
from battlemap.geometry.metrics import Cell, grid_steps_to_feet
from battlemap.model.creature import snap_position
from battlemap.model.document import Change
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.model.statblock import StatBlock
from battlemap.rules.loader import RulesetError, RulesetRegistry
from battlemap.rules.schema import Ruleset
from battlemap.ui.drag.feedback import feedback_items, reach_shading
from battlemap.ui.drag.items import InfoCard
from battlemap.ui.drag.prompt import OpportunityPrompt, waiting_items
from battlemap.ui.feature_window import FeatureWindow
from battlemap.ui.map_index_cache import IndexCache
from battlemap.ui.map_scene import MapScene
from battlemap.ui.style import cell_to_scene, scene_to_cell
from battlemap.ui.tools.base import Overlay
from battlemap.ui.undo import push

# The engine and the heavier geometry are imported in the functions that use them, so
# the window is built without them (issue 17; tests/ui/test_start_up_imports.py).
if TYPE_CHECKING:
    from battlemap.rules.move_plan import Evaluated, MovePlan
    from battlemap.rules.move_resolution import (
        Answer,
        Chooser,
        MoveOutcome,
        MoveResolution,
    )

WAYPOINT_KEY = Qt.Key.Key_Space
CHEAPEST_MODIFIER = Qt.KeyboardModifier.ControlModifier
FREE_DROP_MODIFIER = Qt.KeyboardModifier.AltModifier
PAUSE_WAYPOINT_MS = 900
"""Resting this long on one cell during a drag drops a waypoint there."""
Z_SHADE = 5
"""The reachable area lies over the map and under the tokens (Z_TOKEN = 10)."""


@dataclass
class WaitingDrop:
    """A drop waiting for the DM's answers: the resolution, the encounter it was made on (any
    other encounter means the map changed), and the drag's plan and path for the drawing."""

    resolution: MoveResolution
    encounter: Encounter
    plan: MovePlan
    evaluated: Evaluated


class DragFeedback(QObject):
    """The scene's ``drag_hooks``: feedback on every mouse move, rules on the drop.

    Attributes:
        choose: None (the app): a drop with opportunity attacks waits for the ``prompt``.
            A synchronous chooser instead answers each attack at once (the app rolls).
        library_of: the stat blocks by name of the creature library (for creatures made
            from one: their attacks and defenses).
        prompt: the card that asks about each opportunity attack while a drop waits.
        waiting: the drop waiting for answers, or None.
        move_costs_ms: how long each recent mouse move took to evaluate and draw.

    Signals:
        waiting_changed(): a drop started or stopped waiting for answers.
    """

    waiting_changed = Signal()

    def __init__(
        self,
        scene: MapScene,
        view: QGraphicsView,
        ruleset_of: Callable[[], Ruleset | None],
        index: IndexCache,
        choose: Chooser | None = None,
        library_of: Callable[[], Mapping[str, StatBlock]] = dict,
    ) -> None:
        super().__init__(scene)
        self.scene = scene
        self.view = view
        self.document = scene.document
        self._ruleset_of = ruleset_of
        self.index = index
        self.choose = choose
        self._library_of = library_of
        self.plan: MovePlan | None = None
        self.waypoints: list[Cell] = []
        self.pins: list[Cell] = []
        self._undo_pins: list[tuple[list[Cell], list[Cell]]] = []
        self.cursor: Cell | None = None
        self.cheapest = False
        self.last: Evaluated | None = None
        self.move_costs_ms: deque[float] = deque(maxlen=500)
        self.cancelled: EntityId | None = None
        """The creature whose drag Escape called off (until it is let go)."""
        self._unplanned: EntityId | None = None
        """The creature whose drag has no plan (no usable ruleset): not retried per move."""
        self._shade = Overlay(scene)
        self._path = Overlay(scene)
        self._waiting_items = Overlay(scene)
        self.waiting: WaitingDrop | None = None
        self.last_moved: tuple[MovePlan, Evaluated] | None = None
        """The last recorded move's plan and path (shown to the players as a ruling)."""
        self.prompt = OpportunityPrompt(view)
        self.prompt.answered.connect(self.answer)
        self._pause = QTimer(self)
        self._pause.setSingleShot(True)
        self._pause.setInterval(PAUSE_WAYPOINT_MS)
        self._pause.timeout.connect(self.add_waypoint)
        scene.drag_hooks = self
        view.installEventFilter(self)
        self.document.subscribe(self._on_document_changed)

    # --- hooks from the token -------------------------------------------------------

    def move(self, creature_id: EntityId, pos: QPointF, modifiers: Qt.KeyboardModifier) -> None:
        """A mouse move while ``creature_id``'s token is dragged (``pos``: its top-left)."""
        started = time.perf_counter()
        if self.waiting is not None:
            self.call_off_waiting("another drag started")
        if creature_id in (self.cancelled, self._unplanned):
            return
        fresh = self.plan is None or self.plan.mover_id != creature_id
        if fresh and not self._begin(creature_id):
            self._unplanned = creature_id  # until the drop: a plain move, no feedback
            return
        assert self.plan is not None
        cell = _cell_at(self.plan.snap_step, pos)
        cheapest = bool(modifiers & CHEAPEST_MODIFIER)
        if cell != self.cursor or cheapest != self.cheapest:
            self.cursor, self.cheapest = cell, cheapest
            self._pause.start()
            self.refresh()
        self.move_costs_ms.append((time.perf_counter() - started) * 1000)

    def drop(self, creature_id: EntityId, pos: QPointF, modifiers: Qt.KeyboardModifier) -> bool:
        """The token was let go: refuse, or push the move as one undo step. False: the scene
        does its plain move (a click without a drag, Alt held, no usable ruleset)."""
        from battlemap.rules.move_resolution import MoveResolution, resolve_move

        plan = self.plan
        self.end()
        self._unplanned = None
        if self.cancelled == creature_id:
            self.cancelled = None
            return True  # handled: nothing changes, the scene puts the token back
        if plan is None or plan.mover_id != creature_id or modifiers & FREE_DROP_MODIFIER:
            return False
        cell = _cell_at(plan.snap_step, pos)
        if cell == plan.start and not self.waypoints:
            return False
        evaluated = self._evaluate(plan, cell, bool(modifiers & CHEAPEST_MODIFIER))
        self.waypoints, self.pins, self._undo_pins = [], [], []
        name = plan.names.get(creature_id, str(creature_id))
        if evaluated.result.reason is IllegalReason.OFF_MAP:
            return False  # the scene refuses it with its own message
        if self.document.encounter.combat is None:
            feet = f"{evaluated.result.cost_feet:g}"
            self.scene.message.emit(f"Placed {name} {feet} ft away (no combat: free placement).")
            return False  # the scene's plain move: one undo step, only the map's edge refuses
        if not evaluated.result.legal:
            self.scene.message.emit(
                f"{name} can't move there: {evaluated.reason}. (Alt-drop places it anyway.)"
            )
            return True
        ruleset = self._ruleset_of()
        if ruleset is None:
            return False
        encounter = self.document.encounter
        end = _snapped(plan.snap_step, pos)
        args = (encounter, ruleset, plan.index, creature_id, evaluated.result, plan.offset, end)
        library = self._library_of()
        if self.choose is not None:
            self._finish(resolve_move(*args, self.choose, library), (plan, evaluated))
            return True
        resolution = MoveResolution(*args, library)
        if resolution.outcome is not None:
            self._finish(resolution.outcome, (plan, evaluated))
            return True
        self.waiting = WaitingDrop(resolution, encounter, plan, evaluated)
        self.waiting_changed.emit()
        self._ask()
        # The scene puts the token back at its model place after this returns: stand it at
        # the attack's square once the event is done.
        QTimer.singleShot(0, self, self._stand_waiting_token)
        return True

    # --- a drop waiting for answers ---------------------------------------------------

    def _ask(self) -> None:
        """Show the waiting attack: the prompt, the path and the line to its attacker."""
        waiting = self.waiting
        assert waiting is not None and waiting.resolution.pending is not None
        pending = waiting.resolution.pending
        self._waiting_items.show(waiting_items(waiting.plan, waiting.evaluated, pending))
        keep_clear: list[QRectF] = []
        if pending.offer.position is not None:
            x, y = waiting.resolution.at(pending.offer.position)
            side = cell_to_scene(waiting.plan.footprint_side())
            keep_clear.append(QRectF(cell_to_scene(x), cell_to_scene(y), side, side))
        attacker = self.scene.tokens.get(pending.offer.attacker_id)
        if attacker is not None:
            keep_clear.append(attacker.sceneBoundingRect())
        self.prompt.show_offer(pending, keep_clear, waiting.resolution.trial, self._token_rects)
        self.scene.message.emit(
            f"{pending.attacker} can make an opportunity attack: Enter takes it, S skips,"
            " Esc calls the move off."
        )

    def _token_rects(self) -> list[QRectF]:
        """Where the visible tokens are, for the card to cover as few as it can."""
        return [t.sceneBoundingRect() for t in self.scene.tokens.values() if t.isVisible()]

    def _stand_waiting_token(self) -> None:
        """Put the waiting mover's token on the square where the pending attack happens."""
        waiting = self.waiting
        pending = waiting.resolution.pending if waiting is not None else None
        if waiting is None or pending is None or pending.offer.position is None:
            return
        token = self.scene.tokens.get(waiting.resolution.mover_id)
        if token is not None:
            x, y = waiting.resolution.at(pending.offer.position)
            token.setPos(QPointF(cell_to_scene(x), cell_to_scene(y)))

    def answer(self, answer: Answer) -> None:
        """The DM's answer to the waiting attack: ask the next one, or record the move."""
        waiting = self.waiting
        if waiting is None or waiting.resolution.pending is None:
            return
        if self.document.encounter is not waiting.encounter:
            self.call_off_waiting("the encounter changed")
            return
        waiting.resolution.answer(answer)
        if waiting.resolution.pending is not None:
            self._ask()
            self._stand_waiting_token()
            return
        outcome = waiting.resolution.outcome
        assert outcome is not None
        self._end_waiting()
        self._finish(outcome, (waiting.plan, waiting.evaluated))

    def can_take_back(self) -> bool:
        """A drop waits for opportunity-attack answers: Undo takes it back (``take_back``)."""
        return self.waiting is not None

    def take_back(self) -> None:
        """Undo while a drop waits: call that move off; the recorded steps stay."""
        self.call_off_waiting("taken back with Undo")

    def call_off_waiting(self, why: str) -> None:
        """Abandon the waiting move (nothing of it is recorded) and say why."""
        waiting = self.waiting
        if waiting is None:
            return
        outcome = waiting.resolution.call_off(why)
        self._end_waiting()
        self.scene.message.emit(outcome.message)

    def _end_waiting(self) -> None:
        waiting, self.waiting = self.waiting, None
        self.waiting_changed.emit()
        if not shiboken6.isValid(self.prompt):
            return  # the window is being torn down
        self._waiting_items.clear()
        self.prompt.close_prompt()
        if waiting is not None:
            self._put_back(waiting.resolution.mover_id)

    def _put_back(self, creature_id: EntityId) -> None:
        """The token where the model has its creature (it stood at the attack's square)."""
        token = self.scene.tokens.get(creature_id)
        encounter = self.document.encounter
        if token is not None and any(c.id == creature_id for c in encounter.creatures):
            token.update_from(encounter.creature(creature_id), encounter.grid.cell_feet)

    def _on_document_changed(self, change: Change) -> None:
        """Another change while a drop waits: the answers would apply to a stale encounter."""
        if not shiboken6.isValid(self):
            return  # the window is gone; the document outlived it
        waiting = self.waiting
        if waiting is not None and self.document.encounter is not waiting.encounter:
            self.call_off_waiting("the encounter changed")

    def _finish(self, outcome: MoveOutcome, moved: tuple[MovePlan, Evaluated]) -> None:
        if outcome.command is not None:
            push(self.scene.undo_stack, self.document, outcome.command)
            self.last_moved = moved
        self.scene.message.emit(outcome.message)

    # --- state ----------------------------------------------------------------------

    def _begin(self, creature_id: EntityId) -> bool:
        from battlemap.rules.move_plan import MovePlan

        ruleset = self._ruleset_of()
        encounter = self.document.encounter
        if ruleset is None or all(c.id != creature_id for c in encounter.creatures):
            return False
        self.plan = MovePlan(encounter, ruleset, self.index.get(), creature_id)
        self.waypoints, self.pins, self._undo_pins = [], [], []
        self.cursor = None
        side = max(1, math.ceil(self.plan.footprint_side() - 1e-9))
        area = self.plan.area
        cells = area.cells if area is not None else frozenset()
        items = [reach_shading(cells, side)] if cells else []
        self._shade.show(items)
        for item in items:
            item.setZValue(Z_SHADE)
        return True

    def end(self) -> None:
        """Forget the drag and clear everything it drew."""
        self._pause.stop()
        self.plan = None
        self.cursor = None
        self.last = None
        self._shade.clear()
        self._path.clear()

    def add_waypoint(self) -> None:
        """Pin the path at the cell under the token (Space, or a pause on one cell).

        The path so far (a cheapest-path leg included) is kept cell by cell, so later legs
        start from the pin and the earlier part no longer changes.
        """
        if self.plan is None or self.cursor is None or self.last is None:
            return
        last = self.waypoints[-1] if self.waypoints else self.plan.start
        if self.cursor == last or len(self.last.intended) < 2:
            return
        self._undo_pins.append((list(self.waypoints), list(self.pins)))
        self.waypoints = list(self.last.intended[1:])
        self.pins.append(self.cursor)
        self.refresh()

    def remove_waypoint(self) -> None:
        """Take back the last pin (Backspace)."""
        if self._undo_pins:
            self.waypoints, self.pins = self._undo_pins.pop()
            self.refresh()

    def refresh(self) -> None:
        """Evaluate the current drag and redraw the path layer."""
        plan = self.plan
        if plan is None or self.cursor is None:
            return
        evaluated = self._evaluate(plan, self.cursor, self.cheapest)
        self.last = evaluated
        items = feedback_items(plan, evaluated, self.pins, self.cheapest)
        self._path.show(items)
        intended = evaluated.intended
        destination = intended[-1]
        came_from = intended[-2] if len(intended) > 1 else plan.start
        side = plan.footprint_side()
        ox, oy = plan.offset
        box = QRectF(destination[0] + ox, destination[1] + oy, side, side)
        for item in items:
            if isinstance(item, InfoCard):
                item.place(
                    self.view, box, (came_from[0] + ox + side / 2, came_from[1] + oy + side / 2)
                )

    def _evaluate(self, plan: MovePlan, cursor: Cell, cheapest: bool) -> Evaluated:
        """The drag to ``cursor``; outside a combat as a free placement (``placement``)."""
        evaluated = plan.evaluate(tuple(self.waypoints), cursor, cheapest)
        if self.document.encounter.combat is not None:
            return evaluated
        cell_feet = self.document.encounter.grid.cell_feet
        return placement(plan, evaluated, cell_feet)

    def median_move_ms(self) -> float:
        return statistics.median(self.move_costs_ms) if self.move_costs_ms else 0.0

    @property
    def path_items(self) -> list[QGraphicsItem]:
        return self._path.items

    @property
    def shade_items(self) -> list[QGraphicsItem]:
        return self._shade.items

    # --- keys during a drag ----------------------------------------------------------

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if self.plan is None or kind not in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease):
            return False
        assert isinstance(event, QKeyEvent)
        if event.key() == WAYPOINT_KEY:
            if kind == QEvent.Type.KeyPress and not event.isAutoRepeat():
                self.add_waypoint()
            return True
        if event.key() == Qt.Key.Key_Backspace and kind == QEvent.Type.KeyPress:
            self.remove_waypoint()
            return True
        if event.key() == Qt.Key.Key_Escape and kind == QEvent.Type.KeyPress:
            self.cancel()
            return True
        return False

    def cancel(self) -> None:
        """Escape during a drag: the drop will put the token back where it started."""
        if self.plan is not None:
            self.cancelled = self.plan.mover_id
            self.end()
            self.scene.message.emit("Move called off: let go and the token goes back.")


def placement(plan: MovePlan, evaluated: Evaluated, cell_feet: float) -> Evaluated:
    """Setting up (no combat): movement rules refuse nothing, only the map's edge does.

    An illegal path is shown whole and measured step by step by the ruleset's diagonal rule;
    walls, creatures and opportunity attacks no longer count.
    """
    result = evaluated.result
    if result.reason is IllegalReason.OFF_MAP:
        return evaluated
    if result.legal:
        return replace(evaluated, result=replace(result, opportunity_attacks=()))
    steps = list(zip(evaluated.intended, evaluated.intended[1:], strict=False))
    diagonals = sum(1 for a, b in steps if a[0] != b[0] and a[1] != b[1])
    # (all steps, diagonals) prices the whole path as the geometry would, 5-10-5 included
    cost = grid_steps_to_feet(len(steps), diagonals, plan.rule, cell_feet)
    free = replace(
        result,
        cost_feet=cost,
        legal=True,
        reason=None,
        blocker_id=None,
        blocked_step=None,
        cells=evaluated.intended[1:],
        opportunity_attacks=(),
    )
    return replace(evaluated, result=free, reason="")


def _snapped(step: float, pos: QPointF) -> tuple[float, float]:
    """The token's top-left snapped as a plain drop snaps it (``step``: half cells for Tiny)."""
    return (
        snap_position(scene_to_cell(pos.x()), step),
        snap_position(scene_to_cell(pos.y()), step),
    )


def _cell_at(step: float, pos: QPointF) -> Cell:
    """The whole cell holding the snapped top-left ``pos``."""
    x, y = _snapped(step, pos)
    return (math.floor(x + 1e-9), math.floor(y + 1e-9))


def registry_ruleset(
    window: FeatureWindow, registry: Callable[[], RulesetRegistry]
) -> Ruleset | None:
    """The encounter's ruleset from ``registry``, or None when it can't be loaded."""
    encounter = window.document.encounter
    try:
        return registry().get(encounter.ruleset)
    except (RulesetError, KeyError, ValueError):
        return None
