"""Issue 15 (found by the scripted session): mid-combat the Creature dock shows its damage,
heal and saving-throw buttons, the conditions' Add or remove, exhaustion and "This turn"
without scrolling, at 1366 x 768 and at 1920 x 1080; the library gives it the height while
the combat runs and takes back its six rows when the combat ends (``ui/combat_room.py``)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRect, QSettings
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from battlemap.model import Encounter
from battlemap.ui.library_dock import MIN_ROWS, MIN_ROWS_IN_COMBAT
from battlemap.ui.main_window import MainWindow
from tests.ui.test_creature_dock_layout import fight_and_select
from tests.ui.test_library_dock import rows_in_view
from tests.ui.test_turn_controls_fold import unfolded
from tests.ui.test_window_layout import first_start

SCREENS = {"laptop": QRect(0, 0, 1366, 768 - 32), "desktop": QRect(0, 0, 1920, 1080 - 40)}


def creature_controls(window: MainWindow) -> dict[str, QWidget]:
    panel = window.combat.panel
    return {
        "Amount": panel.amount,
        "Damage": panel.damage_button,
        "Heal": panel.heal_button,
        "Saving throw…": panel.save_button,
        "Conditions": panel.conditions_label,
        "Conditions: Add or remove": panel.conditions_button,
        "Duration": panel.duration,
        "Exhaustion": panel.exhaustion,
        "This turn": panel.economy,
    }


@pytest.mark.parametrize("screen", list(SCREENS))
def test_the_creature_docks_combat_controls_show_without_scrolling(
    qtbot: QtBot, encounter: Encounter, settings: QSettings, screen: str
) -> None:
    window = first_start(qtbot, encounter, settings, SCREENS[screen])
    assert rows_in_view(window.library_dock) >= MIN_ROWS  # setting up: the library's rows
    fight_and_select(window, "c-large")
    qtbot.wait(10)  # the Creature dock grows once the combat has begun
    folded = [name for name, widget in creature_controls(window).items() if not unfolded(widget)]
    assert not folded, folded
    assert "movement" in window.combat.panel.economy.text()
    library = window.library_dock  # a reinforcement can still be searched for and added
    library.raise_()
    QApplication.processEvents()
    assert unfolded(library.search) and unfolded(library.add_button)
    assert rows_in_view(library) >= MIN_ROWS_IN_COMBAT


def test_after_the_combat_the_library_shows_its_six_rows_again(
    qtbot: QtBot, encounter: Encounter, settings: QSettings
) -> None:
    window = first_start(qtbot, encounter, settings, SCREENS["laptop"])
    fight_and_select(window, "c-large")
    qtbot.wait(10)
    library = window.library_dock
    library.raise_()
    QApplication.processEvents()
    assert rows_in_view(library) < MIN_ROWS  # the Creature dock took the height
    window.combat.initiative.end_button.click()
    assert window.document.encounter.combat is None
    qtbot.waitUntil(lambda: rows_in_view(library) >= MIN_ROWS)
    window.undo_stack.undo()  # the combat back: the Creature dock's room too
    assert window.document.encounter.combat is not None
    qtbot.waitUntil(lambda: rows_in_view(library) < MIN_ROWS)
    window.creature_dock.raise_()
    assert all(unfolded(widget) for widget in creature_controls(window).values())


def test_a_monster_picked_in_the_library_mid_combat_keeps_this_turn_above_the_fold(
    qtbot: QtBot, encounter: Encounter, settings: QSettings
) -> None:
    """A reinforcement looked up mid-fight shows its summary without pushing the Creature
    dock's controls below the fold at 1366 x 768."""
    window = first_start(qtbot, encounter, settings, SCREENS["laptop"])
    fight_and_select(window, "c-large")
    qtbot.wait(10)
    library = window.library_dock
    library.raise_()
    library.ensure_filled()
    first = library.list.topLevelItem(0)
    assert first is not None
    library.list.setCurrentItem(first)
    QApplication.processEvents()
    assert library.list.currentItem() is not None
    qtbot.wait(10)
    folded = [name for name, widget in creature_controls(window).items() if not unfolded(widget)]
    assert not folded, folded
