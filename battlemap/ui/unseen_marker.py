"""The DM's mark on a token that the players' window does not draw: a dashed ring round it and
an eye-slash badge at its top right. That is a creature hidden by the DM, or one hiding (the
Hide action) or invisible that is not the party's and that the DM does not show
(``hidden_from_players``). A layer of its own over the token look, kept in step with the
document."""

from __future__ import annotations

from typing import TYPE_CHECKING

import shiboken6
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from battlemap.model.document import Change
from battlemap.model.ids import EntityId
from battlemap.ui.players.projection import CombatFacts, hidden_from_players
from battlemap.ui.token_item import TokenItem

if TYPE_CHECKING:
    from battlemap.ui.map_scene import MapScene

RING_LIGHT = QColor("#ffffff")
RING_DARK = QColor("#202020")
BADGE_BACK = QColor(20, 20, 20, 230)
BADGE_FRONT = QColor("#ffffff")
BADGE_SHARE = 0.36
"""The badge's diameter as a share of the token's side (at least ``BADGE_MIN_PX``)."""
BADGE_MIN_PX = 18.0


class UnseenBadge(QGraphicsItem):
    """Drawn over its token (a child item): the ring and the eye-slash badge."""

    def __init__(self, token: TokenItem) -> None:
        super().__init__()
        self._bounds = QRectF()
        self.fit(token)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setZValue(1)  # over the disc and the name plate
        self.setToolTip("Not on the players' window")
        self.setParentItem(token)  # last: Qt asks for the bounds as it adds the item

    def fit(self, token: TokenItem) -> None:
        """Size to ``token``'s side (after it changed size)."""
        self.prepareGeometryChange()
        side = token.boundingRect().width()
        self._side = side
        self._badge = max(BADGE_MIN_PX, side * BADGE_SHARE)
        reach = self._badge * 0.25
        self._bounds = QRectF(-reach, -reach, side + 2 * reach, side + 2 * reach)

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        side = self._side
        ring = QRectF(0, 0, side, side).adjusted(1, 1, -1, -1)
        width = max(2.0, side * 0.04)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        # Light dashes over dark ones: seen on a dark map image and on paper alike.
        painter.setPen(QPen(RING_DARK, width * 1.6))
        painter.drawEllipse(ring)
        dashes = QPen(RING_LIGHT, width, Qt.PenStyle.DashLine)
        painter.setPen(dashes)
        painter.drawEllipse(ring)
        self._paint_badge(painter)

    def _paint_badge(self, painter: QPainter) -> None:
        size = self._badge
        centre = QPointF(self._side - size * 0.3, size * 0.3)
        painter.setPen(QPen(BADGE_FRONT, max(1.0, size * 0.06)))
        painter.setBrush(BADGE_BACK)
        painter.drawEllipse(centre, size / 2, size / 2)
        eye = QRectF(0, 0, size * 0.62, size * 0.34)
        eye.moveCenter(centre)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawEllipse(eye)
        painter.setBrush(BADGE_FRONT)
        painter.drawEllipse(centre, size * 0.08, size * 0.08)
        slash = size * 0.3
        pen = QPen(BADGE_FRONT, max(1.5, size * 0.09))
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        painter.setPen(pen)
        painter.drawLine(centre + QPointF(-slash, slash), centre + QPointF(slash, -slash))


class UnseenMarkers:
    """Puts an ``UnseenBadge`` on every token the players' window does not draw, and takes
    it off again, on every change to the document."""

    def __init__(self, scene: MapScene) -> None:
        self.scene = scene
        self.badges: dict[EntityId, UnseenBadge] = {}
        scene.document.subscribe(self.refresh)  # after the scene's own: tokens exist by then
        self.refresh()

    def refresh(self, change: Change | None = None) -> None:
        # imported here: the combat package imports the tools and drag feedback, which import
        # the map scene, which imports this module (``import battlemap.ui.map_scene`` failed)
        from battlemap.ui.combat.session import combat_facts

        encounter = self.scene.document.encounter
        facts = combat_facts(encounter, self.scene.ruleset_of(encounter)) or CombatFacts()
        marked = {
            creature.id for creature in encounter.creatures if hidden_from_players(creature, facts)
        }
        for creature_id in list(self.badges):
            badge = self.badges[creature_id]
            token = self.scene.tokens.get(creature_id)
            if creature_id not in marked or token is None or badge.parentItem() is not token:
                del self.badges[creature_id]
                if shiboken6.isValid(badge) and badge.scene() is not None:
                    badge.scene().removeItem(badge)
        for creature_id in marked:
            token = self.scene.tokens.get(creature_id)
            if token is None:
                continue
            kept = self.badges.get(creature_id)
            if kept is None:
                self.badges[creature_id] = UnseenBadge(token)
            else:
                kept.fit(token)
