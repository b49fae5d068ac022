"""The Area damage dialog's damage parts after the first: a save action can deal two kinds
("4d6 fire damage and 4d6 radiant damage", the SRD Solar's Searing Burst). Each part has its
dice, its type from the ruleset and the total rolled at the table ("app rolls": the app
rolls it)."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLineEdit, QWidget

from battlemap.ui.typed_dice import APP_ROLLS, TouchSpinBox

MAX_TYPED_TOTAL = 100_000


def choose_type(box: QComboBox, damage_type: str) -> bool:
    """Select ``damage_type`` (a stat block's, any case) in ``box``; False when the ruleset
    has no such type (the box is left as it was)."""
    found = box.findData(damage_type.lower())
    if found >= 0:
        box.setCurrentIndex(found)
    return found >= 0


class MorePart:
    """One more damage part: ``row`` holds its dice, type and typed total."""

    def __init__(self, dice: str, damage_type: str, types: list[tuple[str, object]]) -> None:
        self.row = QWidget()
        layout = QHBoxLayout(self.row)
        layout.setContentsMargins(0, 0, 0, 0)
        self.dice = QLineEdit(dice)
        self.dice.setToolTip("This part's damage dice")
        layout.addWidget(self.dice, 1)
        self.damage_type = QComboBox()
        for name, key in types:
            self.damage_type.addItem(name, key)
        self.type_wanted = damage_type
        self.known = choose_type(self.damage_type, damage_type)
        layout.addWidget(self.damage_type, 1)
        self.typed = TouchSpinBox()
        self.typed.setRange(-1, MAX_TYPED_TOTAL)
        self.typed.setValue(-1)
        self.typed.setSpecialValueText(APP_ROLLS)
        self.typed.setToolTip("This part's total rolled at the table, or leave 'app rolls'")
        layout.addWidget(self.typed, 1)

    @property
    def type_key(self) -> str:
        return str(self.damage_type.currentData())
