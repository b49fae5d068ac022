"""The attacks left of an Attack action in the Actions dock: spent one by one through the
attack dialog, undone one step at a time."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from tests.ui.test_combat_attack_dialog import KNIGHT, window_for


def _attack_row(text: str) -> str:
    return text.split("Attacks</td>")[1]


def test_extra_attack_counts_down_in_the_actions_dock_and_undo_restores_it(
    qtbot: QtBot, tmp_path: Path
) -> None:
    window = window_for(qtbot, tmp_path, "srd-5e")
    knight = KNIGHT.model_copy(update={"attacks_per_action": 2})
    window.document.replace(window.document.encounter.model_copy(update={"party": (knight,)}))
    ui = window.combat
    dock = ui.actions
    assert "–" in _attack_row(dock.economy.text())
    ui.open_attack()
    dialog = ui.attack_dialog
    dialog.target.setCurrentIndex(dialog.target.findData("c-garg"))
    dialog.d20[0].setValue(2)  # a miss: no damage step
    qtbot.mouseClick(dialog.roll_button, Qt.MouseButton.LeftButton)
    assert "1 attack left" in _attack_row(dock.economy.text())
    assert dock.buttons["attack"].isEnabled()  # the Attack action goes on
    dialog.d20[0].setValue(2)
    qtbot.mouseClick(dialog.roll_button, Qt.MouseButton.LeftButton)
    assert "–" in _attack_row(dock.economy.text())
    assert not dock.buttons["attack"].isEnabled()
    window.undo_stack.undo()
    assert "1 attack left" in _attack_row(dock.economy.text())
    window.undo_stack.undo()
    assert "–" in _attack_row(dock.economy.text())
    assert dock.buttons["attack"].isEnabled()
