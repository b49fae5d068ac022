"""The fog of war drawn over a map: opaque over unseen cells, a veil over explored ones.

The players' scene draws it black, soft and along the party's visibility polygons
(``soft_fog``); the DM's scene draws the cells as a light veil, so the DM knows what the
players cannot see.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from battlemap.model.grid import Grid
from battlemap.ui.players.projection import PlayerView
from battlemap.ui.players.soft_fog import (
    CellGrid,
    MaskLayers,
    ScreenCache,
    SoftMask,
    build_mask,
    cell_grid,
    grid_path,
    mask_box,
)
from battlemap.ui.style import cell_to_scene


class FogItem(QGraphicsItem):
    """Fills the cells a ``PlayerView`` hides with ``unseen`` and its explored ones with
    ``explored``; a view without fog draws nothing. ``soft``: where the view gives sight
    polygons, the seen cells are drawn along them with a feathered edge (``soft_fog``)."""

    def __init__(
        self, grid: Grid, unseen: QColor, explored: QColor, z: float, soft: bool = False
    ) -> None:
        super().__init__()
        self.soft = soft
        self.mask: SoftMask | None = None
        self._screen = ScreenCache()
        self.setZValue(z)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.grid = grid
        self.colours = (unseen, explored)
        self.unseen = QPainterPath()
        self.explored = QPainterPath()
        self._bounds = self._grid_rect()

    def show_view(self, view: PlayerView, beyond: QRectF | None = None) -> None:
        """Cover what ``view`` hides; under fog also ``beyond`` (scene units) outside the
        grid: the DM's map image reaching past it, which the players never see."""
        self.prepareGeometryChange()
        self.grid = view.grid
        self.mask = None
        self._screen.clear()
        if view.visible is None:
            self.unseen, self.explored = QPainterPath(), QPainterPath()
        else:
            width, height = view.grid.width, view.grid.height
            visible = cell_grid(view.visible, width, height)
            explored = cell_grid(view.explored, width, height)
            unseen = ~(visible | explored)
            self.unseen = grid_path(unseen, cell_to_scene(1))
            self.explored = grid_path(explored, cell_to_scene(1))
            if self.soft and view.sight_areas is not None:
                self._soften(view, visible, unseen)
            if beyond is not None:
                outside = QPainterPath()
                outside.addRect(beyond)
                grid = QPainterPath()
                grid.addRect(self._grid_rect())
                self.unseen.addPath(outside.subtracted(grid))
        self._bounds = self._grid_rect().united(self.unseen.boundingRect())
        self.update()

    def _soften(self, view: PlayerView, visible: CellGrid, unseen: CellGrid) -> None:
        """Draw the cells around the seen ones from a soft mask; the explored cells outside
        it stay as crisp as before (the unseen ones are always drawn crisply, over it)."""
        assert view.sight_areas is not None
        sight = cell_grid(view.sight_cells, view.grid.width, view.grid.height)
        box = mask_box(sight)
        if box is None:
            return
        col, row, cols, rows = box
        inside = np.zeros_like(sight)
        inside[row : row + rows, col : col + cols] = True
        layers = MaskLayers(
            known=inside & ~unseen,
            revealed=inside & visible & ~sight,
            unseen=inside & unseen,
            beside=inside & ~unseen & ~visible,
        )
        self.mask = build_mask(box, *self.colours, layers, view.sight_areas)
        outside = ~inside & ~unseen & ~visible  # explored, drawn crisply as before
        self.explored = grid_path(outside, cell_to_scene(1))

    def _grid_rect(self) -> QRectF:
        return QRectF(0, 0, cell_to_scene(self.grid.width), cell_to_scene(self.grid.height))

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        if self.soft:  # the players' view moves rarely: most frames copy the last one's fog
            self._screen.draw(painter, self._bounds, self._paint)
        else:
            self._paint(painter)

    def _paint(self, painter: QPainter) -> None:
        painter.setPen(Qt.PenStyle.NoPen)
        painter.fillPath(self.explored, self.colours[1])
        if self.mask is not None:
            smooth = painter.testRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
            painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
            painter.drawImage(self.mask.scene_rect, self.mask.image)
            painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, smooth)
        painter.fillPath(self.unseen, self.colours[0])
