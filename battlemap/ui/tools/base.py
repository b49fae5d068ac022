"""What every map tool shares: the pointer event it sees, its context, and the Tool base.

The view hands mouse and key events to the active tool (``MapView.tool_hook``) after its own
pan handling; a tool returns True when it used the event, and False to let the view and the
scene handle it as usual (the Select tool passes almost everything through, so tokens drag).
Coordinates reaching a tool are in cells, unsnapped.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QGraphicsItem, QGraphicsScene, QGraphicsView, QWidget

from battlemap.model.document import Command, Document
from battlemap.model.encounter import over_limit
from battlemap.model.features import Point
from battlemap.rules.loader import RulesetRegistry
from battlemap.ui.style import cell_to_scene, scene_to_cell
from battlemap.ui.undo import push

Z_OVERLAY = 50
"""Previews draw above tokens, so a wall being drawn is never hidden by a creature."""

FREE_MODIFIER = Qt.KeyboardModifier.ShiftModifier
"""Held while drawing, points are not snapped to the grid."""


@dataclass(frozen=True)
class PointerEvent:
    """A mouse event as a tool sees it.

    Attributes:
        cell: the pointer position in cells, unsnapped.
        button: the button that changed (NoButton for a move).
        buttons: the buttons held.
        modifiers: keyboard modifiers held.
        cells_per_pixel: the size of one screen pixel in cells at the current zoom, for hit
            tolerances that stay the same size on screen.
        touch: True when a finger on a touch screen made the event (hit areas grow).
    """

    cell: Point
    button: Qt.MouseButton
    buttons: Qt.MouseButton
    modifiers: Qt.KeyboardModifier
    cells_per_pixel: float
    touch: bool = False

    @property
    def free(self) -> bool:
        """True when the DM holds the free-draw modifier (no snapping)."""
        return bool(self.modifiers & FREE_MODIFIER)

    @property
    def left(self) -> bool:
        return self.button == Qt.MouseButton.LeftButton

    @property
    def right(self) -> bool:
        return self.button == Qt.MouseButton.RightButton


def scene_to_cell_point(point: QPointF) -> Point:
    return (scene_to_cell(point.x()), scene_to_cell(point.y()))


def cell_to_scene_point(point: Point) -> QPointF:
    return QPointF(cell_to_scene(point[0]), cell_to_scene(point[1]))


class Overlay:
    """Preview items a tool shows over the map; replaced wholesale on every update."""

    def __init__(self, scene: QGraphicsScene) -> None:
        self._scene = scene
        self._items: list[QGraphicsItem] = []

    def show(self, items: list[QGraphicsItem]) -> None:
        self.clear()
        for item in items:
            item.setZValue(Z_OVERLAY + item.zValue())
            item.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
            self._scene.addItem(item)
        self._items = items

    def clear(self) -> None:
        for item in self._items:
            if item.scene() is self._scene:
                self._scene.removeItem(item)
        self._items = []

    @property
    def items(self) -> list[QGraphicsItem]:
        return list(self._items)


@dataclass
class ToolContext:
    """What a tool may touch: the document (through commands), the scene and the view."""

    document: Document
    undo_stack: QUndoStack
    scene: QGraphicsScene
    view: QGraphicsView
    overlay: Overlay
    show_hint: Callable[[str], None]
    """Replace the status-bar hint (e.g. with a measured distance)."""
    rulesets: Callable[[], RulesetRegistry]
    """The window's loaded rulesets (the Rules menu's, user files included)."""

    def push(self, command: Command) -> bool:
        """Apply ``command`` as one undo step; False, saying why in the hint, when it would
        take the encounter past a limit (the saved file would not reopen)."""
        problem = over_limit(command.apply(self.document.encounter))
        if problem is not None:
            self.show_hint(f"Refused: {problem}.")
            return False
        push(self.undo_stack, self.document, command)
        return True


class Tool:
    """A map tool. Subclasses set the class attributes and override the event methods.

    Event methods return True when they used the event; the default uses every mouse event
    so nothing underneath (token drags, rubber band) reacts while a drawing tool is active.
    """

    key: str = "tool"
    label: str = "Tool"
    shortcut: str = ""
    hint: str = ""
    cursor: Qt.CursorShape = Qt.CursorShape.CrossCursor

    def __init__(self, context: ToolContext) -> None:
        self.context = context

    # --- lifecycle ------------------------------------------------------

    def activate(self) -> None:
        """Called when the DM picks this tool."""

    def deactivate(self) -> None:
        """Called when the DM picks another tool: finish what is in progress, clear previews."""
        self.finish()
        self.context.overlay.clear()

    def finish(self) -> None:
        """Commit (or drop, when incomplete) whatever is being drawn."""

    def options_widget(self) -> QWidget | None:
        """Controls shown in the tool-options bar while this tool is active."""
        return None

    # --- events ---------------------------------------------------------

    def press(self, event: PointerEvent) -> bool:
        return True

    def move(self, event: PointerEvent) -> bool:
        return True

    def release(self, event: PointerEvent) -> bool:
        return True

    def double_click(self, event: PointerEvent) -> bool:
        return True

    def key_press(self, key: Qt.Key) -> bool:
        """A key press while the map has focus; Escape and Return are the usual ones."""
        return False
