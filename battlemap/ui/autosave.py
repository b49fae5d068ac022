"""Autosave and crash recovery.

While the app runs, every change to the encounter is written, debounced, to a recovery file in
the user data folder (``QStandardPaths.AppDataLocation``/recovery). The write happens on a worker
thread: the UI thread only takes a snapshot, which is free because encounters are immutable and
image bytes are never changed in place. Writes are atomic (``battlemap.io.atomic``).

Each running window is a *session* with its own files in the recovery folder::

    <session>.battlemap   the encounter and its images, like a saved file
    <session>.json        where it came from (the file's path) and its name, for the prompt
    <session>.lock        a QLockFile held while the session runs

A clean close, or a change that brings the history back to its saved state, deletes the
session's files. So on start, a ``.battlemap`` whose lock nobody holds (its process died, or
the machine went down) is a crash to offer for restoring, and after a clean close there is
nothing to restore. Two windows running at once never see each other's files as crashes.
"""

from __future__ import annotations

import contextlib
import functools
import json
import uuid
from collections.abc import Callable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from PySide6.QtCore import QLockFile, QObject, QStandardPaths, QTimer, Signal, Slot
from PySide6.QtGui import QUndoStack

from battlemap.io.atomic import TEMP_SUFFIX, remove_stale_temp_files, write_atomic
from battlemap.io.encounter_file import save_battlemap
from battlemap.model.document import Change, Document
from battlemap.model.encounter import Encounter

DEBOUNCE_MS = 1500
"""Quiet time after the last change before the recovery file is written."""
RECOVERY_FOLDER = "recovery"
_LOCK_SUFFIX = ".lock"
_META_SUFFIX = ".json"
_FILE_SUFFIX = ".battlemap"


def default_recovery_dir() -> Path:
    """``<AppDataLocation>/recovery``; honours ``QStandardPaths.setTestModeEnabled``."""
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    return Path(base) / RECOVERY_FOLDER


def _session_lock(folder: Path, session: str) -> QLockFile:
    lock = QLockFile(str(folder / f"{session}{_LOCK_SUFFIX}"))
    # 0: a lock is stale only when its process is gone, never merely because it is old (Qt's
    # default would let a second instance steal the lock of a session running for 30 s).
    lock.setStaleLockTime(0)
    return lock


def _remove_session_files(folder: Path, session: str) -> None:
    """Delete a session's autosave, its ``.json`` and temporary files of killed writes.

    Only called by the lock's holder, so no write of that session can be running.
    """
    for suffix in (_FILE_SUFFIX, _META_SUFFIX):
        path = folder / f"{session}{suffix}"
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
        remove_stale_temp_files(path, older_than_s=0)


@dataclass
class Recovery:
    """An autosave left behind by a session that did not close cleanly.

    While this object exists it holds the session's lock, so no other starting instance
    offers the same file. Call ``discard`` or ``release`` when done with it.
    """

    path: Path
    saved_at: datetime
    """When the file was last written (timezone-aware, UTC)."""
    source: Path | None
    """The file the encounter was opened from or saved to, if any."""
    name: str
    lock: QLockFile

    @property
    def session(self) -> str:
        return self.path.stem

    def discard(self) -> None:
        """Delete the autosave and its lock."""
        _remove_session_files(self.path.parent, self.session)
        self.release()

    def release(self) -> None:
        """Let go of the lock, keeping the autosave for a later start."""
        if self.lock.isLocked():
            self.lock.unlock()


def _read_meta(path: Path) -> tuple[Path | None, str]:
    """The source path and encounter name from a session's ``.json``; blanks when unreadable."""
    try:
        meta = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None, ""
    if not isinstance(meta, dict):
        return None, ""
    source, name = meta.get("source"), meta.get("name")
    return (
        Path(source) if isinstance(source, str) and source else None,
        name if isinstance(name, str) else "",
    )


def _remove_leftovers(folder: Path) -> None:
    """Delete the lock, ``.json`` and temporary files of dead sessions that left no
    ``.battlemap`` (a session killed before or during its first write, or between deleting
    its two files)."""
    leftovers = (*folder.glob(f"*{_LOCK_SUFFIX}"), *folder.glob(f"*{_META_SUFFIX}"))
    sessions = {leftover.stem for leftover in leftovers}
    sessions |= {_temp_file_session(temp) for temp in folder.glob(f".*{TEMP_SUFFIX}")}
    for session in sessions - {""}:
        if (folder / f"{session}{_FILE_SUFFIX}").exists():
            continue
        lock = _session_lock(folder, session)
        if lock.tryLock(0):
            _remove_session_files(folder, session)
            lock.unlock()  # removes the lock file too


def _temp_file_session(temp: Path) -> str:
    """The session a temporary file ``.SESSION.battlemap.XXXX.tmp`` (or ``.json``) was
    written for; "" for any other file."""
    for suffix in (_FILE_SUFFIX, _META_SUFFIX):
        session, found, _ = temp.name.removeprefix(".").partition(f"{suffix}.")
        if found and session:
            return session
    return ""


def find_recoveries(folder: Path) -> list[Recovery]:
    """Autosaves in ``folder`` whose session is no longer running, newest first.

    Each returned ``Recovery`` holds its session's lock until discarded or released.
    """
    found: list[Recovery] = []
    if not folder.is_dir():
        return found
    _remove_leftovers(folder)
    for path in folder.glob(f"*{_FILE_SUFFIX}"):
        lock = _session_lock(folder, path.stem)
        if not lock.tryLock(0):
            continue  # a running session owns it
        try:
            saved_at = datetime.fromtimestamp(path.stat().st_mtime, UTC)
        except OSError:
            lock.unlock()
            continue
        source, name = _read_meta(path.with_suffix(_META_SUFFIX))
        found.append(Recovery(path, saved_at, source, name or path.stem, lock))
    return sorted(found, key=lambda r: r.saved_at, reverse=True)


def write_recovery(
    path: Path, encounter: Encounter, images: Mapping[str, bytes], source: Path | None
) -> None:
    """Write one autosave: the ``.battlemap`` first, then its ``.json`` (both atomic).

    Raises:
        FileFormatError: the file could not be written.
        OSError: the ``.json`` could not be written.
    """
    save_battlemap(path, encounter, images)
    meta = {"source": str(source) if source else None, "name": encounter.name}
    write_atomic(path.with_suffix(_META_SUFFIX), json.dumps(meta).encode("utf-8"))


Writer = Callable[[Path, Encounter, Mapping[str, bytes], "Path | None"], None]


class Autosave(QObject):
    """Writes the document to this session's recovery file after every change, debounced.

    Args:
        document: the document to watch.
        undo_stack: its history; a clean stack (just saved or opened) means nothing to recover.
        folder: the recovery folder (created if missing).
        source: returns the file the document belongs to, recorded for the restore prompt.
        delay_ms: the debounce delay.
        writer: the function that writes a snapshot (tests slow it down).

    Signals:
        written(str): a snapshot reached the disk, or the files were removed ("" then).
        failed(str): a write failed; the message says why. Autosave keeps trying on the
            next change.
    """

    written = Signal(str)
    failed = Signal(str)
    _finished = Signal(object)

    def __init__(
        self,
        document: Document,
        undo_stack: QUndoStack,
        folder: Path,
        *,
        source: Callable[[], Path | None] = lambda: None,
        delay_ms: int = DEBOUNCE_MS,
        writer: Writer = write_recovery,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.document = document
        self.undo_stack = undo_stack
        self.folder = folder
        self.source = source
        self.writer = writer
        self.session = uuid.uuid4().hex
        self.path = folder / f"{self.session}{_FILE_SUFFIX}"
        folder.mkdir(parents=True, exist_ok=True)
        self._lock = _session_lock(folder, self.session)
        self._lock.tryLock(0)
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="autosave")
        self._in_flight: Future[str] | None = None
        self._again = False
        self._stopped = False
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(delay_ms)
        self._timer.timeout.connect(self.write_now)
        self._finished.connect(self._on_finished)
        document.subscribe(self._on_change)
        undo_stack.cleanChanged.connect(self._on_clean_changed)
        if not undo_stack.isClean():
            self._timer.start()

    # --- scheduling ----------------------------------------------------------------------

    def _on_change(self, change: Change) -> None:
        if not self._stopped:
            self._timer.start()  # restarting the timer is the debounce

    @Slot(bool)
    def _on_clean_changed(self, clean: bool) -> None:
        if not self._stopped:
            self._timer.start()

    @property
    def busy(self) -> bool:
        """A write is running on the worker thread."""
        return self._in_flight is not None

    @Slot()
    def write_now(self) -> None:
        """Write (or, when the history is clean, remove) the recovery file on the worker."""
        self._timer.stop()
        if self._stopped:
            return
        if self._in_flight is not None:
            self._again = True  # one more write once this one is done; never two at once
            return
        if self.undo_stack.isClean():
            job: Callable[[], str] = self._remove
        else:
            document = self.document
            job = functools.partial(
                self._write, document.encounter, dict(document.images), self.source()
            )
        future = self._executor.submit(job)
        self._in_flight = future
        future.add_done_callback(self._finished.emit)  # queued back to the UI thread

    def _write(self, encounter: Encounter, images: Mapping[str, bytes], source: Path | None) -> str:
        self.writer(self.path, encounter, images, source)
        return str(self.path)

    def _remove(self) -> str:
        _remove_session_files(self.folder, self.session)
        return ""

    @Slot(object)
    def _on_finished(self, future: Future[str]) -> None:
        self._in_flight = None
        error = future.exception()
        if error is not None:
            self.failed.emit(f"Autosave failed: {error}")
        else:
            self.written.emit(future.result())
        if self._again and not self._stopped:
            self._again = False
            self.write_now()

    # --- ending ----------------------------------------------------------------------------

    def stop(self) -> None:
        """A clean close: wait for a running write, then delete this session's files."""
        if self._stopped:
            return
        self._stopped = True
        self._timer.stop()
        self._executor.shutdown(wait=True)
        _remove_session_files(self.folder, self.session)
        self._lock.unlock()

    def abandon(self) -> None:
        """Stop without cleaning up, as a crash would (tests use this). The lock is released
        so this process's own next look finds the file, as a new process would after a crash."""
        self._stopped = True
        self._timer.stop()
        self._executor.shutdown(wait=True)
        self._lock.unlock()
