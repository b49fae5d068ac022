"""Shared by the players' window tests: open the window, list the tokens it draws."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from battlemap.ui.main_window import MainWindow


def open_players(window: MainWindow, qtbot: QtBot) -> None:
    window.players.toggle_action.setChecked(True)
    qtbot.waitUntil(window.players.window.isVisible)


def player_tokens(window: MainWindow) -> list[str]:
    """Ids of the creatures the players' scene draws, sorted."""
    return sorted(window.players.window.scene.tokens)
