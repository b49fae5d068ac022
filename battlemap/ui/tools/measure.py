"""The Measure tool: a ruler through waypoints, in feet, under the ruleset's diagonal rule.

Click to start at a cell's centre, click again to add waypoints (or drag from one point to
the next); double-click, right-click or Return ends the ruler and leaves it on the map until
the next click; Escape clears it. Shift measures from the exact pointer position instead
of cell centres.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QGraphicsItem, QWidget

from battlemap.model.features import Point
from battlemap.ui.tools.base import PointerEvent, Tool, ToolContext
from battlemap.ui.tools.chain import format_feet
from battlemap.ui.tools.distance import (
    DIAGONAL_RULES,
    path_feet,
    ruleset_diagonal_rule,
)
from battlemap.ui.tools.options import choice, options_row
from battlemap.ui.tools.preview import MEASURE, cosmetic_pen, handles, label, polyline
from battlemap.ui.tools.shapes import clamp_to_map, snap_to_centre

RULESET_RULE = "ruleset"
"""The rule choice that follows the encounter's ruleset."""


class MeasureTool(Tool):
    key = "measure"
    label = "Measure"
    shortcut = "M"
    hint = (
        "Measure: click cells to lay a ruler through waypoints · double-click or right-click "
        "ends it · Esc clears · Shift: measure from the exact point"
    )

    def __init__(self, context: ToolContext) -> None:
        super().__init__(context)
        self.points: list[Point] = []
        self.finished = False
        self.rule_choice = RULESET_RULE
        self._cursor: Point | None = None
        self._pressed_at: Point | None = None
        self._options: QWidget | None = None
        self._rule_combo: QComboBox | None = None

    @property
    def ruleset_rule(self) -> str:
        """The diagonal rule of the encounter's ruleset, from the window's loaded rulesets."""
        return ruleset_diagonal_rule(
            self.context.document.encounter.ruleset, self.context.rulesets()
        )

    @property
    def rule(self) -> str:
        return self.ruleset_rule if self.rule_choice == RULESET_RULE else self.rule_choice

    def snapped(self, event: PointerEvent) -> Point:
        grid = self.context.document.encounter.grid
        return clamp_to_map(event.cell, grid) if event.free else snap_to_centre(event.cell, grid)

    def path(self) -> list[Point]:
        """The measured points, with the pointer as the last one while the ruler is open."""
        path = list(self.points)
        if not self.finished and self._cursor is not None and path and path[-1] != self._cursor:
            path.append(self._cursor)
        return path

    def total_feet(self) -> float:
        path = self.path()
        return (
            path_feet(path, self.context.document.encounter.grid.cell_feet, self.rule)[-1]
            if path
            else 0.0
        )

    # --- events ---------------------------------------------------------

    def _add(self, point: Point) -> None:
        if self.finished:
            self.points, self.finished = [], False
        if not self.points or self.points[-1] != point:
            self.points.append(point)

    def press(self, event: PointerEvent) -> bool:
        if event.right:
            self.finish()
        elif event.left:
            point = self.snapped(event)
            self._add(point)
            self._pressed_at = point
            self._cursor = point
            self.refresh()
        return True

    def move(self, event: PointerEvent) -> bool:
        self._cursor = self.snapped(event)
        if not self.finished:
            self.refresh()
        return True

    def release(self, event: PointerEvent) -> bool:
        if event.left and self._pressed_at is not None:
            point = self.snapped(event)
            if point != self._pressed_at:  # a drag lays a leg from press to release
                self._add(point)
                self.refresh()
            self._pressed_at = None
        return True

    def double_click(self, event: PointerEvent) -> bool:
        if event.left:
            self._add(self.snapped(event))
            self.finish()
        return True

    def key_press(self, key: Qt.Key) -> bool:
        if key == Qt.Key.Key_Escape and self.points:
            self.points, self.finished = [], False
            self.refresh()
            return True
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.points:
            self.finish()
            return True
        return False

    def finish(self) -> None:
        if self.points and not self.finished:
            self.finished = True
            self.refresh()

    def deactivate(self) -> None:
        self.points, self.finished, self._cursor = [], False, None
        self.context.overlay.clear()

    # --- drawing --------------------------------------------------------

    def refresh(self) -> None:
        path = self.path()
        if not path:
            self.context.overlay.clear()
            self.context.show_hint(self.hint)
            return
        grid = self.context.document.encounter.grid
        totals = path_feet(path, grid.cell_feet, self.rule)
        items: list[QGraphicsItem] = []
        if len(path) >= 2:
            items.append(polyline(path, cosmetic_pen(MEASURE, 7)))
            items[-1].setOpacity(0.35)
            items.append(polyline(path, cosmetic_pen(MEASURE, 3)))
        items += handles(path, MEASURE)
        for point, feet in list(zip(path, totals, strict=True))[1:-1]:
            items.append(label(format_feet(feet), point))
        if len(path) >= 2:
            items.append(label(format_feet(totals[-1]), path[-1]))
        self.context.overlay.show(items)
        legs = len(path) - 1
        state = "" if self.finished else " — click to add a waypoint, double-click to end"
        self.context.show_hint(
            f"Measure: {format_feet(totals[-1])} over {legs} leg{'s' if legs != 1 else ''} "
            f"(diagonals {self.rule}){state}"
        )

    # --- options --------------------------------------------------------

    def activate(self) -> None:
        """Name the ruleset's rule in the options bar (the ruleset may have changed)."""
        if self._rule_combo is not None:
            encounter = self.context.document.encounter
            self._rule_combo.setItemText(0, f"{encounter.ruleset} ({self.ruleset_rule})")

    def set_rule_choice(self, rule: str) -> None:
        self.rule_choice = rule
        self.refresh()

    def options_widget(self) -> QWidget:
        if self._options is None:
            values = [("Ruleset's rule", RULESET_RULE)]
            values += [(rule.capitalize(), rule) for rule in DIAGONAL_RULES]
            caption, combo = choice(
                "Diagonals:", "measure-rule", values, self.rule_choice, self.set_rule_choice
            )
            combo.setFocusPolicy(Qt.FocusPolicy.TabFocus)
            self._rule_combo = combo
            self._options = options_row(caption, combo)
        return self._options
