"""Typing a player's die roll on the first try (issue 15, item 6): focus on a dice box selects
its text, so the digits typed next replace "app rolls" (or the value typed before), and Enter
confirms. Every click and key here is a real event: a click on the text, keys to the box
with the focus (where Qt delivers them)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QFormLayout,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)
from pytestqt.qtbot import QtBot

from battlemap.model.ids import EntityId
from battlemap.rules.damage import DamageRoll
from battlemap.ui.typed_dice import APP_ROLLS, D20Entry, DamageEntry
from tests.rules.move_builders import goblin_beside_fighter
from tests.ui.drag_helpers import open_window
from tests.ui.test_opportunity_prompt import drag_past_the_goblin


def host_with(qtbot: QtBot, widget: QWidget) -> tuple[QWidget, QLineEdit]:
    """Show ``widget`` below a line edit that holds the focus; returns the host window (the
    caller keeps it alive) and that line edit."""
    host = QWidget()
    column = QVBoxLayout(host)
    elsewhere = QLineEdit()
    column.addWidget(elsewhere)
    column.addWidget(widget)
    qtbot.addWidget(host)
    host.show()
    qtbot.waitExposed(host)
    elsewhere.setFocus()
    qtbot.waitUntil(elsewhere.hasFocus)
    return host, elsewhere


def click_into(qtbot: QtBot, spin: QSpinBox) -> None:
    """A real click in the middle of the box's text, then the event loop runs once."""
    edit = spin.lineEdit()
    qtbot.mouseClick(edit, Qt.MouseButton.LeftButton, pos=edit.rect().center())
    assert spin.hasFocus()
    qtbot.waitUntil(lambda: edit.selectedText() == edit.text())


def test_a_click_on_app_rolls_then_17_types_17(qtbot: QtBot) -> None:
    entry = D20Entry()
    _host, _ = host_with(qtbot, entry)
    spin = entry.spins[0]
    assert spin.text() == APP_ROLLS
    click_into(qtbot, spin)
    assert spin.lineEdit().selectedText() == APP_ROLLS
    qtbot.keyClicks(spin, "17")
    assert spin.value() == 17 and entry.faces() == (17,)


def test_a_click_on_a_typed_face_replaces_it(qtbot: QtBot) -> None:
    entry = D20Entry()
    _host, elsewhere = host_with(qtbot, entry)
    spin = entry.spins[0]
    click_into(qtbot, spin)
    qtbot.keyClicks(spin, "9")
    elsewhere.setFocus()
    click_into(qtbot, spin)
    qtbot.keyClicks(spin, "14")
    assert spin.value() == 14


def test_tab_into_the_second_d20_replaces_its_face(qtbot: QtBot) -> None:
    entry = D20Entry()
    _host, _ = host_with(qtbot, entry)
    first, second = entry.spins
    second.setValue(3)
    click_into(qtbot, first)
    qtbot.keyClicks(first, "8")
    qtbot.keyClick(first, Qt.Key.Key_Tab)
    assert second.hasFocus()
    qtbot.keyClicks(second, "12")
    assert entry.faces() == (8, 12)


def test_a_click_on_a_damage_total_then_digits_types_them(qtbot: QtBot) -> None:
    host = QWidget()
    damage = DamageEntry(QFormLayout(host))
    damage.set_parts([DamageRoll(dice="8d6", type="fire")])
    _window, _ = host_with(qtbot, host)
    spin = damage.spins[0]
    click_into(qtbot, spin)
    qtbot.keyClicks(spin, "31")
    assert damage.rolls() == (31,)


def test_on_the_opportunity_card_click_type_and_enter_takes_the_typed_face(
    qtbot: QtBot, tmp_path: Path
) -> None:
    window = open_window(qtbot, tmp_path, goblin_beside_fighter())
    drag_past_the_goblin(qtbot, window)
    prompt = window.drag_feedback.prompt
    d20 = prompt.d20.spins[0]
    click_into(qtbot, d20)
    qtbot.keyClicks(d20, "17")
    assert prompt.take_button.text() == "Take 17 (Enter)"
    qtbot.keyClick(d20, Qt.Key.Key_Return)
    assert not prompt.isVisible()
    assert "(17+4 = 21 vs AC 10)" in window.statusBar().currentMessage()
    fighter = window.document.encounter.creature(EntityId("c-fighter"))
    assert fighter.hp < 30


def test_a_digit_sent_to_the_d20_from_the_card_is_kept_for_the_next(
    qtbot: QtBot, tmp_path: Path
) -> None:
    """The card moves the focus to the d20 and forwards the digit: the box must not select
    that digit afterwards, or the next one would replace it."""
    window = open_window(qtbot, tmp_path, goblin_beside_fighter())
    drag_past_the_goblin(qtbot, window)
    prompt = window.drag_feedback.prompt
    qtbot.keyClick(prompt.take_button, Qt.Key.Key_1)
    qtbot.wait(20)  # the event loop runs between two key presses, as at the table
    qtbot.keyClick(prompt.d20.spins[0], Qt.Key.Key_8)
    assert prompt.d20.faces() == (18,)


def test_in_a_dialog_enter_in_a_dice_box_presses_the_default_button(qtbot: QtBot) -> None:
    """As in the attack and contest dialogs: the box keeps the typed face, and Enter goes on
    to the dialog's default button."""
    dialog = QDialog()
    entry = D20Entry()
    confirm = QPushButton("Roll")
    confirm.setDefault(True)
    column = QVBoxLayout(dialog)
    elsewhere = QLineEdit()
    column.addWidget(elsewhere)
    column.addWidget(entry)
    column.addWidget(confirm)
    qtbot.addWidget(dialog)
    dialog.show()
    elsewhere.setFocus()
    qtbot.waitUntil(elsewhere.hasFocus)
    pressed: list[tuple[int, ...] | None] = []
    confirm.clicked.connect(lambda _=False: pressed.append(entry.faces()))
    click_into(qtbot, entry.spins[0])
    qtbot.keyClicks(entry.spins[0], "17")
    qtbot.keyClick(entry.spins[0], Qt.Key.Key_Return)
    assert pressed == [(17,)]
