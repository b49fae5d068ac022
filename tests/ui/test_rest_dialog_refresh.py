"""The Rest dialog follows what changes under it while it is open (bloodied-brink: short rest
"8 HP + level d8"; srd-5e has no rest rules): another ruleset, another encounter opened, and
Enter typed in a row's box (it takes the number; it does not apply the rest)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from battlemap.model.document import MoveCreature, ReplaceEncounterField
from battlemap.model.ids import EntityId
from battlemap.ui.combat.rest_dialog import DICE, LEVEL, TOTAL
from battlemap.ui.main_window import MainWindow
from battlemap.ui.typed_dice import TOUCH_PX, TouchSpinBox
from battlemap.ui.undo import push
from tests.ui.test_rest_dialog import dialog_of, encounter, hp, menu_action, select

__all__ = ["encounter"]  # conftest's window opens the Rest tests' map


def dice_text(window: MainWindow, row: int) -> str:
    item = dialog_of(window).table.item(row, DICE)
    assert item is not None
    return item.text()


def test_another_ruleset_updates_the_head_line_and_the_dice(
    qtbot: QtBot, window: MainWindow
) -> None:
    select(window, "c-ana")
    menu_action(window, "Short rest…")
    dialog = dialog_of(window)
    dialog.spin(0, LEVEL).setValue(3)
    assert dice_text(window, 0) == "8 + 3d8"
    session = window.combat.session
    brink = session.ruleset()
    assert brink is not None and brink.rests.short is not None
    house_short = brink.rests.short.model_copy(update={"hp_flat": 5, "hp_dice_per_level": "1d6"})
    house = brink.model_copy(
        update={"name": "House", "rests": brink.rests.model_copy(update={"short": house_short})}
    )
    session.ruleset = lambda: house  # type: ignore[method-assign]
    push(window.undo_stack, window.document, MoveCreature(EntityId("c-gob"), (6, 6), (7, 6)))
    assert dice_text(window, 0) == "5 + 3d6"
    assert "<b>House</b>, short rest" in dialog.rules_label.text()


def test_a_ruleset_without_rests_says_so_and_shows_no_dice(
    qtbot: QtBot, window: MainWindow
) -> None:
    select(window, "c-ana")
    menu_action(window, "Short rest…")
    change = ReplaceEncounterField("ruleset", "bloodied-brink", "srd-5e")
    push(window.undo_stack, window.document, change)
    dialog = dialog_of(window)
    assert "has no short rest rules" in dialog.rules_label.text()
    assert dice_text(window, 0) == "\u2014"
    window.undo_stack.undo()
    assert dice_text(window, 0) == "8 + 1d8"
    assert "short rest: 1 h" in dialog.rules_label.text()


def test_opening_another_encounter_forgets_the_rows_and_the_typed_levels(
    qtbot: QtBot, window: MainWindow
) -> None:
    """The same file opened again: its Ana is not the one whose level was typed."""
    same = window.document.encounter
    select(window, "c-ana")
    menu_action(window, "Short rest…")
    dialog = dialog_of(window)
    dialog.spin(0, LEVEL).setValue(7)
    window.files.adopt(same, {}, None)
    assert dialog.table.rowCount() == 0 and dialog.levels == {}
    assert "Use selected tokens" in dialog.outcome_label.text()
    select(window, "c-ana")
    dialog.use_selected.click()
    assert dialog.spin(0, LEVEL).value() == 1  # no stored level: 1, not the 7 typed before


def test_enter_in_a_rows_box_takes_the_number_and_does_not_apply(
    qtbot: QtBot, window: MainWindow
) -> None:
    select(window, "c-ana")
    menu_action(window, "Short rest…")
    dialog = dialog_of(window)
    before = window.document.encounter
    for column, typed in ((LEVEL, "4"), (TOTAL, "9")):
        box = dialog.spin(0, column)
        box.setFocus()
        box.selectAll()
        qtbot.keyClicks(box, typed)
        qtbot.keyClick(box, Qt.Key.Key_Return)
        assert box.value() == int(typed)
        assert window.document.encounter == before and dialog.isVisible()
    assert dice_text(window, 0) == "8 + 4d8"
    dialog.apply_button.setFocus()
    qtbot.keyClick(dialog.apply_button, Qt.Key.Key_Return)  # Enter on Apply still applies
    assert hp(window, "c-ana") == 3 + 8 + 9


def test_the_level_and_total_boxes_are_touch_sized(qtbot: QtBot, window: MainWindow) -> None:
    select(window, "c-ana", "c-bo")
    menu_action(window, "Short rest…")
    dialog = dialog_of(window)
    for row in range(2):
        for column in (LEVEL, TOTAL):
            box = dialog.spin(row, column)
            assert isinstance(box, TouchSpinBox)
            assert box.minus.width() >= TOUCH_PX and box.plus.height() >= TOUCH_PX
            assert dialog.table.rowHeight(row) >= box.height()  # the whole box shows
            assert dialog.table.columnWidth(column) >= box.width()
