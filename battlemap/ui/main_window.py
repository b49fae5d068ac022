"""The DM's main window: the map in the middle, menus, docks and the status bar."""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSettings, Qt
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence, QShowEvent, QUndoStack
from PySide6.QtWidgets import QDockWidget, QLabel, QMessageBox, QTabBar, QUndoView, QWidget

from battlemap import APP_NAME, __version__
from battlemap.model.document import Document
from battlemap.ui import (
    combat,
    combat_room,
    creature_dock,
    drag,
    grid_align,
    help_menu,
    import_actions,
    layout_memory,
    library_dock,
    light_actions,
    party_dock,
    ruleset_menu,
    share,
    targeting,
    theme,
    token_colour,
    token_health,
    token_miniature,
    token_pictures,
    tools,
    window_layout,
)
from battlemap.ui.feature_window import FeatureWindow, TakeBack
from battlemap.ui.file_actions import install as install_file_actions
from battlemap.ui.map_scene import MapScene
from battlemap.ui.map_view import MapView
from battlemap.ui.plain_text import plain_tooltip
from battlemap.ui.players import preview_dock
from battlemap.ui.players.controller import PlayersController
from battlemap.ui.style import cell_to_scene
from battlemap.ui.targeting import show_ruling

STATUS_MESSAGE_MS = 5000
HISTORY_START = "As opened"


class MainWindow(FeatureWindow):
    def __init__(
        self,
        document: Document,
        parent: QWidget | None = None,
        settings: QSettings | None = None,
    ) -> None:
        super().__init__(parent)
        self.document = document
        # Tests pass an ini file in a temp folder; the app uses the user's settings.
        self.settings = settings if settings is not None else QSettings()
        self.undo_stack = QUndoStack(self)
        self.take_backs: list[TakeBack] = []
        """Unrecorded work Undo takes back before the undo stack (see ``undo``)."""
        self._closed = False  # closed, and its Undo and Redo cut from the stack (closeEvent)
        self.scene = MapScene(document, self.undo_stack)
        self.scene.setParent(self)  # torn down with the window, after the view and docks
        self.view = MapView(self.scene, self)
        self.setCentralWidget(self.view)
        window_layout.fit_to_screen(self)  # first start; a saved geometry wins (_restore_layout)
        self._cell_label = QLabel()
        self.statusBar().addPermanentWidget(self._cell_label)
        self.view.cell_hovered.connect(self._show_cell)
        self.scene.message.connect(
            lambda text: self.statusBar().showMessage(text, STATUS_MESSAGE_MS)
        )
        self.undo_stack.cleanChanged.connect(self._on_clean_changed)
        self._build_docks()
        self._build_menus()
        self._install_features()
        self._restore_layout()
        self._update_title()

    # --- construction ------------------------------------------------------

    def _build_docks(self) -> None:
        history = QDockWidget("History", self)
        history.setObjectName("history-dock")
        steps = QUndoView(self.undo_stack)
        steps.setEmptyLabel(HISTORY_START)  # Qt's "<empty>": the row that undoes everything
        history.setWidget(steps)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, history)
        self.history_dock = history

    def _action(
        self,
        text: str,
        shortcut: QKeySequence | QKeySequence.StandardKey | str | None,
        slot: object,
    ) -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        action.triggered.connect(slot)
        return action

    def _build_menus(self) -> None:
        # Feature modules (files, tools, players' window, ...) add their own actions to these
        # menus and the toolbar from an ``install(window)`` function, so this class stays small.
        self.file_menu = self.menuBar().addMenu("&File")
        self.edit_menu = self.menuBar().addMenu("&Edit")
        self.view_menu = self.menuBar().addMenu("&View")
        self.help_menu = self.menuBar().addMenu("&Help")
        self.tools_toolbar = self.addToolBar("Tools")
        self.tools_toolbar.setObjectName("tools-toolbar")

        self.quit_action = self._action("&Quit", QKeySequence.StandardKey.Quit, self.close)
        self.file_menu.addAction(self.quit_action)

        self.undo_action = self._action("&Undo", QKeySequence.StandardKey.Undo, self.undo)
        self.redo_action = self._action(
            "&Redo", QKeySequence.StandardKey.Redo, self.undo_stack.redo
        )
        self._connect_step_names(True)
        self.refresh_undo_action()
        self.redo_action.setShortcuts(QKeySequence.StandardKey.Redo)  # Ctrl+Y, Ctrl+Shift+Z
        self.edit_menu.addActions([self.undo_action, self.redo_action])

        zoom_in = self._action("Zoom &in", QKeySequence.StandardKey.ZoomIn, self.view.zoom_in)
        zoom_out = self._action("Zoom &out", QKeySequence.StandardKey.ZoomOut, self.view.zoom_out)
        self.view_menu.addActions(
            [self._action("&Fit map", "Ctrl+0", self.fit_map), zoom_in, zoom_out]
        )
        self.view_menu.addSeparator()
        self.view_menu.addAction(self.history_dock.toggleViewAction())
        self.reset_layout_action = self._action("&Reset layout", None, self.reset_layout)
        self.reset_layout_action.setStatusTip(
            "Put the docks back as they first were on this screen"
        )
        self.view_menu.addAction(self.reset_layout_action)

        self.help_menu.addAction(self._action("&About Battlemap", None, self._about))

    def undo(self) -> None:
        """Edit > Undo (Ctrl+Z): what is waiting to be recorded is taken back first (a move
        waiting on an opportunity-attack card), else the last recorded step."""
        for source in self.take_backs:
            if source.can_take_back():
                source.take_back()
                return
        self.undo_stack.undo()

    def refresh_undo_action(self) -> None:
        """Undo is enabled when anything can be taken back, and names the recorded step."""
        waiting = any(source.can_take_back() for source in self.take_backs)
        step = "" if waiting else self.undo_stack.undoText()
        _name_step(self.undo_action, "Undo", step)
        self.undo_action.setEnabled(waiting or self.undo_stack.canUndo())
        self.refresh_redo_action()  # called when what waits changes: Redo follows it too

    def refresh_redo_action(self) -> None:
        """Redo is enabled when an undone step can be done again, and names it; not while a
        change waits to be recorded (a move on an opportunity-attack card): redoing a turn
        change under it would record the move in another creature's turn."""
        waiting = any(source.can_take_back() for source in self.take_backs)
        _name_step(self.redo_action, "Redo", self.undo_stack.redoText())
        self.redo_action.setEnabled(self.undo_stack.canRedo() and not waiting)

    def _connect_step_names(self, connect: bool) -> None:
        """(Dis)connect the stack's signals to the Undo and Redo actions' refreshes.

        Disconnected when the window closes: the stack, clearing itself as it is deleted,
        would otherwise call them on actions already gone.
        """
        pairs = (
            (self.undo_stack.undoTextChanged, self.refresh_undo_action),
            (self.undo_stack.canUndoChanged, self.refresh_undo_action),
            (self.undo_stack.redoTextChanged, self.refresh_redo_action),
            (self.undo_stack.canRedoChanged, self.refresh_redo_action),
        )
        for signal, slot in pairs:
            if connect:
                signal.connect(slot)
            else:
                signal.disconnect(slot)

    def _install_features(self) -> None:
        """Let each feature module add its menus, docks and tools: one line per feature."""
        self.files = install_file_actions(self)
        self.rulesets = ruleset_menu.install(self)
        self.theme = theme.install(self)
        self.tools = tools.install(self)
        self.players = PlayersController(
            self, self.document, self.undo_stack, self.settings, combat=combat.combat_facts
        )
        self.share = share.install(self)
        self.creature_dock = creature_dock.install(self)
        creature_dock.add_token_menu_entries(self)
        self.token_colours = token_colour.install(self)
        self.lights = light_actions.install(self)
        self.map_importer = import_actions.install(self)
        self.token_pictures = token_pictures.install(self)  # after: its drops are asked first
        self.token_health = token_health.install(self)
        self.token_miniature = token_miniature.install(self)
        self.library_dock = library_dock.install(self)
        self.grid_aligner = grid_align.install(self)
        self.party_dock = party_dock.install(self)
        self.combat = combat.install(self)
        self.combat_room = combat_room.install(self)
        self.drag_feedback = drag.install(self)
        self.targeting = targeting.install(self)
        self.ruling = show_ruling.install(self, self.targeting, self.drag_feedback)
        self.players_preview = preview_dock.install(self)
        self.help = help_menu.install(self)

    def _restore_layout(self) -> None:
        """Docks and toolbars where the DM left them on a screen of this size (saved on close;
        object names key them)."""
        self._default_state = self.saveState()  # every dock where it was installed
        size = layout_memory.size_to_restore(self.settings, self)
        geometry, state = layout_memory.saved_layout(self.settings, size)
        if geometry is not None:
            self.restoreGeometry(geometry)
        restored = state is not None and self.restoreState(state)
        self._first_run_docks = not restored  # sized when first shown, at the window's size

    def reset_layout(self) -> None:
        """View > Reset layout: every dock back in its first-run place and size for this
        window's size (the docks the DM closed open again); kept at close as any layout."""
        # The docks' tab bars (the window's own children, not those inside a dock): Qt shows
        # again the ones it uses; the old one of a moved tab group stayed drawn over a dock.
        for bar in self.findChildren(QTabBar, options=Qt.FindChildOption.FindDirectChildrenOnly):
            bar.hide()
        self.restoreState(self._default_state)
        self._size_docks()

    def _size_docks(self) -> None:
        window_layout.size_docks(
            self,
            left=(self.combat.initiative, self.combat.actions),
            right=self.library_dock,
            creature=self.creature_dock,
            log=self.combat.log,
        )

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._closed:  # shown again after a close: the step names follow the stack again
            self._closed = False
            self._connect_step_names(True)
            self.refresh_undo_action()
        if self._first_run_docks:
            self._first_run_docks = False
            self._size_docks()

    def closeEvent(self, event: QCloseEvent) -> None:
        size = layout_memory.screen_size(self)
        layout_memory.save_layout(self.settings, size, self.saveGeometry(), self.saveState())
        self.players.remember_session()  # reopened at the next start if it was open
        super().closeEvent(event)
        if event.isAccepted() and not self._closed:
            self._closed = True
            self._connect_step_names(False)

    # --- behaviour -----------------------------------------------------------

    def map_rect(self) -> QRectF:
        grid = self.document.encounter.grid
        return QRectF(0, 0, cell_to_scene(grid.width), cell_to_scene(grid.height))

    def fit_map(self) -> None:
        self.view.fit_map(self.map_rect())

    def _on_clean_changed(self, clean: bool) -> None:
        self.setWindowModified(not clean)

    def _update_title(self) -> None:
        self.files.refresh_title()  # the file's name, or the encounter's while it has none

    def _show_cell(self, col: int, row: int) -> None:
        grid = self.document.encounter.grid
        if 0 <= col < grid.width and 0 <= row < grid.height:
            self._cell_label.setText(f"Cell {col}, {row}")
        else:
            self._cell_label.setText("Off the map")

    def _about(self) -> None:
        from battlemap.io.monsters import SRD_ATTRIBUTION

        QMessageBox.about(
            self,
            f"About {APP_NAME}",
            f"<b>{APP_NAME} {__version__}</b><p>A battle map for tabletop role-playing games "
            f"played around a real table.</p><p><small>{SRD_ATTRIBUTION}</small></p>",
        )


def _name_step(action: QAction, verb: str, step: str) -> None:
    """Name the step on Undo or Redo: ``step`` is the stack's text, its ``&`` doubled.

    Steps name creatures ("Next turn: Goblin 2"): the tooltip shows them, never markup.
    """
    action.setText(f"&{verb} {step}" if step else f"&{verb}")
    typed = step.replace("&&", "&")
    action.setToolTip(plain_tooltip(f"{verb} {typed}" if step else verb))
