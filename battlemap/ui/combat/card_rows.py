"""Rows of the decision card (``decision_card``) for issue 16's decisions: the end of a turn
where legendary creatures may act (their buttons are the Actions dock's, enabled only now:
``legendary.legendary_status``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget

# The engine and the heavier geometry are imported in the functions that use them, so
# the window is built without them (issue 17; tests/ui/test_start_up_imports.py).
if TYPE_CHECKING:
    from battlemap.rules.pending import Decision


class LegendaryRow(QWidget):
    """``End of Hero's turn: legendary actions for Adult Red Dragon (3 left)`` and Next
    turn, which goes on when they are done (or passed)."""

    def __init__(self, next_turn: QAction) -> None:
        super().__init__()
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        self.label = QLabel()
        self.label.setTextFormat(Qt.TextFormat.PlainText)  # creature names from files
        self.label.setWordWrap(True)
        row.addWidget(self.label, 1)
        self.next_button = QPushButton(f"Next turn ({next_turn.shortcut().toString()})")
        self.next_button.setToolTip("The legendary actions are done (or passed): go on")
        self.next_button.clicked.connect(next_turn.trigger)
        row.addWidget(self.next_button)
        self.setVisible(False)

    def show_for(self, decision: Decision | None, own_button: bool) -> None:
        """Show ``decision``'s text (hidden when None); ``own_button``: its Next turn button
        too (False when the death-save row shows one already)."""
        self.setVisible(decision is not None)
        self.label.setText(f"{decision.text} (the Actions dock)" if decision is not None else "")
        self.next_button.setVisible(own_button)
