"""The Obstacles tool: a rectangle dragged between grid corners, or a clicked polygon.

The cover an obstacle gives and whether it blocks movement are picked in the tool-options
bar before drawing; they apply to every obstacle drawn until changed.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QCheckBox, QGraphicsItem, QWidget

from battlemap.model.features import CoverDegree, Obstacle, Point
from battlemap.model.map_commands import AddObstacle
from battlemap.ui import style
from battlemap.ui.tools.base import PointerEvent, ToolContext
from battlemap.ui.tools.chain import PolygonTool
from battlemap.ui.tools.options import choice, options_row, show_choice
from battlemap.ui.tools.preview import PREVIEW, cosmetic_pen, handles, polyline

RECTANGLE, POLYGON = "rectangle", "polygon"
COVER_CHOICES = [
    ("Half cover", CoverDegree.HALF),
    ("Three-quarters cover", CoverDegree.THREE_QUARTERS),
    ("Total cover", CoverDegree.TOTAL),
    ("No cover", CoverDegree.NONE),
]


def rectangle(a: Point, b: Point) -> list[Point]:
    """The four corners of the axis-aligned rectangle with opposite corners ``a`` and ``b``."""
    left, right = sorted((a[0], b[0]))
    top, bottom = sorted((a[1], b[1]))
    return [(left, top), (right, top), (right, bottom), (left, bottom)]


class ObstacleTool(PolygonTool):
    key = "obstacles"
    label = "Obstacles"
    shortcut = "O"
    hint = (
        "Obstacles: drag a rectangle between grid corners (or pick Polygon above: click corners, "
        "double-click or right-click closes, Esc cancels) · Shift: free-draw"
    )
    fill = QColor(style.OBSTACLE_FILL)

    def __init__(self, context: ToolContext) -> None:
        super().__init__(context)
        self.shape = RECTANGLE
        self.cover = CoverDegree.HALF
        self.blocks_movement = True
        self._drag_from: Point | None = None
        self._options: QWidget | None = None

    # --- rectangle mode -------------------------------------------------

    def press(self, event: PointerEvent) -> bool:
        if self.shape == POLYGON:
            return super().press(event)
        if event.left:
            self._drag_from = self.snapped(event)
        return True

    def move(self, event: PointerEvent) -> bool:
        if self.shape == POLYGON or self._drag_from is None:
            return super().move(event)
        self._cursor = self.snapped(event)
        corners = rectangle(self._drag_from, self._cursor)
        self.context.overlay.show(
            [
                polyline(corners, cosmetic_pen(PREVIEW, 2), closed=True, fill=self.fill),
                *handles([self._drag_from, self._cursor]),
            ]
        )
        return True

    def release(self, event: PointerEvent) -> bool:
        if self.shape == POLYGON or self._drag_from is None or not event.left:
            return True
        start, self._drag_from = self._drag_from, None
        corners = rectangle(start, self.snapped(event))
        if corners[0][0] < corners[1][0] and corners[0][1] < corners[2][1]:
            self.commit(corners)
        else:
            self.context.show_hint("Drag across at least one cell to make an obstacle.")
        self.refresh()
        return True

    def double_click(self, event: PointerEvent) -> bool:
        return super().double_click(event) if self.shape == POLYGON else True

    # --- result ---------------------------------------------------------

    def commit(self, points: list[Point]) -> None:
        obstacle = Obstacle(points=points, cover=self.cover, blocks_movement=self.blocks_movement)
        self.context.push(AddObstacle(obstacle))

    def preview_items(self, points: list[Point], cursor: Point | None) -> list[QGraphicsItem]:
        if self.shape == RECTANGLE:
            return handles([cursor]) if cursor is not None else []
        return super().preview_items(points, cursor)

    # --- options --------------------------------------------------------

    def set_shape(self, shape: str) -> None:
        self.cancel()
        self._drag_from = None
        self.shape = shape
        show_choice(self._options, "obstacle-shape", self.shape)

    def set_cover(self, cover: CoverDegree) -> None:
        self.cover = cover
        show_choice(self._options, "obstacle-cover", self.cover)

    def set_blocks_movement(self, blocks: bool) -> None:
        self.blocks_movement = blocks

    def options_widget(self) -> QWidget:
        if self._options is None:
            shape_label, shape = choice(
                "Shape:",
                "obstacle-shape",
                [("Rectangle", RECTANGLE), ("Polygon", POLYGON)],
                self.shape,
                self.set_shape,
            )
            cover_label, cover = choice(
                "Gives:", "obstacle-cover", COVER_CHOICES, self.cover, self.set_cover
            )
            blocks = QCheckBox("Blocks movement")
            blocks.setObjectName("obstacle-blocks-movement")
            blocks.setChecked(self.blocks_movement)
            blocks.toggled.connect(self.set_blocks_movement)
            for widget in (shape, cover, blocks):
                widget.setFocusPolicy(Qt.FocusPolicy.TabFocus)  # keep keys on the map
            self._options = options_row(shape_label, shape, cover_label, cover, blocks)
        return self._options
