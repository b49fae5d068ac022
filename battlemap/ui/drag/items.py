"""Scene items the drag feedback and the targeting overlay draw, tuned for a projector.

Lines use cosmetic pens (widths in screen pixels) with a light casing under them so they
read on a dark image and on paper alike; markers and cards ignore the view's zoom.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsPathItem,
    QGraphicsView,
    QStyleOptionGraphicsItem,
    QWidget,
)

from battlemap.ui.style import cell_to_scene

Point = tuple[float, float]

REACH_FILL = QColor(38, 166, 154, 70)
REACH_EDGE = QColor(0, 121, 107, 230)
PATH_OK = QColor("#1565c0")
PATH_BAD = QColor("#d50000")
CASING = QColor(255, 255, 255, 230)
DIFFICULT = QColor("#8d4f16")
OPPORTUNITY = QColor("#ff6d00")
CARD_BACK = QColor(22, 24, 28, 235)
CARD_TEXT = QColor("#ffffff")
CARD_MUTED = QColor("#c8d0d8")
GOOD = QColor("#69f0ae")
BAD = QColor("#ff5252")
WARN = QColor("#ffab40")
CARD_FONT_PX = 17
CARD_TITLE_PX = 24
CARD_NOTE_PX = 13


def scene_point(point: Point) -> QPointF:
    return QPointF(cell_to_scene(point[0]), cell_to_scene(point[1]))


def pen(colour: QColor, width_px: float, style: Qt.PenStyle = Qt.PenStyle.SolidLine) -> QPen:
    result = QPen(colour, width_px, style, Qt.PenCapStyle.RoundCap, Qt.PenJoinStyle.RoundJoin)
    result.setCosmetic(True)
    return result


def _path_item(path: QPainterPath, line: QPen, fill: QBrush | None = None) -> QGraphicsPathItem:
    item = QGraphicsPathItem(path)
    item.setPen(line)
    item.setBrush(fill if fill is not None else QBrush(Qt.BrushStyle.NoBrush))
    return item


def polyline_path(points: Sequence[Point]) -> QPainterPath:
    path = QPainterPath()
    if points:
        path.moveTo(scene_point(points[0]))
        for point in points[1:]:
            path.lineTo(scene_point(point))
    return path


def cased_line(
    points: Sequence[Point],
    colour: QColor,
    width_px: float = 6.0,
    style: Qt.PenStyle = Qt.PenStyle.SolidLine,
) -> list[QGraphicsItem]:
    """A line through ``points`` (cells) with a white casing under it."""
    path = polyline_path(points)
    casing = _path_item(path, pen(CASING, width_px + 4))
    line = _path_item(path, pen(colour, width_px, style))
    line.setZValue(0.1)
    return [casing, line]


def cells_region(cells: Iterable[tuple[int, int]], side: int = 1) -> QPainterPath:
    """The union of ``side``-cell squares with top-left corners at ``cells``, as one path.

    Squares are merged into horizontal runs per row first, so a 60-ft area is a few dozen
    rectangles rather than hundreds before ``simplified`` joins them.
    """
    covered: set[tuple[int, int]] = set()
    for x, y in cells:
        for dy in range(side):
            for dx in range(side):
                covered.add((x + dx, y + dy))
    rows: dict[int, list[int]] = {}
    for x, y in covered:
        rows.setdefault(y, []).append(x)
    path = QPainterPath()
    unit = cell_to_scene(1)
    for y, xs in rows.items():
        xs.sort()
        runs: list[list[int]] = []
        for x in xs:
            if runs and x == runs[-1][1] + 1:
                runs[-1][1] = x
            else:
                runs.append([x, x])
        for start, stop in runs:
            path.addRect(QRectF(start * unit, y * unit, (stop - start + 1) * unit, unit))
    return path.simplified()


def shaded_region(path: QPainterPath, fill: QColor, edge: QColor) -> QGraphicsPathItem:
    item = _path_item(path, pen(edge, 2.5), QBrush(fill))
    item.setZValue(-1)
    return item


def hatched_cells(cells: Iterable[tuple[int, int]], side: int, colour: QColor) -> QGraphicsItem:
    """Cells marked with diagonal hatching (difficult terrain along a path)."""
    path = cells_region(cells, side)
    brush = QBrush(colour, Qt.BrushStyle.BDiagPattern)
    return _path_item(path, pen(colour, 2.0), brush)


def outline_square(
    corner: Point, side: float, colour: QColor, style: Qt.PenStyle = Qt.PenStyle.DashLine
) -> QGraphicsItem:
    path = QPainterPath()
    unit = cell_to_scene(1)
    path.addRoundedRect(
        QRectF(corner[0] * unit, corner[1] * unit, side * unit, side * unit), 6.0, 6.0
    )
    return _path_item(path, pen(colour, 3.0, style))


class Marker(QGraphicsItem):
    """A round badge of constant screen size with a short text (``!``, ``✕``, a number)."""

    def __init__(self, at: Point, text: str, colour: QColor, radius_px: float = 13.0) -> None:
        super().__init__()
        self.text = text
        self.colour = colour
        self._radius = radius_px
        self.setPos(scene_point(at))
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
        self.setZValue(3)

    def boundingRect(self) -> QRectF:
        r = self._radius + 3
        return QRectF(-r, -r, 2 * r, 2 * r)

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        r = self._radius
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(CASING, 2.5))
        painter.setBrush(QBrush(self.colour))
        painter.drawEllipse(QRectF(-r, -r, 2 * r, 2 * r))
        font = QFont()
        font.setPixelSize(int(r * 1.3))
        font.setBold(True)
        painter.setFont(font)
        painter.setPen(CARD_TEXT)
        painter.drawText(QRectF(-r, -r, 2 * r, 2 * r), Qt.AlignmentFlag.AlignCenter, self.text)


class InfoCard(QGraphicsItem):
    """A dark rounded card of text lines next to a point; the first line is the title.

    It keeps its size on screen at any zoom, sits to the right of ``at`` (``side`` -1 puts it
    to the left), and its lines are (text, colour) pairs.
    """

    def __init__(
        self,
        at: Point,
        lines: Sequence[tuple[str, QColor]],
        accent: QColor,
        offset_px: tuple[float, float] = (14.0, -10.0),
    ) -> None:
        super().__init__()
        self.lines = list(lines)
        self.accent = accent
        self._title = QFont()
        self._title.setPixelSize(CARD_TITLE_PX)
        self._title.setBold(True)
        self._body = QFont()
        self._body.setPixelSize(CARD_FONT_PX)
        self._body.setBold(True)
        self._note = QFont()
        self._note.setPixelSize(CARD_NOTE_PX)
        metrics = [QFontMetricsF(self._font_of(i)) for i in range(len(self.lines))]
        self._heights = [m.height() for m in metrics]
        width = max(
            (m.horizontalAdvance(text) for m, (text, _) in zip(metrics, self.lines, strict=True)),
            default=0.0,
        )
        pad = 10.0
        self._rect = QRectF(
            offset_px[0], offset_px[1], width + 2 * pad + 6, sum(self._heights) + 2 * pad
        )
        self._pad = pad
        self.setPos(scene_point(at))
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
        self.setZValue(4)

    def _font_of(self, line: int) -> QFont:
        """Title first; muted lines (hints, notes) smaller; the rest the body font."""
        if line == 0:
            return self._title
        return self._note if self.lines[line][1] == CARD_MUTED else self._body

    def text(self) -> str:
        return "\n".join(text for text, _ in self.lines)

    def place(self, view: QGraphicsView, box: QRectF, away_from: Point) -> None:
        """Put the card beside ``box`` (cells: the destination or the target's space) on the
        side facing away from ``away_from`` (where the path or the lines come from), on the
        first side where it fits in the view; clamped into the view when none does."""
        gap = 14.0
        width, height = self._rect.width(), self._rect.height()
        dx = box.center().x() - away_from[0]
        dy = box.center().y() - away_from[1]
        vertical = ["below", "below-end", "above", "above-end"]
        if dy < 0:
            vertical = vertical[2:] + vertical[:2]
        sides = ["right", *vertical, "left"] if dx >= 0 else ["left", *vertical, "right"]
        end = box.width() * cell_to_scene(1)  # box width in scene units at zoom 1
        scale = view.transform().m11()
        end_px = end * scale - width  # right-aligned with the box, in screen pixels
        corners = {
            "right": ((box.right(), box.top()), QRectF(gap, -10.0, width, height)),
            "left": ((box.left(), box.top()), QRectF(-gap - width, -10.0, width, height)),
            "below": ((box.left(), box.bottom()), QRectF(0.0, gap, width, height)),
            "below-end": ((box.left(), box.bottom()), QRectF(end_px, gap, width, height)),
            "above": ((box.left(), box.top()), QRectF(0.0, -gap - height, width, height)),
            "above-end": ((box.left(), box.top()), QRectF(end_px, -gap - height, width, height)),
        }
        viewport = QRectF(view.viewport().rect()).adjusted(4, 4, -4, -4)
        self.prepareGeometryChange()
        for side in sides:
            at, rect = corners[side]
            anchor = view.mapFromScene(scene_point(at))
            if viewport.contains(rect.translated(anchor.x(), anchor.y())):
                self.setPos(scene_point(at))
                self._rect = rect
                return
        at, rect = corners[sides[0]]
        anchor = view.mapFromScene(scene_point(at))
        shown = rect.translated(anchor.x(), anchor.y())
        shift_x = max(0.0, viewport.left() - shown.left()) - max(
            0.0, shown.right() - viewport.right()
        )
        shift_y = max(0.0, viewport.top() - shown.top()) - max(
            0.0, shown.bottom() - viewport.bottom()
        )
        self.setPos(scene_point(at))
        self._rect = rect.translated(shift_x, shift_y)

    def boundingRect(self) -> QRectF:
        return self._rect.adjusted(-2, -2, 2, 2)

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QBrush(CARD_BACK))
        painter.drawRoundedRect(self._rect, 8, 8)
        bar = QRectF(self._rect.left(), self._rect.top(), 6, self._rect.height())
        painter.setBrush(QBrush(self.accent))
        painter.drawRoundedRect(bar, 3, 3)
        y = self._rect.top() + self._pad
        for i, ((text, colour), height) in enumerate(zip(self.lines, self._heights, strict=True)):
            painter.setFont(self._font_of(i))
            painter.setPen(colour)
            row = QRectF(self._rect.left() + self._pad + 6, y, self._rect.width(), height)
            painter.drawText(row, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, text)
            y += height
