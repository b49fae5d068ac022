"""The Eraser tool: click a wall, door, window, obstacle or terrain region to remove it.

The feature under the pointer is outlined in red before the click, so the DM sees what
will go. Dragging erases everything the pointer crosses as one undo step.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGraphicsItem

from battlemap.model.features import Point
from battlemap.model.map_commands import UnknownFeatureError, find_feature, remove_entities
from battlemap.ui.tools.base import PointerEvent, Tool, ToolContext
from battlemap.ui.tools.hit import feature_under, hit_tolerance
from battlemap.ui.tools.preview import ERASE, feature_outline
from battlemap.ui.tools.shapes import feature_at, points_along


class EraserTool(Tool):
    key = "eraser"
    label = "Eraser"
    shortcut = "E"
    hint = (
        "Eraser: click a wall, door, obstacle or terrain to remove it (outlined red first) · "
        "drag to erase several in one step"
    )
    cursor = Qt.CursorShape.PointingHandCursor

    def __init__(self, context: ToolContext) -> None:
        super().__init__(context)
        self.doomed: list[str] = []
        self._last: Point | None = None
        self._erasing = False

    def _outline(self, feature_ids: list[str]) -> list[QGraphicsItem]:
        items: list[QGraphicsItem] = []
        encounter = self.context.document.encounter
        for feature_id in feature_ids:
            try:
                feature = find_feature(encounter, feature_id)[2]
            except UnknownFeatureError:  # undone while the pointer was over it
                continue
            items.append(feature_outline(feature, ERASE, wall_width_px=6, fill_alpha=70))
        return items

    def press(self, event: PointerEvent) -> bool:
        if event.left:
            self._erasing = True
            self.doomed, self._last = [], None
            self._collect(event)
        return True

    def move(self, event: PointerEvent) -> bool:
        if self._erasing:
            self._collect(event)
        else:
            hovered = feature_under(self.context, event)
            self.context.overlay.show(self._outline([hovered] if hovered else []))
        return True

    def release(self, event: PointerEvent) -> bool:
        if event.left and self._erasing:
            self.finish()
        return True

    def _collect(self, event: PointerEvent) -> None:
        """Add what lies under the pointer, and along its path since the last event."""
        start = self._last if self._last is not None else event.cell
        self._last = event.cell
        tolerance = hit_tolerance(event)
        encounter = self.context.document.encounter
        for point in points_along(start, event.cell, tolerance):
            hit = feature_at(encounter, point, tolerance)
            if hit is not None and hit not in self.doomed:
                self.doomed.append(hit)
        self.context.overlay.show(self._outline(self.doomed))

    def finish(self) -> None:
        doomed, self.doomed, self._erasing, self._last = self.doomed, [], False, None
        command = remove_entities(self.context.document.encounter, doomed)
        if command is not None:
            self.context.push(command)
        self.context.overlay.clear()
