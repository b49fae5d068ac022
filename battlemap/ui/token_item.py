"""A creature's token: a disc filling its space, coloured by side, that the DM drags."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsSceneMouseEvent,
    QStyleOptionGraphicsItem,
    QWidget,
)

from battlemap.model.creature import Creature
from battlemap.model.ids import EntityId
from battlemap.ui import style
from battlemap.ui.map_items import Z_TOKEN
from battlemap.ui.plain_text import plain_tooltip
from battlemap.ui.style import cell_to_scene
from battlemap.ui.token_look import HIGHLIGHT, NamePlate, initials, paint_disc
from battlemap.ui.zoom_cache import ZoomCache

HP_COLOURS = (QColor("#3cb371"), QColor("#e0a030"))
HP_BAR_BACK = QColor(0, 0, 0, 160)

DropHandler = Callable[[EntityId, QPointF], None]


class TokenItem(QGraphicsItem):
    """Draws one creature. Its local origin is the top-left corner of the creature's space.

    The item moves freely while dragged; on release it hands the drop position to
    ``on_drop``, which decides (through a command) where the creature ends up.
    """

    def __init__(self, creature: Creature, cell_feet: float, on_drop: DropHandler) -> None:
        super().__init__()
        self.creature_id = creature.id
        self._on_drop = on_drop
        self._dragging = False
        self.drop_modifiers = Qt.KeyboardModifier.NoModifier
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsMovable)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable)
        self.setCursor(Qt.CursorShape.OpenHandCursor)
        self.setZValue(Z_TOKEN)
        self.plate = NamePlate(self)
        self._looks = ZoomCache()
        self.update_from(creature, cell_feet)

    def update_from(self, creature: Creature, cell_feet: float) -> None:
        self.prepareGeometryChange()
        self.creature = creature
        self._side_px = cell_to_scene(creature.space_cells(cell_feet))
        self.setPos(cell_to_scene(creature.x), cell_to_scene(creature.y))
        hidden = " — hidden from players" if creature.hidden else ""
        self.setToolTip(
            plain_tooltip(
                f"{creature.name} ({creature.size.value}, {creature.side.value}), "
                f"HP {creature.hp}/{creature.max_hp}, AC {creature.ac}{hidden}"
            )
        )
        self.setOpacity(0.55 if creature.hidden else 1.0)
        # Drawn once per zoom bucket into a screen-resolution pixmap, then copied: a frame of
        # a hundred tokens strokes no discs, nor does a zoom step to a zoom drawn before. A
        # token hidden from the players is painted directly (see-through: ZoomCache.draw).
        self._looks.clear()
        self.plate.setCacheMode(
            QGraphicsItem.CacheMode.NoCache
            if creature.hidden
            else QGraphicsItem.CacheMode.DeviceCoordinateCache
        )
        self.plate.place(creature.name, self._side_px)
        # What paint() draws, worked out here once per change instead of on every frame.
        side = self._side_px
        self._bounds = QRectF(0, 0, side, side)
        self._colour = style.SIDE_COLOURS[creature.side]
        self._outline = self._colour.darker(160)
        self._initials = initials(creature.name)
        self._hp_bar: tuple[QRectF, QRectF, QColor] | None = None
        if creature.max_hp > 0:  # the DM's glance at hit points; never drawn for players
            bar = QRectF(side * 0.2, side * 0.78, side * 0.6, max(3.0, side * 0.07))
            share = max(0.0, min(1.0, creature.hp / creature.max_hp))
            left = QRectF(bar.left(), bar.top(), bar.width() * share, bar.height())
            self._hp_bar = (bar, left, HP_COLOURS[0] if share > 0.5 else HP_COLOURS[1])
        self.update()

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        selected = self.isSelected()
        self._looks.draw(painter, self._bounds, selected, lambda into: self._paint(into, selected))

    def _paint(self, painter: QPainter, selected: bool) -> None:
        side = self._side_px
        paint_disc(
            painter,
            side,
            self._colour,
            HIGHLIGHT if selected else self._outline,
            max(2.0, side * 0.05),
            self._initials,
            dashed=self.creature.hidden,
        )
        if self._hp_bar is not None:
            bar, left, colour = self._hp_bar
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(HP_BAR_BACK)
            painter.drawRect(bar)
            painter.setBrush(colour)
            painter.drawRect(left)

    def mousePressEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        self._dragging = event.button() == Qt.MouseButton.LeftButton
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        super().mouseMoveEvent(event)
        # Live drag feedback (battlemap.ui.drag) listens through the scene's ``drag_hooks``.
        hooks = getattr(self.scene(), "drag_hooks", None)
        if self._dragging and hooks is not None:
            hooks.move(self.creature_id, self.pos(), event.modifiers())

    def mouseReleaseEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        super().mouseReleaseEvent(event)
        if self._dragging:
            self._dragging = False
            self.drop_modifiers = event.modifiers()
            self._on_drop(self.creature_id, self.pos())
