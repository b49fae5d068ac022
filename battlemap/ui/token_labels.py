"""A token's name plate and condition icons, as top-level items stacked over every token.

Children of a token would draw under any token added after it (Qt stacks a child with its
parent), so a neighbour covered the plate's end ("Thorin Oake"). The token adds these to
its scene and takes them out with itself (``follow_scene``) and moves them with itself
(``move_by``, while dragged).
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QPointF
from PySide6.QtWidgets import QGraphicsItem, QGraphicsScene

from battlemap.ui.condition_icons import ConditionMark, ConditionStrip
from battlemap.ui.token_look import NamePlate


class TokenLabels:
    def __init__(self, z: float) -> None:
        self.plate = NamePlate(None)  # type: ignore[arg-type]  # top-level: None is accepted
        self.plate.setZValue(z + 0.1)  # a name over icons (only ever the acting one's)
        self.conditions = ConditionStrip(None)
        self.conditions.setZValue(z)

    def items(self) -> tuple[NamePlate, ConditionStrip]:
        return self.plate, self.conditions

    def place(self, name: str, marks: Sequence[ConditionMark], side: float, at: QPointF) -> None:
        """Under and over a token ``side`` scene units wide whose top-left is ``at``."""
        self.plate.place(name, side, at)
        self.place_marks(marks, side, at)

    def place_marks(self, marks: Sequence[ConditionMark], side: float, at: QPointF) -> None:
        self.conditions.place(marks, side)
        self.conditions.setPos(at)

    def move_by(self, dx: float, dy: float) -> None:
        for item in self.items():
            item.moveBy(dx, dy)
        self.plate.home += QPointF(dx, dy)

    def set_opacity(self, opacity: float) -> None:
        """Faded with a see-through token. Qt's own cache copies an opaque one's pixmap on
        every frame without calling paint() (labels change rarely); a faded one is painted
        directly (a pixmap faded as one blends unlike its parts faded one by one)."""
        cache = self.cache_mode(opacity)
        for item in self.items():
            item.setOpacity(opacity)
            item.setCacheMode(cache)

    @staticmethod
    def cache_mode(opacity: float) -> QGraphicsItem.CacheMode:
        """Qt's cache for an item of this opacity (its own pixmap, redrawn on a change of
        zoom; drawn without a Python call on every other frame): off when see-through."""
        if opacity >= 1.0:
            return QGraphicsItem.CacheMode.DeviceCoordinateCache
        return QGraphicsItem.CacheMode.NoCache

    def follow_scene(self, scene: QGraphicsScene | None) -> None:
        """Into ``scene`` (the token's new one), out of any other."""
        for item in self.items():
            if item.scene() is not None and item.scene() is not scene:
                item.scene().removeItem(item)
            if scene is not None and item.scene() is None:
                scene.addItem(item)
