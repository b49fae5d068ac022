"""The Walls and Doors tools: click grid corners to chain wall, door or window segments."""

from __future__ import annotations

import itertools
from functools import partial

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPen
from PySide6.QtWidgets import QButtonGroup, QGraphicsItem, QHBoxLayout, QRadioButton, QWidget

from battlemap.model.features import Point, Wall, WallKind
from battlemap.model.ids import EntityId
from battlemap.model.map_commands import AddWalls, ToggleDoor
from battlemap.ui import style
from battlemap.ui.tools.base import PointerEvent, ToolContext
from battlemap.ui.tools.chain import ChainTool
from battlemap.ui.tools.hit import door_under
from battlemap.ui.tools.preview import PREVIEW, cosmetic_pen, handles, polyline

WALL_COLOURS = {
    WallKind.WALL: style.WALL,
    WallKind.DOOR: style.DOOR_CLOSED,
    WallKind.WINDOW: style.WINDOW,
}
WALL_WIDTH = {WallKind.WALL: 6.0, WallKind.DOOR: 10.0, WallKind.WINDOW: 6.0}
"""Scene units, the same as the finished walls (``map_items.wall_pen``)."""


class WallTool(ChainTool):
    key = "walls"
    label = "Walls"
    shortcut = "W"
    hint = (
        "Walls: click grid corners to chain walls · Shift: free-draw · "
        "double-click, right-click or Esc ends the chain · Backspace: drop the last point"
    )

    def __init__(self, context: ToolContext) -> None:
        super().__init__(context)
        self.kind = WallKind.WALL

    def commit(self, points: list[Point]) -> None:
        walls = tuple(Wall(a=a, b=b, kind=self.kind) for a, b in itertools.pairwise(points))
        if not walls:
            return
        noun = {WallKind.WALL: "wall", WallKind.DOOR: "door", WallKind.WINDOW: "window"}
        plural = "" if len(walls) == 1 else "s"
        self.context.push(AddWalls(walls, text=f"Draw {len(walls)} {noun[self.kind]}{plural}"))

    def preview_items(self, points: list[Point], cursor: Point | None) -> list[QGraphicsItem]:
        items: list[QGraphicsItem] = []
        colour = QColor(WALL_COLOURS[self.kind])
        colour.setAlpha(190)
        if len(points) >= 2:
            pen = QPen(
                colour, WALL_WIDTH[self.kind], Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap
            )
            items.append(polyline(points, pen))
        if points and cursor is not None and cursor != points[-1]:
            items.append(
                polyline([points[-1], cursor], cosmetic_pen(PREVIEW, 2, Qt.PenStyle.DashLine))
            )
        items += handles(points)
        items += self.cursor_marks(cursor)
        return items


class DoorTool(WallTool):
    key = "doors"
    label = "Doors"
    shortcut = "D"
    hint = (
        "Doors: click two grid corners for a door (Door or Window above) · Shift: free-draw · "
        "double-click, right-click or Esc ends · double-click a door to open or close it"
    )

    def __init__(self, context: ToolContext) -> None:
        super().__init__(context)
        self.kind = WallKind.DOOR
        self._options: QWidget | None = None

    def double_click(self, event: PointerEvent) -> bool:
        """A double-click on a door (not ending a chain) opens or closes it."""
        door = door_under(self.context, event) if event.left and len(self.points) <= 1 else None
        if door is None:
            return super().double_click(event)
        self.cancel()  # the double-click's first press started a chain: drop it
        self.context.push(ToggleDoor(EntityId(door)))
        return True

    def set_kind(self, kind: WallKind) -> None:
        self.kind = kind
        self.refresh()

    def _kind_toggled(self, kind: WallKind, checked: bool) -> None:
        if checked:
            self.set_kind(kind)

    def options_widget(self) -> QWidget:
        if self._options is None:
            self._options = QWidget()
            layout = QHBoxLayout(self._options)
            layout.setContentsMargins(0, 0, 0, 0)
            group = QButtonGroup(self._options)
            for kind, text in ((WallKind.DOOR, "Door"), (WallKind.WINDOW, "Window")):
                button = QRadioButton(text)
                button.setObjectName(f"door-kind-{kind.value}")
                button.setChecked(kind is self.kind)
                button.toggled.connect(partial(self._kind_toggled, kind))
                group.addButton(button)
                layout.addWidget(button)
        return self._options
