"""Colours and sizes shared by the scene items, in one place so themes can change them."""

from __future__ import annotations

from PySide6.QtGui import QColor

from battlemap.model.creature import Side

SCENE_UNITS_PER_CELL = 64.0
"""Scene coordinates per map cell: the DM scene draws one cell as 64 scene units."""

SIDE_COLOURS: dict[Side, QColor] = {
    Side.PARTY: QColor("#2f6fdf"),
    Side.HOSTILE: QColor("#d03a2f"),
    Side.NEUTRAL: QColor("#d9a521"),
}
MAP_BACKGROUND = QColor("#f4efe4")
GRID_LINE = QColor("#b9ad97")
MAP_BORDER = QColor("#5c5140")
OUTSIDE_MAP = QColor("#3a3a3a")
WALL = QColor("#262626")
DOOR_CLOSED = QColor("#8b5a2b")
DOOR_OPEN = QColor("#c9a27a")
WINDOW = QColor("#5fa8d3")
OBSTACLE_FILL = QColor(110, 110, 110, 150)
TERRAIN_FILL = {
    "difficult": QColor(150, 110, 60, 70),
    "water": QColor(60, 130, 200, 90),
    "impassable": QColor(20, 20, 20, 140),
}
TOKEN_LABEL = QColor("#ffffff")


def cell_to_scene(cells: float) -> float:
    return cells * SCENE_UNITS_PER_CELL


def scene_to_cell(scene: float) -> float:
    return scene / SCENE_UNITS_PER_CELL
