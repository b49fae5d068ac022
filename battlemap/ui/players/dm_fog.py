"""A light veil on the DM's map over what the players cannot see, so the DM knows."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from battlemap.model.grid import Grid
from battlemap.ui.players.projection import PlayerView
from battlemap.ui.players.scene import cells_path
from battlemap.ui.style import cell_to_scene

Z_DM_FOG = 5  # over the map, under the tokens (Z_TOKEN = 10)
UNSEEN_VEIL = QColor(20, 20, 60, 90)
EXPLORED_VEIL = QColor(20, 20, 60, 40)


class DmFogOverlay(QGraphicsItem):
    def __init__(self, grid: Grid) -> None:
        super().__init__()
        self.setZValue(Z_DM_FOG)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.grid = grid
        self.unseen = QPainterPath()
        self.explored = QPainterPath()

    def show_view(self, view: PlayerView) -> None:
        self.prepareGeometryChange()
        self.grid = view.grid
        if view.visible is None:
            self.unseen, self.explored = QPainterPath(), QPainterPath()
        else:
            every = {(c, r) for c in range(view.grid.width) for r in range(view.grid.height)}
            self.unseen = cells_path(every - view.visible - view.explored)
            self.explored = cells_path(set(view.explored))
        self.update()

    def boundingRect(self) -> QRectF:
        return QRectF(0, 0, cell_to_scene(self.grid.width), cell_to_scene(self.grid.height))

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        painter.setPen(Qt.PenStyle.NoPen)
        painter.fillPath(self.unseen, UNSEEN_VEIL)
        painter.fillPath(self.explored, EXPLORED_VEIL)
