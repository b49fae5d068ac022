"""The Initiative dock's Initiative box is touch sized (44 px - and + buttons) and the dock
still fits: Previous/Next turn in view on a 1366 x 768 laptop's first start, nothing below
the fold in a 1600 x 1000 window, and no wider than before (the left column's width is the
Actions dock's too). Demo-like map: conftest's five creatures, a combat begun."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRect, QSettings
from PySide6.QtWidgets import QApplication, QScrollArea
from pytestqt.qtbot import QtBot

from battlemap.model import Encounter
from battlemap.model.document import Document
from battlemap.ui import window_layout
from battlemap.ui.main_window import MainWindow
from battlemap.ui.typed_dice import TOUCH_PX, TouchSpinBox

DESKTOP_PANEL = 32
LEFT_COLUMN_MAX = 330
"""The left column was 320 px wide before the touch box (386 px when it first went in)."""


def open_mid_combat(
    qtbot: QtBot, encounter: Encounter, settings: QSettings, screen: tuple[int, int] | None
) -> MainWindow:
    window = MainWindow(Document(encounter), settings=settings)
    qtbot.addWidget(window)
    if screen is None:
        window.resize(1600, 1000)
    else:
        window_layout.fit_to_screen(window, QRect(0, 0, screen[0], screen[1] - DESKTOP_PANEL))
    window.show()
    qtbot.waitExposed(window)
    initiative = window.combat.initiative
    for button in (initiative.start_button, initiative.roll_all, initiative.begin_button):
        button.click()
    QApplication.processEvents()
    return window


def test_the_initiative_box_has_touch_buttons(
    qtbot: QtBot, encounter: Encounter, settings: QSettings
) -> None:
    window = open_mid_combat(qtbot, encounter, settings, None)
    box = window.combat.initiative.value
    assert isinstance(box, TouchSpinBox)
    assert box.minus.width() >= TOUCH_PX and box.plus.height() >= TOUCH_PX


@pytest.mark.parametrize("screen", [(1366, 768), None])
def test_the_turn_buttons_stay_in_view_and_the_column_as_narrow(
    qtbot: QtBot, encounter: Encounter, settings: QSettings, screen: tuple[int, int] | None
) -> None:
    window = open_mid_combat(qtbot, encounter, settings, screen)
    initiative = window.combat.initiative
    for button in (initiative.previous_button, initiative.next_button):
        shown = button.visibleRegion().boundingRect()
        assert shown.height() >= button.height() * 3 // 4, button.text()
    assert initiative.width() <= LEFT_COLUMN_MAX
    scroll = initiative.widget()
    assert isinstance(scroll, QScrollArea)
    if screen is None:  # a 1600 x 1000 window: the whole dock, End combat included
        assert scroll.verticalScrollBar().maximum() == 0
