"""Items that draw a tool's preview: lines in progress, vertex handles and distance labels.

Lines use cosmetic pens (their width is in screen pixels) and labels ignore the view's
zoom, so a preview reads the same on a laptop and on a projector at any zoom.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import (
    QGraphicsEllipseItem,
    QGraphicsItem,
    QGraphicsPathItem,
    QStyleOptionGraphicsItem,
    QWidget,
)

from battlemap.model.features import Point, Wall
from battlemap.model.map_commands import Feature
from battlemap.ui.style import cell_to_scene
from battlemap.ui.tools.base import cell_to_scene_point

PREVIEW = QColor("#1e88e5")
"""Lines being drawn."""
ERASE = QColor("#e53935")
"""What the eraser would remove."""
MEASURE = QColor("#f4511e")
HANDLE_RADIUS_PX = 5.0
LABEL_FONT_PX = 15


def cosmetic_pen(
    colour: QColor, width_px: float, style: Qt.PenStyle = Qt.PenStyle.SolidLine
) -> QPen:
    pen = QPen(colour, width_px, style, Qt.PenCapStyle.RoundCap, Qt.PenJoinStyle.RoundJoin)
    pen.setCosmetic(True)
    return pen


def polyline(
    points: Sequence[Point], pen: QPen, *, closed: bool = False, fill: QColor | None = None
) -> QGraphicsPathItem:
    """A path through ``points`` (cells); ``closed`` joins the last point to the first."""
    path = QPainterPath()
    if points:
        path.moveTo(cell_to_scene_point(points[0]))
        for point in points[1:]:
            path.lineTo(cell_to_scene_point(point))
        if closed:
            path.closeSubpath()
    item = QGraphicsPathItem(path)
    item.setPen(pen)
    item.setBrush(QBrush(fill) if fill is not None else QBrush(Qt.BrushStyle.NoBrush))
    return item


class _Handle(QGraphicsEllipseItem):
    """A dot of constant screen size marking a vertex."""

    def __init__(self, point: Point, colour: QColor) -> None:
        r = HANDLE_RADIUS_PX
        super().__init__(-r, -r, 2 * r, 2 * r)
        self.setPos(cell_to_scene_point(point))
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
        self.setBrush(QBrush(QColor("#ffffff")))
        self.setPen(QPen(colour, 2))
        self.setZValue(1)


def feature_outline(
    feature: Feature, colour: QColor, wall_width_px: float, fill_alpha: int
) -> QGraphicsPathItem:
    """A wall, door or window as a thick line; an obstacle or terrain region as its outline
    (3 px) filled with ``colour`` at ``fill_alpha`` (0-255)."""
    if isinstance(feature, Wall):
        return polyline([feature.a, feature.b], cosmetic_pen(colour, wall_width_px))
    fill = QColor(colour)
    fill.setAlpha(fill_alpha)
    return polyline(feature.points, cosmetic_pen(colour, 3), closed=True, fill=fill)


def handles(points: Sequence[Point], colour: QColor = PREVIEW) -> list[QGraphicsItem]:
    return [_Handle(point, colour) for point in points]


def cell_squares(cells: Sequence[tuple[int, int]], fill: QColor, edge: QColor) -> QGraphicsPathItem:
    """Unit squares at ``cells``, drawn as one item (a brush stroke in progress)."""
    path = QPainterPath()
    side = cell_to_scene(1)
    for col, row in cells:
        path.addRect(QRectF(cell_to_scene(col), cell_to_scene(row), side, side))
    item = QGraphicsPathItem(path)
    item.setBrush(QBrush(fill))
    item.setPen(cosmetic_pen(edge, 1.5))
    return item


class LabelItem(QGraphicsItem):
    """A short text on a rounded dark plate, centred just above-right of a point.

    It ignores the view's zoom, so it stays readable when zoomed far out.
    """

    def __init__(self, text: str, at: Point, colour: QColor = MEASURE) -> None:
        super().__init__()
        self.text = text
        self._colour = colour
        self._font = QFont()
        self._font.setPixelSize(LABEL_FONT_PX)
        self._font.setBold(True)
        metrics = QFontMetricsF(self._font)
        width = metrics.horizontalAdvance(text) + 14
        height = metrics.height() + 8
        self._rect = QRectF(12, -height - 8, width, height)
        self.setPos(cell_to_scene_point(at))
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
        self.setZValue(2)

    def boundingRect(self) -> QRectF:
        return self._rect.adjusted(-1, -1, 1, 1)

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(self._colour, 1.5))
        painter.setBrush(QBrush(QColor(25, 25, 25, 225)))
        painter.drawRoundedRect(self._rect, 6, 6)
        painter.setFont(self._font)
        painter.setPen(QColor("#ffffff"))
        painter.drawText(self._rect, Qt.AlignmentFlag.AlignCenter, self.text)


def label(text: str, at: Point, colour: QColor = MEASURE) -> LabelItem:
    return LabelItem(text, at, colour)


def scene_point(point: Point) -> QPointF:
    return cell_to_scene_point(point)
