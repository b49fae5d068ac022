"""Finding the map feature under the pointer, with a tolerance that suits mouse and finger."""

from __future__ import annotations

from battlemap.model.features import WallKind
from battlemap.ui.tools.base import PointerEvent, ToolContext
from battlemap.ui.tools.shapes import distance_to_segment, feature_at

HIT_TOLERANCE_PX = 12
"""How close (screen pixels) a mouse click must be to a wall."""
TOUCH_TOLERANCE_PX = 28
"""The same for a finger on a touch screen laid on the table (about 7 mm at 100 dpi)."""


def hit_tolerance(event: PointerEvent) -> float:
    """How near, in cells, the pointer must be to a wall or door to hit it."""
    pixels = TOUCH_TOLERANCE_PX if event.touch else HIT_TOLERANCE_PX
    return pixels * event.cells_per_pixel


def feature_under(context: ToolContext, event: PointerEvent) -> str | None:
    """The id of the wall, door, obstacle or terrain region under the pointer, or None."""
    tolerance = hit_tolerance(event)
    return feature_at(context.document.encounter, event.cell, tolerance)


def door_under(context: ToolContext, event: PointerEvent) -> str | None:
    """The id of the nearest door within reach of the pointer, or None."""
    return _nearest(context, event, (WallKind.DOOR,))


def portal_under(context: ToolContext, event: PointerEvent) -> str | None:
    """The id of the nearest door or window within reach of the pointer, or None."""
    return _nearest(context, event, (WallKind.DOOR, WallKind.WINDOW))


def _nearest(context: ToolContext, event: PointerEvent, kinds: tuple[WallKind, ...]) -> str | None:
    tolerance = hit_tolerance(event)
    doors = [w for w in context.document.encounter.walls if w.kind in kinds]
    scored = [(distance_to_segment(event.cell, d.a, d.b), d.id) for d in doors]
    near = [entry for entry in scored if entry[0] <= tolerance]
    return min(near)[1] if near else None
