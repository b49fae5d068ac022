"""Small widgets for the tool-options bar: labelled choices that never block the DM."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QWidget

T = TypeVar("T")


def options_row(*widgets: QWidget) -> QWidget:
    """The widgets side by side, tightly packed, for the tool-options bar."""
    row = QWidget()
    layout = QHBoxLayout(row)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.setSpacing(8)
    for widget in widgets:
        layout.addWidget(widget)
    layout.addStretch(1)
    return row


def choice(
    caption: str,
    name: str,
    values: Sequence[tuple[str, T]],
    current: T,
    on_change: Callable[[T], None],
) -> tuple[QLabel, QComboBox]:
    """A caption and a combo box of ``(text, value)`` pairs calling ``on_change(value)``."""
    combo = QComboBox()
    combo.setObjectName(name)
    for text, value in values:
        combo.addItem(text, value)
    combo.setCurrentIndex([v for _, v in values].index(current))
    combo.currentIndexChanged.connect(lambda index: on_change(values[index][1]))
    caption_label = QLabel(caption)
    caption_label.setBuddy(combo)
    return caption_label, combo


def show_choice(options: QWidget | None, name: str, value: object) -> None:
    """Make the combo box ``name`` inside ``options`` show ``value`` without calling back.

    Used when a tool's setting changes from code, so the options bar never shows a stale
    choice. Does nothing before the options bar is built.
    """
    combo = options.findChild(QComboBox, name) if options is not None else None
    if combo is None:
        return
    index = combo.findData(value)
    if index >= 0 and index != combo.currentIndex():
        blocked = combo.blockSignals(True)
        combo.setCurrentIndex(index)
        combo.blockSignals(blocked)
