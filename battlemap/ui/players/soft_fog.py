"""The players' fog along the party's visibility polygons, with a feathered edge.

The rules see cells; the drawing follows the polygons inside the cells the party sees, so a
diagonal wall casts a straight shadow. Built once per change of the view into ``SoftMask``:
an image over the seen cells' bounding box (``MASK_PX`` cells' worth of pixels at most),
black over unseen cells, dim over explored ones and over the parts of seen cells the
polygons leave out, clear inside them; blurred by ``FEATHER_CELLS`` and drawn smoothly
scaled, so the edge is soft. The fog item draws the unseen cells crisply over it: the
feather never lightens a cell the party cannot see.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import shapely
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPainterPath, QPolygonF, QTransform
from shapely.geometry.base import BaseGeometry

from battlemap.model.fog import Cell
from battlemap.ui.style import cell_to_scene

MASK_PX = 1_500_000
"""Most pixels in the mask: its resolution drops on a wide view rather than its memory
and build time growing (a 140 x 140 cell view: about 8 pixels a cell)."""
MOST_PX_PER_CELL = 24
FEATHER_CELLS = 0.06
"""The blur's half width: about 3 screen pixels at a TV's 54 pixels a cell (plus the
smooth scaling's own pixel)."""

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
    feather(image, max(1, round(FEATHER_CELLS * per_cell)))
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


def feather(image: QImage, radius: int) -> None:
    """Blur ``image`` in place with a box of ``2 * radius + 1`` pixels each way (its edges
    held: the mask ends where the seen cells' box does). Premultiplied channels blur as one."""
    height, width = image.height(), image.width()
    view = np.frombuffer(image.bits(), dtype=np.uint8).reshape(height, image.bytesPerLine())
    pixels = view[:, : width * 4].reshape(height, width, 4)
    blurred = pixels.astype(np.uint16)
    for axis in (0, 1):
        blurred = _box(blurred, radius, axis)
    pixels[...] = blurred.astype(np.uint8)


def _box(values: np.ndarray, radius: int, axis: int) -> np.ndarray:
    size = 2 * radius + 1
    pad = [(0, 0)] * values.ndim
    pad[axis] = (radius + 1, radius)
    padded = np.pad(values.astype(np.uint32), pad, mode="edge")
    summed = np.cumsum(padded, axis=axis)
    length = values.shape[axis]
    upper = np.take(summed, np.arange(size, size + length), axis=axis)
    lower = np.take(summed, np.arange(0, length), axis=axis)
    return ((upper - lower + size // 2) // size).astype(np.uint16)
