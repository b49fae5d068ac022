"""Help (issue 15, item 14): the keyboard shortcuts as a searchable list read from the
window's actions, the dice roller dock (d20 notation, each roll one undoable Log line), and
the first-run hint shown once."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QAction, QKeySequence
from pytestqt.qtbot import QtBot

from battlemap.model import Document, Encounter
from battlemap.rules.dice import new_dice_state, roll
from battlemap.ui.help_menu import (
    FIRST_RUN_HINT_KEY,
    ROLLER_PLACED_KEY,
    ShortcutRow,
    plain_action_text,
    shortcut_rows,
)
from battlemap.ui.main_window import MainWindow

FLOATS = pytest.mark.qt_log_ignore("This plugin does not support raise")
"""The roller first shows floating: a top-level window, which offscreen Qt cannot raise."""


def help_entries(window: MainWindow) -> list[str]:
    return [a.text() for a in window.help_menu.actions() if not a.isSeparator()]


def test_help_lists_shortcuts_and_the_dice_roller_before_about(window: MainWindow) -> None:
    assert help_entries(window) == ["&Keyboard shortcuts…", "&Dice roller", "&About Battlemap"]


def test_every_action_with_a_key_is_listed_with_its_menu(window: MainWindow) -> None:
    rows = shortcut_rows(window)
    by_action = {row.action: row for row in rows}
    undo = window.undo_action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
    assert by_action["Undo"] == ShortcutRow("Undo", undo, "Edit")
    assert by_action["Next turn"].keys == "N" and by_action["Next turn"].where == "Combat"
    assert by_action["Keyboard shortcuts"].keys == "F1"
    assert by_action["Measure"].where == "Tools toolbar, Tools"
    with_keys = [
        a for a in window.findChildren(QAction) if a.shortcut().toString() and a.text().strip()
    ]
    assert len(with_keys) >= 20
    listed = {row.action for row in rows}
    for action in with_keys:  # none is left out
        assert plain_action_text(action.text()).split(" ")[0] in " ".join(listed), action.text()


def test_the_list_is_read_when_it_opens_so_it_never_goes_stale(
    qtbot: QtBot, window: MainWindow
) -> None:
    window.help.show_shortcuts()
    dialog = window.help.shortcuts
    assert dialog is not None and dialog.isVisible()
    before = len(dialog.shown_rows())
    late = QAction("Roll &for luck…", window)
    late.setShortcut(QKeySequence("Ctrl+Shift+L"))
    window.edit_menu.addAction(late)
    dialog.close()
    window.help.show_shortcuts()
    assert len(dialog.shown_rows()) == before + 1
    qtbot.keyClicks(dialog.search, "luck")
    assert dialog.shown_rows() == [ShortcutRow("Roll for luck", "Ctrl+Shift+L", "Edit")]
    dialog.search.clear()
    qtbot.keyClicks(dialog.search, "ctrl+z")  # a key
    assert [row.action for row in dialog.shown_rows()] == ["Undo"]
    dialog.search.clear()
    qtbot.keyClicks(dialog.search, "tools measure")  # every word counts
    assert [row.action for row in dialog.shown_rows()] == ["Measure"]


def test_f1_opens_the_shortcuts(qtbot: QtBot, window: MainWindow) -> None:
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key.Key_F1)
    assert window.help.shortcuts is not None and window.help.shortcuts.isVisible()


def test_plain_action_text_drops_mnemonics_keeps_a_literal_ampersand() -> None:
    assert plain_action_text("Save &As…") == "Save As"
    assert plain_action_text("Bloodied && Brink") == "Bloodied & Brink"
    assert plain_action_text("&Open\tCtrl+O") == "Open"


@FLOATS
def test_the_dice_roller_logs_each_roll_as_one_undoable_step(
    qtbot: QtBot, window: MainWindow
) -> None:
    window.help.show_dice_roller()
    roller = window.help.dice_roller
    assert roller.isVisible() and roller.isFloating()
    assert roller.focusWidget() is roller.expression
    roller.dice = new_dice_state(12)
    _, expected = roll(new_dice_state(12), "2d20kh1+3")
    qtbot.keyClicks(roller.purpose, "Stealth, Pip")
    qtbot.keyClicks(roller.expression, "2d20kh1+3")
    qtbot.keyClick(roller.expression, Qt.Key.Key_Return)
    assert roller.total.text() == str(expected.total)
    line = window.document.encounter.log[-1]
    assert line.text == f"Dice roller, Stealth, Pip: {expected.detail}"
    assert roller.detail.text() == line.text
    assert window.combat.log.visible_lines(False)[-1].endswith(f"\tdice-roller\t{line.text}")
    assert window.settings.value(ROLLER_PLACED_KEY, False, type=bool) is True
    assert window.undo_stack.undoText() == f"Roll 2d20kh1+3 = {expected.total}"
    count = window.undo_stack.count()
    qtbot.mouseClick(roller.roll_button, Qt.MouseButton.LeftButton)
    assert window.undo_stack.count() == count + 1  # another roll, another step
    window.undo_stack.undo()
    window.undo_stack.undo()
    assert list(window.document.encounter.log) == []
    window.undo_stack.redo()
    assert window.document.encounter.log == (line,)  # redo shows the same roll


@FLOATS
def test_a_die_button_rolls_that_die(qtbot: QtBot, window: MainWindow) -> None:
    window.help.show_dice_roller()
    roller = window.help.dice_roller
    d20 = next(b for b in roller.findChildren(type(roller.roll_button)) if b.text() == "d20")
    qtbot.mouseClick(d20, Qt.MouseButton.LeftButton)
    assert roller.expression.text() == "1d20"
    assert 1 <= int(roller.total.text()) <= 20
    assert window.document.encounter.log[-1].text.startswith("Dice roller: 1d20 (")


@FLOATS
def test_a_bad_expression_is_explained_and_logs_nothing(qtbot: QtBot, window: MainWindow) -> None:
    window.help.show_dice_roller()
    roller = window.help.dice_roller
    qtbot.keyClicks(roller.expression, "2d")
    qtbot.keyClick(roller.expression, Qt.Key.Key_Return)
    assert roller.total.text() == "?"
    assert roller.detail.text().startswith("Can't roll '2d': syntax error at column")
    assert window.document.encounter.log == () and window.undo_stack.count() == 0


def test_the_first_run_hint_shows_once(qtbot: QtBot, tmp_path: Path) -> None:
    settings = QSettings(str(tmp_path / "first.ini"), QSettings.Format.IniFormat)
    first = MainWindow(Document(Encounter()), settings=settings)
    qtbot.addWidget(first)
    first.resize(1366, 768)
    first.show()
    qtbot.waitExposed(first)
    assert first.help.show_first_run_hint() is True
    hint = first.help.hint
    assert hint is not None and hint.isVisible()
    view = first.view.rect()
    assert view.contains(hint.geometry()) and hint.y() < view.height() // 4  # on top
    assert "Help > Keyboard shortcuts" in hint.text.text()
    assert first.help.show_first_run_hint() is False  # not twice in a session
    qtbot.mouseClick(hint.close_button, Qt.MouseButton.LeftButton)
    assert not hint.isVisible()
    settings.sync()

    again = QSettings(str(tmp_path / "first.ini"), QSettings.Format.IniFormat)
    assert again.value(FIRST_RUN_HINT_KEY, False, type=bool) is True
    second = MainWindow(Document(Encounter()), settings=again)
    qtbot.addWidget(second)
    assert second.help.show_first_run_hint() is False
    assert second.help.hint is None
