"""Drive a QGraphicsView with real mouse events (QTest cannot hold a button during a move)."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QApplication, QGraphicsView

from battlemap.ui.style import cell_to_scene


def _send(
    view: QGraphicsView,
    kind: QEvent.Type,
    pos: QPoint,
    button: Qt.MouseButton,
    buttons: Qt.MouseButton,
) -> None:
    local = QPointF(pos)
    global_pos = QPointF(view.viewport().mapToGlobal(pos))
    event = QMouseEvent(kind, local, global_pos, button, buttons, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(view.viewport(), event)


def cell_centre_in_view(view: QGraphicsView, x: float, y: float) -> QPoint:
    """The viewport pixel at cell coordinates (x, y)."""
    return view.mapFromScene(QPointF(cell_to_scene(x), cell_to_scene(y)))


def drag(view: QGraphicsView, start: QPoint, end: QPoint, steps: int = 5) -> None:
    left, none = Qt.MouseButton.LeftButton, Qt.MouseButton.NoButton
    _send(view, QEvent.Type.MouseButtonPress, start, left, left)
    for i in range(1, steps + 1):
        point = start + (end - start) * (i / steps)
        _send(view, QEvent.Type.MouseMove, point, none, left)
    _send(view, QEvent.Type.MouseButtonRelease, end, left, none)
