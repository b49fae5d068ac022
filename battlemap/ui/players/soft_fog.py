"""The players' fog along the party's visibility polygons, with a feathered edge.

The rules see cells; the drawing follows the polygons inside the cells the party sees, so a
diagonal wall casts a straight shadow. Built once per change of the view into ``SoftMask``:
an image over the seen cells' bounding box (``MASK_PX`` cells' worth of pixels at most),
black over unseen cells, dim over explored ones and over the parts of seen cells the
polygons leave out, clear inside them; drawn smoothly scaled, so the edge is soft (a
sixteenth of a cell). The fog item draws the unseen cells crisply over it: the
feather never lightens a cell the party cannot see.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import shapely
from PySide6.QtCore import QPointF, QRect, QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPainterPath, QPixmap, QPolygonF, QTransform
from shapely.geometry.base import BaseGeometry

from battlemap.model.fog import Cell
from battlemap.ui.style import cell_to_scene

MASK_PX = 1_500_000
"""Most pixels in the mask: its resolution drops on a wide view rather than its memory
and build time growing (a 140 x 140 cell view: about 8 pixels a cell)."""
MOST_PX_PER_CELL = 16
"""The feather: the mask drawn smoothly scaled blends over one of its pixels, a sixteenth
of a cell (3 to 4 screen pixels at a TV's 54 to 64 pixels a cell), less on a wide view."""

CellBox = tuple[int, int, int, int]
"""First column, first row, columns, rows."""


@dataclass(frozen=True)
class SoftMask:
    """The fog image over ``box`` (cells) and where it goes in the scene."""

    image: QImage
    box: CellBox

    @property
    def scene_rect(self) -> QRectF:
        col, row, cols, rows = self.box
        return QRectF(
            cell_to_scene(col), cell_to_scene(row), cell_to_scene(cols), cell_to_scene(rows)
        )

    def contains(self, cell: Cell) -> bool:
        col, row, cols, rows = self.box
        return col <= cell[0] < col + cols and row <= cell[1] < row + rows


def mask_box(cells: Iterable[Cell], width: int, height: int) -> CellBox | None:
    """The cells' bounding box and one cell around it, inside the grid; None for no cells."""
    listed = list(cells)
    if not listed:
        return None
    cols = [c for c, _ in listed]
    rows = [r for _, r in listed]
    left, top = max(0, min(cols) - 1), max(0, min(rows) - 1)
    right, bottom = min(width, max(cols) + 2), min(height, max(rows) + 2)
    return left, top, right - left, bottom - top


def build_mask(
    box: CellBox,
    unseen: QColor,
    dim: QColor,
    known: QPainterPath,
    clear: QPainterPath,
    sight: QPainterPath,
    areas: tuple[BaseGeometry, ...],
) -> SoftMask:
    """The mask over ``box``: ``unseen`` everywhere, ``dim`` over ``known`` cells, clear over
    ``clear`` cells (revealed) and inside ``areas`` within the ``sight`` cells; feathered.
    The paths are in cells."""
    col, row, cols, rows = box
    per_cell = max(2, min(MOST_PX_PER_CELL, math.floor(math.sqrt(MASK_PX / (cols * rows)))))
    image = QImage(cols * per_cell, rows * per_cell, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(unseen)
    painter = QPainter(image)
    painter.setTransform(QTransform(per_cell, 0, 0, per_cell, -col * per_cell, -row * per_cell))
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_Source)
    painter.fillPath(known, dim)  # cell edges: whole pixels, no antialiasing needed
    painter.fillPath(clear, Qt.GlobalColor.transparent)
    painter.setClipPath(sight)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    for area in areas:
        painter.fillPath(polygon_path(area), Qt.GlobalColor.transparent)
    painter.end()
    return SoftMask(image, box)


def polygon_path(area: BaseGeometry) -> QPainterPath:
    """The polygons of ``area`` (a Polygon, MultiPolygon or collection) as one path; holes
    stay holes (odd-even fill)."""
    path = QPainterPath()
    path.setFillRule(Qt.FillRule.OddEvenFill)
    for part in shapely.get_parts(area):
        if not isinstance(part, shapely.Polygon) or part.is_empty:
            continue
        for ring in (part.exterior, *part.interiors):
            xy = shapely.get_coordinates(ring)
            path.addPolygon(QPolygonF([QPointF(x, y) for x, y in xy.tolist()]))
    return path


class ScreenCache:
    """The fog as last drawn on the device, copied while neither the fog nor the view
    changes (a turn's banner, a token's state: most of the players' frames). A pan or a
    zoom draws it anew (the players' camera moves rarely, and then once per step)."""

    def __init__(self) -> None:
        self._key: tuple[float, ...] | None = None
        self._pixmap = QPixmap()
        self._at = QRect()

    def clear(self) -> None:
        self._key, self._pixmap = None, QPixmap()

    def draw(self, painter: QPainter, bounds: QRectF, paint: Callable[[QPainter], None]) -> None:
        world = painter.worldTransform()
        device = painter.device()
        if world.isRotating() or painter.opacity() < 1.0 or device is None:
            paint(painter)
            return
        ratio = device.devicePixelRatioF()
        on_device = world * QTransform.fromScale(ratio, ratio)
        screen = QRect(0, 0, round(device.width() * ratio), round(device.height() * ratio))
        at = on_device.mapRect(bounds).toAlignedRect().intersected(screen)
        if at.isEmpty():
            return
        scale = (on_device.m11(), on_device.m22(), on_device.dx(), on_device.dy())
        key = (*scale, at.x(), at.y(), at.width(), at.height())
        if key != self._key:
            self._pixmap = QPixmap(at.size())
            self._pixmap.fill(Qt.GlobalColor.transparent)
            into = QPainter(self._pixmap)
            into.setRenderHints(painter.renderHints())
            into.setWorldTransform(on_device * QTransform.fromTranslate(-at.x(), -at.y()))
            paint(into)
            into.end()
            self._key, self._at = key, at
        painter.save()
        painter.setWorldTransform(QTransform.fromScale(1 / ratio, 1 / ratio))
        painter.drawPixmap(self._at.topLeft(), self._pixmap)
        painter.restore()
