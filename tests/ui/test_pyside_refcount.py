"""Guard against PySide6 6.12.0's lost reference to None on void calls (see pyproject.toml).

On Python 3.11 that bug aborts the interpreter ("none_dealloc") after a few thousand calls;
20,000 calls make a regression fail loudly here rather than at the table.
"""

import sys

from PySide6.QtWidgets import QGraphicsRectItem


def test_void_qt_calls_keep_none_alive() -> None:
    item = QGraphicsRectItem(0, 0, 10, 10)
    before = sys.getrefcount(None)
    for i in range(20_000):
        item.setPos(i % 7, i % 5)
        item.setZValue(i % 3)
    lost = before - sys.getrefcount(None)
    assert lost < 1_000, f"{lost} references to None lost over 40,000 void Qt calls"
