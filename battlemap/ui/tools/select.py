"""The Select tool: drag tokens (the scene does that), pick a map feature, toggle doors.

Mouse events mostly pass through to the scene, so token drags and the rubber band work as
without any tool. On top of that a click on a wall, obstacle or terrain region (not on a
token) selects it for Delete, and a double-click on a door opens or closes it, which is
also how doors are used during play. A right-click on a door or window offers to open or
close it and to turn a door into a window or back (an imported map may have them wrong).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QGraphicsItem, QMenu

from battlemap.model.features import Point, Wall, WallKind
from battlemap.model.ids import EntityId
from battlemap.model.map_commands import (
    SwapDoorWindow,
    ToggleDoor,
    UnknownFeatureError,
    find_feature,
)
from battlemap.ui.tools.base import PointerEvent, Tool, ToolContext, cell_to_scene_point
from battlemap.ui.tools.hit import door_under, feature_under, portal_under
from battlemap.ui.tools.preview import feature_outline

SELECTED = QColor("#ffb300")


class SelectTool(Tool):
    key = "select"
    label = "Select"
    shortcut = "V"
    hint = (
        "Select: drag a token to move it · drag on the map to select several · click a wall "
        "or area to select it · double-click a door to open or close it · Delete removes"
    )
    cursor = Qt.CursorShape.ArrowCursor

    def __init__(self, context: ToolContext) -> None:
        super().__init__(context)
        self.selected_feature: str | None = None

    def press(self, event: PointerEvent) -> bool:
        if event.left:
            on_token = self.token_at(event.cell)
            self.select_feature(None if on_token else feature_under(self.context, event))
        return False

    def token_at(self, cell: Point) -> bool:
        """True when a token (a movable item) lies under ``cell``."""
        return any(
            item.flags() & QGraphicsItem.GraphicsItemFlag.ItemIsMovable
            for item in self.context.scene.items(cell_to_scene_point(cell))
        )

    def fill_portal_menu(self, menu: QMenu, event: PointerEvent) -> bool:
        """Add the door or window entries for the portal under ``event``; False if none."""
        portal_id = portal_under(self.context, event)
        if portal_id is None:
            return False
        portal_id = EntityId(portal_id)
        portal = find_feature(self.context.document.encounter, portal_id)[2]
        if isinstance(portal, Wall) and portal.kind is WallKind.DOOR:
            toggle = menu.addAction("Close door" if portal.open else "Open door")
            toggle.triggered.connect(lambda: self.context.push(ToggleDoor(portal_id)))
            swap = menu.addAction("Make it a window (blocks movement, not sight)")
        else:
            swap = menu.addAction("Make it a door (closed: blocks movement and sight)")
        swap.triggered.connect(lambda: self._swap(portal_id))
        return True

    def _swap(self, portal_id: EntityId) -> None:
        command = SwapDoorWindow.of(self.context.document.encounter, portal_id)
        self.context.push(command)
        self.context.show_hint(f"{command.text}: done. Ctrl+Z undoes.")

    def move(self, event: PointerEvent) -> bool:
        return False

    def release(self, event: PointerEvent) -> bool:
        return False

    def double_click(self, event: PointerEvent) -> bool:
        door = door_under(self.context, event) if event.left else None
        if door is None:
            return False
        self.context.push(ToggleDoor(EntityId(door)))
        now_open = find_feature(self.context.document.encounter, door)[2]
        state = "open" if isinstance(now_open, Wall) and now_open.open else "closed"
        self.context.show_hint(f"Door {state}. Double-click it again to toggle; Ctrl+Z undoes.")
        self.select_feature(None)
        return True

    def select_feature(self, feature_id: str | None) -> None:
        """Select one wall/obstacle/terrain region (None clears) and outline it."""
        self.selected_feature = feature_id
        self.refresh()

    def refresh(self) -> None:
        """Redraw the selection outline (the feature may have moved or gone after undo)."""
        if self.selected_feature is None:
            self.context.overlay.clear()
            return
        try:
            feature = find_feature(self.context.document.encounter, self.selected_feature)[2]
        except UnknownFeatureError:
            self.selected_feature = None
            self.context.overlay.clear()
            return
        self.context.overlay.show(
            [feature_outline(feature, SELECTED, wall_width_px=5, fill_alpha=50)]
        )

    def deactivate(self) -> None:
        self.select_feature(None)
