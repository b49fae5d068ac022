"""The ToolController: the tools toolbar, the tool-options bar, the status hint and Delete.

It owns one instance of each tool, the exclusive ``QActionGroup`` that picks between them
(with single-key shortcuts), and the hook through which the map view hands mouse and key
events to the active tool.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, QPoint, Qt
from PySide6.QtGui import (
    QAction,
    QActionGroup,
    QContextMenuEvent,
    QInputDevice,
    QKeyEvent,
    QKeySequence,
    QMouseEvent,
)
from PySide6.QtWidgets import QLabel, QMenu, QStackedWidget, QToolBar

from battlemap.model.document import Change, Document
from battlemap.model.map_commands import remove_entities
from battlemap.ui.style import SCENE_UNITS_PER_CELL
from battlemap.ui.tools.base import Overlay, PointerEvent, Tool, ToolContext, scene_to_cell_point
from battlemap.ui.tools.eraser import EraserTool
from battlemap.ui.tools.fog import FogTool
from battlemap.ui.tools.icons import tool_icon
from battlemap.ui.tools.map_settings import MapSettingsDialog
from battlemap.ui.tools.measure import MeasureTool
from battlemap.ui.tools.obstacles import ObstacleTool
from battlemap.ui.tools.select import SelectTool
from battlemap.ui.tools.template import TemplateTool
from battlemap.ui.tools.terrain import TerrainTool
from battlemap.ui.tools.walls import DoorTool, WallTool

# The engine and the heavier geometry are imported in the functions that use them, so
# the window is built without them (issue 17; tests/ui/test_start_up_imports.py).
if TYPE_CHECKING:
    from battlemap.ui.feature_window import FeatureWindow

TOOL_CLASSES: tuple[type[Tool], ...] = (
    SelectTool,
    MeasureTool,
    WallTool,
    DoorTool,
    ObstacleTool,
    TerrainTool,
    EraserTool,
    FogTool,
    TemplateTool,
)
MAP_SETTINGS_SHORTCUT = "Ctrl+Shift+M"

_MOUSE_EVENTS = {
    QEvent.Type.MouseButtonPress: "press",
    QEvent.Type.MouseMove: "move",
    QEvent.Type.MouseButtonRelease: "release",
    QEvent.Type.MouseButtonDblClick: "double_click",
}


class ToolController(QObject):
    """Switches between the map tools and routes the view's input to the active one."""

    def __init__(self, window: FeatureWindow) -> None:
        super().__init__(window)
        self.window = window
        self.view = window.view
        self.hint_label = QLabel()
        self.hint_label.setObjectName("tool-hint")
        window.statusBar().addWidget(self.hint_label, 1)
        self.context = ToolContext(
            document=window.document,
            undo_stack=window.undo_stack,
            scene=window.scene,
            view=window.view,
            overlay=Overlay(window.scene),
            show_hint=self.hint_label.setText,
            rulesets=lambda: window.rulesets.registry,
        )
        self.tools: dict[str, Tool] = {cls.key: cls(self.context) for cls in TOOL_CLASSES}
        self.actions: dict[str, QAction] = {}
        self.group = QActionGroup(self)
        self.group.setExclusive(True)
        self._build_options_bar()
        self._build_actions()
        self.active: Tool = self.tools["select"]
        self.activate("select")
        # Redraw previews after undo/redo; stop listening when the window goes, because the
        # Document may outlive it (a test, or a window reopened on the same document).
        listener = partial(_refresh_after_change, self)
        window.document.subscribe(listener)
        window.destroyed.connect(partial(_unsubscribe, window.document, listener))
        self.view.tool_hook = self.handle_view_event
        window.installEventFilter(self)  # redraw the icons when the theme changes

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange):
            self.redraw_icons()
        return False

    def redraw_icons(self) -> None:
        """Draw the tool icons again in the current palette's text colour."""
        for key, action in self.actions.items():
            action.setIcon(tool_icon(key))
        self.map_settings_action.setIcon(tool_icon("map-settings"))

    # --- construction ---------------------------------------------------

    def _build_options_bar(self) -> None:
        bar = QToolBar("Tool options", self.window)
        bar.setObjectName("tool-options-toolbar")
        self.tool_name = QLabel()
        self.tool_name.setObjectName("tool-options-name")
        self.tool_name.setContentsMargins(6, 0, 12, 0)
        bar.addWidget(self.tool_name)
        self.options_stack = QStackedWidget()
        self._empty_options = QLabel("")
        self.options_stack.addWidget(self._empty_options)
        bar.addWidget(self.options_stack)
        self.window.addToolBar(Qt.ToolBarArea.TopToolBarArea, bar)
        self.options_bar = bar

    def _build_actions(self) -> None:
        toolbar = self.window.tools_toolbar
        menu = self.window.menuBar().addMenu("&Tools")
        self.window.menuBar().insertMenu(self.window.help_menu.menuAction(), menu)
        for key, tool in self.tools.items():
            action = QAction(tool_icon(key), tool.label, self.window)
            action.setObjectName(f"tool-{key}")
            action.setCheckable(True)
            action.setShortcut(QKeySequence(tool.shortcut))
            action.setToolTip(f"<b>{tool.label}</b> ({tool.shortcut})<br>{tool.hint}")
            action.setStatusTip(tool.hint)
            action.triggered.connect(lambda _checked=False, k=key: self.activate(k))
            self.group.addAction(action)
            toolbar.addAction(action)
            menu.addAction(action)
            self.actions[key] = action
            options = tool.options_widget()
            if options is not None:
                self.options_stack.addWidget(options)
        toolbar.addSeparator()
        menu.addSeparator()
        settings = QAction(tool_icon("map-settings"), "Map settings…", self.window)
        settings.setObjectName("map-settings")
        settings.setShortcut(QKeySequence(MAP_SETTINGS_SHORTCUT))
        settings.setToolTip(
            f"<b>Map settings</b> ({MAP_SETTINGS_SHORTCUT})<br>Map size in cells, cell size in feet"
        )
        settings.triggered.connect(self.open_map_settings)
        toolbar.addAction(settings)
        menu.addAction(settings)
        self.map_settings_action = settings

        delete = QAction("&Delete", self.window)
        delete.setObjectName("delete-selection")
        delete.setShortcut(QKeySequence(QKeySequence.StandardKey.Delete))
        delete.setStatusTip("Remove the selected tokens or map feature (undoable)")
        delete.triggered.connect(self.delete_selection)
        self.window.edit_menu.addSeparator()
        self.window.edit_menu.addAction(delete)
        self.delete_action = delete

    # --- switching ------------------------------------------------------

    def activate(self, key: str) -> None:
        """Make the tool called ``key`` the active one (finishing the previous tool's work)."""
        tool = self.tools[key]
        if tool is not self.active:
            self.active.deactivate()
        self.active = tool
        self.actions[key].setChecked(True)
        self.hint_label.setText(tool.hint)
        self.tool_name.setText(f"<b>{tool.label}</b>")
        options = tool.options_widget()
        self.options_stack.setCurrentWidget(options if options is not None else self._empty_options)
        viewport = self.view.viewport()
        if key == "select":
            self.view.tool_cursor = None
            viewport.unsetCursor()
            self.view.setDragMode(self.view.DragMode.RubberBandDrag)
        else:
            self.view.tool_cursor = tool.cursor
            viewport.setCursor(tool.cursor)
            self.view.setDragMode(self.view.DragMode.NoDrag)
        tool.activate()

    def open_map_settings(self) -> MapSettingsDialog:
        """Open the (window-modal, non-blocking) map settings dialog and return it."""
        dialog = MapSettingsDialog(self.context, self.window)
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()
        return dialog

    # --- events from the view -------------------------------------------

    def handle_view_event(self, event: QEvent) -> bool:
        """Give a view event to the active tool; True when the tool used it."""
        kind = event.type()
        if kind in _MOUSE_EVENTS and isinstance(event, QMouseEvent):
            return bool(getattr(self.active, _MOUSE_EVENTS[kind])(self._pointer(event)))
        if kind == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            return self._key(Qt.Key(event.key()))
        if kind == QEvent.Type.ContextMenu:
            if self.active.key != "select":
                return True  # right-click ends a drawing, no menu
            return isinstance(event, QContextMenuEvent) and self._portal_menu(event)
        return False

    def _portal_menu(self, event: QContextMenuEvent) -> bool:
        """The Select tool's menu for a door or window under the pointer (tokens keep theirs)."""
        select = self.tools["select"]
        pointer = self._pointer_at(event.pos(), Qt.MouseButton.RightButton, event.modifiers())
        if not isinstance(select, SelectTool) or select.token_at(pointer.cell):
            return False
        menu = QMenu(self.view)
        if not select.fill_portal_menu(menu, pointer):
            return False
        menu.exec(event.globalPos())
        return True

    def _pointer(self, event: QMouseEvent) -> PointerEvent:
        pointer = self._pointer_at(event.position().toPoint(), event.button(), event.modifiers())
        return PointerEvent(
            cell=pointer.cell,
            button=pointer.button,
            buttons=event.buttons(),
            modifiers=pointer.modifiers,
            cells_per_pixel=pointer.cells_per_pixel,
            touch=event.device().type() == QInputDevice.DeviceType.TouchScreen,
        )

    def _pointer_at(
        self, view_pos: QPoint, button: Qt.MouseButton, modifiers: Qt.KeyboardModifier
    ) -> PointerEvent:
        scale = self.view.transform().m11() or 1.0
        return PointerEvent(
            cell=scene_to_cell_point(self.view.mapToScene(view_pos)),
            button=button,
            buttons=button,
            modifiers=modifiers,
            cells_per_pixel=1.0 / (scale * SCENE_UNITS_PER_CELL),
        )

    def _key(self, key: Qt.Key) -> bool:
        if self.active.key_press(key):
            return True
        if key == Qt.Key.Key_Escape:
            if self.active.key != "select":
                self.activate("select")  # Esc with nothing in progress: back to Select
            else:
                self.window.scene.clearSelection()
                self.tools["select"].deactivate()
            return True
        return False

    # --- delete ---------------------------------------------------------

    def selected_ids(self) -> list[str]:
        """Ids of the selected tokens and the selected map feature, tokens first."""
        ids = [
            str(creature_id)
            for creature_id, token in self.window.scene.tokens.items()
            if token.isSelected()
        ]
        select = self.tools["select"]
        if isinstance(select, SelectTool) and select.selected_feature is not None:
            ids.append(select.selected_feature)
        return ids

    def delete_selection(self) -> None:
        from battlemap.rules.removal import RemovalRefusedError, leaving_combat_too

        encounter = self.window.document.encounter
        command = remove_entities(encounter, self.selected_ids())
        if command is None:
            self.hint_label.setText("Nothing selected to delete.")
            return
        session = self.window.combat.session
        ruleset = session.ruleset() if encounter.combat is not None else None
        try:
            self.context.push(leaving_combat_too(encounter, ruleset, command))
        except RemovalRefusedError as refusal:
            self.hint_label.setText(str(refusal))
            session.refused.emit(str(refusal))


def _refresh_after_change(controller: ToolController, change: Change) -> None:
    refresh = getattr(controller.active, "refresh", None)
    if callable(refresh):
        refresh()


def _unsubscribe(document: Document, listener: object) -> None:
    if listener in document.listeners:
        document.listeners.remove(listener)


def install(window: FeatureWindow) -> ToolController:
    """Add the map tools to ``window`` (one line in ``MainWindow._install_features``)."""
    return ToolController(window)
