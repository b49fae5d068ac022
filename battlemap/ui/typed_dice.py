"""Boxes for dice rolled at the table and typed in: the d20 faces of an attack and the total of
each damage part. Shared by the attack dialog, the contest dialog (its d20 boxes) and the
opportunity-attack prompt.

A box left at its lowest value shows "app rolls": the app rolls that die itself. Each box has
finger-sized - and + buttons at its ends (``TouchSpinBox``) for a touch screen laid on the table;
typing still works: focus on a box (a click, a tap or Tab) selects its text, so the digits typed
next replace "app rolls" or the last value.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QSize, Qt, QTimer
from PySide6.QtGui import QFocusEvent, QResizeEvent, QShowEvent
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QSpinBox,
    QStyle,
    QToolButton,
    QWidget,
)

# The engine and the heavier geometry are imported in the functions that use them, so
# the window is built without them (issue 17; tests/ui/test_start_up_imports.py).
if TYPE_CHECKING:
    from battlemap.rules.damage import DamageRoll


APP_ROLLS = "app rolls"
MAX_DAMAGE_TOTAL = 10_000
TOUCH_PX = 44
"""The side of a - or + button and the box's least height: a fingertip's target."""
KEEP_SELECTION_REASONS = (Qt.FocusReason.ActiveWindowFocusReason, Qt.FocusReason.PopupFocusReason)
"""Focus coming back to a box the DM was typing in: what was typed stays as it was."""


class TouchSpinBox(QSpinBox):
    """A spin box with a - button at its left end and a + button at its right, each
    ``TOUCH_PX`` wide and as tall as the box (at least ``TOUCH_PX``), in place of the small
    arrows. The text is typed between them as in any spin box. A button is disabled where
    the value cannot step (at the minimum or the maximum); held down, it repeats.

    Attributes:
        minus, plus: the two buttons (they take no focus: the typing stays in the box).
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setButtonSymbols(QAbstractSpinBox.ButtonSymbols.NoButtons)
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.minus = self._step_button("\u2212", -1, "One less")
        self.plus = self._step_button("+", 1, "One more")
        # The text keeps clear of the buttons laid over the ends of the line edit.
        self.lineEdit().setTextMargins(TOUCH_PX, 0, TOUCH_PX, 0)
        self.setMinimumHeight(self._least_height())
        self.valueChanged.connect(self._enable_buttons)
        self._enable_buttons()

    def _step_button(self, text: str, steps: int, tip: str) -> QToolButton:
        button = QToolButton(self)
        button.setText(text)
        button.setToolTip(tip)
        button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        button.setAutoRepeat(True)
        button.setAutoRaise(True)
        font = button.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.3)
        button.setFont(font)
        button.clicked.connect(lambda _=False: self.stepBy(steps))
        return button

    def setRange(self, minimum: int, maximum: int) -> None:
        super().setRange(minimum, maximum)
        self._enable_buttons()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._enable_buttons()  # setMinimum or setMaximum may have moved the limits

    def focusInEvent(self, event: QFocusEvent) -> None:
        """Select the text when the DM moves to the box (not when the window comes back)."""
        super().focusInEvent(event)
        reason = event.reason()
        if reason == Qt.FocusReason.MouseFocusReason:
            # the click's own press places the cursor after this: select once it is handled
            QTimer.singleShot(0, self, self.selectAll)
        elif reason not in KEEP_SELECTION_REASONS:
            self.selectAll()

    def _enable_buttons(self) -> None:
        steps = self.stepEnabled()
        self.minus.setEnabled(bool(steps & QAbstractSpinBox.StepEnabledFlag.StepDownEnabled))
        self.plus.setEnabled(bool(steps & QAbstractSpinBox.StepEnabledFlag.StepUpEnabled))

    def sizeHint(self) -> QSize:
        return self._with_buttons(super().sizeHint())

    def minimumSizeHint(self) -> QSize:
        return self._with_buttons(super().minimumSizeHint())

    def _least_height(self) -> int:
        """Tall enough for ``TOUCH_PX`` high buttons inside the box's frame."""
        frame = self.style().pixelMetric(QStyle.PixelMetric.PM_SpinBoxFrameWidth, None, self)
        return TOUCH_PX + 2 * frame

    def _with_buttons(self, size: QSize) -> QSize:
        return QSize(size.width() + 2 * TOUCH_PX, max(size.height(), self._least_height()))

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        inside = self.lineEdit().geometry()  # within the box's frame
        self.minus.setGeometry(inside.left(), inside.top(), TOUCH_PX, inside.height())
        self.plus.setGeometry(
            inside.right() + 1 - TOUCH_PX, inside.top(), TOUCH_PX, inside.height()
        )
        self.minus.raise_()
        self.plus.raise_()


def d20_spin(tip: str = "Type the face rolled at the table, or leave 'app rolls'") -> TouchSpinBox:
    """One box for a d20 face rolled at the table: 1-20, or 0 shown as "app rolls"."""
    spin = TouchSpinBox()
    spin.setRange(0, 20)
    spin.setSpecialValueText(APP_ROLLS)
    spin.setToolTip(tip)
    return spin


class D20Entry(QWidget):
    """One d20 face typed from the table, or two at advantage or disadvantage.

    Attributes:
        spins: the two boxes (0 = the app rolls); the second shows only when two dice are
            rolled (``set_two``).
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        self.spins = [d20_spin(), d20_spin()]
        for spin in self.spins:
            row.addWidget(spin)

    def set_two(self, two: bool) -> None:
        """Show the second box (advantage or disadvantage); hiding it clears it."""
        self.spins[1].setVisible(two)
        if not two:
            self.spins[1].setValue(0)

    def faces(self) -> tuple[int, ...] | None:
        """The typed faces of the shown boxes, or None when none is typed (the app rolls)."""
        typed = tuple(s.value() for s in self.spins if not s.isHidden() and s.value() > 0)
        return typed or None

    def reset(self) -> None:
        for spin in self.spins:
            spin.setValue(0)


class DamageEntry:
    """One box per damage part for the total rolled at the table, as rows of ``form``.

    The rows are labelled with the part's dice and type ("1d6+2 slashing"). A box at -1 shows
    "app rolls"; the typed totals count only when every part is typed (the engine takes all
    or none).
    """

    def __init__(self, form: QFormLayout) -> None:
        self.form = form
        self.spins: list[QSpinBox] = []
        self.parts: list[DamageRoll] = []

    def set_parts(self, parts: Sequence[DamageRoll]) -> None:
        """Replace the rows with one box per part of ``parts``."""
        while self.form.rowCount():
            self.form.removeRow(0)
        self.spins = []
        self.parts = list(parts)
        for part in parts:
            spin = TouchSpinBox()
            spin.setRange(-1, MAX_DAMAGE_TOTAL)
            spin.setValue(-1)
            spin.setSpecialValueText(APP_ROLLS)
            spin.setToolTip("Type the total rolled at the table (critical dice included)")
            self.form.addRow(f"{part.dice} {part.type}", spin)
            self.spins.append(spin)

    def label_rolled(self, expressions: Sequence[str] | None) -> None:
        """Label each box with the dice the engine rolls for its part (``expressions``, one per
        part, as ``RolledDamage.expressions``: 4d6+3 for a critical 2d6+3), so the DM rolls
        those at the table; None: the parts' own dice again."""
        for index, (spin, part) in enumerate(zip(self.spins, self.parts, strict=True)):
            label = self.form.labelForField(spin)
            shown = expressions[index] if expressions and index < len(expressions) else part.dice
            if isinstance(label, QLabel):
                label.setText(f"{shown} {part.type}")

    def rolls(self) -> tuple[int, ...] | None:
        """The typed totals, or None unless every part is typed (the app rolls them all)."""
        if self.spins and all(s.value() >= 0 for s in self.spins):
            return tuple(s.value() for s in self.spins)
        return None

    def reset(self) -> None:
        for spin in self.spins:
            spin.setValue(spin.minimum())
