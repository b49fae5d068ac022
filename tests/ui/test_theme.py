"""View > Theme switches the window's palette and remembers the choice."""

from __future__ import annotations

from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication

from battlemap.ui.main_window import MainWindow
from battlemap.ui.theme import Theme


def window_colour() -> int:
    return QApplication.palette().color(QPalette.ColorRole.Window).lightness()


def test_dark_and_light_themes_change_the_palette_and_are_remembered(window: MainWindow) -> None:
    try:
        window.theme.set_theme(Theme.DARK)
        assert window_colour() < 80
        assert window.settings.value("ui/theme") == "dark"
        window.theme.set_theme(Theme.LIGHT)
        assert window_colour() > 180
        assert window.theme.actions[Theme.LIGHT].isChecked()
    finally:
        window.theme.set_theme(Theme.SYSTEM)  # leave the shared QApplication as it was
