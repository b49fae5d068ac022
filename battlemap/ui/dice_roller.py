"""The dice roller dock (Help > Dice roller): type any dice in d20 notation (1d20+5, 8d6,
2d20kh1, 4d6kh3) or tap a die; each roll is one undoable line in the session's log
(``battlemap.rules.table_rolls``)."""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import (
    QDockWidget,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from battlemap.model.combat import MAX_SEED
from battlemap.model.document import Document
from battlemap.rules.dice import MAX_EXPRESSION_LENGTH, DiceExpressionError, new_dice_state
from battlemap.ui.undo import push

# The engine and the heavier geometry are imported in the functions that use them, so
# the window is built without them (issue 17; tests/ui/test_start_up_imports.py).
if TYPE_CHECKING:
    from battlemap.rules.table_rolls import TableRoll

QUICK_DICE = (4, 6, 8, 10, 12, 20, 100)
"""The dice that have a button of their own (one of each, rolled at once)."""
ERROR_COLOUR = "#c62828"


class DiceRollerDock(QDockWidget):
    """A box for an expression, an optional purpose, Roll, a button per die, and the last
    result in large type.

    Attributes:
        expression, purpose: the two text boxes (Enter in either rolls).
        total, detail: the last roll's total and its dice (or why the expression was refused).
        dice: the roller's own random source (it never shifts the combat's dice).
    """

    def __init__(
        self,
        document: Document,
        undo_stack: QUndoStack,
        parent: QWidget | None = None,
        seed: int | None = None,
    ) -> None:
        from battlemap.rules.table_rolls import MAX_PURPOSE

        super().__init__("Dice roller", parent)
        self.setObjectName("dice-roller-dock")
        self.document = document
        self.undo_stack = undo_stack
        self.dice = new_dice_state(secrets.randbelow(MAX_SEED + 1) if seed is None else seed)
        body = QWidget()
        column = QVBoxLayout(body)
        self.expression = QLineEdit()
        self.expression.setPlaceholderText("Dice: 1d20+5, 8d6, 2d20kh1…")
        self.expression.setMaxLength(MAX_EXPRESSION_LENGTH)
        self.expression.setClearButtonEnabled(True)
        self.purpose = QLineEdit()
        self.purpose.setPlaceholderText("For (optional): Perception, Sela")
        self.purpose.setMaxLength(MAX_PURPOSE)
        self.roll_button = QPushButton("Roll")
        self.roll_button.setToolTip("Roll the dice and write the result in the Log (Enter)")
        row = QHBoxLayout()
        row.addWidget(self.expression, 1)
        row.addWidget(self.roll_button)
        column.addLayout(row)
        column.addWidget(self.purpose)
        column.addLayout(self._quick_buttons())
        self.total = QLabel("–")
        self.total.setTextFormat(Qt.TextFormat.PlainText)
        self.total.setAlignment(Qt.AlignmentFlag.AlignCenter)
        font = self.total.font()
        font.setPointSizeF(font.pointSizeF() * 2.4)
        font.setBold(True)
        self.total.setFont(font)
        self.detail = QLabel("Rolls are written in the Log; Undo takes one back.")
        self.detail.setTextFormat(Qt.TextFormat.PlainText)  # the DM's text, shown as typed
        self.detail.setWordWrap(True)
        column.addWidget(self.total)
        column.addWidget(self.detail)
        column.addStretch(1)
        self.setWidget(body)
        self.roll_button.clicked.connect(lambda _=False: self.roll())
        self.expression.returnPressed.connect(self.roll)
        self.purpose.returnPressed.connect(self.roll)

    def _quick_buttons(self) -> QGridLayout:
        grid = QGridLayout()
        for index, sides in enumerate(QUICK_DICE):
            button = QPushButton(f"d{sides}")
            button.setToolTip(f"Roll 1d{sides}")
            button.clicked.connect(lambda _=False, s=sides: self.roll(f"1d{s}"))
            grid.addWidget(button, index // 4, index % 4)
        return grid

    def roll(self, expression: str | None = None) -> TableRoll | None:
        """Roll ``expression`` (else the typed one) and log it as one undo step; a refused
        expression is explained under the total and nothing is logged."""
        from battlemap.rules.table_rolls import roll_for_the_log

        if expression is not None:
            self.expression.setText(expression)
        text = self.expression.text()
        try:
            rolled = roll_for_the_log(self.document.encounter, self.dice, text, self.purpose.text())
        except DiceExpressionError as error:
            self.total.setText("?")
            self.detail.setStyleSheet(f"color: {ERROR_COLOUR}")
            self.detail.setText(f"Can't roll {text.strip()!r}: {error.reason}.")
            return None
        push(self.undo_stack, self.document, rolled.command)
        self.dice = rolled.dice
        self.total.setText(str(rolled.record.total))
        self.detail.setStyleSheet("")
        self.detail.setText(rolled.event.text)
        return rolled
