"""A creature's token: a disc filling its space, coloured by side, that the DM drags."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPen
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
from battlemap.ui.style import cell_to_scene

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
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsMovable)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable)
        self.setCursor(Qt.CursorShape.OpenHandCursor)
        self.setZValue(Z_TOKEN)
        self.update_from(creature, cell_feet)

    def update_from(self, creature: Creature, cell_feet: float) -> None:
        self.prepareGeometryChange()
        self.creature = creature
        self._side_px = cell_to_scene(creature.space_cells(cell_feet))
        self.setPos(cell_to_scene(creature.x), cell_to_scene(creature.y))
        self.setToolTip(f"{creature.name} ({creature.size.value}, {creature.side.value})")
        self.update()

    def boundingRect(self) -> QRectF:
        return QRectF(0, 0, self._side_px, self._side_px)

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        side = self._side_px
        margin = side * 0.06
        disc = QRectF(margin, margin, side - 2 * margin, side - 2 * margin)
        colour = style.SIDE_COLOURS[self.creature.side]
        outline = QColor("#ffe066") if self.isSelected() else colour.darker(160)
        painter.setPen(QPen(outline, max(2.0, side * 0.05)))
        painter.setBrush(QBrush(colour))
        painter.drawEllipse(disc)
        painter.setPen(style.TOKEN_LABEL)
        font = QFont()
        font.setPixelSize(max(8, int(min(side * 0.22, 28))))
        font.setBold(True)
        painter.setFont(font)
        label = (
            self.creature.name if side >= 2 * style.SCENE_UNITS_PER_CELL else self.creature.name[:3]
        )
        painter.drawText(disc, Qt.AlignmentFlag.AlignCenter, label)

    def mousePressEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        self._dragging = event.button() == Qt.MouseButton.LeftButton
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        super().mouseReleaseEvent(event)
        if self._dragging:
            self._dragging = False
            self._on_drop(self.creature_id, self.pos())
