"""The DM's hands at the table: clicks, typing and drags on the real window, each checking
first that the control is shown whole (inside the window and every scroll area's viewport)
and enabled, and readers of what the DM sees (the log, the token badges, the initiative).

Nothing here calls the engine: every change goes through a widget a DM can click or type in.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtCore import QModelIndex, QPoint, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QApplication,
    QComboBox,
    QMenu,
    QTableWidget,
    QWidget,
)
from pytestqt.qtbot import QtBot

from battlemap.model.creature import Creature
from battlemap.model.ids import EntityId
from battlemap.ui.combat.widgets import rows
from battlemap.ui.main_window import MainWindow
from battlemap.ui.style import cell_to_scene
from battlemap.ui.token_state import TokenState, Vital
from tests.ui.drag_helpers import move_through, press_at, release_at
from tests.ui.test_turn_controls_fold import unfolded


@dataclass
class Table:
    """One DM at one window; ``used`` lists every control the fight needed, by name."""

    window: MainWindow
    qtbot: QtBot
    used: list[str] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)
    stalls: list[str] = field(default_factory=list)
    """Controls found below a fold and scrolled to, as a DM would: known, not yet fixed."""

    def __post_init__(self) -> None:
        status = self.window.statusBar()
        status.messageChanged.connect(self._heard)

    def _heard(self, text: str) -> None:
        if text.startswith("Not allowed"):
            self.refusals.append(text)

    # --- hands -----------------------------------------------------------------------

    def shown(self, widget: QWidget, name: str) -> None:
        QApplication.processEvents()
        assert unfolded(widget), f"{name} is below a fold or hidden"
        assert widget.isEnabled(), f"{name} is disabled"
        self.used.append(name)

    def click(self, button: QAbstractButton, name: str | None = None) -> None:
        label = name or button.text()
        self.shown(button, label)
        self.qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
        QApplication.processEvents()

    def activate(self, widget: QWidget) -> None:
        """A click on a window makes it the active one (a window manager's doing, which the
        offscreen platform leaves to the test): its boxes then get focus from the click."""
        window = widget.window()
        if not window.isActiveWindow():
            window.activateWindow()
            self.qtbot.waitUntil(window.isActiveWindow)

    def type_into(self, box: QWidget, text: str, name: str, enter: bool = False) -> None:
        """Click into the box (its text selected on focus), type, and Enter if asked."""
        self.shown(box, name)
        self.activate(box)
        self.qtbot.mouseClick(box, Qt.MouseButton.LeftButton)
        self.qtbot.wait(5)  # as between a DM's click and first key: the box selects its text
        self.qtbot.keyClicks(box, text)
        if enter:
            self.qtbot.keyClick(box, Qt.Key.Key_Return)
        QApplication.processEvents()

    def retype(self, box: QWidget, text: str, name: str) -> None:
        """Click into a box that holds a value, select it all (Ctrl+A), type key by key and
        Tab on (the value is taken as the box is left, as a DM's next click would); no
        text: Delete empties it."""
        self.shown(box, name)
        self.activate(box)
        self.qtbot.mouseClick(box, Qt.MouseButton.LeftButton)
        self.qtbot.keyClick(box, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
        self.qtbot.keyClicks(box, text)
        if not text:
            self.qtbot.keyClick(box, Qt.Key.Key_Delete)
        self.qtbot.keyClick(box, Qt.Key.Key_Tab)
        QApplication.processEvents()

    def choose_in(self, box: QComboBox, text: str, name: str) -> None:
        """Pick a list box's entry from the keyboard: the box focused, Home, then Down
        until the entry starting with ``text``."""
        self.shown(box, name)
        self.activate(box)
        box.setFocus()  # as Tab onto it; a click would open its popup
        self.qtbot.keyClick(box, Qt.Key.Key_Home)
        for _ in range(box.count()):
            if box.currentText().startswith(text):
                break
            self.qtbot.keyClick(box, Qt.Key.Key_Down)
        QApplication.processEvents()
        assert box.currentText().startswith(text), (box.currentText(), text)

    def click_row(self, view: QAbstractItemView, index: QModelIndex, name: str) -> None:
        """Click a list's row (scrolled into view first, as the DM's wheel would)."""
        self.shown(view, name)
        view.scrollTo(index)
        rect = view.visualRect(index)
        assert view.viewport().rect().contains(rect.center()), f"{name}: row out of view"
        self.qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
        QApplication.processEvents()
        assert view.currentIndex().row() == index.row(), name

    def type_cell(self, table: QTableWidget, row: int, column: int, text: str) -> None:
        """Click a table's cell, F2 to edit it, select all, type (nothing: clear it), Enter."""
        item = table.item(row, column)
        assert item is not None, (row, column)
        table.scrollToItem(item)
        rect = table.visualItemRect(item)
        assert table.viewport().rect().contains(rect), f"cell {row}, {column} out of view"
        self.qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
        self.qtbot.keyClick(table, Qt.Key.Key_F2)
        editor = QApplication.focusWidget()
        assert editor is not None and editor is not table, "no cell editor opened"
        self.qtbot.keyClick(editor, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
        if text:
            self.qtbot.keyClicks(editor, text)
        else:
            self.qtbot.keyClick(editor, Qt.Key.Key_Delete)
        self.qtbot.keyClick(editor, Qt.Key.Key_Return)
        QApplication.processEvents()
        assert item.text() == text, (item.text(), text)

    def key(
        self, key: Qt.Key, modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier
    ) -> None:
        """A key pressed with the map focused (the window's shortcuts)."""
        view = self.window.view
        self.window.activateWindow()  # as a closed dialog hands it back on a desktop
        QApplication.processEvents()
        view.setFocus()
        self.qtbot.keyClick(view, key, modifier)
        QApplication.processEvents()

    def menu_entry(self, menu: QMenu, text: str) -> None:
        """Choose an entry of a menu the DM opened (a shown button's or the menu bar's)."""
        entry = next((a for a in menu.actions() if a.text().replace("&", "") == text), None)
        assert entry is not None, [a.text() for a in menu.actions()]
        assert entry.isEnabled(), f"{text}: {entry.toolTip()}"
        self.used.append(text)
        entry.trigger()
        QApplication.processEvents()

    def trigger(self, action: QAction, name: str) -> None:
        assert action.isEnabled(), f"{name}: {action.toolTip()}"
        self.used.append(name)
        action.trigger()
        QApplication.processEvents()

    def drag(self, creature: str, to: tuple[float, float]) -> None:
        """Drag a creature's token by its centre so its corner lands on the cell ``to``."""
        token = self.window.scene.tokens[self.creature(creature).id]
        self.window.view.ensureVisible(token)
        rect = token.sceneBoundingRect()
        cell = cell_to_scene(1)
        start = (rect.center().x() / cell, rect.center().y() / cell)
        found = self.creature(creature)
        end = (start[0] + to[0] - found.x, start[1] + to[1] - found.y)
        press_at(self.window, start)
        move_through(self.window, [start, end])
        release_at(self.window, end)
        QApplication.processEvents()
        moved = self.creature(creature)
        waiting = self.window.drag_feedback.prompt.isVisible()  # an opportunity attack asks
        assert waiting or (moved.x, moved.y) == to, self.window.statusBar().currentMessage()

    def select(self, *names: str) -> None:
        """Click the first token, Ctrl+click the others (as on the map)."""
        view = self.window.view
        for index, name in enumerate(names):
            token = self.window.scene.tokens[self.creature(name).id]
            view.ensureVisible(token)
            point = view.mapFromScene(token.sceneBoundingRect().center())
            modifier = (
                Qt.KeyboardModifier.ControlModifier if index else Qt.KeyboardModifier.NoModifier
            )
            self.qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, modifier, point)
        QApplication.processEvents()
        chosen = {
            self.window.document.encounter.creature(c).name
            for c in self.window.scene.selected_creatures()
        }
        assert chosen == set(names), chosen

    # --- eyes ------------------------------------------------------------------------

    def creature(self, name: str) -> Creature:
        return next(c for c in self.window.document.encounter.creatures if c.name == name)

    def hp(self, name: str) -> int:
        return self.creature(name).hp

    def badge(self, name: str) -> TokenState:
        return self.window.scene.tokens[self.creature(name).id].state

    def vital(self, name: str) -> Vital:
        return self.badge(name).vital

    def log(self) -> list[str]:
        return [entry.text for entry in self.window.document.encounter.session_log()]

    def logged(self, *parts: str, since: int = 0) -> str:
        """The first log line since ``since`` holding every part (asserted to exist)."""
        lines = self.log()[since:]
        found = next((line for line in lines if all(p in line for p in parts)), None)
        assert found is not None, (parts, lines[-8:])
        return found

    def turn_of(self) -> str:
        state = self.window.combat.session.state
        assert state is not None and state.current is not None
        return self.window.combat.session.name(state.current.creature_id)

    def order(self) -> list[str]:
        """The Initiative dock's rows as the DM reads them (names)."""
        return [
            row.text(1).lstrip("▶ ").strip() for row in rows(self.window.combat.initiative.tree)
        ]

    def players_strip(self) -> str:
        return self.window.players.window.strip.text()

    def cell_in_view(self, x: float, y: float) -> QPoint:
        from tests.ui.helpers import cell_centre_in_view

        return cell_centre_in_view(self.window.view, x, y)


def screenshot(table: Table, name: str) -> None:
    """Save the DM's window as ``$BATTLEMAP_SCREENSHOTS/name.png`` when that is set (how the
    README's pictures in docs/screenshots are made); else nothing."""
    folder = os.environ.get("BATTLEMAP_SCREENSHOTS")
    if folder:
        QApplication.processEvents()
        assert table.window.grab().save(str(Path(folder) / f"{name}.png"))


def entity(window: MainWindow, name: str) -> EntityId:
    return next(c.id for c in window.document.encounter.creatures if c.name == name)
