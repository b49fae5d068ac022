"""The Creature dock's layout: folds for the set-up numbers, and it fits a 1600 x 1000 window.

Map (tests/ui/conftest.py): Ogre (Large, hostile) at (5, 2).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QScrollArea
from pytestqt.qtbot import QtBot

from battlemap.ui.main_window import MainWindow


def select(window: MainWindow, creature_id: str) -> None:
    window.scene.clearSelection()
    window.scene.tokens[creature_id].setSelected(True)  # type: ignore[index]


def test_folds_start_closed_and_their_headers_summarise(window: MainWindow, qtbot: QtBot) -> None:
    dock = window.creature_dock
    select(window, "c-large")
    numbers, speeds = dock.numbers_section, dock.speeds_section
    ogre = window.document.encounter.creature("c-large")  # type: ignore[arg-type]
    assert not numbers.body.isVisible() and not speeds.body.isVisible()
    assert numbers.header.text() == (
        f"Numbers: HP {ogre.hp} / {ogre.max_hp} · AC {ogre.ac} · reach {ogre.reach} ft"
    )
    assert speeds.header.text() == f"Speeds: walk {ogre.speeds.walk} ft"
    qtbot.mouseClick(numbers.header, Qt.MouseButton.LeftButton)
    assert numbers.body.isVisible() and dock.numbers["ac"].isVisible()
    dock.numbers["ac"].setValue(ogre.ac + 2)  # an edit there: the header follows
    assert f"AC {ogre.ac + 2}" in numbers.header.text()
    window.scene.clearSelection()
    assert numbers.header.text() == "Numbers"


def test_the_whole_dock_shows_mid_combat_at_1600_by_1000(window: MainWindow) -> None:
    window.resize(1600, 1000)
    initiative = window.combat.initiative
    for button in (initiative.start_button, initiative.roll_all, initiative.begin_button):
        button.click()
    select(window, "c-large")
    QApplication.processEvents()
    scroll = window.creature_dock.widget()
    assert isinstance(scroll, QScrollArea)
    assert scroll.verticalScrollBar().maximum() == 0  # nothing hidden below the fold
    assert scroll.horizontalScrollBar().maximum() == 0
    panel = window.combat.panel
    for button in (panel.damage_button, panel.heal_button, panel.temp_button):
        assert button.isVisible() and button.width() >= button.minimumSizeHint().width()
