"""The players' scene: drawn from a ``PlayerView`` only, never from the encounter itself."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsScene,
    QStyleOptionGraphicsItem,
    QWidget,
)

from battlemap.model.document import Document
from battlemap.model.fog import Cell
from battlemap.model.ids import EntityId
from battlemap.ui import style
from battlemap.ui.background_item import BackgroundLayer
from battlemap.ui.map_items import Z_TOKEN
from battlemap.ui.map_layer import MapLayer
from battlemap.ui.players.projection import HealthState, PlayerToken, PlayerView
from battlemap.ui.style import cell_to_scene
from battlemap.ui.token_look import HIGHLIGHT, NamePlate, disc_rect, initials, paint_disc

Z_FOG = 50
UNSEEN = QColor("#000000")
EXPLORED_DIM = QColor(0, 0, 0, 150)
HEALTH_RING = {
    HealthState.UNHURT: None,
    HealthState.BLOODIED: QColor("#b00020"),
    HealthState.DOWN: QColor("#555555"),
    HealthState.DEAD: QColor("#111111"),
}


class PlayerTokenItem(QGraphicsItem):
    """A token for the players: label, side colour, health ring, condition initials."""

    def __init__(self, token: PlayerToken) -> None:
        super().__init__()
        self.setZValue(Z_TOKEN)
        self.token = token
        self.plate = NamePlate(self)
        self.update_from(token)

    def update_from(self, token: PlayerToken) -> None:
        self.prepareGeometryChange()
        self.token = token
        self.setPos(cell_to_scene(token.x), cell_to_scene(token.y))
        self.plate.place(token.label, cell_to_scene(token.space_cells))
        self.update()

    def boundingRect(self) -> QRectF:
        side = cell_to_scene(self.token.space_cells)
        return QRectF(0, 0, side, side)

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        token = self.token
        side = cell_to_scene(token.space_cells)
        colour = QColor(style.SIDE_COLOURS[token.side])
        if token.health in (HealthState.DOWN, HealthState.DEAD):
            colour = colour.darker(250)
        ring = HEALTH_RING[token.health]
        outline = HIGHLIGHT if token.acting_now else (ring or colour.darker(160))
        width = max(3.0, side * (0.1 if token.acting_now else 0.07))
        paint_disc(painter, side, colour, outline, width, initials(token.label))
        disc = disc_rect(side)
        if token.health is HealthState.DEAD:
            painter.setPen(QPen(QColor("#dddddd"), side * 0.06))
            painter.drawLine(disc.topLeft(), disc.bottomRight())
            painter.drawLine(disc.topRight(), disc.bottomLeft())
        if token.conditions:
            font = QFont()
            font.setBold(True)
            font.setPixelSize(max(7, int(side * 0.16)))
            painter.setFont(font)
            badges = " ".join(name[:2].capitalize() for name in token.conditions)
            painter.setPen(HIGHLIGHT)
            painter.drawText(QRectF(0, 0, side, side * 0.3), Qt.AlignmentFlag.AlignCenter, badges)


class FogItem(QGraphicsItem):
    """Black over cells the players have never seen, a dim veil over explored ones."""

    def __init__(self, view: PlayerView) -> None:
        super().__init__()
        self.setZValue(Z_FOG)
        self.grid = view.grid
        self.unseen = QPainterPath()
        self.dimmed = QPainterPath()
        if view.visible is None:
            return
        all_cells = {(c, r) for c in range(view.grid.width) for r in range(view.grid.height)}
        known = view.visible | view.explored
        self.unseen = cells_path(all_cells - known)
        self.dimmed = cells_path(set(view.explored))

    def boundingRect(self) -> QRectF:
        return QRectF(0, 0, cell_to_scene(self.grid.width), cell_to_scene(self.grid.height))

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        painter.setPen(Qt.PenStyle.NoPen)
        painter.fillPath(self.dimmed, EXPLORED_DIM)
        painter.fillPath(self.unseen, UNSEEN)


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


class PlayerScene(QGraphicsScene):
    """Shows one ``PlayerView``; ``show_view`` swaps in the next one.

    The document is used for one thing only: the image bytes a background names.
    """

    def __init__(self, document: Document) -> None:
        super().__init__()
        self.setBackgroundBrush(UNSEEN)
        self.tokens: dict[EntityId, PlayerTokenItem] = {}
        self.map_layer = MapLayer(self, tooltips=False)
        self.background_layer = BackgroundLayer(self, document)
        self.fog_item: FogItem | None = None
        self.view_data: PlayerView | None = None

    def show_view(self, view: PlayerView) -> None:
        previous = self.view_data
        self.view_data = view
        self.background_layer.sync(view.background)
        paper = self.background_layer.item is None
        self.map_layer.sync(view.grid, paper, view.terrain, view.obstacles, view.walls)
        fog_key = (view.grid, view.visible, view.explored)
        fog_same = previous is not None and fog_key == (
            previous.grid,
            previous.visible,
            previous.explored,
        )
        if not fog_same or self.fog_item is None:
            if self.fog_item is not None:
                self.removeItem(self.fog_item)
            self.fog_item = FogItem(view)
            self.addItem(self.fog_item)
            self.setSceneRect(
                QRectF(0, 0, cell_to_scene(view.grid.width), cell_to_scene(view.grid.height))
            )
        self._sync_tokens(view)

    def _sync_tokens(self, view: PlayerView) -> None:
        wanted = {token.key: token for token in view.tokens}
        for key in list(self.tokens):
            if key not in wanted:
                self.removeItem(self.tokens.pop(key))
        for key, token in wanted.items():
            item = self.tokens.get(key)
            if item is None:
                item = PlayerTokenItem(token)
                self.tokens[key] = item
                self.addItem(item)
            elif item.token != token:
                item.update_from(token)
