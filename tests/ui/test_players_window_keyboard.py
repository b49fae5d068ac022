"""Issue 15 (found by the scripted session): opening the players' window leaves the keyboard
with the DM's window, so N ends the turn and a clicked dice box takes typed digits at once
(the TV's window took the focus and the DM's keys went nowhere)."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from battlemap.ui.main_window import MainWindow


def test_the_dm_keeps_the_keyboard_when_the_players_window_opens(
    qtbot: QtBot, window: MainWindow
) -> None:
    window.view.setFocus()
    window.players.toggle_action.setChecked(True)
    qtbot.waitUntil(window.players.window.isVisible)
    QApplication.processEvents()
    assert QApplication.activeWindow() is window
    assert QApplication.focusWidget() is window.view
