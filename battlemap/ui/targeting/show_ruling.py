"""Show the ruling (R): what the DM's overlay shows, drawn on the players' window for a few
seconds.

With a target picked (the targeting overlay shows a pair), the cover corner lines and the
attacker's reach ring; without one, the last recorded move's path with its cost, while the
mover still stands where that move ended. Drawn from the DM's own results, cut to what the
players may know (``players.ruling``); the status bar tells the DM what was shown, what was
left out, or why nothing was. Any change to the encounter takes a shown ruling down at once:
it would be stale, and a creature just hidden must not stay at the end of its lines.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

import shiboken6
from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QKeySequence

from battlemap.geometry import DiagonalRule
from battlemap.model.document import Change
from battlemap.ui.drag import DragFeedback, window_ruleset
from battlemap.ui.feature_window import FeatureWindow
from battlemap.ui.players.projection import PlayerView
from battlemap.ui.players.ruling import (
    RulingNotShownError,
    ShownRuling,
    cover_ruling,
    path_ruling,
)
from battlemap.ui.players.ruling_layer import RulingLayer
from battlemap.ui.targeting.overlay import SHOW_RULING_SHORTCUT, TargetingOverlay, unsubscribe

# The engine and the heavier geometry are imported in the functions that use them, so
# the window is built without them (issue 17; tests/ui/test_start_up_imports.py).
if TYPE_CHECKING:
    from battlemap.rules.move_plan import Evaluated, MovePlan

SHOW_RULING_TIP = (
    "Show the players the cover lines and reach of the picked target, or the last move's"
    f" path and cost, for a few seconds ({SHOW_RULING_SHORTCUT})"
)


class RulingShow(QObject):
    """The "Show the ruling to the players" action and the layer it draws on.

    Attributes:
        action: the action (shortcut R) in the View menu.
        layer: the players' scene's ruling layer.
    """

    def __init__(
        self, window: FeatureWindow, targeting: TargetingOverlay, drag: DragFeedback
    ) -> None:
        super().__init__(window)
        self.window = window
        self.targeting = targeting
        self.drag = drag
        self.layer = RulingLayer(window.players.window.scene)
        self.action = QAction("Show the &ruling to the players", self)
        self.action.setShortcut(QKeySequence(SHOW_RULING_SHORTCUT))
        self.action.setStatusTip(SHOW_RULING_TIP)
        self.action.setToolTip(SHOW_RULING_TIP)
        self.action.triggered.connect(self.show_ruling)
        document = window.document
        document.subscribe(self._on_change)
        # The Document may outlive the window (tests, a window reopened on it).
        self.destroyed.connect(partial(unsubscribe, document.listeners, self._on_change))

    def _on_change(self, _change: Change) -> None:
        if shiboken6.isValid(self.layer) and self.layer.ruling is not None:
            self.layer.clear()

    def show_ruling(self) -> ShownRuling | None:
        """Draw the current ruling on the players' window; None (and the DM told why) when
        there is none to show."""
        players = self.window.players
        if not players.window.isVisible():
            self._tell("Not shown: the players' window is closed (F10 opens it).")
            return None
        view = players.last_view
        try:
            if view is None:
                raise RulingNotShownError("the players' window shows nothing yet")
            ruling = self.current_ruling(view)
        except RulingNotShownError as error:
            self._tell(f"Not shown to the players: {error}.")
            return None
        self.layer.show(ruling, players.window.view)
        left_out = (
            f" ({ruling.left_out} cover line{'s' if ruling.left_out != 1 else ''} left out:"
            " blocked by what they don't know, or over unexplored ground)"
            if ruling.left_out
            else ""
        )
        self._tell(f"Shown to the players: {' · '.join(t for t, _ in ruling.caption)}{left_out}.")
        return ruling

    def current_ruling(self, view: PlayerView) -> ShownRuling:
        """The picked target's cover and reach, else the last move still standing."""
        from battlemap.geometry.reach import cells_within_reach
        from battlemap.rules.movement import diagonal_rule
        from battlemap.ui.targeting.facts import cover_against

        facts = self.targeting.facts
        ruleset = window_ruleset(self.window)
        if facts is not None:
            rule = diagonal_rule(ruleset) if ruleset is not None else DiagonalRule.FIVE_FIVE_FIVE
            bonus = cover_against(facts, ruleset).bonus
            return cover_ruling(facts, view, bonus, cells_within_reach(facts.attacker, rule))
        moved = self.drag.last_moved
        if moved is not None and _still_where_it_ended(self.window, *moved):
            return path_ruling(*moved, view)
        raise RulingNotShownError(
            "pick a target first (select a creature and point at another) or move a creature"
        )

    def _tell(self, text: str) -> None:
        self.window.statusBar().showMessage(text, 8000)


def _still_where_it_ended(window: FeatureWindow, plan: MovePlan, evaluated: Evaluated) -> bool:
    cells = evaluated.result.cells
    encounter = window.document.encounter
    if not cells or all(c.id != plan.mover_id for c in encounter.creatures):
        return False
    creature = encounter.creature(plan.mover_id)
    x, y = cells[-1][0] + plan.offset[0], cells[-1][1] + plan.offset[1]
    return abs(creature.x - x) < 1e-6 and abs(creature.y - y) < 1e-6


def install(window: FeatureWindow, targeting: TargetingOverlay, drag: DragFeedback) -> RulingShow:
    shower = RulingShow(window, targeting, drag)
    shower.layer.listeners.append(window.share.show_ruling)  # the phones show it too
    window.view_menu.addAction(shower.action)
    window.addAction(shower.action)
    return shower
