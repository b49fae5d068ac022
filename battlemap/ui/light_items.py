"""The DM's map shows every light: a small sun to drag (or right-click) and faint rings at its
bright and dim radii. A carried light shows only its rings, round its carrier: it moves with
the token, so there is nothing to drag.

The DM sees every light, wherever the party is; the players' window draws light from the
projection alone (``ui/players/light_layer``).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsScene,
    QGraphicsSceneMouseEvent,
    QStyleOptionGraphicsItem,
    QWidget,
)

from battlemap.geometry.illumination import light_centre
from battlemap.model.encounter import Encounter
from battlemap.model.features import Light, Point
from battlemap.model.ids import EntityId
from battlemap.ui.map_items import Z_TOKEN
from battlemap.ui.style import cell_to_scene, scene_to_cell

Z_LIGHT_ICON = Z_TOKEN - 1
"""Under the tokens: a torch lying where a creature stands never hides it."""
ICON_RADIUS = 9.0
"""Scene units (a cell is 64): the sun's disc."""
BRIGHT_RING = QColor(255, 200, 60, 140)
DIM_RING = QColor(255, 200, 60, 90)
SUN = QColor("#ffc83c")
SUN_EDGE = QColor("#7a5200")

Moved = Callable[[EntityId, Point], None]
"""Told when the DM has dragged a light to a new centre (cells)."""


class LightItem(QGraphicsItem):
    """One light on the DM's map; its position is the light's centre (scene units)."""

    def __init__(self, light: Light, centre: Point, on_moved: Moved, carried: bool) -> None:
        super().__init__()
        self.on_moved = on_moved
        self.setZValue(Z_LIGHT_ICON)
        self.light = light
        self.carried = carried
        self._pressed_at: QPointF | None = None
        self.update_from(light, centre, carried)

    @property
    def light_id(self) -> EntityId:
        return self.light.id

    def update_from(self, light: Light, centre: Point, carried: bool) -> None:
        """``carried``: by a creature on the map (a light whose carrier has gone lies at its
        position, and is dragged and removed like any other)."""
        self.prepareGeometryChange()
        self.light = light
        self.carried = carried
        self.setPos(cell_to_scene(centre[0]), cell_to_scene(centre[1]))
        movable = not self.carried
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsMovable, movable)
        self.setAcceptedMouseButtons(
            Qt.MouseButton.LeftButton | Qt.MouseButton.RightButton
            if movable
            else Qt.MouseButton.NoButton
        )
        self.setCursor(Qt.CursorShape.SizeAllCursor if movable else Qt.CursorShape.ArrowCursor)
        self.setToolTip(
            f"{light.name.capitalize()}: bright {light.bright_cells:g} cells, dim to "
            f"{light.dim_cells:g} (drag to move, right-click to remove)"
        )
        self.update()

    def boundingRect(self) -> QRectF:
        reach = max(cell_to_scene(self.light.dim_cells), ICON_RADIUS) + 2
        return QRectF(-reach, -reach, 2 * reach, 2 * reach)

    def shape(self) -> QPainterPath:
        """Only the sun takes clicks: the rings let them through to the map and tokens."""
        path = QPainterPath()
        if not self.carried:
            path.addEllipse(QPointF(0, 0), ICON_RADIUS, ICON_RADIUS)
        return path

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        lod = max(option.levelOfDetailFromTransform(painter.worldTransform()), 1e-3)
        for radius, colour, style in (
            (self.light.bright_cells, BRIGHT_RING, Qt.PenStyle.SolidLine),
            (self.light.dim_cells, DIM_RING, Qt.PenStyle.DashLine),
        ):
            if radius > 0:
                pen = QPen(colour, 1.5 / lod, style)
                painter.setPen(pen)
                painter.drawEllipse(QPointF(0, 0), cell_to_scene(radius), cell_to_scene(radius))
        if self.carried:
            return
        painter.setPen(QPen(SUN_EDGE, 1.5))
        for step in range(8):  # rays
            painter.save()
            painter.rotate(step * 45)
            painter.drawLine(QPointF(ICON_RADIUS * 0.9, 0), QPointF(ICON_RADIUS * 1.5, 0))
            painter.restore()
        painter.setBrush(QBrush(SUN))
        painter.drawEllipse(QPointF(0, 0), ICON_RADIUS * 0.75, ICON_RADIUS * 0.75)

    def mousePressEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        self._pressed_at = self.pos()
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        super().mouseReleaseEvent(event)
        start, self._pressed_at = self._pressed_at, None
        if start is not None and self.pos() != start:
            self.on_moved(
                self.light_id, (scene_to_cell(self.pos().x()), scene_to_cell(self.pos().y()))
            )


class LightLayer:
    """Keeps one ``LightItem`` per light of the encounter in ``scene``."""

    def __init__(self, scene: QGraphicsScene, on_moved: Moved) -> None:
        self.scene = scene
        self.on_moved = on_moved
        self.items: dict[EntityId, LightItem] = {}

    def sync(self, encounter: Encounter) -> None:
        present = {light.id for light in encounter.lights}
        for light_id in list(self.items):
            if light_id not in present:
                self.scene.removeItem(self.items.pop(light_id))
        creatures = {creature.id for creature in encounter.creatures}
        for light in encounter.lights:
            centre = light_centre(light, encounter)
            carried = light.carried_by in creatures
            item = self.items.get(light.id)
            if item is None:
                item = LightItem(light, centre, self.on_moved, carried)
                self.items[light.id] = item
                self.scene.addItem(item)
            else:
                item.update_from(light, centre, carried)

    def light_at(self, scene_pos: QPointF) -> LightItem | None:
        """The draggable light whose sun lies under ``scene_pos``."""
        for item in self.scene.items(scene_pos):
            if isinstance(item, LightItem) and not item.carried:
                return item
        return None
