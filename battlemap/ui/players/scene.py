"""The players' scene: drawn from a ``PlayerView`` only, never from the encounter itself."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen
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
from battlemap.ui.condition_icons import marks_for
from battlemap.ui.map_items import Z_TOKEN
from battlemap.ui.map_layer import MapLayer
from battlemap.ui.plate_layout import spread_plates
from battlemap.ui.players.facing import turn_about
from battlemap.ui.players.fog_item import FogItem
from battlemap.ui.players.light_layer import DimLightItem
from battlemap.ui.players.projection import HealthState, PlayerToken, PlayerView
from battlemap.ui.style import cell_to_scene
from battlemap.ui.token_image import TokenImages
from battlemap.ui.token_labels import TokenLabels
from battlemap.ui.token_look import disc_rect, initials
from battlemap.ui.token_paint import (
    BLOODIED_RING,
    DOWN_RING,
    TURN_RING,
    DiscLook,
    paint_disc_state,
)
from battlemap.ui.token_state import Vital
from battlemap.ui.zoom_cache import ZoomCache

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
    HealthState.BLOODIED: BLOODIED_RING,
    HealthState.DOWN: DOWN_RING,
    HealthState.DEAD: QColor("#111111"),
}
"""The health rings' colours, for the phones' page (``share.page``) to match this window."""
VITALS = {
    HealthState.UNHURT: Vital.UP,
    HealthState.BLOODIED: Vital.UP,
    HealthState.DOWN: Vital.DOWN,
    HealthState.DEAD: Vital.DEAD,
}


class PlayerTokenItem(QGraphicsItem):
    """A token for the players: label, colour, turn ring, health look and condition icons,
    drawn as the DM's token draws them (``token_paint``, ``condition_icons``).

    Its name plate and condition icons are not children (a child can't stack above the fog
    while its token stays under it) but top-level items at ``Z_PLATE`` (``TokenLabels``).
    """

    def __init__(self, token: PlayerToken, images: TokenImages | None = None) -> None:
        super().__init__()
        self.images = images
        self.setZValue(Z_TOKEN)
        self.token = token
        self.labels = TokenLabels(Z_PLATE)
        self.plate, self.conditions = self.labels.items()
        self._looks = ZoomCache()
        self._look_version = 0
        self.plate_angle = 0.0
        """How far its plate, icons and disc turn to face a seat (``players.facing``)."""
        self.update_from(token)

    def update_from(self, token: PlayerToken) -> None:
        self.prepareGeometryChange()
        self.token = token
        self.setPos(cell_to_scene(token.x), cell_to_scene(token.y))
        side = cell_to_scene(token.space_cells)
        self._side = side
        self._bounds = QRectF(0, 0, side, side)
        marks = marks_for([(name, 1) for name in token.conditions], token.exhaustion)
        self.labels.place(token.label, marks, side, self.pos())
        self._turn_labels()
        opacity = UNSEEN_OPACITY if token.unseen else 1.0
        self.setOpacity(opacity)
        self.labels.set_opacity(opacity)  # not children: set on their own
        self.look = DiscLook(
            fill=token.colour or style.SIDE_COLOURS[token.side].name(),
            text=initials(token.label),
            acting=token.acting_now,
            vital=VITALS[token.health],
            bloodied=token.health is HealthState.BLOODIED,
            dashed=token.unseen,
            image=token.image,
            shape=token.shape,
        )
        self._looks.clear()
        self._look_version += 1  # the pixmaps' key: a state change is drawn anew
        self.update()

    def turn_to(self, angle: float) -> bool:
        """Face a seat ``angle`` degrees round (``players.facing``); whether it turned."""
        if angle == self.plate_angle:
            return False
        self.plate_angle = angle
        self._turn_labels()
        self._look_version += 1  # the disc's letters or picture turn too
        self.update()
        return True

    def _turn_labels(self) -> None:
        space = QRectF(self.pos(), self._bounds.size())
        turn_about(self.plate, self.plate.home, space, self.plate_angle)
        turn_about(self.conditions, self.conditions.pos(), space, self.plate_angle)

    def itemChange(self, change: QGraphicsItem.GraphicsItemChange, value: object) -> object:
        if change == QGraphicsItem.GraphicsItemChange.ItemSceneHasChanged:
            self.labels.follow_scene(self.scene())
        return super().itemChange(change, value)

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        self._looks.draw(
            painter,
            self._bounds,
            self._look_version,
            self._paint,
        )

    def _paint(self, painter: QPainter) -> None:
        painter.save()
        if self.plate_angle:  # the letters (or picture) face the seat, as the plate does
            middle = self._bounds.center()
            painter.translate(middle)
            painter.rotate(self.plate_angle)
            painter.translate(-middle)
        self._paint_upright(painter)
        painter.restore()

    def _paint_upright(self, painter: QPainter) -> None:
        if self.token.miniature:
            paint_miniature_base(painter, self._side, self.token.acting_now)
            return
        paint_disc_state(painter, self._side, self.look, self.images)
        if self.token.health_left is not None:
            paint_health_ring(painter, self._side, self.token.health_left)


def paint_miniature_base(painter: QPainter, side: float, acting: bool) -> None:
    """Where a physical miniature stands: nothing (the map shows through), but the turn ring
    around its base while it acts, as a token's."""
    if not acting:
        return
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    disc = disc_rect(side)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.setPen(QPen(TURN_RING, disc.left() * 1.5))
    painter.drawEllipse(disc)


HEALTH_RING_BACK = QColor(0, 0, 0, 170)
HEALTH_RING_COLOURS = (QColor("#3cb371"), QColor("#e0a030"), QColor("#d02020"))
"""Green above half, amber to a quarter, red below: as the DM's bar, without numbers."""


def paint_health_ring(painter: QPainter, side: float, left: float) -> None:
    """The share of hit points ``left`` as a ring inside the token's outline, clockwise
    from the top; the rest of the ring dark."""
    width = side * 0.09
    disc = disc_rect(side)
    inset = side * 0.1
    ring = disc.adjusted(inset, inset, -inset, -inset)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.setPen(QPen(HEALTH_RING_BACK, width))
    painter.drawEllipse(ring)
    colour = HEALTH_RING_COLOURS[0 if left > 0.5 else (1 if left > 0.25 else 2)]
    pen = QPen(colour, width * 0.7)
    pen.setCapStyle(Qt.PenCapStyle.FlatCap)
    painter.setPen(pen)
    painter.drawArc(ring, 90 * 16, round(-left * 360 * 16))


class PlayerScene(QGraphicsScene):
    """Shows one ``PlayerView``; ``show_view`` swaps in the next one.

    The document is used for one thing only: the image bytes the view names (the
    background's and the tokens' pictures).
    """

    def __init__(self, document: Document) -> None:
        super().__init__()
        self.setBackgroundBrush(UNSEEN)
        self.tokens: dict[EntityId, PlayerTokenItem] = {}
        self.map_layer = MapLayer(self, tooltips=False)
        self.background_layer = BackgroundLayer(self, document)
        self.token_images = TokenImages(lambda: document.images)
        self.fog_item = FogItem(Grid(), UNSEEN, EXPLORED_DIM, Z_FOG, soft=True)
        self.addItem(self.fog_item)
        self.dim_light = DimLightItem()
        self.addItem(self.dim_light)
        self.view_data: PlayerView | None = None

    def show_view(self, view: PlayerView) -> None:
        previous = self.view_data
        self.view_data = view
        self.background_layer.sync(view.background, view.background_clip)
        paper = self.background_layer.item is None
        self.map_layer.sync(view.grid, paper, view.terrain, view.obstacles, view.walls)
        fog_key = (view.grid, view.visible, view.explored, view.sight_areas)
        if previous is None or fog_key != (
            previous.grid,
            previous.visible,
            previous.explored,
            previous.sight_areas,
        ):
            self.fog_item.show_view(view)
            self.setSceneRect(
                QRectF(0, 0, cell_to_scene(view.grid.width), cell_to_scene(view.grid.height))
            )
        self.dim_light.show_area(view.dim_light)
        self._sync_tokens(view)

    def _sync_tokens(self, view: PlayerView) -> None:
        wanted = {token.key: token for token in view.tokens}
        changed = False
        for key in list(self.tokens):
            if key not in wanted:
                self.removeItem(self.tokens.pop(key))
                changed = True
        for key, token in wanted.items():
            item = self.tokens.get(key)
            if item is None:
                item = PlayerTokenItem(token, self.token_images)
                self.tokens[key] = item
                self.addItem(item)
                changed = True
            elif item.token != token:
                item.update_from(token)
                changed = True
        if changed:
            self.layout_plates()

    def set_plate_angles(self, angles: dict[EntityId, float]) -> None:
        """Turn the tokens named (plates, icons and discs) to face their seats
        (``players.facing``); the plates laid out again if one turned."""
        turned = False
        for key, angle in angles.items():
            item = self.tokens.get(key)
            if item is not None and item.turn_to(angle):
                turned = True
        if turned:
            self.layout_plates()

    def layout_plates(self) -> None:
        """No two plates overlap, nor a plate the condition icons (``plate_layout``, the
        DM's map's rule)."""
        items = self.tokens.values()
        spread_plates(
            (item.plate for item in items),
            (item.conditions.sceneBoundingRect() for item in items if item.conditions.marks),
            first=next((item.plate for item in items if item.token.acting_now), None),
            tokens=(item.sceneBoundingRect() for item in items),
        )
