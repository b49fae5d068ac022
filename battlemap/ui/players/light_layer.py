"""The players' window's light: where the party sees only dim light, the map is drawn darker.

Bright light is the map as it is; darkness is what the party cannot see, so the fog covers it
(black, or dimmed where explored). The dim area comes from the projection
(``PlayerView.dim_light``), already cut to the party's sight: no light the party cannot see
is drawn. Under the tokens, so a creature standing in dim light stays readable.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QTransform
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget
from shapely.geometry.base import BaseGeometry

from battlemap.ui.map_items import Z_TOKEN
from battlemap.ui.players.soft_fog import ScreenCache, polygon_path
from battlemap.ui.style import cell_to_scene

DIM_LIGHT = QColor(0, 0, 12, 110)
"""Dim light's veil: darker than bright, lighter than the explored cells' (alpha 150)."""
Z_LIGHT = Z_TOKEN - 1


class DimLightItem(QGraphicsItem):
    """Veils the area the party sees in dim light; nothing when there is none."""

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(Z_LIGHT)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.area: BaseGeometry | None = None
        self.path = QPainterPath()
        self._screen = ScreenCache()

    def show_area(self, area: BaseGeometry | None) -> None:
        """Veil ``area`` (cells); None or empty: nothing."""
        if area is self.area:
            return
        self.prepareGeometryChange()
        self.area = area
        self._screen.clear()
        if area is None or area.is_empty:
            self.path = QPainterPath()
        else:
            unit = cell_to_scene(1)
            self.path = QTransform.fromScale(unit, unit).map(polygon_path(area))
        self.update()

    def boundingRect(self) -> QRectF:
        return self.path.boundingRect()

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        if not self.path.isEmpty():
            self._screen.draw(painter, self.boundingRect(), self._paint)

    def _paint(self, painter: QPainter) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.fillPath(self.path, DIM_LIGHT)
