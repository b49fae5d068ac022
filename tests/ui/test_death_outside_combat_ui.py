"""The Creature dock outside a combat (issue 16): srd-5e "Instant Death": the cleric at 6 of
12 HP taking 18 dies (12 left over >= her maximum), the dock says so, Heal is refused, the
file keeps it, and Undo brings her back to 6 HP."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from battlemap.io.encounter_file import save_battlemap
from battlemap.io.loader import load_encounter
from battlemap.model.ids import EntityId
from tests.ui.test_combat_docks import click, make_window, select

CLERIC = EntityId("c-cleric")


def test_the_cleric_dies_of_massive_damage_with_no_combat_running(
    qtbot: QtBot, tmp_path: Path
) -> None:
    window = make_window(qtbot, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    panel = window.combat.panel
    select(window, "c-cleric")
    panel.amount.setValue(6)
    click(qtbot, panel.damage_button)
    panel.amount.setValue(18)
    click(qtbot, panel.damage_button)
    cleric = window.document.encounter.creature(CLERIC)
    assert cleric.hp == 0 and cleric.lasting is not None and cleric.lasting.death.dead
    assert "dead" in panel.state_label.text()
    panel.amount.setValue(5)
    click(qtbot, panel.heal_button)
    assert window.document.encounter.creature(CLERIC).hp == 0
    assert "can't regain hit points" in window.statusBar().currentMessage()
    path = tmp_path / "dead.battlemap"
    save_battlemap(path, window.document.encounter, {})
    reopened = load_encounter(path).creature(CLERIC).lasting
    assert reopened is not None and reopened.death.dead
    window.undo_stack.undo()
    back = window.document.encounter.creature(CLERIC)
    assert back.hp == 6 and back.lasting is None
    assert "dead" not in panel.state_label.text()
