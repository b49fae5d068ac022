"""Atomic file writes: a crash or kill mid-save leaves the old file or the new one, never half.

The bytes go to a temporary file in the destination's own folder (so the final rename stays on
one file system), are flushed and ``fsync``-ed, and then ``os.replace`` renames the temporary
file over the destination in one step. On POSIX the folder is ``fsync``-ed too, so the rename
itself survives a power cut.

A kill between creating the temporary file and the rename leaves a stray
``.NAME.XXXXXXXX.tmp`` file beside the destination; the destination itself is untouched.
``remove_stale_temp_files`` deletes such files once they are old enough to be surely dead.
"""

from __future__ import annotations

import contextlib
import glob
import os
import stat
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO

TEMP_SUFFIX = ".tmp"


def temp_prefix(path: Path) -> str:
    """Prefix of the temporary files used while writing ``path`` (hidden on POSIX)."""
    return f".{path.name}."


def _new_file_mode(path: Path) -> int:
    """Permissions for the written file: the old file's, or the usual default for new files.

    ``mkstemp`` creates files readable by their owner only; without this a save would quietly
    tighten the permissions of a file the user had shared.
    """
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _fsync_folder(folder: Path) -> None:
    if os.name != "posix":
        return
    try:
        handle = os.open(folder, os.O_RDONLY)
    except OSError:
        return  # some file systems cannot open folders; the data itself is already synced
    try:
        os.fsync(handle)
    except OSError:
        pass
    finally:
        os.close(handle)


@contextlib.contextmanager
def atomic_writer(path: Path) -> Iterator[IO[bytes]]:
    """Open a binary file that replaces ``path`` only if the ``with`` block completes.

    If the block raises, the temporary file is removed and ``path`` is left as it was.

    Raises:
        OSError: the folder is not writable, the disk is full, and so on.
    """
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    mode = _new_file_mode(path)
    handle, temp_name = tempfile.mkstemp(prefix=temp_prefix(path), suffix=TEMP_SUFFIX, dir=folder)
    temp_path = Path(temp_name)
    try:
        with os.fdopen(handle, "wb") as stream:
            yield stream
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temp_path, mode)
        os.replace(temp_path, path)
    except BaseException:
        with contextlib.suppress(OSError):
            temp_path.unlink()
        raise
    _fsync_folder(folder)


def write_atomic(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` atomically (see the module docstring).

    Raises:
        OSError: the file could not be written; ``path`` is then unchanged.
    """
    with atomic_writer(path) as stream:
        stream.write(data)


def stale_temp_files(path: Path, older_than_s: float, now: float | None = None) -> list[Path]:
    """Temporary files of writes to ``path`` that were killed before their rename.

    Only files older than ``older_than_s`` seconds count, so a save still running in another
    process is never mistaken for a dead one.
    """
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    moment = time.time() if now is None else now
    found = []
    for candidate in folder.glob(f"{glob.escape(temp_prefix(path))}*{TEMP_SUFFIX}"):
        try:
            if moment - candidate.stat().st_mtime > older_than_s:
                found.append(candidate)
        except OSError:
            continue  # removed meanwhile
    return found


def remove_stale_temp_files(path: Path, older_than_s: float = 3600.0) -> int:
    """Delete ``stale_temp_files(path, older_than_s)``; returns how many were removed."""
    removed = 0
    for stale in stale_temp_files(path, older_than_s):
        with contextlib.suppress(OSError):
            stale.unlink()
            removed += 1
    return removed
