"""Issue 15 (found by the scripted session): at 1366 x 768 mid-combat the Creature dock shows
its damage, heal and saving-throw buttons and the conditions' Add or remove without scrolling
(the conditions sat under "This turn", below the fold)."""

from __future__ import annotations

from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from battlemap.model import Encounter
from tests.ui.test_creature_dock_layout import fight_and_select
from tests.ui.test_turn_controls_fold import SCREENS, unfolded
from tests.ui.test_window_layout import first_start


def test_the_creature_docks_combat_controls_show_on_a_laptop(
    qtbot: QtBot, encounter: Encounter, settings: QSettings
) -> None:
    window = first_start(qtbot, encounter, settings, SCREENS["laptop"])
    fight_and_select(window, "c-large")
    panel = window.combat.panel
    controls = {
        "Amount": panel.amount,
        "Damage": panel.damage_button,
        "Heal": panel.heal_button,
        "Saving throw…": panel.save_button,
        "Conditions: Add or remove": panel.conditions_button,
        "Duration": panel.duration,
    }
    assert not [name for name, widget in controls.items() if not unfolded(widget)]
