"""A creature's token: a disc filling its space, in its own or its side's colour, showing its
turn, its state and its conditions (``token_paint``, ``condition_icons``); the DM drags it."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsRectItem,
    QGraphicsSceneHoverEvent,
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
from battlemap.ui.token_labels import TokenLabels
from battlemap.ui.token_look import initials
from battlemap.ui.token_paint import BADGES, DiscLook, paint_disc_state
from battlemap.ui.token_state import TokenState, Vital
from battlemap.ui.zoom_cache import ZoomCache

HP_COLOURS = (QColor("#3cb371"), QColor("#e0a030"))
HP_BAR_BACK = QColor(0, 0, 0, 160)

DropHandler = Callable[[EntityId, QPointF], None]
Z_LABELS = Z_TOKEN + 1
"""Name plates and condition icons stack over every token (none covers a neighbour's)."""


class TokenItem(QGraphicsRectItem):
    """Draws one creature. Its local origin is the top-left corner of the creature's space.

    A rect item with no pen, its rect the creature's space: Qt reads the bounds it asks for
    several times a frame from C++, not from a Python ``boundingRect`` (~4 us a call).

    The item moves freely while dragged; on release it hands the drop position to
    ``on_drop``, which decides (through a command) where the creature ends up.
    """

    def __init__(
        self,
        creature: Creature,
        cell_feet: float,
        on_drop: DropHandler,
        state: TokenState | None = None,
    ) -> None:
        super().__init__()
        self.setPen(Qt.PenStyle.NoPen)
        self.creature_id = creature.id
        self._on_drop = on_drop
        self._dragging = False
        self.drop_modifiers = Qt.KeyboardModifier.NoModifier
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsMovable)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable)
        self.setCursor(Qt.CursorShape.OpenHandCursor)
        self.setAcceptHoverEvents(True)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemSendsGeometryChanges)  # labels follow
        self.setZValue(Z_TOKEN)
        self.labels = TokenLabels(Z_LABELS)
        self.plate, self.conditions = self.labels.items()
        self._looks = ZoomCache()
        self._look_version = 0
        """Bumped on every new look: the pixmaps' key (a tuple of ints hashes fast, every
        frame), so a state change is drawn anew and the old pixmaps age out."""
        self.state = state or TokenState()
        self.update_from(creature, cell_feet)

    def show_state(self, state: TokenState) -> None:
        """Show the creature's turn, vital state and conditions (a redraw only if changed)."""
        if state == self.state:
            return
        self.state = state
        self.labels.place_marks(state.marks, self._side_px, self.pos())
        self._set_look()
        self.update()

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
        self.labels.set_opacity(self.opacity())  # not children: faded on their own
        self.setCacheMode(self.labels.cache_mode(self.opacity()))  # as the labels: see there
        # Drawn once per zoom bucket into a screen-resolution pixmap, then copied: a frame of
        # a hundred tokens strokes no discs, nor does a zoom step to a zoom drawn before. A
        # token hidden from the players is painted directly (see-through: ZoomCache.draw).
        self._looks.clear()
        # What paint() draws, worked out here once per change instead of on every frame.
        side = self._side_px
        self._bounds = QRectF(0, 0, side, side)
        self.setRect(self._bounds)
        self._fill = creature.colour or style.SIDE_COLOURS[creature.side].name()
        self._initials = initials(creature.name)
        self.labels.place(creature.name, self.state.marks, side, self.pos())
        self._set_look()
        self.update()

    def _set_look(self) -> None:
        state = self.state
        badge = BADGES.get(state.vital)
        self._look = DiscLook(
            fill=self._fill,
            text=self._initials,
            acting=state.acting,
            vital=state.vital,
            bloodied=state.bloodied,
            dashed=self.creature.hidden,
            badge=badge is not None and all(mark.name != badge for mark in state.marks),
            image=self.creature.token_image,
            shape=self.creature.token_shape,
        )
        self._selected_look = DiscLook(**{**self._look.__dict__, "selected": True})
        self._look_version += 1
        self._hp_bar: tuple[QRectF, QRectF, QColor] | None = None
        creature, side = self.creature, self._side_px
        if creature.max_hp > 0 and state.vital is not Vital.DEAD:  # never drawn for players
            # inside the outline rings (they read on any floor); shorter when the state
            # badge sits in the bottom right corner
            length = 0.3 if self._look.badge else 0.44
            bar = QRectF(side * 0.28, side * 0.72, side * length, max(3.0, side * 0.07))
            share = max(0.0, min(1.0, creature.hp / creature.max_hp))
            left = QRectF(bar.left(), bar.top(), bar.width() * share, bar.height())
            self._hp_bar = (bar, left, HP_COLOURS[0] if share > 0.5 else HP_COLOURS[1])

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        selected = self.isSelected()
        look = self._selected_look if selected else self._look
        key = (self._look_version, selected)
        self._looks.draw(painter, self._bounds, key, lambda into: self._paint(into, look))

    def _paint(self, painter: QPainter, look: DiscLook) -> None:
        # The scene's decoded pictures (``MapScene.token_images``), shared by its tokens.
        paint_disc_state(painter, self._side_px, look, getattr(self.scene(), "token_images", None))
        if self._hp_bar is not None:
            bar, left, colour = self._hp_bar
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(HP_BAR_BACK)
            painter.drawRect(bar)
            painter.setBrush(colour)
            painter.drawRect(left)

    def itemChange(self, change: QGraphicsItem.GraphicsItemChange, value: object) -> object:
        if change == QGraphicsItem.GraphicsItemChange.ItemPositionChange:
            moved = QPointF(value) - self.pos()  # type: ignore[call-overload]
            self.labels.move_by(moved.x(), moved.y())
        elif change == QGraphicsItem.GraphicsItemChange.ItemSceneHasChanged:
            self.labels.follow_scene(self.scene())
        return super().itemChange(change, value)

    def hoverEnterEvent(self, event: QGraphicsSceneHoverEvent) -> None:
        if self.plate.crowded:  # no room for its name among its neighbours': show it now
            self.plate.setVisible(True)
            self.plate.setZValue(Z_LABELS + 0.5)  # over the plates it is crowded by
        super().hoverEnterEvent(event)

    def hoverLeaveEvent(self, event: QGraphicsSceneHoverEvent) -> None:
        self.plate.setVisible(not self.plate.crowded)
        self.plate.setZValue(Z_LABELS + 0.1)
        super().hoverLeaveEvent(event)

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
