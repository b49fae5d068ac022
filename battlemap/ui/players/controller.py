"""Wires the players' window to the Document and the DM's window: menus, camera, fog."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import shiboken6
from PySide6.QtCore import QObject, QPointF, QRectF, QSettings
from PySide6.QtGui import QAction, QColor, QGuiApplication, QKeySequence, QUndoStack
from PySide6.QtWidgets import QInputDialog

from battlemap.model.document import Change, Document, ReplaceEncounterField
from battlemap.model.encounter import Encounter
from battlemap.model.fog import Cell, FogMode, FogOfWar, hide, reveal
from battlemap.rules.schema import Ruleset
from battlemap.rules.schema_light import LightRules
from battlemap.ui.drag import window_ruleset
from battlemap.ui.feature_window import FeatureWindow
from battlemap.ui.map_index_cache import window_index
from battlemap.ui.menu_choices import exclusive_choices
from battlemap.ui.players.camera import (
    CameraMode as CameraMode,
)  # re-exported: share and the tests import it from here
from battlemap.ui.players.camera import CameraOutlineItem
from battlemap.ui.players.facing import FacingMenu
from battlemap.ui.players.fog_item import FogItem
from battlemap.ui.players.party_fog import PartyFog
from battlemap.ui.players.projection import CombatFacts, PlayerView, project
from battlemap.ui.players.table_camera import TableCamera
from battlemap.ui.players.window import PlayerWindow
from battlemap.ui.style import SCENE_UNITS_PER_CELL
from battlemap.ui.undo import push

STRIP_SHOWS_DEAD = "players/strip_shows_dead"
PLAYERS_SCREEN = "players/screen"
OPEN_AT_CLOSE = "players/open_at_close"
"""Whether the players' window was open when the app last closed (reopened at start)."""

DEFAULT_TABLETOP_PPI = 40.0
Z_DM_FOG = 5  # over the map, under the tokens (Z_TOKEN = 10)
UNSEEN_VEIL = QColor(20, 20, 60, 90)
EXPLORED_VEIL = QColor(20, 20, 60, 40)
SightProvider = Callable[[Encounter], frozenset[Cell]]
CombatProvider = Callable[[Encounter, Ruleset | None], CombatFacts | None]


class PlayersController(QObject):
    """Owns the players' window and keeps it in step with the Document.

    ``sight`` returns the cells the party sees now; ``combat`` the turn facts. Both are
    optional so the window works before a combat starts or without dynamic fog.
    """

    def __init__(
        self,
        main_window: FeatureWindow,
        document: Document,
        undo_stack: QUndoStack,
        settings: QSettings,
        sight: SightProvider | None = None,
        combat: CombatProvider | None = None,
    ) -> None:
        super().__init__(main_window)
        self.main_window = main_window
        self.document = document
        self.undo_stack = undo_stack
        self.settings = settings
        shared_index = window_index(main_window)
        self.party_fog = PartyFog(
            lambda _encounter: shared_index.get(), lambda: _light_rules(main_window)
        )
        self.sight = sight if sight is not None else self.party_fog.visible
        document.follow_ups.append(self.party_fog.explore)
        self.combat = combat
        self.window = PlayerWindow(document, main_window)
        self.window.closed.connect(lambda: self.toggle_action.setChecked(False))
        self.camera_mode = CameraMode(str(settings.value("players/camera", CameraMode.FOLLOW)))
        self.tabletop_ppi = float(str(settings.value("players/tabletop_ppi", DEFAULT_TABLETOP_PPI)))
        self.strip_shows_dead = str(settings.value(STRIP_SHOWS_DEAD, "false")).lower() == "true"
        """The DM keeps dead monsters in the players' initiative strip (a saved setting)."""
        dm_scene = main_window.scene
        self.dm_view = main_window.view
        self.outline = CameraOutlineItem(self._map_rect())
        self.outline.moved.connect(self.update_camera)
        dm_scene.addItem(self.outline)
        self.fog_overlay = FogItem(document.encounter.grid, UNSEEN_VEIL, EXPLORED_VEIL, Z_DM_FOG)
        dm_scene.addItem(self.fog_overlay)
        self.last_view: PlayerView | None = None
        # Told of each new projection and camera change (the phones' share, ui/share).
        self.view_listeners: list[Callable[[PlayerView], None]] = []
        self.camera_listeners: list[Callable[[], None]] = []
        self.tabletop_centre: QPointF | None = None
        """Where the tabletop camera is pinned (panned or following a creature); None: at
        the DM's view's centre when the mode is chosen."""
        self._build_actions()
        self.table_camera = TableCamera(self)
        self.facing_menu = FacingMenu(main_window.view_menu, settings, self.window.set_facing)
        self.window.set_facing(self.facing_menu.facing)
        self.dm_view.visible_rect_changed.connect(self._on_dm_view_moved)
        document.subscribe(self._on_change)
        self.refresh()

    # --- actions ---------------------------------------------------------------

    def _build_actions(self) -> None:
        menu = self.main_window.view_menu
        menu.addSeparator()
        self.toggle_action = QAction("&Players' window", self, checkable=True)
        self.toggle_action.setShortcut(QKeySequence("F10"))
        self.toggle_action.setStatusTip("Open the window for the TV or projector")
        self.toggle_action.toggled.connect(self.set_window_open)
        menu.addAction(self.toggle_action)
        self.dead_in_strip_action = QAction(
            "Players' strip shows dead monsters", self, checkable=True
        )
        self.dead_in_strip_action.setChecked(self.strip_shows_dead)
        self.dead_in_strip_action.setStatusTip(
            "Keep slain monsters in the players' initiative strip (they leave it by default)"
        )
        self.dead_in_strip_action.toggled.connect(self.set_strip_shows_dead)
        menu.addAction(self.dead_in_strip_action)

        self.screen_menu = menu.addMenu("Players' &screen")
        self.screen_menu.aboutToShow.connect(self._fill_screen_menu)

        camera_menu = self.camera_menu = menu.addMenu("Players' &camera")
        labels = {
            CameraMode.FOLLOW: "&Follow my view",
            CameraMode.STEER: "&Steer with the outline",
            CameraMode.TABLETOP: "&Tabletop (1 cell = 1 inch)",
        }
        self.camera_actions: dict[CameraMode, QAction] = exclusive_choices(
            self, camera_menu, labels, self.set_camera_mode, self.camera_mode
        )
        camera_menu.addSeparator()
        self.send_view_action = QAction("Send &my view to the players", self)
        self.send_view_action.setShortcut(QKeySequence("Ctrl+Shift+V"))
        self.send_view_action.triggered.connect(self.send_my_view)
        camera_menu.addAction(self.send_view_action)
        calibrate = QAction("&Calibrate tabletop…", self)
        calibrate.triggered.connect(self._ask_calibration)
        camera_menu.addAction(calibrate)

        fog_menu = menu.addMenu("&Fog of war")
        fog_labels = {
            FogMode.OFF: "&Off",
            FogMode.MANUAL: "&Manual (reveal by hand)",
            FogMode.DYNAMIC: "&Dynamic (what the party sees)",
            FogMode.BOTH: "&Both",
        }
        self.fog_actions: dict[FogMode, QAction] = exclusive_choices(
            self, fog_menu, fog_labels, self.set_fog_mode
        )
        fog_menu.addSeparator()
        reveal_all = QAction("&Reveal whole map", self)
        reveal_all.triggered.connect(
            lambda: self.change_fog(reveal, self._all_cells(), "Reveal map")
        )
        hide_all = QAction("&Hide whole map", self)
        hide_all.triggered.connect(lambda: self.change_fog(hide, self._all_cells(), "Hide map"))
        fog_menu.addActions([reveal_all, hide_all])
        self._sync_fog_actions()

    def _fill_screen_menu(self) -> None:
        self.screen_menu.clear()
        chosen = self.settings.value(PLAYERS_SCREEN, "")
        for screen in QGuiApplication.screens():
            size = screen.geometry()
            action = QAction(f"{screen.name()} ({size.width()}×{size.height()})", self.screen_menu)
            action.setCheckable(True)
            action.setChecked(screen.name() == chosen)
            name = screen.name()
            action.triggered.connect(lambda _=False, n=name: self.choose_screen(n))
            self.screen_menu.addAction(action)

    # --- window and screen -------------------------------------------------------

    def set_window_open(self, open_: bool) -> None:
        if not open_:
            self.window.hide()
            return
        self._place_window()
        self.refresh()
        self.update_camera()
        self.main_window.activateWindow()  # the keyboard stays the DM's (N, A, typed dice)

    def choose_screen(self, name: str) -> None:
        self.settings.setValue(PLAYERS_SCREEN, name)
        if self.window.isVisible():
            self._place_window()
            self.update_camera()

    def remember_session(self) -> None:
        """At the app's close: whether the players' window is open, and the screen it is on
        (which ``reopen_if_it_was_open`` puts it back on)."""
        open_ = self.window.isVisible()
        self.settings.setValue(OPEN_AT_CLOSE, open_)
        screen = self.window.screen()
        if open_ and screen is not None:
            self.settings.setValue(PLAYERS_SCREEN, screen.name())

    def reopen_if_it_was_open(self) -> bool:
        """At start: open the players' window if it was open when the app closed, on the
        screen it was on (or, if that screen is gone, on another than the DM's)."""
        if str(self.settings.value(OPEN_AT_CLOSE, "false")).lower() != "true":
            return False
        self.toggle_action.setChecked(True)
        return True

    def _place_window(self) -> None:
        screens = QGuiApplication.screens()
        chosen = str(self.settings.value(PLAYERS_SCREEN, ""))
        screen = next((s for s in screens if s.name() == chosen), None)
        dm_screen = self.main_window.screen()
        if screen is None:  # default: any screen that is not the DM's
            screen = next((s for s in screens if s is not dm_screen), dm_screen)
        self.window.place_on(screen, full_screen=screen is not dm_screen)

    # --- camera --------------------------------------------------------------------

    def set_camera_mode(self, mode: CameraMode) -> None:
        self.camera_mode = mode
        self.tabletop_centre = None
        self.settings.setValue("players/camera", mode.value)
        self.camera_actions[mode].setChecked(True)
        self.update_camera()

    def send_my_view(self) -> None:
        """Put the outline on the DM's current view and steer the players' camera with it."""
        self.outline.set_area(self.dm_view.visible_scene_rect())
        self.set_camera_mode(CameraMode.STEER)

    def _ask_calibration(self) -> None:
        ppi, ok = QInputDialog.getDouble(
            self.main_window,
            "Calibrate tabletop",
            "Hold a ruler to the players' screen: how many pixels make one inch?",
            self.tabletop_ppi,
            5.0,
            1000.0,
            1,
        )
        if ok:
            self.set_tabletop_ppi(ppi)

    def set_tabletop_ppi(self, ppi: float) -> None:
        self.tabletop_ppi = ppi
        self.settings.setValue("players/tabletop_ppi", ppi)
        self.update_camera()

    def _on_dm_view_moved(self, _rect: QRectF) -> None:
        if self.camera_mode is CameraMode.FOLLOW:
            self.update_camera()

    def update_camera(self) -> None:
        if not shiboken6.isValid(self.outline):  # the DM's scene is being torn down
            return
        self.outline.setVisible(self.camera_mode is CameraMode.STEER)
        if self.camera_mode is CameraMode.FOLLOW:
            self.window.show_area(self.dm_view.visible_scene_rect())
        elif self.camera_mode is CameraMode.STEER:
            self.window.show_area(self.outline.area())
        else:
            centre = self.tabletop_centre or self.dm_view.visible_scene_rect().center()
            self.window.show_at_scale(centre, self.tabletop_ppi / SCENE_UNITS_PER_CELL)
        for listener in self.camera_listeners:
            listener()

    # --- fog -----------------------------------------------------------------------

    def set_fog_mode(self, mode: FogMode) -> None:
        fog = self.document.encounter.fog
        if fog.mode is not mode:
            self._push_fog(fog, fog.model_copy(update={"mode": mode}), f"Fog: {mode.value}")

    def change_fog(
        self,
        operation: Callable[[FogOfWar, frozenset[Cell]], FogOfWar],
        cells: frozenset[Cell],
        text: str,
    ) -> None:
        fog = self.document.encounter.fog
        new = operation(fog, cells)
        if new != fog:
            self._push_fog(fog, new, text)

    def _push_fog(self, old: FogOfWar, new: FogOfWar, text: str) -> None:
        command = ReplaceEncounterField("fog", old, new, text=text)
        push(self.undo_stack, self.document, command)

    def _sync_fog_actions(self) -> None:
        self.fog_actions[self.document.encounter.fog.mode].setChecked(True)

    def _all_cells(self) -> frozenset[Cell]:
        grid = self.document.encounter.grid
        return frozenset((c, r) for c in range(grid.width) for r in range(grid.height))

    # --- projection ------------------------------------------------------------------

    def _on_change(self, change: Change) -> None:
        if change.map:
            self.outline.set_bounds(self._map_rect())
        if change.fog:
            self._sync_fog_actions()
        self.refresh()

    def refresh(self) -> None:
        if not shiboken6.isValid(self.fog_overlay):
            return
        encounter = self.document.encounter
        uses_sight = encounter.fog.mode.uses_sight
        sight = self.sight(encounter) if uses_sight else None
        areas = self.party_fog.sight_areas(encounter) if uses_sight else None
        light = self.party_fog.seen_light(encounter) if uses_sight else None
        ruleset = window_ruleset(self.main_window)
        combat = self.combat(encounter, ruleset) if self.combat else None
        if combat is not None:
            combat = replace(combat, strip_shows_dead=self.strip_shows_dead)
        dim_light = None if light is None else light.dim
        view = project(encounter, sight, combat, ruleset, areas, dim_light)
        self.last_view = view
        self.fog_overlay.show_view(view, self._dm_image_rect())
        if self.window.isVisible():
            self.window.show_view(view)
        for listener in self.view_listeners:
            listener(view)

    def set_strip_shows_dead(self, shown: bool) -> None:
        """Keep dead monsters in the players' strip (or not), remembered for the next session."""
        self.strip_shows_dead = shown
        self.settings.setValue(STRIP_SHOWS_DEAD, shown)
        if self.dead_in_strip_action.isChecked() != shown:
            self.dead_in_strip_action.setChecked(shown)
        self.refresh()

    def _dm_image_rect(self) -> QRectF | None:
        """Where the DM's map image lies (scene units), or None without one."""
        image = self.main_window.scene.background_layer.item
        return None if image is None else image.sceneBoundingRect()

    def _map_rect(self) -> QRectF:
        grid = self.document.encounter.grid
        side = SCENE_UNITS_PER_CELL
        return QRectF(QPointF(0, 0), QPointF(grid.width * side, grid.height * side))


def _light_rules(window: FeatureWindow) -> LightRules:
    """The encounter's ruleset's light rules (the defaults when it can't be loaded)."""
    ruleset = window_ruleset(window)
    return LightRules() if ruleset is None else ruleset.light
