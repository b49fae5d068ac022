"""Shared by the players' window tests: open the window, list the tokens it draws."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from battlemap.ui.main_window import MainWindow


def open_players(window: MainWindow, qtbot: QtBot) -> None:
    window.players.toggle_action.setChecked(True)
    qtbot.waitUntil(window.players.window.isVisible)


def frame_players(window: MainWindow, qtbot: QtBot) -> None:
    """Open the players' window at 1280 x 720 framing the whole map (for pixel probes)."""
    open_players(window, qtbot)
    window.players.window.resize(1280, 720)
    window.players.window.show_area(window.map_rect())


def player_tokens(window: MainWindow) -> list[str]:
    """Ids of the creatures the players' scene draws, sorted."""
    return sorted(window.players.window.scene.tokens)
