"""A die the next creature rolls as its turn starts (a dying creature's death save d20, a
monster's recharge d6): typed as rolled at the table before this turn ends, else the app
rolls it. Shared by the Actions dock's rows."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSpinBox, QWidget

from battlemap.model.ids import EntityId


class NextTurnDie(QWidget):
    """A label and a die box for the next creature; hidden when it owes no roll."""

    def __init__(self, sides: int, tooltip: str) -> None:
        super().__init__()
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        self.label = QLabel()
        self.label.setTextFormat(Qt.TextFormat.RichText)  # the names in it are escaped
        self.label.setWordWrap(True)
        self.die = QSpinBox()
        self.die.setRange(0, sides)
        self.die.setSpecialValueText("app rolls")
        self.die.setToolTip(tooltip)
        row.addWidget(self.label, 1)
        row.addWidget(self.die)
        self._for: EntityId | None = None

    def show_for(self, upcoming: EntityId | None, text: str | None) -> None:
        """Show ``text`` (rich text, names escaped) for ``upcoming``'s roll; None hides it."""
        if upcoming != self._for:
            self._for = upcoming
            self.die.setValue(0)  # a typed die belongs to one creature's roll
        self.label.setVisible(text is not None)
        self.die.setVisible(text is not None)
        if text is not None:
            self.label.setText(text)

    def typed(self) -> int | None:
        """The face typed for the next creature's roll, or None (the app rolls)."""
        return self.die.value() or None if self.die.isVisibleTo(self) else None
