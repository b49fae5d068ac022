"""Issue 15 (found by the scripted session): Redo answers every key the platform binds to it,
Ctrl+Shift+Z as well as Ctrl+Y (only the first binding was set, so Ctrl+Shift+Z did nothing)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from battlemap.model.ids import EntityId
from battlemap.ui.main_window import MainWindow
from tests.ui.session_helpers import move_fighter

CTRL, SHIFT = Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.ShiftModifier


@pytest.mark.parametrize(("key", "modifiers"), [(Qt.Key.Key_Y, CTRL), (Qt.Key.Key_Z, CTRL | SHIFT)])
def test_redo_by_either_key(
    qtbot: QtBot, window: MainWindow, key: Qt.Key, modifiers: Qt.KeyboardModifier
) -> None:
    move_fighter(window, (3, 3))
    window.activateWindow()
    QApplication.processEvents()
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key.Key_Z, CTRL)
    fighter = EntityId("c-medium")
    assert (window.document.encounter.creature(fighter).x, window.undo_stack.index()) == (2, 0)
    qtbot.keyClick(window.view, key, modifiers)
    assert window.document.encounter.creature(fighter).x == 3
