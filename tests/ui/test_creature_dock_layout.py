"""The Creature dock's layout: folds for the set-up numbers, and it fits a 1600 x 1000 window.

Map (tests/ui/conftest.py): Ogre (Large, hostile) at (5, 2).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QApplication, QScrollArea
from pytestqt.qtbot import QtBot

from battlemap.model import Encounter
from battlemap.model.document import Document
from battlemap.model.ids import EntityId
from battlemap.ui.main_window import MainWindow
from tests.rules.move_builders import goblin_beside_fighter

LAPTOP_WINDOW_HEIGHT = 700


def select(window: MainWindow, creature_id: str) -> None:
    window.scene.clearSelection()
    window.scene.tokens[EntityId(creature_id)].setSelected(True)


def fight_and_select(window: MainWindow, creature_id: str) -> QScrollArea:
    """Start a combat (the Initiative dock's three buttons), select the creature, and return
    the Creature dock's scroll area."""
    initiative = window.combat.initiative
    for button in (initiative.start_button, initiative.roll_all, initiative.begin_button):
        button.click()
    select(window, creature_id)
    QApplication.processEvents()
    scroll = window.creature_dock.widget()
    assert isinstance(scroll, QScrollArea)
    return scroll


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


def test_the_whole_dock_shows_mid_combat_at_1600_by_1000(
    qtbot: QtBot, encounter: Encounter, settings: QSettings
) -> None:
    """A DM's first start (fresh layout) in a 1600 x 1000 window, then a combat begun. (The
    first-run dock sizes are set when the window is first shown, at the size it has then;
    a window enlarged afterwards gives the Creature dock only a share of the growth.)"""
    window = MainWindow(Document(encounter), settings=settings)
    qtbot.addWidget(window)
    window.resize(1600, 1000)
    window.show()
    qtbot.waitExposed(window)
    scroll = fight_and_select(window, "c-large")
    assert scroll.verticalScrollBar().maximum() == 0  # nothing hidden below the fold
    assert scroll.horizontalScrollBar().maximum() == 0
    panel = window.combat.panel
    for button in (panel.damage_button, panel.heal_button, panel.temp_button):
        assert button.isVisible() and button.width() >= button.minimumSizeHint().width()


def test_a_window_opened_mid_combat_fits_a_laptop_screen(qtbot: QtBot, tmp_path: Path) -> None:
    """A file saved mid-combat opens on a 1366 x 768 laptop (about 700 px for the window
    under its title bar and the desktop's panel): the Initiative and Actions docks scroll
    when short instead of making the window taller than the screen (it needed 981 px, and
    1122 px when shown, before they scrolled)."""
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(Document(goblin_beside_fighter()), settings=settings)
    qtbot.addWidget(window)
    assert window.minimumSizeHint().height() <= LAPTOP_WINDOW_HEIGHT  # before it is shown
    window.resize(1300, LAPTOP_WINDOW_HEIGHT)
    window.show()
    qtbot.waitExposed(window)
    assert window.height() <= LAPTOP_WINDOW_HEIGHT
    actions = window.combat.actions
    end_turn = actions.end_button
    scroll = actions.widget()
    assert isinstance(scroll, QScrollArea)
    scroll.ensureWidgetVisible(end_turn)  # every button is still reachable
    QApplication.processEvents()
    corner = end_turn.mapTo(scroll.viewport(), end_turn.rect().bottomRight())
    assert scroll.viewport().rect().contains(corner)
