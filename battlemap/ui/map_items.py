"""Graphics items that draw the map: the grid, walls, obstacles and terrain."""

from __future__ import annotations

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QPainter, QPen, QPolygonF
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsLineItem,
    QGraphicsPolygonItem,
    QStyleOptionGraphicsItem,
    QWidget,
)

from battlemap.model.features import Obstacle, Point, TerrainRegion, Wall, WallKind
from battlemap.model.grid import Grid
from battlemap.ui import style
from battlemap.ui.style import cell_to_scene

Z_BACKGROUND, Z_GRID, Z_TERRAIN, Z_OBSTACLE, Z_WALL, Z_TOKEN = -100, -50, -40, -30, -20, 10


def cell_point_to_scene(point: Point) -> QPointF:
    return QPointF(cell_to_scene(point[0]), cell_to_scene(point[1]))


def _polygon(points: list[Point]) -> QPolygonF:
    return QPolygonF([cell_point_to_scene(p) for p in points])


class GridItem(QGraphicsItem):
    """The map's paper and its cell lines, with a border around the playable area."""

    def __init__(self, grid: Grid, paper: bool = True) -> None:
        super().__init__()
        self.grid = grid
        self.paper = paper  # False over a background image, which must show through
        self.setZValue(Z_GRID)

    def boundingRect(self) -> QRectF:
        return QRectF(0, 0, cell_to_scene(self.grid.width), cell_to_scene(self.grid.height))

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        rect = self.boundingRect()
        if self.paper:
            painter.fillRect(rect, style.MAP_BACKGROUND)
        pen = QPen(style.GRID_LINE, 0)  # cosmetic: one pixel at any zoom
        painter.setPen(pen)
        exposed = option.exposedRect.intersected(rect)
        first_col = max(0, int(exposed.left() // style.SCENE_UNITS_PER_CELL))
        last_col = min(self.grid.width, int(exposed.right() // style.SCENE_UNITS_PER_CELL) + 1)
        first_row = max(0, int(exposed.top() // style.SCENE_UNITS_PER_CELL))
        last_row = min(self.grid.height, int(exposed.bottom() // style.SCENE_UNITS_PER_CELL) + 1)
        lines = [
            QLineF(cell_to_scene(c), rect.top(), cell_to_scene(c), rect.bottom())
            for c in range(first_col, last_col + 1)
        ] + [
            QLineF(rect.left(), cell_to_scene(r), rect.right(), cell_to_scene(r))
            for r in range(first_row, last_row + 1)
        ]
        painter.drawLines(lines)
        painter.setPen(QPen(style.MAP_BORDER, 3))
        painter.drawRect(rect)


def wall_item(wall: Wall) -> QGraphicsLineItem:
    colour = {
        WallKind.WALL: style.WALL,
        WallKind.DOOR: style.DOOR_OPEN if wall.open else style.DOOR_CLOSED,
        WallKind.WINDOW: style.WINDOW,
    }[wall.kind]
    item = QGraphicsLineItem(QLineF(cell_point_to_scene(wall.a), cell_point_to_scene(wall.b)))
    width = 10 if wall.kind is WallKind.DOOR else 6
    pen = QPen(colour, width, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap)
    if wall.kind is WallKind.DOOR and wall.open:
        pen.setStyle(Qt.PenStyle.DashLine)
    item.setPen(pen)
    item.setZValue(Z_WALL)
    item.setData(0, wall.id)
    item.setToolTip(f"{wall.kind.value}{' (open)' if wall.open else ''}")
    return item


def obstacle_item(obstacle: Obstacle) -> QGraphicsPolygonItem:
    item = QGraphicsPolygonItem(_polygon(obstacle.points))
    item.setBrush(QBrush(style.OBSTACLE_FILL))
    item.setPen(QPen(style.WALL, 2))
    item.setZValue(Z_OBSTACLE)
    item.setData(0, obstacle.id)
    item.setToolTip(f"{obstacle.name}: {obstacle.cover.value} cover")
    return item


def terrain_item(region: TerrainRegion) -> QGraphicsPolygonItem:
    item = QGraphicsPolygonItem(_polygon(region.points))
    item.setBrush(QBrush(style.TERRAIN_FILL[region.kind.value]))
    item.setPen(QPen(Qt.PenStyle.NoPen))
    item.setZValue(Z_TERRAIN)
    item.setData(0, region.id)
    item.setToolTip(f"{region.kind.value} terrain")
    return item
