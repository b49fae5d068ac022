"""Redo waits while a move waits on the opportunity-attack card (srd-5e): redoing an undone
Next turn under it would record the move in another creature's turn. Undo takes the move
back first; then Redo is there again."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from battlemap.model.document import MoveCreature
from battlemap.model.ids import EntityId
from battlemap.ui.undo import push
from tests.rules.move_builders import goblin_beside_fighter
from tests.ui.drag_helpers import open_window
from tests.ui.test_opportunity_prompt import drag_past_the_goblin

CLERIC = EntityId("c-cleric")


def test_redo_is_off_while_a_move_waits_on_the_card(qtbot: QtBot, tmp_path: Path) -> None:
    window = open_window(qtbot, tmp_path, goblin_beside_fighter())
    push(window.undo_stack, window.document, MoveCreature(CLERIC, (12, 8), (11, 8)))
    window.undo_action.trigger()
    redo = window.redo_action
    assert redo.isEnabled() and redo.text() == "&Redo Move creature"
    drag_past_the_goblin(qtbot, window)
    assert window.drag_feedback.waiting is not None
    assert not redo.isEnabled()
    redo.trigger()  # the shortcut or the menu: nothing happens
    assert window.document.encounter.creature(CLERIC).x == 12
    window.undo_action.trigger()  # takes back the waiting move
    assert window.drag_feedback.waiting is None
    assert redo.isEnabled()
    redo.trigger()
    assert window.document.encounter.creature(CLERIC).x == 11
