"""The players' camera at the table (issue 20): the DM pans it one cell at a time from the
keyboard, and "Follow the active creature" keeps whoever's turn it is in view.

Both move the camera the players see without touching the DM's view: the outline (steer
mode) slides, or the tabletop camera is pinned at a new centre; a players' view that follows
the DM's turns into the outline first, where it stood. Only the players' projection is
followed (a token there with ``acting_now``), so a hidden creature's turn never moves it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QAction, QKeySequence

from battlemap.ui.players.camera import CameraMode
from battlemap.ui.players.projection import PlayerToken, PlayerView
from battlemap.ui.style import SCENE_UNITS_PER_CELL, cell_to_scene

if TYPE_CHECKING:
    from battlemap.ui.players.controller import PlayersController

FOLLOW_ACTIVE = "players/follow_active"
PAN_KEYS = {
    "left": ("Ctrl+Shift+Left", -1, 0),
    "right": ("Ctrl+Shift+Right", 1, 0),
    "up": ("Ctrl+Shift+Up", 0, -1),
    "down": ("Ctrl+Shift+Down", 0, 1),
}
"""Plain arrows scroll the DM's own map, Alt+Down opens a focused list box, Ctrl+Alt+arrows
switch desktops; a text box keeps Ctrl+Shift+arrows (selecting words) for itself."""


def token_rect(token: PlayerToken) -> QRectF:
    """The token's space, in scene units."""
    side = cell_to_scene(token.space_cells)
    return QRectF(cell_to_scene(token.x), cell_to_scene(token.y), side, side)


def acting_token(view: PlayerView | None) -> PlayerToken | None:
    """The token the players are told it is the turn of, if they see one."""
    if view is None:
        return None
    return next((token for token in view.tokens if token.acting_now), None)


class TableCamera:
    """The pan actions (in View > Players' camera) and the follow option of ``players``."""

    def __init__(self, players: PlayersController) -> None:
        self.players = players
        settings = players.settings
        self.follow_active = str(settings.value(FOLLOW_ACTIVE, "false")).lower() == "true"
        self._following = False
        menu = players.camera_menu
        menu.addSeparator()
        self.follow_action = QAction("F&ollow the active creature", players, checkable=True)
        self.follow_action.setChecked(self.follow_active)
        self.follow_action.setStatusTip(
            "Pan the players' view to whoever's turn it is when they are off it"
        )
        self.follow_action.toggled.connect(self.set_follow_active)
        menu.addAction(self.follow_action)
        self.pan_actions: dict[str, QAction] = {}
        for name, (keys, dx, dy) in PAN_KEYS.items():
            action = QAction(f"Pan players' view {name}", players)
            action.setShortcut(QKeySequence(keys))
            action.setStatusTip(f"Move the players' view one cell {name}")
            action.triggered.connect(lambda _=False, x=dx, y=dy: self.pan_cells(x, y))
            menu.addAction(action)
            self.pan_actions[name] = action
        players.view_listeners.append(lambda _view: self.keep_acting_in_view())
        players.camera_listeners.append(self.keep_acting_in_view)

    def set_follow_active(self, follow: bool) -> None:
        """Follow (or stop following) the active creature; remembered for the next session."""
        self.follow_active = follow
        self.players.settings.setValue(FOLLOW_ACTIVE, follow)
        if self.follow_action.isChecked() != follow:
            self.follow_action.setChecked(follow)
        self.keep_acting_in_view()

    def pan_cells(self, dx: int, dy: int) -> None:
        """Move the players' view ``dx``, ``dy`` cells (stopping at the map's edges)."""
        step = QPointF(dx * SCENE_UNITS_PER_CELL, dy * SCENE_UNITS_PER_CELL)
        players = self.players
        if players.camera_mode is CameraMode.TABLETOP:
            self._pin_tabletop(self._tabletop_centre() + step)
            return
        self._steer_from_here()
        players.outline.move_by(step)

    def centre_on(self, point: QPointF) -> None:
        """Put ``point`` (scene units) at the middle of the players' view, near as the map's
        edges allow."""
        players = self.players
        if players.camera_mode is CameraMode.TABLETOP:
            self._pin_tabletop(point)
            return
        self._steer_from_here()
        area = players.outline.area()
        players.outline.move_by(point - area.center())

    def keep_acting_in_view(self) -> None:
        """With the option on and the players' window open: centre on the acting creature
        the players see when its space is not wholly in their view."""
        players = self.players
        if not self.follow_active or not players.window.isVisible():
            return
        token = acting_token(players.last_view)
        if token is None:
            return
        space = token_rect(token)
        if self._following or players.window.visible_scene_rect().contains(space):
            return
        self._following = True  # the camera's move calls back here: once is enough
        try:
            self.centre_on(space.center())
        finally:
            self._following = False

    def _steer_from_here(self) -> None:
        """A players' view that follows the DM's becomes the outline, where it is now."""
        players = self.players
        if players.camera_mode is CameraMode.FOLLOW:
            players.outline.set_area(players.dm_view.visible_scene_rect())
            players.set_camera_mode(CameraMode.STEER)

    def _tabletop_centre(self) -> QPointF:
        players = self.players
        return players.tabletop_centre or players.dm_view.visible_scene_rect().center()

    def _pin_tabletop(self, centre: QPointF) -> None:
        players = self.players
        grid = players.document.encounter.grid
        x = min(max(centre.x(), 0.0), cell_to_scene(grid.width))
        y = min(max(centre.y(), 0.0), cell_to_scene(grid.height))
        players.tabletop_centre = QPointF(x, y)
        players.update_camera()
