"""The map-settings icon reads in the dark theme too: its grid shows on the map square
(issue 15, item 13: it was blank, light ink on the light square)."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QImage, QPalette
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from battlemap.ui import style
from battlemap.ui.theme import dark_palette
from battlemap.ui.tools.icons import ICON_PX, tool_icon


def grid_pixels(image: QImage) -> int:
    """Pixels inside the map square clearly darker than the square's fill."""
    fill = style.MAP_BACKGROUND.lightness()
    return sum(
        1
        for y in range(12, 52)
        for x in range(12, 52)
        if image.pixelColor(x, y).alpha() > 200 and image.pixelColor(x, y).lightness() < fill - 80
    )


@pytest.mark.parametrize("palette", ["dark", "light"])
def test_the_map_settings_grid_shows_in_either_theme(qtbot: QtBot, palette: str) -> None:
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    before = app.palette()
    try:
        app.setPalette(dark_palette() if palette == "dark" else QPalette())
        image = tool_icon("map-settings").pixmap(ICON_PX, ICON_PX).toImage()
    finally:
        app.setPalette(before)
    assert image.width() == ICON_PX
    # four grid lines ~2.5 px wide and ~40 px long inside the checked area
    assert grid_pixels(image) >= 4 * 2 * 36
