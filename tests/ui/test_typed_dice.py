"""The typed dice boxes (d20 faces and damage totals rolled at the table): finger-sized - and +
buttons at their ends for a touch screen laid on the table, and typing still works."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QFormLayout, QWidget
from pytestqt.qtbot import QtBot

from battlemap.rules.damage import DamageRoll
from battlemap.ui.typed_dice import APP_ROLLS, TOUCH_PX, D20Entry, DamageEntry, TouchSpinBox
from tests.rules.move_builders import goblin_beside_fighter
from tests.ui.drag_helpers import open_window
from tests.ui.test_opportunity_prompt import drag_past_the_goblin


def shown(qtbot: QtBot, widget: QWidget) -> None:
    qtbot.addWidget(widget)
    widget.show()
    qtbot.waitExposed(widget)
    QApplication.processEvents()


def test_the_buttons_are_finger_sized_at_the_ends_of_the_box(qtbot: QtBot) -> None:
    entry = D20Entry()
    shown(qtbot, entry)
    spin = entry.spins[0]
    assert isinstance(spin, TouchSpinBox)
    box = spin.rect()
    for button in (spin.minus, spin.plus):
        assert button.isVisible()
        assert button.width() >= TOUCH_PX and button.height() >= TOUCH_PX
        assert box.contains(button.geometry())
    assert spin.minus.geometry().left() < box.width() // 4  # - at the left end
    assert spin.plus.geometry().right() > box.width() * 3 // 4  # + at the right end
    assert not spin.minus.geometry().intersects(spin.plus.geometry())
    assert spin.lineEdit().textMargins().left() >= TOUCH_PX  # the text keeps clear of them
    assert spin.lineEdit().textMargins().right() >= TOUCH_PX


def test_minus_and_plus_step_the_d20_from_app_rolls_and_stop_at_the_ends(qtbot: QtBot) -> None:
    entry = D20Entry()
    shown(qtbot, entry)
    spin = entry.spins[0]
    assert spin.text() == APP_ROLLS and not spin.minus.isEnabled()
    qtbot.mouseClick(spin.plus, Qt.MouseButton.LeftButton)
    assert spin.value() == 1 and entry.faces() == (1,)
    assert spin.minus.isEnabled()
    qtbot.mouseClick(spin.plus, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(spin.minus, Qt.MouseButton.LeftButton)
    assert spin.value() == 1
    qtbot.mouseClick(spin.minus, Qt.MouseButton.LeftButton)
    assert spin.value() == 0 and entry.faces() is None  # back to "app rolls"
    assert not spin.minus.isEnabled()
    spin.setValue(20)
    assert not spin.plus.isEnabled()
    qtbot.mouseClick(spin.minus, Qt.MouseButton.LeftButton)
    assert spin.value() == 19 and spin.plus.isEnabled()


def test_a_click_on_a_button_lands_on_the_button_not_the_text(qtbot: QtBot) -> None:
    """The buttons lie over the line edit's ends: a tap there must step, not place a cursor."""
    entry = D20Entry()
    shown(qtbot, entry)
    spin = entry.spins[0]
    spin.setValue(5)
    middle_of_plus = spin.plus.geometry().center()
    assert spin.childAt(middle_of_plus) is spin.plus
    assert spin.childAt(spin.minus.geometry().center()) is spin.minus
    assert spin.childAt(spin.rect().center()) is spin.lineEdit()


def test_typing_a_face_still_works(qtbot: QtBot) -> None:
    entry = D20Entry()
    shown(qtbot, entry)
    spin = entry.spins[0]
    spin.setFocus()
    spin.selectAll()
    qtbot.keyClicks(spin, "17")
    assert spin.value() == 17 and entry.faces() == (17,)


def test_damage_boxes_step_and_type_and_count_only_when_all_are_typed(qtbot: QtBot) -> None:
    host = QWidget()
    form = QFormLayout(host)
    damage = DamageEntry(form)
    damage.set_parts(
        [DamageRoll(dice="2d6+3", type="slashing"), DamageRoll(dice="1d6", type="fire")]
    )
    shown(qtbot, host)
    first, second = damage.spins
    assert isinstance(first, TouchSpinBox) and isinstance(second, TouchSpinBox)
    assert first.height() >= TOUCH_PX and first.plus.height() >= TOUCH_PX
    qtbot.mouseClick(first.plus, Qt.MouseButton.LeftButton)  # "app rolls" (-1) -> 0
    qtbot.mouseClick(first.plus, Qt.MouseButton.LeftButton)
    assert first.value() == 1
    assert damage.rolls() is None  # the fire part is still the app's
    second.setFocus()
    second.selectAll()
    qtbot.keyClicks(second, "4")
    assert damage.rolls() == (1, 4)
    label = form.labelForField(first)
    assert label is not None and label.text() == "2d6+3 slashing"  # type: ignore[attr-defined]


def test_the_second_d20_hides_with_its_buttons(qtbot: QtBot) -> None:
    entry = D20Entry()
    shown(qtbot, entry)
    entry.set_two(False)
    assert not entry.spins[1].plus.isVisible()
    entry.set_two(True)
    assert entry.spins[1].plus.isVisible()


def test_on_the_opportunity_card_a_tap_on_plus_types_a_face(qtbot: QtBot, tmp_path: Path) -> None:
    """The card's own style sheet keeps the buttons finger-sized; a tap types the d20 and the
    Take button says so (the verdict is shown at once)."""
    window = open_window(qtbot, tmp_path, goblin_beside_fighter())
    drag_past_the_goblin(qtbot, window)
    prompt = window.drag_feedback.prompt
    d20 = prompt.d20.spins[0]
    assert isinstance(d20, TouchSpinBox) and d20.isVisible()
    for spin in (d20, prompt.damage.spins[0]):
        assert isinstance(spin, TouchSpinBox)
        assert min(spin.plus.width(), spin.plus.height()) >= TOUCH_PX
        assert min(spin.minus.width(), spin.minus.height()) >= TOUCH_PX
    for _ in range(3):
        qtbot.mouseClick(d20.plus, Qt.MouseButton.LeftButton)
    assert prompt.d20.faces() == (3,)
    assert prompt.take_button.text() == "Take 3 (Enter)"
    assert "MISS" in prompt.verdict.text()  # 3 + 4 = 7 against AC 10
