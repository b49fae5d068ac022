"""The fog of war drawn over a map: opaque over unseen cells, a veil over explored ones.

The players' scene draws it black; the DM's scene draws the same shape as a light veil, so
the DM knows what the players cannot see.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from battlemap.model.fog import Cell
from battlemap.model.grid import Grid
from battlemap.ui.players.projection import PlayerView
from battlemap.ui.style import cell_to_scene


class FogItem(QGraphicsItem):
    """Fills the cells a ``PlayerView`` hides with ``unseen`` and its explored ones with
    ``explored``; a view without fog draws nothing."""

    def __init__(self, grid: Grid, unseen: QColor, explored: QColor, z: float) -> None:
        super().__init__()
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
        if view.visible is None:
            self.unseen, self.explored = QPainterPath(), QPainterPath()
        else:
            every = {(c, r) for c in range(view.grid.width) for r in range(view.grid.height)}
            self.unseen = cells_path(every - view.visible - view.explored)
            self.explored = cells_path(set(view.explored))
            if beyond is not None:
                outside = QPainterPath()
                outside.addRect(beyond)
                grid = QPainterPath()
                grid.addRect(self._grid_rect())
                self.unseen.addPath(outside.subtracted(grid))
        self._bounds = self._grid_rect().united(self.unseen.boundingRect())
        self.update()

    def _grid_rect(self) -> QRectF:
        return QRectF(0, 0, cell_to_scene(self.grid.width), cell_to_scene(self.grid.height))

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        painter.setPen(Qt.PenStyle.NoPen)
        painter.fillPath(self.explored, self.colours[1])
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
