"""Where a combat dialog opens: beside the map, never over the tokens it asks about.

The Attack dialog asks the DM to look at (and pick) the attacker and the target, so it must not
cover them. It goes over the docks on the left or on the right of the main window, whichever
covers none (or fewer) of those tokens and less of the map; when the map is so narrow that
either side covers a token, the map scrolls the tokens into the part the dialog leaves free.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QPoint, QRect, QRectF
from PySide6.QtWidgets import QGraphicsView, QWidget

EDGE_PX = 4
"""Kept between the dialog and the window's edge."""


def view_rect_to_global(view: QGraphicsView, scene_rect: QRectF) -> QRect:
    """A scene rectangle in global (screen) coordinates, through the view's viewport."""
    in_viewport = view.mapFromScene(scene_rect).boundingRect()
    return in_viewport.translated(view.viewport().mapToGlobal(QPoint(0, 0)))


def _viewport_global(view: QGraphicsView) -> QRect:
    viewport = view.viewport()
    return QRect(viewport.mapToGlobal(QPoint(0, 0)), viewport.size())


def place_clear_of(dialog: QWidget, view: QGraphicsView, keep_clear: Sequence[QRectF]) -> None:
    """Move ``dialog`` (a top-level window) to the left or right edge of the view's window,
    clear of the ``keep_clear`` scene rectangles (the attacker's and target's tokens), and
    scroll the view when no edge is clear. A dialog already clear of them stays where it is
    (the DM may have moved it)."""
    window = view.window().geometry()  # global: a top-level widget's geometry is on screen
    size = dialog.size()
    top = max(window.top() + EDGE_PX, _viewport_global(view).top())
    top = min(top, max(window.top(), window.bottom() - size.height()))
    left = QRect(QPoint(window.left() + EDGE_PX, top), size)
    right = QRect(QPoint(window.right() - EDGE_PX - size.width() + 1, top), size)
    tokens = [view_rect_to_global(view, r) for r in keep_clear]
    if dialog.isVisible() and not _covers(dialog.geometry(), tokens):
        return
    viewport = _viewport_global(view)

    def cost(place: QRect) -> tuple[int, int]:
        return _covers(place, tokens), place.intersected(viewport).width()

    best = min((left, right), key=cost)
    dialog.move(best.topLeft())
    if _covers(best, tokens):
        _scroll_into_free_part(view, best, tokens)


def _covers(place: QRect, tokens: Sequence[QRect]) -> int:
    return sum(place.intersects(token) for token in tokens)


def _scroll_into_free_part(view: QGraphicsView, dialog: QRect, tokens: Sequence[QRect]) -> None:
    """Scroll so the tokens' middle lies in the middle of the viewport's part beside the
    dialog (the wider side)."""
    viewport = _viewport_global(view)
    free_left = QRect(viewport.topLeft(), QPoint(dialog.left() - 1, viewport.bottom()))
    free_right = QRect(QPoint(dialog.right() + 1, viewport.top()), viewport.bottomRight())
    free = max((free_left, free_right), key=lambda r: r.width() if r.isValid() else -1)
    if not free.isValid():
        return
    united = tokens[0]
    for token in tokens[1:]:
        united = united.united(token)
    dx = united.center().x() - free.center().x()
    dy = united.center().y() - free.center().y()
    bars = view.horizontalScrollBar(), view.verticalScrollBar()
    bars[0].setValue(bars[0].value() + dx)
    bars[1].setValue(bars[1].value() + dy)
