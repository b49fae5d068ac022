"""Toolbar icons drawn with QPainter, so they are crisp at any DPI and follow the palette."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QIcon, QPainter, QPainterPath, QPen, QPixmap, QPolygonF
from PySide6.QtWidgets import QApplication

from battlemap.ui import style

ICON_PX = 64
"""Drawn at 64 px on a 64-unit canvas; Qt scales down for the toolbar."""

Painter = Callable[[QPainter, QColor], None]
MAP_ICON_GRID = QColor("#5b4a38")
"""Grid lines on the map-settings icon's light map square, in any theme."""


def _pen(colour: QColor, width: float) -> QPen:
    return QPen(
        colour, width, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap, Qt.PenJoinStyle.RoundJoin
    )


def _select(p: QPainter, ink: QColor) -> None:
    arrow = QPolygonF(
        [
            QPointF(x, y)
            for x, y in [(16, 8), (16, 52), (27, 41), (35, 58), (42, 55), (34, 38), (50, 38)]
        ]
    )
    p.setPen(_pen(ink, 3))
    p.setBrush(QBrush(ink.lighter(170) if ink.lightness() < 128 else ink.darker(170)))
    p.drawPolygon(arrow)


def _measure(p: QPainter, ink: QColor) -> None:
    p.translate(32, 32)
    p.rotate(-35)
    p.setPen(_pen(ink, 3))
    p.setBrush(QBrush(QColor("#f4c542")))
    p.drawRoundedRect(QRectF(-28, -9, 56, 18), 3, 3)
    for i, x in enumerate(range(-20, 24, 8)):
        p.drawLine(QPointF(x, -9), QPointF(x, -9 + (9 if i % 2 == 0 else 5)))


def _walls(p: QPainter, ink: QColor) -> None:
    corners = [QPointF(10, 52), QPointF(10, 14), QPointF(54, 14), QPointF(54, 34)]
    p.setPen(_pen(ink, 7))
    p.drawPolyline(corners)
    p.setPen(_pen(ink, 2))
    p.setBrush(QBrush(QColor("#ffffff")))
    for corner in corners:
        p.drawEllipse(corner, 4.5, 4.5)


def _doors(p: QPainter, ink: QColor) -> None:
    p.setPen(_pen(ink, 7))
    p.drawLine(QPointF(6, 50), QPointF(18, 50))
    p.drawLine(QPointF(50, 50), QPointF(58, 50))
    p.setPen(_pen(style.DOOR_CLOSED, 7))
    p.drawLine(QPointF(18, 50), QPointF(18, 18))
    p.setPen(QPen(ink, 2, Qt.PenStyle.DashLine))
    p.drawArc(QRectF(-14, 18, 64, 64), 0, 90 * 16)


def _obstacles(p: QPainter, ink: QColor) -> None:
    p.setPen(_pen(ink, 3))
    p.setBrush(QBrush(QColor(style.OBSTACLE_FILL.rgb())))
    p.drawRect(QRectF(12, 20, 40, 28))
    p.setBrush(QBrush(QColor(style.OBSTACLE_FILL.rgb()).lighter(130)))
    p.drawPolygon(QPolygonF([QPointF(12, 20), QPointF(22, 10), QPointF(60, 10), QPointF(52, 20)]))


def _terrain(p: QPainter, ink: QColor) -> None:
    colours = [style.TERRAIN_FILL["difficult"], style.TERRAIN_FILL["water"]]
    for row, colour in enumerate(colours):
        solid = QColor(colour)
        solid.setAlpha(255)
        p.setPen(_pen(solid, 6))
        path = QPainterPath(QPointF(8, 24 + row * 18))
        for i in range(4):
            x = 8 + i * 12
            path.quadTo(
                QPointF(x + 6, 14 + row * 18 + (0 if i % 2 else 20)), QPointF(x + 12, 24 + row * 18)
            )
        p.drawPath(path)


def _eraser(p: QPainter, ink: QColor) -> None:
    p.translate(32, 34)
    p.rotate(-40)
    p.setPen(_pen(ink, 3))
    p.setBrush(QBrush(QColor("#ef9a9a")))
    p.drawRoundedRect(QRectF(-24, -11, 26, 22), 3, 3)
    p.setBrush(QBrush(QColor("#eeeeee")))
    p.drawRoundedRect(QRectF(2, -11, 22, 22), 3, 3)


def _map_settings(p: QPainter, ink: QColor) -> None:
    """A square of map with its grid. The grid is drawn in the map's own grid colour, not
    the palette's ink: a dark theme's light ink vanished on the light map square."""
    p.setPen(_pen(ink, 2.5))
    p.setBrush(QBrush(style.MAP_BACKGROUND))
    p.drawRect(QRectF(8, 8, 48, 48))
    p.setPen(_pen(MAP_ICON_GRID, 2.5))
    for step in (24, 40):
        p.drawLine(QPointF(step, 10), QPointF(step, 54))
        p.drawLine(QPointF(10, step), QPointF(54, step))
    p.setPen(_pen(ink, 4))
    p.drawLine(QPointF(4, 60), QPointF(60, 60))


def _fog(p: QPainter, ink: QColor) -> None:
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QBrush(QColor(60, 60, 90, 200)))
    for x, y, r in ((22, 34, 14), (36, 28, 16), (46, 38, 12), (30, 42, 12)):
        p.drawEllipse(QPointF(x, y), r, r)
    p.setPen(_pen(ink, 3))
    p.setBrush(QBrush(QColor("#ffffff")))
    p.drawEllipse(QPointF(32, 34), 9, 6)
    p.setBrush(QBrush(ink))
    p.drawEllipse(QPointF(32, 34), 3, 3)


def _template(p: QPainter, ink: QColor) -> None:
    """A cone spreading from a dot, over a few shaded squares (the area template)."""
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QBrush(QColor(255, 109, 0, 110)))
    for x, y in ((30, 20), (42, 20), (30, 32), (42, 32), (42, 44)):
        p.drawRect(QRectF(x, y, 11, 11))
    p.setPen(_pen(QColor("#ff6d00"), 3.5))
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.drawPolygon(QPolygonF([QPointF(8, 50), QPointF(44, 8), QPointF(60, 42)]))
    p.setPen(_pen(ink, 2.5))
    p.setBrush(QBrush(ink))
    p.drawEllipse(QPointF(8, 50), 4, 4)


PAINTERS: dict[str, Painter] = {
    "select": _select,
    "measure": _measure,
    "walls": _walls,
    "doors": _doors,
    "obstacles": _obstacles,
    "terrain": _terrain,
    "eraser": _eraser,
    "fog": _fog,
    "template": _template,
    "map-settings": _map_settings,
}


def tool_icon(name: str) -> QIcon:
    """The icon called ``name`` (a key of ``PAINTERS``) in the palette's text colour."""
    app = QApplication.instance()
    ink = app.palette().windowText().color() if isinstance(app, QApplication) else QColor("#222")
    pixmap = QPixmap(ICON_PX, ICON_PX)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    PAINTERS[name](painter, ink)
    painter.end()
    return QIcon(pixmap)
