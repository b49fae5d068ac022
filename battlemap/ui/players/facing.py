"""Tabletop mode (issue 20): with the TV laid flat, the players' window's name plates,
condition icons, tokens' letters (or pictures) and banners turn to face the seats: all of
them one side the DM chooses, or each the edge of the screen it is nearest to. A saved
setting (View > Players' text faces), not the encounter's: it is where the table's chairs are.

Angles are Qt's, clockwise on the screen: text facing the left edge is read by someone
sitting there, its letters' tops towards the right edge.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum

from PySide6.QtCore import QObject, QPointF, QRectF, QSettings
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QGraphicsItem, QMenu

from battlemap.ui.menu_choices import exclusive_choices

FACING_KEY = "players/facing"


class Facing(StrEnum):
    BOTTOM = "bottom"
    """Upright: read from the screen's bottom edge (a TV on a wall)."""
    TOP = "top"
    LEFT = "left"
    RIGHT = "right"
    NEAREST = "nearest"
    """Each plate faces the edge nearest to it; the banner the top, the strip the bottom."""


EDGE_ANGLE = {Facing.BOTTOM: 0.0, Facing.TOP: 180.0, Facing.LEFT: 90.0, Facing.RIGHT: 270.0}
LABELS = {
    Facing.BOTTOM: "&Bottom edge (upright)",
    Facing.TOP: "&Top edge",
    Facing.LEFT: "&Left edge",
    Facing.RIGHT: "&Right edge",
    Facing.NEAREST: "&Nearest edge (a seat on every side)",
}


def nearest_edge(point: QPointF, screen: QRectF) -> Facing:
    """The edge of ``screen`` nearest to ``point``; on a tie the bottom, then the top, left
    and right (a plate at the very centre stays upright)."""
    distances = {
        Facing.BOTTOM: screen.bottom() - point.y(),
        Facing.TOP: point.y() - screen.top(),
        Facing.LEFT: point.x() - screen.left(),
        Facing.RIGHT: screen.right() - point.x(),
    }
    return min(distances, key=lambda edge: distances[edge])


def plate_angle(facing: Facing, point: QPointF, screen: QRectF) -> float:
    """How far a plate at ``point`` (in ``screen``'s coordinates) turns, in degrees."""
    edge = nearest_edge(point, screen) if facing is Facing.NEAREST else facing
    return EDGE_ANGLE[edge]


def banner_angles(facing: Facing) -> tuple[float, float]:
    """The turn banner's and the initiative strip's angles."""
    if facing is Facing.NEAREST:  # along the top and the bottom, each facing its own edge
        return EDGE_ANGLE[Facing.TOP], EDGE_ANGLE[Facing.BOTTOM]
    return EDGE_ANGLE[facing], EDGE_ANGLE[facing]


def turn_about(item: QGraphicsItem, home: QPointF, token: QRectF, angle: float) -> None:
    """Turn ``item`` (a name plate hanging below its token, the condition icons above it),
    placed at ``home`` when upright, by ``angle`` about the middle of its token's space
    ``token`` (scene units): it stays below (or above) the token as its readers see it. Call
    again after the item is placed anew."""
    item.setTransformOriginPoint(token.center() - home)
    item.setRotation(angle)


class FacingMenu(QObject):
    """The View menu's choice of where the players' text faces, kept in ``settings``."""

    def __init__(self, menu: QMenu, settings: QSettings, changed: Callable[[Facing], None]) -> None:
        super().__init__(menu)
        self.settings = settings
        self.changed = changed
        saved = str(settings.value(FACING_KEY, Facing.BOTTOM.value))
        self.facing = Facing(saved) if saved in Facing._value2member_map_ else Facing.BOTTOM
        sub = menu.addMenu("Players' &text faces")
        sub.setStatusTip("Tabletop: turn the players' name plates and banners to the seats")
        self.actions: dict[Facing, QAction] = exclusive_choices(
            self, sub, LABELS, self.set_facing, self.facing
        )

    def set_facing(self, facing: Facing) -> None:
        self.facing = facing
        self.settings.setValue(FACING_KEY, facing.value)
        self.actions[facing].setChecked(True)
        self.changed(facing)
