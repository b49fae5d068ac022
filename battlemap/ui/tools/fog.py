"""The Fog tool: reveal or hide parts of the map for the players by brush, rectangle or room.

Each stroke, rectangle or click is one undo step. Using it while the fog is off switches
the fog to manual, in the same step: revealing shows only what was revealed, hiding hides
only what was hidden.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QGraphicsItem, QWidget

from battlemap.model.document import ReplaceEncounterField
from battlemap.model.features import Point
from battlemap.model.fog import Cell, FogMode, FogOfWar, hide, reveal
from battlemap.ui.tools.base import PointerEvent, Tool, ToolContext
from battlemap.ui.tools.options import choice, options_row, show_choice
from battlemap.ui.tools.preview import cell_squares
from battlemap.ui.tools.shapes import cell_at, points_along

# The engine and the heavier geometry are imported in the functions that use them, so
# the window is built without them (issue 17; tests/ui/test_start_up_imports.py).
if TYPE_CHECKING:
    pass

REVEAL, HIDE = "reveal", "hide"
BRUSH, RECTANGLE, ROOM = "brush", "rectangle", "room"
PREVIEW_FILL = {REVEAL: QColor(255, 240, 160, 110), HIDE: QColor(20, 20, 60, 130)}
PREVIEW_EDGE = {REVEAL: QColor("#c9a227"), HIDE: QColor("#14143c")}


def rectangle_cells(a: Point, b: Point) -> frozenset[Cell]:
    """Every cell touched by the rectangle with opposite corners ``a`` and ``b``."""
    (c0, r0), (c1, r1) = cell_at(a), cell_at(b)
    return frozenset(
        (c, r)
        for c in range(min(c0, c1), max(c0, c1) + 1)
        for r in range(min(r0, r1), max(r0, r1) + 1)
    )


def fog_after(
    fog: FogOfWar, action: str, cells: frozenset[Cell], every: frozenset[Cell]
) -> FogOfWar:
    """The fog after revealing or hiding ``cells``; turns an off fog into a manual one."""
    if fog.mode is FogMode.OFF:
        start = frozenset() if action == REVEAL else every
        fog = fog.model_copy(update={"mode": FogMode.MANUAL, "revealed": start})
    return reveal(fog, cells) if action == REVEAL else hide(fog, cells)


class FogTool(Tool):
    key = "fog"
    label = "Fog of war"
    shortcut = "F"
    hint = (
        "Fog: drag to reveal or hide for the players (pick above: brush, rectangle, or click a "
        "room) · Alt inverts · each stroke is one undo step"
    )

    def __init__(self, context: ToolContext) -> None:
        super().__init__(context)
        self.action = REVEAL
        self.shape = BRUSH
        self.cells: set[Cell] = set()
        self._anchor: Point | None = None
        self._last: Point | None = None
        self._inverted = False
        self._options: QWidget | None = None

    # --- events ---------------------------------------------------------

    def press(self, event: PointerEvent) -> bool:
        from battlemap.geometry.rooms import room_cells

        if not event.left:
            return True
        self._inverted = bool(event.modifiers & Qt.KeyboardModifier.AltModifier)
        if self.shape == ROOM:
            encounter = self.context.document.encounter
            self._commit(room_cells(encounter.grid, encounter.walls, cell_at(event.cell)))
            return True
        self._anchor = self._last = event.cell
        self.cells = {cell_at(event.cell)}
        self._preview()
        return True

    def move(self, event: PointerEvent) -> bool:
        if self._anchor is None:
            self._preview(hover=event.cell)
            return True
        if self.shape == RECTANGLE:
            self.cells = set(rectangle_cells(self._anchor, event.cell))
        else:
            start = self._last if self._last is not None else event.cell
            self.cells.update(cell_at(p) for p in points_along(start, event.cell, 0.25))
            self._last = event.cell
        self._preview()
        return True

    def release(self, event: PointerEvent) -> bool:
        if event.left and self._anchor is not None:
            self.finish()
        return True

    def finish(self) -> None:
        cells, self.cells, self._anchor, self._last = frozenset(self.cells), set(), None, None
        if cells:
            self._commit(cells)
        self.context.overlay.clear()

    # --- commands -----------------------------------------------------------

    def _current_action(self) -> str:
        if not self._inverted:
            return self.action
        return HIDE if self.action == REVEAL else REVEAL

    def _commit(self, cells: frozenset[Cell]) -> None:
        encounter = self.context.document.encounter
        grid = encounter.grid
        every = frozenset((c, r) for c in range(grid.width) for r in range(grid.height))
        cells = cells & every
        action = self._current_action()
        new = fog_after(encounter.fog, action, cells, every)
        if new == encounter.fog or not cells:
            return
        text = f"{action.capitalize()} {len(cells)} cell{'s' if len(cells) != 1 else ''}"
        self.context.push(ReplaceEncounterField("fog", encounter.fog, new, text=text))

    def _preview(self, hover: Point | None = None) -> None:
        action = self._current_action()
        cells = list(self.cells) if hover is None else [cell_at(hover)]
        items: list[QGraphicsItem] = []
        if cells:
            items.append(cell_squares(cells, PREVIEW_FILL[action], PREVIEW_EDGE[action]))
        self.context.overlay.show(items)

    # --- options --------------------------------------------------------

    def set_action(self, action: str) -> None:
        self.action = action
        show_choice(self._options, "fog-action", action)

    def set_shape(self, shape: str) -> None:
        self.shape = shape
        show_choice(self._options, "fog-shape", shape)

    def options_widget(self) -> QWidget:
        if self._options is None:
            action_label, action = choice(
                "Fog:",
                "fog-action",
                [("Reveal", REVEAL), ("Hide", HIDE)],
                self.action,
                self.set_action,
            )
            shape_label, shape = choice(
                "With:",
                "fog-shape",
                [("Brush", BRUSH), ("Rectangle", RECTANGLE), ("Click a room", ROOM)],
                self.shape,
                self.set_shape,
            )
            self._options = options_row(action_label, action, shape_label, shape)
        return self._options
