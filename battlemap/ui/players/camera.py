"""The outline of the players' view on the DM's map: drag it to steer, drag its corner to zoom."""

from __future__ import annotations

from enum import StrEnum

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QFont, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import (
    QGraphicsObject,
    QGraphicsSceneMouseEvent,
    QStyleOptionGraphicsItem,
    QWidget,
)

from battlemap.ui.style import SCENE_UNITS_PER_CELL


class CameraMode(StrEnum):
    FOLLOW = "follow"
    """The players see what the DM's view shows."""
    STEER = "steer"
    """The players see the outline the DM moves and resizes on the map."""
    TABLETOP = "tabletop"
    """One cell is one inch on the players' screen, for miniatures on a flat TV."""


Z_CAMERA = 60
OUTLINE = QColor("#00b3a6")
HANDLE = SCENE_UNITS_PER_CELL * 0.5
MIN_SIDE = SCENE_UNITS_PER_CELL * 2


class CameraOutlineItem(QGraphicsObject):
    """A dashed rectangle in scene coordinates with a resize handle at its bottom-right.

    Signals:
        moved(): the area changed (dragged, resized or set).
    """

    moved = Signal()

    def __init__(self, bounds: QRectF) -> None:
        super().__init__()
        self.setZValue(Z_CAMERA)
        self.setAcceptedMouseButtons(Qt.MouseButton.LeftButton)
        self.setCursor(Qt.CursorShape.SizeAllCursor)
        self.setToolTip("Players' view: drag to move, drag the corner to resize")
        self._bounds = QRectF(bounds)
        self._rect = QRectF(bounds)
        self._grab: tuple[str, QPointF, QRectF] | None = None

    def area(self) -> QRectF:
        return QRectF(self._rect)

    def set_area(self, rect: QRectF) -> None:
        self.prepareGeometryChange()
        self._rect = rect.normalized().intersected(self._bounds) or QRectF(self._bounds)
        self.update()
        self.moved.emit()

    def move_by(self, delta: QPointF) -> None:
        """Slide the area by ``delta``, stopping at the map's edges (its size kept)."""
        self.set_area(kept_inside(self._rect.translated(delta), self._bounds))

    def set_bounds(self, bounds: QRectF) -> None:
        self._bounds = QRectF(bounds)
        self.set_area(self._rect)

    def boundingRect(self) -> QRectF:
        pad = HANDLE
        return self._rect.adjusted(-pad, -pad, pad, pad)

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        pen = QPen(OUTLINE, 0, Qt.PenStyle.DashLine)
        pen.setCosmetic(True)
        pen.setWidthF(3)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(self._rect)
        painter.fillRect(self._handle_rect(), OUTLINE)
        font = QFont()
        font.setPixelSize(int(SCENE_UNITS_PER_CELL * 0.35))
        font.setBold(True)
        painter.setFont(font)
        painter.drawText(self._rect.topLeft() + QPointF(8, font.pixelSize() + 6), "Players' view")

    def shape(self) -> QPainterPath:  # only the border band and the handle take the mouse
        band = SCENE_UNITS_PER_CELL * 0.3
        path = QPainterPath()
        path.addRect(self._rect.adjusted(-band, -band, band, band))
        inner = QPainterPath()
        inner.addRect(self._rect.adjusted(band, band, -band, -band))
        path = path.subtracted(inner)
        path.addRect(self._handle_rect())
        return path

    def _handle_rect(self) -> QRectF:
        corner = self._rect.bottomRight()
        return QRectF(corner.x() - HANDLE, corner.y() - HANDLE, HANDLE, HANDLE)

    def mousePressEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        kind = "resize" if self._handle_rect().contains(event.pos()) else "move"
        self._grab = (kind, event.pos(), QRectF(self._rect))
        event.accept()

    def mouseMoveEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        if self._grab is None:
            return
        kind, start, original = self._grab
        delta = event.pos() - start
        if kind == "move":
            self.set_area(kept_inside(original.translated(delta), self._bounds))
        else:
            width = max(MIN_SIDE, original.width() + delta.x())
            height = width * original.height() / original.width()  # keep the screen's shape
            self.set_area(
                QRectF(
                    original.topLeft(), QPointF(original.left() + width, original.top() + height)
                )
            )

    def mouseReleaseEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        self._grab = None
        event.accept()


def kept_inside(rect: QRectF, bounds: QRectF) -> QRectF:
    """``rect`` moved back over ``bounds`` where it sticks out of an edge (first the right
    and bottom, then the left and top: a rect wider than ``bounds`` keeps its left edge)."""
    dx = min(0.0, bounds.right() - rect.right())
    dx += max(0.0, bounds.left() - (rect.left() + dx))
    dy = min(0.0, bounds.bottom() - rect.bottom())
    dy += max(0.0, bounds.top() - (rect.top() + dy))
    return rect.translated(dx, dy)
