"""File menu: New, Open, Save, Save As, Open Recent; drag-and-drop; unsaved-changes guard.

``install(window)`` adds the actions and returns the ``FileActions``. The session behaviours
that only make sense in a real run — asking before a close that would lose changes, autosave
and the crash-recovery prompt — are switched on by the composition root with
``start_session`` (tests and ``--smoke`` builds of the window stay free of modal prompts).

Opening never half-replaces the encounter: the file is read and validated completely first,
and on any error the open encounter, its history and its file stay as they were.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, QStandardPaths
from PySide6.QtGui import QAction, QDropEvent, QKeySequence
from PySide6.QtWidgets import QFileDialog, QMessageBox, QWidget

from battlemap import APP_NAME
from battlemap.io.atomic import remove_stale_temp_files
from battlemap.io.encounter_file import SUFFIX, load_battlemap, save_battlemap
from battlemap.io.errors import FileFormatError
from battlemap.io.loader import OPENABLE_SUFFIXES, load_encounter_file
from battlemap.model.document import Change
from battlemap.model.encounter import Encounter
from battlemap.ui.autosave import Autosave, Recovery, default_recovery_dir, find_recoveries
from battlemap.ui.plain_text import literal_labels
from battlemap.ui.recent_files import RecentFiles

if TYPE_CHECKING:
    from collections.abc import Mapping

    from battlemap.ui.feature_window import FeatureWindow

STALE_TEMP_AT_START_S = 60.0
"""At start, a save's temporary file this old is surely a killed save's (saves take
seconds at most; a younger one may be another running instance's save in progress)."""
OPEN_FILTER = "Encounters (*.battlemap *.json);;Battlemap files (*.battlemap);;All files (*)"
SAVE_FILTER = "Battlemap files (*.battlemap)"
STATUS_MS = 4000


class SaveChoice(Enum):
    SAVE = "save"
    DISCARD = "discard"
    CANCEL = "cancel"


# --- dialogs (module functions so tests can replace them) ------------------------------------


def ask_save_changes(parent: QWidget, name: str) -> SaveChoice:
    """Save / Discard / Cancel for unsaved changes to ``name``."""
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Warning)
    box.setWindowTitle(APP_NAME)
    box.setText(f"Save the changes to “{name}”?")
    box.setInformativeText("Your changes will be lost if you don't save them.")
    buttons = QMessageBox.StandardButton
    box.setStandardButtons(buttons.Save | buttons.Discard | buttons.Cancel)
    box.setDefaultButton(buttons.Save)
    box.setEscapeButton(buttons.Cancel)
    literal_labels(box)  # the encounter's name comes from a file or the DM
    answer = box.exec()
    return {buttons.Save: SaveChoice.SAVE, buttons.Discard: SaveChoice.DISCARD}.get(
        buttons(answer), SaveChoice.CANCEL
    )


def show_error(parent: QWidget, title: str, message: str) -> None:
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Critical)
    box.setWindowTitle(title)
    box.setText(title)
    box.setInformativeText(message)
    literal_labels(box)  # names and messages from files
    box.exec()


def ask_restore(parent: QWidget, recovery: Recovery) -> bool:
    """Offer an autosave left by a crash; True to restore it, False to delete it."""
    when = recovery.saved_at.astimezone().strftime("%A %d %B %Y at %H:%M:%S")
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Question)
    box.setWindowTitle(f"{APP_NAME}: restore unsaved work?")
    box.setText(f"{APP_NAME} did not close properly last time.")
    origin = f" (from {recovery.source})" if recovery.source else ""
    box.setInformativeText(
        f"An autosaved copy of “{recovery.name}”{origin} was saved on {when}.\n"
        "Restore it, or discard it for good?"
    )
    restore = box.addButton("Restore", QMessageBox.ButtonRole.AcceptRole)
    box.addButton("Discard", QMessageBox.ButtonRole.DestructiveRole)
    box.setDefaultButton(restore)
    literal_labels(box)  # names and messages from files
    box.exec()
    return box.clickedButton() is restore


def ask_open_path(parent: QWidget, folder: str) -> Path | None:
    chosen, _filter = QFileDialog.getOpenFileName(parent, "Open encounter", folder, OPEN_FILTER)
    return Path(chosen) if chosen else None


def ask_save_path(parent: QWidget, suggested: str) -> Path | None:
    chosen, _filter = QFileDialog.getSaveFileName(
        parent, "Save encounter as", suggested, SAVE_FILTER
    )
    if not chosen:
        return None
    path = Path(chosen)
    return path if path.suffix.lower() == SUFFIX else path.with_name(path.name + SUFFIX)


def _describe(error: FileFormatError) -> str:
    """What is wrong first, then the file on a line of its own (paths can be long)."""
    # Not capitalised: problems often start with a field name ("grid.width: ...").
    stop = "" if error.problem.endswith((".", "?", "!")) else "."
    return f"{error.problem}{stop}\n\nFile: {error.path}"


def _openable(path: Path) -> bool:
    return path.suffix.lower() in OPENABLE_SUFFIXES


class FileActions(QObject):
    """The File menu's actions and the window's file: which file it is, and whether saved."""

    def __init__(self, window: FeatureWindow) -> None:
        super().__init__(window)
        self.window = window
        self.document = window.document
        self.undo_stack = window.undo_stack
        self.settings = window.settings
        self.path: Path | None = None
        """The ``.battlemap`` file Save writes to; None until saved (or after opening JSON)."""
        self.confirm_close = False
        self.autosave: Autosave | None = None
        # Dialogs, as attributes so a test can answer them.
        self.ask_save_changes: Callable[[QWidget, str], SaveChoice] = ask_save_changes
        self.show_error: Callable[[QWidget, str, str], None] = show_error
        self.ask_restore: Callable[[QWidget, Recovery], bool] = ask_restore
        self.ask_open_path: Callable[[QWidget, str], Path | None] = ask_open_path
        self.ask_save_path: Callable[[QWidget, str], Path | None] = ask_save_path
        self._build_actions()
        self.document.subscribe(self._on_change)
        for target in (window, window.view.viewport()):
            target.setAcceptDrops(True)
            target.installEventFilter(self)

    def _build_actions(self) -> None:
        keys = QKeySequence.StandardKey

        def action(text: str, key: QKeySequence.StandardKey, slot: Callable[[], object]) -> QAction:
            made = QAction(text, self.window)
            made.setShortcut(QKeySequence(key))
            made.triggered.connect(slot)
            return made

        self.new_action = action("&New", keys.New, self.new)
        self.open_action = action("&Open…", keys.Open, self.open)
        self.save_action = action("&Save", keys.Save, self.save)
        self.save_as_action = action("Save &As…", keys.SaveAs, self.save_as)
        self.recent = RecentFiles(self.settings, self.window, self.open_recent)
        self.recent_menu = self.recent.menu
        menu, before = self.window.file_menu, self.window.quit_action
        menu.insertActions(before, [self.new_action, self.open_action])
        menu.insertMenu(before, self.recent_menu)
        menu.insertSeparator(before)
        menu.insertActions(before, [self.save_action, self.save_as_action])
        menu.insertSeparator(before)

    # --- the window's file -----------------------------------------------------------------

    def display_name(self) -> str:
        """The file's name, or the encounter's name while it has no file."""
        return self.path.name if self.path else self.document.encounter.name

    def refresh_title(self) -> None:
        self.window.setWindowTitle(f"{self.display_name()}[*] — {APP_NAME}")
        self.window.setWindowFilePath(str(self.path) if self.path else "")

    def _on_change(self, change: Change) -> None:
        if change.other and self.path is None:
            self.refresh_title()  # the title shows the encounter's name, which may have changed

    def _set_path(self, path: Path | None) -> None:
        self.path = path
        self.refresh_title()

    def set_opened_file(self, path: Path | None) -> None:
        """Record the file the window's encounter came from (the command line's FILE).

        Only a ``.battlemap`` becomes the file Save writes to; a ``.json`` stays untitled.
        """
        is_battlemap = path is not None and path.suffix.lower() == SUFFIX
        self._set_path(path.resolve() if path is not None and is_battlemap else None)

    def adopt(self, encounter: Encounter, images: Mapping[str, bytes], path: Path | None) -> None:
        """Make ``encounter`` the window's encounter, with a fresh history (not undoable)."""
        self.undo_stack.clear()
        self.document.images.clear()
        self.document.images.update(images)
        self.document.replace(encounter)
        self.undo_stack.setClean()
        self._set_path(path)
        self.window.fit_map()

    # --- actions ------------------------------------------------------------------------

    def maybe_save(self) -> bool:
        """Ask about unsaved changes; True when it is fine to go on (saved or discarded)."""
        if self.undo_stack.isClean():
            return True
        choice = self.ask_save_changes(self.window, self.display_name())
        if choice is SaveChoice.SAVE:
            return self.save()
        return choice is SaveChoice.DISCARD

    def new(self) -> bool:
        if not self.maybe_save():
            return False
        self.adopt(Encounter(), {}, None)
        return True

    def open(self) -> bool:
        path = self.ask_open_path(self.window, self._dialog_folder())
        return path is not None and self.open_path(path)

    def open_path(self, path: Path, *, recent: bool = False) -> bool:
        """Open ``path`` after asking about unsaved changes. On error: a message, no change.

        A file that is gone is dropped from Open Recent; so is one that no longer opens when
        it was opened from that list (``recent``), and the message says so.
        """
        if not self.maybe_save():
            return False
        try:
            loaded = load_encounter_file(path, self.window.map_importer.find_image)
        except FileFormatError as error:
            dropped = (recent or not path.exists()) and self.recent.forget(path)
            note = "\n\nIt is no longer listed in File > Open Recent." if dropped else ""
            self.show_error(self.window, "Cannot open the file", _describe(error) + note)
            return False
        self.adopt(loaded.encounter, loaded.images, None)
        self.set_opened_file(path)
        self.recent.remember(path)
        self._status(f"Opened {path.name}")
        return True

    def save(self) -> bool:
        if self.path is None:
            return self.save_as()
        return self.save_to(self.path)

    def save_as(self) -> bool:
        folder = self.path.parent if self.path else Path(self._dialog_folder())
        stem = self.path.stem if self.path else self.document.encounter.name
        path = self.ask_save_path(self.window, str(folder / f"{stem}{SUFFIX}"))
        return path is not None and self.save_to(path)

    def save_to(self, path: Path) -> bool:
        """Save atomically; on error show it and keep the document marked as modified."""
        try:
            save_battlemap(path, self.document.encounter, self.document.images)
        except FileFormatError as error:
            self.show_error(self.window, "Cannot save the file", _describe(error))
            return False
        self.undo_stack.setClean()
        self._set_path(path.resolve())
        self.recent.remember(path)
        remove_stale_temp_files(path)  # left by saves killed mid-write, an hour or more ago
        self._status(f"Saved {path.name}")
        return True

    # --- recent files -------------------------------------------------------------------

    def recent_files(self) -> list[Path]:
        return self.recent.paths()

    def open_recent(self, path: Path) -> bool:
        """Open a file of File > Open Recent (a gone or broken one leaves the list)."""
        return self.open_path(path, recent=True)

    def reopen_last_at_start(self) -> bool:
        """At start with no file named: open the newest recent file if the DM chose so
        (File > Open Recent > Reopen the last encounter at start). True if one opened; a
        gone or broken one is reported and dropped, and the window keeps what it has. Not
        chosen, the status bar offers it instead."""
        recent = self.recent.paths()
        if not recent:
            return False
        if not self.recent.reopens_at_start():
            self._status(f"Last encounter: {recent[0].name} (File > Open Recent, Alt+F R 1)")
            return False
        return self.open_recent(recent[0])

    def _dialog_folder(self) -> str:
        recent = self.recent_files()
        if recent:
            return str(recent[0].parent)
        return QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)

    # --- drag and drop, close -----------------------------------------------------------

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind in (QEvent.Type.DragEnter, QEvent.Type.DragMove) and isinstance(event, QDropEvent):
            if self._dropped_file(event) is not None:
                event.acceptProposedAction()
                return True
        elif kind == QEvent.Type.Drop and isinstance(event, QDropEvent):
            path = self._dropped_file(event)
            if path is not None:
                event.acceptProposedAction()
                self.open_path(path)
                return True
        elif kind == QEvent.Type.Close and watched is self.window:
            if self.confirm_close and not self.maybe_save():
                event.ignore()
                return True
            if self.autosave is not None:
                self.autosave.stop()  # a clean close leaves nothing to restore
        return super().eventFilter(watched, event)

    @staticmethod
    def _dropped_file(event: QDropEvent) -> Path | None:
        """The one encounter file being dragged, or None (other drops are someone else's)."""
        urls = event.mimeData().urls() if event.mimeData().hasUrls() else []
        if len(urls) != 1 or not urls[0].isLocalFile():
            return None
        path = Path(urls[0].toLocalFile())
        return path if _openable(path) else None

    # --- session: close guard, autosave, recovery ------------------------------------------

    def start_session(self, recovery_dir: Path | None = None) -> None:
        """Ask before closing with unsaved changes, offer crash autosaves, start autosaving.

        Args:
            recovery_dir: where autosaves live; the user data folder when None.
        """
        folder = recovery_dir if recovery_dir is not None else default_recovery_dir()
        self.confirm_close = True
        if self.path is not None:
            self.recent.remember(self.path)
        for path in self.recent_files():  # temporary files of saves killed mid-write
            remove_stale_temp_files(path, older_than_s=STALE_TEMP_AT_START_S)
        self.offer_recoveries(folder)
        try:
            self.autosave = Autosave(
                self.document, self.undo_stack, folder, source=lambda: self.path, parent=self
            )
        except OSError as error:  # no user data folder: run without autosave, and say so
            self._status(f"Autosave is off: cannot use {folder} ({error.strerror or error})")
            return
        self.autosave.failed.connect(lambda message: self._status(message))

    def offer_recoveries(self, folder: Path) -> bool:
        """Offer each autosave a crashed session left, newest first; True if one was restored.

        Discarded autosaves are deleted. After a restore, older ones stay for a later start.
        """
        recoveries = find_recoveries(folder)
        restored = False
        for recovery in recoveries:
            if restored:
                recovery.release()
            elif self.ask_restore(self.window, recovery):
                restored = self._restore(recovery)
            else:
                recovery.discard()
        return restored

    def _restore(self, recovery: Recovery) -> bool:
        try:
            loaded = load_battlemap(recovery.path)
        except FileFormatError as error:
            self.show_error(self.window, "Cannot restore the autosave", _describe(error))
            recovery.release()
            return False
        self.adopt(loaded.encounter, loaded.images, recovery.source)
        self.undo_stack.resetClean()  # restored work is unsaved work
        recovery.discard()
        self._status(f"Restored the autosave from {recovery.saved_at.astimezone():%H:%M:%S}")
        return True

    def _status(self, message: str) -> None:
        self.window.statusBar().showMessage(message, STATUS_MS)


def install(window: FeatureWindow) -> FileActions:
    """Add the file actions to ``window`` (one line in ``MainWindow._install_features``)."""
    return FileActions(window)
