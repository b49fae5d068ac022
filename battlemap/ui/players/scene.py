"""The players' scene: drawn from a ``PlayerView`` only, never from the encounter itself."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPen
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsScene,
    QStyleOptionGraphicsItem,
    QWidget,
)

from battlemap.model.document import Document
from battlemap.model.grid import Grid
from battlemap.model.ids import EntityId
from battlemap.ui import style
from battlemap.ui.background_item import BackgroundLayer
from battlemap.ui.map_items import Z_TOKEN
from battlemap.ui.map_layer import MapLayer
from battlemap.ui.players.fog_item import FogItem
from battlemap.ui.players.projection import HealthState, PlayerToken, PlayerView
from battlemap.ui.style import cell_to_scene
from battlemap.ui.token_look import (
    HIGHLIGHT,
    NamePlate,
    condition_badges,
    disc_rect,
    initials,
    paint_disc,
)

Z_FOG = 50
Z_PLATE = Z_FOG + 1
"""Name plates of the tokens the players see draw over the fog: a plate hangs below its
token and would otherwise be cut where the party's sight ends. Only tokens in the
projection have plates, so nothing hidden shows."""
UNSEEN = QColor("#000000")
EXPLORED_DIM = QColor(0, 0, 0, 150)
UNSEEN_OPACITY = 0.55
"""A hiding or invisible token the players are shown (their own, or the DM's choice) is
drawn see-through with a dashed outline, as the DM's window draws one hidden from them."""
HEALTH_RING = {
    HealthState.UNHURT: None,
    HealthState.BLOODIED: QColor("#b00020"),
    HealthState.DOWN: QColor("#555555"),
    HealthState.DEAD: QColor("#111111"),
}


class PlayerTokenItem(QGraphicsItem):
    """A token for the players: label, side colour, health ring, condition initials.

    Its name plate is not a child (a child can't stack above the fog while its token stays
    under it) but a top-level item at ``Z_PLATE`` that the token adds to and removes from
    its scene with itself (``itemChange``).
    """

    def __init__(self, token: PlayerToken) -> None:
        super().__init__()
        self.setZValue(Z_TOKEN)
        self.token = token
        self.plate = NamePlate(None)  # type: ignore[arg-type]  # top-level: None is accepted
        self.plate.setZValue(Z_PLATE)
        self.update_from(token)

    def update_from(self, token: PlayerToken) -> None:
        self.prepareGeometryChange()
        self.token = token
        self.setPos(cell_to_scene(token.x), cell_to_scene(token.y))
        self.plate.place(token.label, cell_to_scene(token.space_cells))
        self.plate.moveBy(self.pos().x(), self.pos().y())  # place() set it token-relative
        opacity = UNSEEN_OPACITY if token.unseen else 1.0
        self.setOpacity(opacity)
        self.plate.setOpacity(opacity)  # not a child: set on its own
        self.update()

    def itemChange(self, change: QGraphicsItem.GraphicsItemChange, value: object) -> object:
        if change == QGraphicsItem.GraphicsItemChange.ItemSceneHasChanged:
            scene = self.scene()
            if self.plate.scene() is not None and self.plate.scene() is not scene:
                self.plate.scene().removeItem(self.plate)
            if scene is not None and self.plate.scene() is None:
                scene.addItem(self.plate)
        return super().itemChange(change, value)

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
        paint_disc(
            painter, side, colour, outline, width, initials(token.label), dashed=token.unseen
        )
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
            badges = condition_badges(token.conditions)
            painter.setPen(HIGHLIGHT)
            painter.drawText(QRectF(0, 0, side, side * 0.3), Qt.AlignmentFlag.AlignCenter, badges)


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
        self.fog_item = FogItem(Grid(), UNSEEN, EXPLORED_DIM, Z_FOG)
        self.addItem(self.fog_item)
        self.view_data: PlayerView | None = None

    def show_view(self, view: PlayerView) -> None:
        previous = self.view_data
        self.view_data = view
        self.background_layer.sync(view.background, view.background_clip)
        paper = self.background_layer.item is None
        self.map_layer.sync(view.grid, paper, view.terrain, view.obstacles, view.walls)
        fog_key = (view.grid, view.visible, view.explored)
        if previous is None or fog_key != (previous.grid, previous.visible, previous.explored):
            self.fog_item.show_view(view)
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
