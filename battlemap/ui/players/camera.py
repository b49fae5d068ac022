"""The outline of the players' view on the DM's map: drag it to steer, drag its corner to zoom."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QFont, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import (
    QGraphicsObject,
    QGraphicsSceneMouseEvent,
    QStyleOptionGraphicsItem,
    QWidget,
)

from battlemap.ui.style import SCENE_UNITS_PER_CELL

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
            moved = original.translated(delta)
            dx = min(0.0, self._bounds.right() - moved.right()) + max(
                0.0, self._bounds.left() - moved.left()
            )
            dy = min(0.0, self._bounds.bottom() - moved.bottom()) + max(
                0.0, self._bounds.top() - moved.top()
            )
            self.set_area(moved.translated(dx, dy))
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
