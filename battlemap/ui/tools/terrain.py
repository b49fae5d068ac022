"""The Terrain tool: paint cells with a brush, or draw a polygon, of one terrain kind.

A brush stroke (press, drag, release) becomes one ``AddTerrain`` command, so one undo
step, however many cells it crossed. Painted cells are merged into a few rectangles.
Cells already covered by the same kind are left alone, so going over an area twice adds
nothing.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QGraphicsItem, QWidget

from battlemap.model.features import Point, TerrainKind, TerrainRegion
from battlemap.model.map_commands import AddTerrain
from battlemap.ui import style
from battlemap.ui.tools.base import PointerEvent, ToolContext
from battlemap.ui.tools.chain import PolygonTool
from battlemap.ui.tools.options import choice, options_row, show_choice
from battlemap.ui.tools.preview import PREVIEW, cell_squares
from battlemap.ui.tools.shapes import (
    Cell,
    cell_at,
    cells_to_rectangles,
    point_in_polygon,
    points_along,
)

PAINT, POLYGON = "paint", "polygon"
KIND_CHOICES = [
    ("Difficult", TerrainKind.DIFFICULT),
    ("Water", TerrainKind.WATER),
    ("Impassable", TerrainKind.IMPASSABLE),
]
BRUSH_STEP_CELLS = 0.25
"""Fast strokes are filled in by sampling the path between two mouse moves this finely."""


def cells_along(a: Point, b: Point) -> list[Cell]:
    """The cells the straight stroke from ``a`` to ``b`` passes through (sampled)."""
    return list(dict.fromkeys(cell_at(point) for point in points_along(a, b, BRUSH_STEP_CELLS)))


class TerrainTool(PolygonTool):
    key = "terrain"
    label = "Terrain"
    shortcut = "T"
    hint = (
        "Terrain: drag to paint cells (pick the kind above), or pick Polygon and click corners "
        "(double-click or right-click closes, Esc cancels) · each stroke is one undo step"
    )

    def __init__(self, context: ToolContext) -> None:
        super().__init__(context)
        self.kind = TerrainKind.DIFFICULT
        self.mode = PAINT
        self.stroke: dict[Cell, None] = {}
        self._last: Point | None = None
        self._options: QWidget | None = None

    @property
    def fill(self) -> QColor:  # type: ignore[override]
        colour = QColor(style.TERRAIN_FILL[self.kind.value])
        colour.setAlpha(min(255, colour.alpha() + 60))
        return colour

    # --- painting -------------------------------------------------------

    def _paint_to(self, point: Point) -> None:
        grid = self.context.document.encounter.grid
        start = self._last if self._last is not None else point
        for col, row in cells_along(start, point):
            if 0 <= col < grid.width and 0 <= row < grid.height:
                self.stroke.setdefault((col, row), None)
        self._last = point

    def _show_stroke(self, hover: Point | None) -> None:
        items: list[QGraphicsItem] = []
        if self.stroke:
            items.append(cell_squares(list(self.stroke), self.fill, PREVIEW))
        if hover is not None:
            items.append(cell_squares([cell_at(hover)], QColor(0, 0, 0, 0), PREVIEW))
        self.context.overlay.show(items)

    def press(self, event: PointerEvent) -> bool:
        if self.mode == POLYGON:
            return super().press(event)
        if event.left:
            self.stroke, self._last = {}, None
            self._paint_to(event.cell)
            self._show_stroke(None)
        return True

    def move(self, event: PointerEvent) -> bool:
        if self.mode == POLYGON:
            return super().move(event)
        if self._last is not None and event.buttons & Qt.MouseButton.LeftButton:
            self._paint_to(event.cell)
            self._show_stroke(None)
        else:
            self._show_stroke(event.cell)
        return True

    def release(self, event: PointerEvent) -> bool:
        if self.mode == POLYGON or not event.left or self._last is None:
            return True
        self._last = None
        cells, self.stroke = list(self.stroke), {}
        self._commit_cells(cells)
        self._show_stroke(event.cell)
        return True

    def double_click(self, event: PointerEvent) -> bool:
        return super().double_click(event) if self.mode == POLYGON else True

    def _commit_cells(self, cells: list[Cell]) -> None:
        same_kind = [
            r.points for r in self.context.document.encounter.terrain if r.kind is self.kind
        ]
        new_cells = [
            cell
            for cell in cells
            if not any(point_in_polygon((cell[0] + 0.5, cell[1] + 0.5), p) for p in same_kind)
        ]
        if not new_cells:
            self.context.show_hint(f"Those cells are already {self.kind.value} terrain.")
            return
        regions = tuple(
            TerrainRegion(kind=self.kind, points=rect) for rect in cells_to_rectangles(new_cells)
        )
        plural = "" if len(new_cells) == 1 else "s"
        text = f"Paint {len(new_cells)} cell{plural} of {self.kind.value} terrain"
        self.context.push(AddTerrain(regions, text=text))

    # --- polygon --------------------------------------------------------

    def commit(self, points: list[Point]) -> None:
        region = TerrainRegion(kind=self.kind, points=points)
        self.context.push(AddTerrain((region,), text=f"Draw {self.kind.value} terrain"))

    def preview_items(self, points: list[Point], cursor: Point | None) -> list[QGraphicsItem]:
        if self.mode == PAINT:
            return []
        return super().preview_items(points, cursor)

    def finish(self) -> None:
        if self.stroke:  # a stroke cut short by a tool change still counts
            cells, self.stroke, self._last = list(self.stroke), {}, None
            self._commit_cells(cells)
        super().finish()

    # --- options --------------------------------------------------------

    def set_kind(self, kind: TerrainKind) -> None:
        self.kind = kind
        self.refresh()
        show_choice(self._options, "terrain-kind", self.kind)

    def set_mode(self, mode: str) -> None:
        self.cancel()
        self.mode = mode
        show_choice(self._options, "terrain-mode", self.mode)

    def options_widget(self) -> QWidget:
        if self._options is None:
            kind_label, kind = choice(
                "Kind:", "terrain-kind", KIND_CHOICES, self.kind, self.set_kind
            )
            mode_label, mode = choice(
                "Draw:",
                "terrain-mode",
                [("Paint cells", PAINT), ("Polygon", POLYGON)],
                self.mode,
                self.set_mode,
            )
            for widget in (kind, mode):
                widget.setFocusPolicy(Qt.FocusPolicy.TabFocus)
            self._options = options_row(kind_label, kind, mode_label, mode)
        return self._options
