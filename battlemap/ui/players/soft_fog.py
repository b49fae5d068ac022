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

import numpy as np
import shapely
from numpy.typing import NDArray
from PySide6.QtCore import QPointF, QRect, QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPainterPath, QPixmap, QPolygonF, QTransform
from shapely.geometry.base import BaseGeometry

from battlemap.model.fog import Cell
from battlemap.ui.style import cell_to_scene

MASK_PX = 600_000
"""Most pixels in the mask: its resolution drops on a wide view rather than its memory
and build time growing (a 100 x 100 cell view: 7 pixels a cell, still more than one a
screen pixel with the whole map on a 1080p screen)."""
MOST_PX_PER_CELL = 16
"""The feather: the mask drawn smoothly scaled blends over one of its pixels, a sixteenth
of a cell (3 to 4 screen pixels at a TV's 54 to 64 pixels a cell), less on a wide view."""

CellGrid = NDArray[np.bool_]
"""``grid[row, col]``: a cell of the map."""
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


def cell_grid(cells: Iterable[Cell], width: int, height: int) -> CellGrid:
    """``grid[row, col]`` is True for each of ``cells`` on the grid."""
    grid = np.zeros((height, width), dtype=bool)
    listed = np.array(list(cells), dtype=np.int64).reshape(-1, 2)
    on = (
        (listed[:, 0] >= 0) & (listed[:, 0] < width) & (listed[:, 1] >= 0) & (listed[:, 1] < height)
    )
    grid[listed[on, 1], listed[on, 0]] = True
    return grid


def grid_path(grid: CellGrid, unit: float) -> QPainterPath:
    """One path covering the grid's True cells (``unit`` per cell), built from horizontal
    runs so it holds few rectangles."""
    path = QPainterPath()
    path.setFillRule(Qt.FillRule.WindingFill)
    height, width = grid.shape
    padded = np.zeros((height, width + 2), dtype=np.int8)
    padded[:, 1:-1] = grid
    steps = np.diff(padded, axis=1)
    rows, starts = np.nonzero(steps == 1)
    _, ends = np.nonzero(steps == -1)  # row by row, in the same order as the starts
    for row, start, end in zip(rows.tolist(), starts.tolist(), ends.tolist(), strict=True):
        path.addRect(QRectF(start * unit, row * unit, (end - start) * unit, unit))
    return path


def mask_box(sight: CellGrid) -> CellBox | None:
    """The seen cells' bounding box and one cell around it, inside the grid; None for none."""
    rows, cols = np.nonzero(sight)
    if not len(rows):
        return None
    height, width = sight.shape
    left, top = max(0, int(cols.min()) - 1), max(0, int(rows.min()) - 1)
    right, bottom = min(width, int(cols.max()) + 2), min(height, int(rows.max()) + 2)
    return left, top, right - left, bottom - top


@dataclass(frozen=True)
class MaskLayers:
    """The cells of the mask's box by how they are drawn (grids of the whole map)."""

    known: CellGrid
    """Seen or explored: dim, until the polygons clear what the party sees."""
    revealed: CellGrid
    """Revealed by the DM: clear, whatever sight says."""
    unseen: CellGrid
    """Never seen: black (the polygons' antialiased edge painted over again)."""
    beside: CellGrid
    """Explored, not seen now: dim (likewise painted over again)."""


def build_mask(
    box: CellBox,
    unseen: QColor,
    dim: QColor,
    layers: MaskLayers,
    areas: tuple[BaseGeometry, ...],
) -> SoftMask:
    """The mask over ``box``: ``unseen``, ``dim`` over the known cells, cleared inside
    ``areas``; then the cells the party does not see now set again (so the polygons clear
    only cells it sees) and the revealed ones cleared. The cells are set with numpy (whole
    pixels: a path of thousands of cells is slow to fill), the polygons drawn by Qt."""
    col, row, cols, rows = box
    per_cell = max(2, min(MOST_PX_PER_CELL, math.floor(math.sqrt(MASK_PX / (cols * rows)))))
    cells = np.s_[row : row + rows, col : col + cols]
    black, grey = _premultiplied(unseen), _premultiplied(dim)
    colours = np.where(layers.known[cells], grey, black).astype(np.uint32)
    colours[layers.revealed[cells]] = 0
    image = QImage(cols * per_cell, rows * per_cell, QImage.Format.Format_ARGB32_Premultiplied)
    pixels = _pixels(image)
    pixels[...] = _spread(colours, per_cell)
    painter = QPainter(image)
    painter.setTransform(QTransform(per_cell, 0, 0, per_cell, -col * per_cell, -row * per_cell))
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_Source)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    for area in areas:
        painter.fillPath(polygon_path(area), Qt.GlobalColor.transparent)
    painter.end()
    again = _spread(layers.unseen[cells] | layers.beside[cells] | layers.revealed[cells], per_cell)
    pixels[again] = _spread(colours, per_cell)[again]
    return SoftMask(image, box)


def _premultiplied(colour: QColor) -> int:
    alpha = colour.alpha()
    red, green, blue = (
        round(v * alpha / 255) for v in (colour.red(), colour.green(), colour.blue())
    )
    return (alpha << 24) | (red << 16) | (green << 8) | blue


def _spread(cells: NDArray[np.generic], per_cell: int) -> NDArray[np.generic]:
    """Each cell's value over its ``per_cell`` x ``per_cell`` pixels."""
    return np.repeat(np.repeat(cells, per_cell, axis=0), per_cell, axis=1)


def _pixels(image: QImage) -> NDArray[np.uint32]:
    """The 32-bit image's pixels, writable in place: ``pixels[y, x]``."""
    raw = np.frombuffer(image.bits(), dtype=np.uint32)
    rows: NDArray[np.uint32] = raw.reshape(image.height(), image.bytesPerLine() // 4)
    return rows[:, : image.width()]


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
