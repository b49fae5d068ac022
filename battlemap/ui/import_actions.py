"""File > Import map… and drag-and-drop of map files onto the window.

Universal VTT files (``.dd2vtt``, ``.uvtt``, ``.df2vtt``) bring their grid, walls, doors,
windows, lights and image; PNG, JPEG and WEBP images become the background of a grid sized
to them (align it with View > Align grid to image). Each import is one undo step. A file that
cannot be read shows a dialog with the reader's message (file, field, what is wrong). A map
whose image is a file that is not beside it (Universal VTT 1.0) asks for that image file.
Tokens the new map leaves off the map or inside walls and obstacles move to the nearest free
cells in the same undo step, and the status bar names them.
A ``.json`` file is imported when its content is a Universal VTT map (as File > Open does);
any other JSON is refused saying what it is.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QAction, QDragEnterEvent, QDropEvent, QKeySequence
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox, QWidget

from battlemap.io.bounded import read_bounded
from battlemap.io.errors import FileFormatError
from battlemap.io.json_kind import MAX_UVTT_BYTES, JsonKind, sniff_json
from battlemap.io.map_import import IMAGE_SUFFIXES, UVTT_SUFFIXES, MapImport, import_image_map
from battlemap.model.map_commands import CommandGroup
from battlemap.ui.background_item import ImageDecodeError
from battlemap.ui.map_resettle import resettle
from battlemap.ui.undo import push

# The engine and the heavier geometry are imported in the functions that use them, so
# the window is built without them (issue 17; tests/ui/test_start_up_imports.py).
if TYPE_CHECKING:
    from battlemap.io.uvtt import FindImage
    from battlemap.ui.feature_window import FeatureWindow

MAP_SUFFIXES = (*UVTT_SUFFIXES, ".json", *IMAGE_SUFFIXES)
FILE_FILTER = (
    "Maps (*.dd2vtt *.uvtt *.df2vtt *.json *.png *.jpg *.jpeg *.webp);;"
    "Universal VTT (*.dd2vtt *.uvtt *.df2vtt *.json);;Images (*.png *.jpg *.jpeg *.webp)"
)


def is_map_file(path: Path) -> bool:
    return path.suffix.lower() in MAP_SUFFIXES


IMAGE_FILTER = "Images (*.png *.jpg *.jpeg *.webp)"


def read_map_file(path: Path, find_image: FindImage | None = None) -> MapImport:
    """Read a Universal VTT file or an image, chosen by suffix (a ``.json`` file by content).

    Raises:
        FileFormatError: from the reader, for a ``.json`` file that is not a Universal VTT
            map (saying what it is, when known), or for a suffix that is neither.
    """
    from battlemap.io.uvtt import read_uvtt

    suffix = path.suffix.lower()
    if suffix == ".json":
        kind = sniff_json(read_bounded(path, MAX_UVTT_BYTES))
        if kind is not JsonKind.UNIVERSAL_VTT:
            raise FileFormatError(path, _not_a_map(kind))
    if suffix in UVTT_SUFFIXES or suffix == ".json":
        return read_uvtt(path, find_image)
    if suffix in IMAGE_SUFFIXES:
        return import_image_map(path)
    raise FileFormatError(path, f"'{suffix}' is not a map file ({', '.join(MAP_SUFFIXES)})")


def _not_a_map(kind: JsonKind | None) -> str:
    """Why a ``.json`` file of ``kind`` (None: not a kind Battlemap knows) is no map."""
    missing = "no Universal VTT map (it lacks resolution, map_size or pixels_per_grid)"
    if kind is None:
        return f"{missing}; an encounter saved as .json opens with File > Open…"
    return (
        f"this is {kind}, {missing}; add its monsters with Load monsters… in the Creature library"
    )


def ask_for_map_image(parent: QWidget, map_path: Path, name: str) -> Path | None:
    """A file dialog for the image a map file names but that is not beside it."""
    QApplication.setOverrideCursor(Qt.CursorShape.ArrowCursor)  # over the import's wait cursor
    try:
        chosen, _ = QFileDialog.getOpenFileName(
            parent,
            f"Where is {name}, the image of {map_path.name}?",
            str(map_path.parent),
            IMAGE_FILTER,
        )
    finally:
        QApplication.restoreOverrideCursor()
    return Path(chosen) if chosen else None


def show_error(parent: QWidget, title: str, text: str) -> QMessageBox:
    """A window-modal warning that does not block the caller (tests can find and close it)."""
    box = QMessageBox(QMessageBox.Icon.Warning, title, text, QMessageBox.StandardButton.Ok, parent)
    box.setObjectName("import-error")
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.open()
    return box


class MapImporter(QObject):
    """The import action and the drop target for map files on the window's map view."""

    def __init__(self, window: FeatureWindow) -> None:
        super().__init__(window)
        self.window = window
        # The one way a missing map image is asked for (import and open): tests answer it.
        self.ask_image: Callable[[QWidget, Path, str], Path | None] = ask_for_map_image
        self.last_message = ""
        """What the last import said in the status bar (which tokens it moved)."""
        self.action = QAction("Import &map…", window)
        self.action.setShortcut(QKeySequence("Ctrl+I"))
        self.action.setStatusTip("Import a Universal VTT map or a map image")
        self.action.triggered.connect(self.choose_and_import)
        window.view.viewport().setAcceptDrops(True)
        window.view.viewport().installEventFilter(self)

    def choose_and_import(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self.window, "Import map", "", FILE_FILTER)
        if path:
            self.import_file(Path(path))

    def find_image(self, map_path: Path, name: str) -> Path | None:
        """Ask the DM for the image file ``name`` that the map ``map_path`` names."""
        return self.ask_image(self.window, map_path, name)

    def import_file(self, path: Path) -> bool:
        """Import ``path`` as one undo step; on failure show the message and change nothing."""
        window = self.window
        QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)  # big maps take a moment
        try:
            result = read_map_file(path, self.find_image)
            window.scene.background_layer.preload(result.image, str(path))
        except FileFormatError as error:
            show_error(window, "Cannot import map", str(error))
            return False
        except ImageDecodeError as error:
            show_error(window, "Cannot import map", f"{error} (the image could not be decoded)")
            return False
        finally:
            QApplication.restoreOverrideCursor()
        document = window.document
        name = document.add_image(result.image, result.image_info.format.suffix)
        replace_map = result.command(document.encounter, name)
        moves, moved = resettle(replace_map.apply(document.encounter))
        command = CommandGroup((replace_map, *moves), replace_map.text) if moves else replace_map
        push(window.undo_stack, document, command)
        window.fit_map()
        walls = f", {len(result.walls)} walls, doors and windows" if result.walls else ""
        info = result.image_info
        self.last_message = (
            f"Imported {path.name}: {result.grid.width} x {result.grid.height} cells, "
            f"{info.width} x {info.height} {info.format.name}{walls}"
        )
        if moved:
            self.last_message += f". Moved to free cells: {', '.join(moved)}"
        window.statusBar().showMessage(self.last_message, 15000 if moved else 8000)
        return True

    # --- drag and drop of files onto the map -------------------------------------------

    def _dropped_map(self, event: QDragEnterEvent | QDropEvent) -> Path | None:
        mime = event.mimeData()
        if not mime.hasUrls():
            return None
        paths = [Path(url.toLocalFile()) for url in mime.urls() if url.isLocalFile()]
        return paths[0] if len(paths) == 1 and is_map_file(paths[0]) else None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind in (QEvent.Type.DragEnter, QEvent.Type.DragMove):
            assert isinstance(event, QDragEnterEvent | QDropEvent)
            if self._dropped_map(event) is not None:
                event.acceptProposedAction()
                return True
        elif kind == QEvent.Type.Drop:
            assert isinstance(event, QDropEvent)
            path = self._dropped_map(event)
            if path is not None:
                event.acceptProposedAction()
                self.import_file(path)
                return True
        return False


def install(window: FeatureWindow) -> MapImporter:
    """Add File > Import map… (before Quit) and accept map files dropped on the map."""
    importer = MapImporter(window)
    menu = window.file_menu
    if window.quit_action in menu.actions():
        menu.insertAction(window.quit_action, importer.action)
        menu.insertSeparator(window.quit_action)
    else:
        menu.addAction(importer.action)
    return importer
