"""The Select tool's right-click menu on a door or window: open/close, door <-> window."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QTimer
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtWidgets import QApplication, QMenu

from battlemap.model import Wall, WallKind
from battlemap.model.map_commands import AddWalls, find_feature
from battlemap.ui.main_window import MainWindow
from tests.ui.tool_input import at

# A real popup menu runs here; the offscreen platform says it cannot raise or grab for it.
pytestmark = pytest.mark.qt_log_ignore("This plugin does not support", extend=True)


def add_door(window: MainWindow) -> None:
    door = Wall(id="d-1", a=(11, 1), b=(11, 2), kind=WallKind.DOOR)
    window.tools.context.push(AddWalls((door,)))


def right_click_and_pick(window: MainWindow, x: float, y: float, entry: str) -> list[str]:
    """Right-click cell point (x, y) with a real context-menu event; pick the menu entry
    whose text starts with ``entry`` (none if no entry does). Returns the entries the menu
    offered ([] if none)."""
    offered: list[str] = []

    def pick() -> None:
        menu = QApplication.activePopupWidget()
        if not isinstance(menu, QMenu):
            return
        offered.extend(action.text() for action in menu.actions())
        chosen = next((a for a in menu.actions() if a.text().startswith(entry)), None)
        menu.close()  # always: a menu left open would wait in its own loop for ever
        if chosen is not None:
            chosen.trigger()

    QTimer.singleShot(0, pick)
    pos: QPoint = at(window.view, x, y)
    event = QContextMenuEvent(
        QContextMenuEvent.Reason.Mouse, pos, window.view.viewport().mapToGlobal(pos)
    )
    QApplication.sendEvent(window.view.viewport(), event)
    return offered


def portal(window: MainWindow) -> Wall:
    wall = find_feature(window.document.encounter, "d-1")[2]
    assert isinstance(wall, Wall)
    return wall


def test_right_click_turns_a_door_into_a_window_and_back_each_one_undo_step(
    window: MainWindow,
) -> None:
    add_door(window)
    offered = right_click_and_pick(window, 11.05, 1.5, "Make it a window")
    assert offered == ["Open door", "Make it a window (blocks movement, not sight)"]
    assert portal(window).kind is WallKind.WINDOW
    assert window.undo_stack.undoText() == "Make door a window"

    offered = right_click_and_pick(window, 11.05, 1.5, "Make it a door")
    assert offered == ["Make it a door (closed: blocks movement and sight)"]
    assert portal(window).kind is WallKind.DOOR

    window.undo_stack.undo()
    window.undo_stack.undo()
    assert portal(window).kind is WallKind.DOOR and not portal(window).open


def test_right_click_opens_a_door(window: MainWindow) -> None:
    add_door(window)
    right_click_and_pick(window, 11.05, 1.5, "Open door")
    assert portal(window).open
    assert right_click_and_pick(window, 11.05, 1.5, "Close door")[0] == "Close door"
    assert not portal(window).open


def test_right_click_away_from_portals_shows_no_portal_menu(window: MainWindow) -> None:
    add_door(window)
    steps = window.undo_stack.count()
    offered = right_click_and_pick(window, 5.5, 5.5, "Make")
    assert not [text for text in offered if text.startswith(("Make", "Open", "Close"))]
    assert any("torch" in text.lower() for text in offered)  # the map's own menu: lights
    assert window.undo_stack.count() == steps
