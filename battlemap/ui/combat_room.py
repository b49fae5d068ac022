"""While a combat runs, the right column's height goes to the Creature dock.

The right column stacks the library's tabs (library, History, Party, Log) over the Creature
dock. Setting up, the DM browses the library, which keeps six monsters in view
(``library_dock.MIN_ROWS``); mid-combat the DM deals damage, marks conditions and reads the
turn's economy in the Creature dock, which at 1366 x 768 then had its conditions row and
"This turn" below its fold. So when a combat begins (or a file opens mid-combat) the library
keeps fewer rows (``MIN_ROWS_IN_COMBAT``; its search and Add to map still work) and the
Creature dock is given the height its contents ask for; when the combat ends, the library's
minimum of six rows takes its height back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtWidgets import QDockWidget, QScrollArea

if TYPE_CHECKING:
    from battlemap.ui.main_window import MainWindow


def creature_room(dock: QDockWidget) -> int:
    """The height ``dock`` needs to show its whole contents: its title bar and frame plus
    its body's preferred height (the body sits in a scroll area, ``scroll_when_short``)."""
    scroll = dock.widget()
    body = scroll.widget() if isinstance(scroll, QScrollArea) else scroll
    if scroll is None or body is None:
        return dock.sizeHint().height()
    return dock.height() - scroll.height() + body.sizeHint().height()


class CombatRoom(QObject):
    """Follows the combat's start and end (``CombatSession.changed``) and gives the Creature
    dock room while it runs (see the module docstring)."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.in_combat = False
        window.combat.session.changed.connect(self.follow)
        window.creature_dock.installEventFilter(self)  # shown: the window's first sizes set
        self.follow()

    def follow(self) -> None:
        running = self.window.combat.session.state is not None
        if running == self.in_combat:
            return
        self.in_combat = running
        self.window.library_dock.set_in_combat(running)
        if running:
            self._grow_soon()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Show and self.in_combat:
            self._grow_soon()
        return False

    def _grow_soon(self) -> None:
        """After the library's smaller minimum (and a first show's sizes) are laid out."""
        QTimer.singleShot(0, self.grow_creature_dock)

    def grow_creature_dock(self) -> None:
        """Ask for the Creature dock's whole height: Qt gives what the docks above it leave
        at their minimums."""
        dock = self.window.creature_dock
        if not self.in_combat or not dock.isVisible() or dock.isFloating():
            return
        self.window.resizeDocks([dock], [creature_room(dock)], Qt.Orientation.Vertical)


def install(window: MainWindow) -> CombatRoom:
    return CombatRoom(window)
