"""The DM's main window: the map in the middle, menus, docks and the status bar."""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSettings, Qt
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence, QShowEvent, QUndoStack
from PySide6.QtWidgets import QDockWidget, QLabel, QMessageBox, QUndoView, QWidget

from battlemap import APP_NAME, __version__
from battlemap.io.monsters import SRD_ATTRIBUTION
from battlemap.model.document import Document
from battlemap.ui import (
    combat,
    creature_dock,
    drag,
    grid_align,
    help_menu,
    import_actions,
    library_dock,
    party_dock,
    ruleset_menu,
    share,
    targeting,
    theme,
    token_colour,
    tools,
    window_layout,
)
from battlemap.ui.feature_window import FeatureWindow, TakeBack
from battlemap.ui.file_actions import install as install_file_actions
from battlemap.ui.map_scene import MapScene
from battlemap.ui.map_view import MapView
from battlemap.ui.plain_text import plain_tooltip
from battlemap.ui.players.controller import PlayersController
from battlemap.ui.style import cell_to_scene

STATUS_MESSAGE_MS = 5000
LAYOUT_GEOMETRY = "window/geometry"
LAYOUT_STATE = "window/state"
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
        self.undo_stack.undoTextChanged.connect(self.refresh_undo_action)
        self.undo_stack.canUndoChanged.connect(self.refresh_undo_action)
        self.refresh_undo_action()
        redo = self.undo_stack.createRedoAction(self, "&Redo")
        redo.setShortcuts(QKeySequence.StandardKey.Redo)  # Ctrl+Y and Ctrl+Shift+Z both
        self.edit_menu.addActions([self.undo_action, redo])

        zoom_in = self._action("Zoom &in", QKeySequence.StandardKey.ZoomIn, self.view.zoom_in)
        zoom_out = self._action("Zoom &out", QKeySequence.StandardKey.ZoomOut, self.view.zoom_out)
        self.view_menu.addActions(
            [self._action("&Fit map", "Ctrl+0", self.fit_map), zoom_in, zoom_out]
        )
        self.view_menu.addSeparator()
        self.view_menu.addAction(self.history_dock.toggleViewAction())

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
        self.undo_action.setText(f"&Undo {step}" if step else "&Undo")  # its & are doubled
        # Steps name creatures ("Next turn: Goblin 2"): the tooltip shows them, never markup.
        typed = step.replace("&&", "&")
        self.undo_action.setToolTip(plain_tooltip(f"Undo {typed}" if step else "Undo"))
        self.undo_action.setEnabled(waiting or self.undo_stack.canUndo())

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
        self.map_importer = import_actions.install(self)
        self.library_dock = library_dock.install(self)
        self.grid_aligner = grid_align.install(self)
        self.party_dock = party_dock.install(self)
        self.combat = combat.install(self)
        self.drag_feedback = drag.install(self)
        self.targeting = targeting.install(self)
        self.help = help_menu.install(self)

    def _restore_layout(self) -> None:
        """Docks and toolbars where the DM left them (saved on close; object names key them)."""
        geometry, state = self.settings.value(LAYOUT_GEOMETRY), self.settings.value(LAYOUT_STATE)
        if geometry is not None:
            self.restoreGeometry(geometry)
        if state is not None:
            self.restoreState(state)
        self._first_run_docks = state is None  # sized when first shown, at the window's size

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._first_run_docks:
            self._first_run_docks = False
            window_layout.size_docks(
                self,
                left=(self.combat.initiative, self.combat.actions),
                right=self.library_dock,
                creature=self.creature_dock,
                log=self.combat.log,
            )

    def closeEvent(self, event: QCloseEvent) -> None:
        self.settings.setValue(LAYOUT_GEOMETRY, self.saveGeometry())
        self.settings.setValue(LAYOUT_STATE, self.saveState())
        super().closeEvent(event)

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
        QMessageBox.about(
            self,
            f"About {APP_NAME}",
            f"<b>{APP_NAME} {__version__}</b><p>A battle map for tabletop role-playing games "
            f"played around a real table.</p><p><small>{SRD_ATTRIBUTION}</small></p>",
        )
