"""Graphics items that draw the map: the grid, walls, obstacles and terrain."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsPolygonItem,
    QStyleOptionGraphicsItem,
    QWidget,
)

from battlemap.model.features import Obstacle, Point, TerrainRegion, Wall, WallKind
from battlemap.model.grid import Grid
from battlemap.model.ids import EntityId
from battlemap.ui import style
from battlemap.ui.grid_lines import draw_grid_lines
from battlemap.ui.plain_text import plain_tooltip
from battlemap.ui.style import cell_to_scene
from battlemap.ui.zoom_cache import TiledZoomCache

Z_BACKGROUND, Z_GRID, Z_TERRAIN, Z_OBSTACLE, Z_WALL, Z_TOKEN = -100, -50, -40, -30, -20, 10


MAP_CACHED_PX, MAP_BUCKETS_KEPT = 2048, 2
"""The grid's lines and the walls come from a pixmap per zoom bucket while the whole map is
at most this wide on the device (fitted on a 1080p or 1440p screen): <= 16 MB a pixmap."""


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
        # exposedRect is the area to redraw: zoomed in, only the lines across it are drawn
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption)
        self._looks = TiledZoomCache(MAP_CACHED_PX, MAP_BUCKETS_KEPT)
        self.walls: WallsItem | None = None
        """Walls drawn into this grid's pixmaps (``draw_walls``)."""
        self._walls_drawn = 0
        """Bumped whenever those walls change: the pixmaps' key."""

    def draw_walls(self, walls: WallsItem | None) -> None:
        """Draw ``walls`` (now, and again after each change: call this again) into the grid's
        pixmaps and tiles, over the lines and the border, as their own item would; a frame
        then copies one map-sized pixmap instead of two (~1.4 ms at 1920 x 1080, twice that
        zoomed in). Only while nothing is stacked between the two (terrain, obstacles)."""
        self.prepareGeometryChange()
        self.walls = walls
        self._walls_drawn += 1
        self._looks.clear()  # the pixmaps of the walls before
        self.update()

    def _grid_rect(self) -> QRectF:
        return QRectF(0, 0, cell_to_scene(self.grid.width), cell_to_scene(self.grid.height))

    def boundingRect(self) -> QRectF:
        rect = self._grid_rect()
        return rect if self.walls is None else rect.united(self.walls.boundingRect())

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        # From a pixmap per zoom bucket (its lines drawn into it as strips); zoomed in past
        # it, from tiles (``TiledZoomCache``).
        rect = self.boundingRect()
        look = self._walls_drawn
        self._looks.draw_parts(painter, rect, look, self._paint, QRectF(option.exposedRect))

    def _paint(self, painter: QPainter, exposed: QRectF) -> None:
        """The paper and the lines across ``exposed``, as strips (zoomed in, a tile shows a
        few of the map's 200 lines; antialiased lines drawn one by one cost ~10 ms a frame
        at 1920 x 1080)."""
        rect = self._grid_rect()
        if self.paper:
            painter.fillRect(rect, style.MAP_BACKGROUND)
        pen = QPen(style.GRID_LINE, 0)  # cosmetic: one pixel at any zoom
        xs = [cell_to_scene(c) for c in range(self.grid.width + 1)]
        ys = [cell_to_scene(r) for r in range(self.grid.height + 1)]
        area = exposed.intersected(rect)
        xs = [x for x in xs if _within(x, area.left(), area.right())]
        ys = [y for y in ys if _within(y, area.top(), area.bottom())]
        draw_grid_lines(painter, pen, xs, ys, area)
        painter.setPen(QPen(style.MAP_BORDER, 3))
        painter.drawRect(rect)
        if self.walls is not None:
            self.walls.stroke(painter, exposed)


def _within(value: float, low: float, high: float) -> bool:
    """``value`` in [low, high], a pixel's width of slack each way for antialiased lines."""
    return low - 1 <= value <= high + 1


def wall_pen(wall: Wall) -> QPen:
    """How a wall, door or window is drawn: doors thicker, open doors dashed."""
    colour = {
        WallKind.WALL: style.WALL,
        WallKind.DOOR: style.DOOR_OPEN if wall.open else style.DOOR_CLOSED,
        WallKind.WINDOW: style.WINDOW,
    }[wall.kind]
    width = 10 if wall.kind is WallKind.DOOR else 6
    pen = QPen(colour, width, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap)
    if wall.kind is WallKind.DOOR and wall.open:
        pen.setStyle(Qt.PenStyle.DashLine)
    return pen


def wall_line(wall: Wall) -> QLineF:
    return QLineF(cell_point_to_scene(wall.a), cell_point_to_scene(wall.b))


THIN_WALL_PX = 2.0
"""Walls this wide on screen or thinner are drawn as plain lines (see ``WallsItem``)."""
WALL_BUCKET = cell_to_scene(8)
"""Side of the square buckets walls are grouped in, so a frame skips those out of view."""
DENSE_WALL_PIXELS = 3_000_000
"""Screen pixels of wall strokes (length x width) in one frame above which walls are drawn
without antialiasing: Qt's antialiased strokes cost ~1 us per pixel, so 10,000 walls crossing
a map (23 million pixels at the fitted zoom) took 6-19 s a frame, and 0.1-0.3 s aliased."""


class _WallBucket:
    """The walls of one style in one bucket: a path to stroke, and the same as lines."""

    def __init__(self) -> None:
        self.path = QPainterPath()
        self.lines: list[QLineF] = []
        self.bounds = QRectF()
        self.length = 0.0
        """Total length of the lines, in scene units."""


class WallsItem(QGraphicsItem):
    """Every wall, door and window of a map in one item, stroked per style and bucket.

    Two thousand walls drawn as one item take a fraction of the time of two thousand line
    items, which is what keeps a frame of a large imported map inside its budget. Two more
    savings, both invisible:

    - Zoomed out, where a wall is at most ``THIN_WALL_PX`` screen pixels wide, walls are
      drawn as lines with a cosmetic pen of the same on-screen width and square caps (the
      same footprint as the round caps at that size): Qt's line fast path, ~5x quicker
      than stroking the paths (1.9 -> 0.4 ms on the 2,000-wall bench map at 1920x1080).
    - Zoomed in, only the buckets (``WALL_BUCKET`` squares) that meet the exposed area are
      stroked, instead of the whole map's path.

    Walls so dense that a frame would stroke over ``DENSE_WALL_PIXELS`` pixels are drawn as
    lines without antialiasing (a file with thousands of crossing walls opens in a couple of
    seconds instead of 15).
    """

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(Z_WALL)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        # exposedRect is the area to redraw, not the whole item (used to skip buckets)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption)
        self.walls: dict[EntityId, Wall] = {}
        self._strokes: list[tuple[QPen, list[_WallBucket]]] = []
        self._bounds = QRectF()
        self._looks = TiledZoomCache(MAP_CACHED_PX, MAP_BUCKETS_KEPT)

    def set_walls(self, walls: Sequence[Wall]) -> None:
        self.prepareGeometryChange()
        self.walls = {wall.id: wall for wall in walls}
        by_style: dict[tuple[WallKind, bool], tuple[QPen, dict[tuple[int, int], _WallBucket]]] = {}
        for wall in walls:
            key = (wall.kind, wall.kind is WallKind.DOOR and wall.open)
            if key not in by_style:
                by_style[key] = (wall_pen(wall), {})
            line = wall_line(wall)
            middle = line.center()
            place = (int(middle.x() // WALL_BUCKET), int(middle.y() // WALL_BUCKET))
            bucket = by_style[key][1].setdefault(place, _WallBucket())
            bucket.path.moveTo(line.p1())
            bucket.path.lineTo(line.p2())
            bucket.lines.append(line)
            bucket.length += line.length()
        # windows under walls under doors, so a door always shows where it sits in a wall
        order = [WallKind.WINDOW, WallKind.WALL, WallKind.DOOR]
        self._strokes = []
        self._bounds = QRectF()
        for key in sorted(by_style, key=lambda k: order.index(k[0])):
            pen, buckets = by_style[key]
            half = pen.widthF() / 2
            for bucket in buckets.values():
                bucket.bounds = bucket.path.boundingRect().adjusted(-half, -half, half, half)
                self._bounds = self._bounds.united(bucket.bounds)
            self._strokes.append((pen, list(buckets.values())))
        self._looks.clear()
        self.update()

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        # From a pixmap per zoom bucket while the map fits ``MAP_CACHED_PX`` (the pixmap has
        # every wall); zoomed in past it, from tiles, each stroking the buckets it meets.
        self._looks.draw_parts(painter, self._bounds, None, self.stroke, QRectF(option.exposedRect))

    def stroke(self, painter: QPainter, exposed: QRectF) -> None:
        """The walls meeting ``exposed`` (local coordinates), as ``paint`` draws them."""
        painter.setBrush(Qt.BrushStyle.NoBrush)
        device = painter.device()
        screen_scale = QStyleOptionGraphicsItem.levelOfDetailFromTransform(
            painter.worldTransform()
        ) * (device.devicePixelRatioF() if device is not None else 1.0)
        exposed_strokes = [
            (pen, [bucket for bucket in buckets if bucket.bounds.intersects(exposed)])
            for pen, buckets in self._strokes
        ]
        stroked_pixels = sum(
            bucket.length * pen.widthF() * screen_scale**2
            for pen, buckets in exposed_strokes
            for bucket in buckets
        )
        dense = stroked_pixels > DENSE_WALL_PIXELS
        if dense:
            painter.save()
            painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        for pen, buckets in exposed_strokes:
            on_screen = pen.widthF() * screen_scale
            thin = on_screen <= THIN_WALL_PX
            if thin:
                line_pen = QPen(pen)
                line_pen.setCosmetic(True)  # width in device pixels
                line_pen.setWidthF(on_screen)
                line_pen.setCapStyle(Qt.PenCapStyle.SquareCap)
                painter.setPen(line_pen)
            else:
                painter.setPen(pen)
            for bucket in buckets:
                if thin or dense:
                    painter.drawLines(bucket.lines)
                else:
                    painter.drawPath(bucket.path)
        if dense:
            painter.restore()


def obstacle_item(obstacle: Obstacle) -> QGraphicsPolygonItem:
    item = QGraphicsPolygonItem(_polygon(obstacle.points))
    item.setBrush(QBrush(style.OBSTACLE_FILL))
    item.setPen(QPen(style.WALL, 2))
    item.setZValue(Z_OBSTACLE)
    item.setData(0, obstacle.id)
    item.setToolTip(plain_tooltip(f"{obstacle.name}: {obstacle.cover.value} cover"))
    return item


def terrain_item(region: TerrainRegion) -> QGraphicsPolygonItem:
    item = QGraphicsPolygonItem(_polygon(region.points))
    item.setBrush(QBrush(style.TERRAIN_FILL[region.kind.value]))
    item.setPen(QPen(Qt.PenStyle.NoPen))
    item.setZValue(Z_TERRAIN)
    item.setData(0, region.id)
    item.setToolTip(f"{region.kind.value} terrain")
    return item
