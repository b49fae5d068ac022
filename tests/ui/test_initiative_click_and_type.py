"""Issue 15 items 6 and 13 in the Initiative dock: a player calls out a total; the DM clicks
the box, types it over what was there and presses Enter, which presses Set."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from battlemap.ui.combat.widgets import rows
from tests.ui.test_combat_attack_dialog import window_for


def test_click_the_initiative_box_type_23_and_enter_sets_23(qtbot: QtBot, tmp_path: Path) -> None:
    window = window_for(qtbot, tmp_path, "srd-5e")
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    initiative = window.combat.initiative
    initiative.tree.setCurrentItem(rows(initiative.tree)[-1])
    chosen = initiative.selected_id()
    assert chosen is not None
    window.view.setFocus()  # the DM was on the map
    edit = initiative.value.lineEdit()
    before = edit.text()
    assert before and before != "23"
    qtbot.mouseClick(edit, Qt.MouseButton.LeftButton, pos=edit.rect().center())
    qtbot.waitUntil(lambda: edit.selectedText() == edit.text())  # the old total is selected
    box = initiative.value  # keys go to the focus widget, the spin box, as from a keyboard
    assert box.hasFocus()
    qtbot.keyClicks(box, "23")
    assert edit.text() == "23"
    steps = window.undo_stack.count()
    qtbot.keyClick(box, Qt.Key.Key_Return)
    state = window.combat.session.state
    assert state is not None and state.combatant(chosen).initiative == 23
    assert window.undo_stack.count() == steps + 1  # one step, one Undo
