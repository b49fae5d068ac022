"""Tools that collect points by clicking: wall chains and polygons.

Click adds a point (snapped to the nearest grid corner unless Shift is held), moving the
mouse previews the next segment, and a double-click, a right-click or Return ends the
chain. Backspace drops the last point. Subclasses decide what Escape does and what the
finished points become.
"""

from __future__ import annotations

import math

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QGraphicsItem

from battlemap.model.features import Point
from battlemap.ui.tools.base import PointerEvent, Tool, ToolContext
from battlemap.ui.tools.preview import PREVIEW, cosmetic_pen, handles, label, polyline
from battlemap.ui.tools.shapes import clamp_to_map, snap_to_corner


def format_feet(feet: float) -> str:
    """Feet for a label: whole numbers plainly, otherwise one decimal ("7.5 ft")."""
    rounded = round(feet, 1)
    return f"{rounded:g} ft" if rounded != int(rounded) else f"{int(rounded)} ft"


class ChainTool(Tool):
    """Collects a chain of points; ``commit`` turns a finished chain into a command."""

    min_points = 2
    escape_commits = True
    """Escape ends the chain and keeps it (walls), or throws it away (polygons)."""

    def __init__(self, context: ToolContext) -> None:
        super().__init__(context)
        self.points: list[Point] = []
        self._cursor: Point | None = None

    # --- subclass API ---------------------------------------------------

    def commit(self, points: list[Point]) -> None:
        raise NotImplementedError

    def preview_items(self, points: list[Point], cursor: Point | None) -> list[QGraphicsItem]:
        raise NotImplementedError

    # --- behaviour ------------------------------------------------------

    def snapped(self, event: PointerEvent) -> Point:
        grid = self.context.document.encounter.grid
        return clamp_to_map(event.cell, grid) if event.free else snap_to_corner(event.cell, grid)

    def _add(self, point: Point) -> None:
        if not self.points or self.points[-1] != point:
            self.points.append(point)

    def press(self, event: PointerEvent) -> bool:
        if event.right:
            self.finish()
        elif event.left:
            self._add(self.snapped(event))
            self._cursor = self.points[-1]
            self.refresh()
        return True

    def move(self, event: PointerEvent) -> bool:
        self._cursor = self.snapped(event)
        self.refresh()
        return True

    def double_click(self, event: PointerEvent) -> bool:
        if event.left:
            self._add(self.snapped(event))
            self.finish()
        return True

    def key_press(self, key: Qt.Key) -> bool:
        if key == Qt.Key.Key_Escape:
            if not self.points:
                return False  # nothing to end: the controller goes back to Select
            if self.escape_commits:
                self.finish()
            else:
                self.cancel()
            return True
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.finish()
            return True
        if key == Qt.Key.Key_Backspace and self.points:
            self.points.pop()
            self.refresh()
            return True
        return False

    def finish(self) -> None:
        points, self.points = self.points, []
        if len(points) >= self.min_points:
            self.commit(points)
        self.refresh()

    def cancel(self) -> None:
        self.points = []
        self.refresh()

    def deactivate(self) -> None:
        super().deactivate()
        self._cursor = None

    def refresh(self) -> None:
        self.context.overlay.show(self.preview_items(list(self.points), self._cursor))

    # --- preview helpers ------------------------------------------------

    def cursor_marks(self, cursor: Point | None) -> list[QGraphicsItem]:
        """A handle where the next point would land, and the rubber segment's length."""
        if cursor is None:
            return []
        marks: list[QGraphicsItem] = list(handles([cursor], PREVIEW))
        if self.points and cursor != self.points[-1]:
            last = self.points[-1]
            cells = math.hypot(cursor[0] - last[0], cursor[1] - last[1])
            feet = cells * self.context.document.encounter.grid.cell_feet
            marks.append(label(format_feet(feet), cursor, PREVIEW))
        return marks


class PolygonTool(ChainTool):
    """Collects a closed polygon of at least three points; Escape throws it away."""

    min_points = 3
    escape_commits = False
    fill = QColor(30, 136, 229, 60)

    def preview_items(self, points: list[Point], cursor: Point | None) -> list[QGraphicsItem]:
        items: list[QGraphicsItem] = []
        shape = list(points)
        if points and cursor is not None and cursor != points[-1]:
            shape.append(cursor)
        if len(shape) >= 2:
            items.append(polyline(shape, cosmetic_pen(PREVIEW, 2), closed=True, fill=self.fill))
        items += handles(points)
        items += self.cursor_marks(cursor)
        return items
