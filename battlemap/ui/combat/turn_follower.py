"""Selection and focus follow the turn (issue 15 item 10).

When a turn begins (Next turn, Begin round 1, an undo back to an earlier turn), the creature
whose turn it is becomes the one selected token, so the Creature dock shows it; its token is
scrolled into view only when it is (partly) off screen; and the keyboard goes back to the map
(after a death save typed in a box, N ends the next turn again), unless it is in another
window (a dialog the DM is typing in).
"""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QApplication, QGraphicsView

from battlemap.model.ids import EntityId
from battlemap.ui.combat.session import CombatSession
from battlemap.ui.map_scene import MapScene

VIEW_MARGIN_PX = 8
"""How near the viewport's edge a token may be before the view scrolls to it."""

Turn = tuple[int, int, EntityId]
"""Round, turn index and the creature: a new turn when any of them changes."""


class TurnFollower(QObject):
    """Selects the creature whose turn begins, keeps it in view and focuses the map."""

    def __init__(self, session: CombatSession, scene: MapScene, view: QGraphicsView) -> None:
        super().__init__(session)
        self.session, self.scene, self.view = session, scene, view
        self._turn: Turn | None = self._current()
        session.changed.connect(self._on_change)

    def _current(self) -> Turn | None:
        state = self.session.state
        if state is None or not state.started or state.current is None:
            return None
        return state.round, state.turn_index, state.current.creature_id

    def _on_change(self) -> None:
        turn = self._current()
        if turn == self._turn:
            return
        self._turn = turn
        token = self.scene.tokens.get(turn[2]) if turn is not None else None
        if token is None:
            return
        self.scene.clearSelection()
        token.setSelected(True)
        self.view.ensureVisible(token, VIEW_MARGIN_PX, VIEW_MARGIN_PX)  # scrolls only if needed
        focus = QApplication.focusWidget()
        if focus is None or focus.window() is self.view.window():
            self.view.setFocus()
