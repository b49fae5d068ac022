"""Issue 15 (found by the scripted session): while setting up at 1366 x 768 the Initiative box
and Set, where a player's roll is typed, sat under the order list below the fold; they now
sit above it."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from battlemap.model import Creature, Encounter, Grid, Side
from tests.ui.test_combat_docks import click
from tests.ui.test_turn_controls_fold import SCREENS, unfolded
from tests.ui.test_window_layout import first_start


def test_the_initiative_box_shows_while_setting_up_a_big_fight(
    qtbot: QtBot, tmp_path: Path
) -> None:
    goblins = tuple(
        Creature(id=f"c-{n}", name=f"Goblin {n}", side=Side.HOSTILE, x=n, y=1) for n in range(8)
    )
    heroes = tuple(
        Creature(id=f"c-h{n}", name=f"Hero {n}", side=Side.PARTY, x=n, y=5) for n in range(4)
    )
    encounter = Encounter(grid=Grid(width=20, height=14), creatures=goblins + heroes)
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    window = first_start(qtbot, encounter, settings, SCREENS["laptop"])
    initiative = window.combat.initiative
    click(qtbot, initiative.start_button)
    click(qtbot, initiative.roll_monsters)
    QApplication.processEvents()
    shown = {"Initiative box": initiative.value, "Set": initiative.set_button}
    assert not [name for name, widget in shown.items() if not unfolded(widget)]
