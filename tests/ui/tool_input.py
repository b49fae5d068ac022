"""Real mouse and key events for the map tools, at cell coordinates (clicks, double-clicks).

Qt delivers a double-click as press, release, double-click, release; ``double_click`` sends
exactly that, so the tools see what a real mouse produces.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QKeyEvent, QMouseEvent
from PySide6.QtWidgets import QApplication, QGraphicsView

from tests.ui.helpers import cell_centre_in_view

NO_MODIFIER = Qt.KeyboardModifier.NoModifier
LEFT, RIGHT, NONE = Qt.MouseButton.LeftButton, Qt.MouseButton.RightButton, Qt.MouseButton.NoButton


def send_mouse(
    view: QGraphicsView,
    kind: QEvent.Type,
    pos: QPoint,
    button: Qt.MouseButton,
    buttons: Qt.MouseButton,
    modifiers: Qt.KeyboardModifier = NO_MODIFIER,
) -> None:
    local = QPointF(pos)
    global_pos = QPointF(view.viewport().mapToGlobal(pos))
    event = QMouseEvent(kind, local, global_pos, button, buttons, modifiers)
    QApplication.sendEvent(view.viewport(), event)


def at(view: QGraphicsView, x: float, y: float) -> QPoint:
    return cell_centre_in_view(view, x, y)


def hover(
    view: QGraphicsView, x: float, y: float, modifiers: Qt.KeyboardModifier = NO_MODIFIER
) -> None:
    send_mouse(view, QEvent.Type.MouseMove, at(view, x, y), NONE, NONE, modifiers)


def click(
    view: QGraphicsView,
    x: float,
    y: float,
    button: Qt.MouseButton = LEFT,
    modifiers: Qt.KeyboardModifier = NO_MODIFIER,
) -> None:
    """Move to cell point (x, y), press and release ``button`` there."""
    pos = at(view, x, y)
    send_mouse(view, QEvent.Type.MouseMove, pos, NONE, NONE, modifiers)
    send_mouse(view, QEvent.Type.MouseButtonPress, pos, button, button, modifiers)
    send_mouse(view, QEvent.Type.MouseButtonRelease, pos, button, NONE, modifiers)


def double_click(view: QGraphicsView, x: float, y: float) -> None:
    pos = at(view, x, y)
    send_mouse(view, QEvent.Type.MouseMove, pos, NONE, NONE)
    send_mouse(view, QEvent.Type.MouseButtonPress, pos, LEFT, LEFT)
    send_mouse(view, QEvent.Type.MouseButtonRelease, pos, LEFT, NONE)
    send_mouse(view, QEvent.Type.MouseButtonDblClick, pos, LEFT, LEFT)
    send_mouse(view, QEvent.Type.MouseButtonRelease, pos, LEFT, NONE)


def stroke(view: QGraphicsView, points: list[tuple[float, float]], steps: int = 4) -> None:
    """Press at the first point, drag through the others (``steps`` moves per leg), release."""
    first = at(view, *points[0])
    send_mouse(view, QEvent.Type.MouseMove, first, NONE, NONE)
    send_mouse(view, QEvent.Type.MouseButtonPress, first, LEFT, LEFT)
    previous = first
    for point in points[1:]:
        target = at(view, *point)
        for i in range(1, steps + 1):
            send_mouse(
                view,
                QEvent.Type.MouseMove,
                previous + (target - previous) * (i / steps),
                NONE,
                LEFT,
            )
        previous = target
    send_mouse(view, QEvent.Type.MouseButtonRelease, previous, LEFT, NONE)


def key(view: QGraphicsView, key_code: Qt.Key) -> None:
    """A key press and release sent to the view (which has the map's keyboard focus)."""
    for kind in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease):
        QApplication.sendEvent(view, QKeyEvent(kind, key_code, NO_MODIFIER))
