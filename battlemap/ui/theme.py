"""Light and dark themes for the DM's window (View > Theme), remembered between sessions.

The map itself keeps its own colours (paper, walls, tokens) so that it reads the same on
the players' screen; the theme changes the window around it.
"""

from __future__ import annotations

from enum import StrEnum

from PySide6.QtCore import QObject, QSettings
from PySide6.QtGui import QAction, QColor, QPalette
from PySide6.QtWidgets import QApplication, QStyleFactory

from battlemap.ui.feature_window import FeatureWindow
from battlemap.ui.menu_choices import exclusive_choices

SETTING = "ui/theme"


class Theme(StrEnum):
    SYSTEM = "system"
    LIGHT = "light"
    DARK = "dark"


def dark_palette() -> QPalette:
    palette = QPalette()
    roles = {
        QPalette.ColorRole.Window: "#2b2b2e",
        QPalette.ColorRole.WindowText: "#e8e6e3",
        QPalette.ColorRole.Base: "#1f1f22",
        QPalette.ColorRole.AlternateBase: "#2f2f33",
        QPalette.ColorRole.ToolTipBase: "#3a3a3f",
        QPalette.ColorRole.ToolTipText: "#f0f0f0",
        QPalette.ColorRole.PlaceholderText: "#8c8c8c",
        QPalette.ColorRole.Text: "#e8e6e3",
        QPalette.ColorRole.Button: "#35353a",
        QPalette.ColorRole.ButtonText: "#e8e6e3",
        QPalette.ColorRole.BrightText: "#ff6b6b",
        QPalette.ColorRole.Highlight: "#3d7bd9",
        QPalette.ColorRole.HighlightedText: "#ffffff",
        QPalette.ColorRole.Link: "#6fa8ff",
    }
    for role, colour in roles.items():
        palette.setColor(role, QColor(colour))
    for role in (
        QPalette.ColorRole.Text,
        QPalette.ColorRole.ButtonText,
        QPalette.ColorRole.WindowText,
    ):
        palette.setColor(QPalette.ColorGroup.Disabled, role, QColor("#77777c"))
    return palette


def apply_theme(app: QApplication, theme: Theme) -> None:
    if theme is Theme.SYSTEM:
        app.setPalette(QPalette())
        return
    fusion = QStyleFactory.create("Fusion")
    if fusion is not None:
        app.setStyle(fusion)
    app.setPalette(dark_palette() if theme is Theme.DARK else fusion.standardPalette())


class ThemeMenu(QObject):
    def __init__(self, window: FeatureWindow, settings: QSettings) -> None:
        super().__init__(window)
        self.settings = settings
        view_menu = window.view_menu
        menu = view_menu.addMenu("&Theme")
        saved = str(settings.value(SETTING, Theme.SYSTEM.value))
        self.theme = Theme(saved) if saved in set(Theme) else Theme.SYSTEM
        labels = {Theme.SYSTEM: "&System", Theme.LIGHT: "&Light", Theme.DARK: "&Dark"}
        self.actions: dict[Theme, QAction] = exclusive_choices(
            self, menu, labels, self.set_theme, self.theme
        )
        if self.theme is not Theme.SYSTEM:
            self.set_theme(self.theme)

    def set_theme(self, theme: Theme) -> None:
        self.theme = theme
        self.settings.setValue(SETTING, theme.value)
        self.actions[theme].setChecked(True)
        app = QApplication.instance()
        if isinstance(app, QApplication):
            apply_theme(app, theme)


def install(window: FeatureWindow) -> ThemeMenu:
    return ThemeMenu(window, window.settings)
