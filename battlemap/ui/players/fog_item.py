"""The fog of war drawn over a map: opaque over unseen cells, a veil over explored ones.

The players' scene draws it black, soft and along the party's visibility polygons
(``soft_fog``); the DM's scene draws the cells as a light veil, so the DM knows what the
players cannot see.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QTransform
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from battlemap.model.fog import Cell
from battlemap.model.grid import Grid
from battlemap.ui.players.projection import PlayerView
from battlemap.ui.players.soft_fog import ScreenCache, SoftMask, build_mask, mask_box
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
            every = {(c, r) for c in range(view.grid.width) for r in range(view.grid.height)}
            unseen = every - view.visible - view.explored
            self.unseen = cells_path(unseen)
            self.explored = cells_path(set(view.explored))
            if self.soft and view.sight_areas is not None:
                self._soften(view, unseen)
            if beyond is not None:
                outside = QPainterPath()
                outside.addRect(beyond)
                grid = QPainterPath()
                grid.addRect(self._grid_rect())
                self.unseen.addPath(outside.subtracted(grid))
        self._bounds = self._grid_rect().united(self.unseen.boundingRect())
        self.update()

    def _soften(self, view: PlayerView, unseen: set[Cell]) -> None:
        """Draw the cells around the seen ones from a soft mask; the explored cells outside
        it stay as crisp as before (the unseen ones are always drawn crisply, over it)."""
        assert view.visible is not None and view.sight_areas is not None
        box = mask_box(view.sight_cells, view.grid.width, view.grid.height)
        if box is None:
            return
        col, row, cols, rows = box
        inside = {(c, r) for c in range(col, col + cols) for r in range(row, row + rows)}
        unit = QTransform.fromScale(1 / cell_to_scene(1), 1 / cell_to_scene(1))
        known = unit.map(cells_path(inside - unseen))
        clear = unit.map(cells_path((inside & view.visible) - view.sight_cells))
        sight = unit.map(cells_path(set(view.sight_cells)))
        unseen_colour, dim = self.colours
        self.mask = build_mask(box, unseen_colour, dim, known, clear, sight, view.sight_areas)
        self.explored = cells_path(set(view.explored) - inside)

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


def cells_path(cells: set[Cell]) -> QPainterPath:
    """One path covering the cells, built from horizontal runs so it holds few rectangles."""
    path = QPainterPath()
    path.setFillRule(Qt.FillRule.WindingFill)
    for row, start, length in _row_runs(cells):
        path.addRect(
            QRectF(
                cell_to_scene(start), cell_to_scene(row), cell_to_scene(length), cell_to_scene(1)
            )
        )
    return path


def _row_runs(cells: set[Cell]) -> list[tuple[int, int, int]]:
    """``(row, first column, length)`` for each horizontal run of consecutive cells."""
    runs: list[tuple[int, int, int]] = []
    for col, row in sorted(cells, key=lambda cell: (cell[1], cell[0])):
        if runs and runs[-1][0] == row and runs[-1][1] + runs[-1][2] == col:
            runs[-1] = (row, runs[-1][1], runs[-1][2] + 1)
        else:
            runs.append((row, col, 1))
    return runs
