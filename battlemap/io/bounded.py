"""Read a whole file a user chose, refusing it before reading when it is too large."""

from __future__ import annotations

from pathlib import Path

from battlemap.io.errors import FileFormatError


def read_bounded(path: Path, max_bytes: int) -> bytes:
    """The bytes of ``path``, which must be a file of at most ``max_bytes`` bytes.

    Raises:
        FileFormatError: missing, a folder, not permitted, unreadable, or larger than ``max_bytes``
            (checked from the file's size before anything is read).
    """
    try:
        size = path.stat().st_size
        if size > max_bytes:
            raise FileFormatError(path, f"file is {size} bytes, more than the {max_bytes} allowed")
        return path.read_bytes()
    except FileNotFoundError:
        raise FileFormatError(path, "no such file") from None
    except IsADirectoryError:
        raise FileFormatError(path, "is a folder, not a file") from None
    except PermissionError:
        raise FileFormatError(path, "permission denied") from None
    except OSError as error:
        raise FileFormatError(path, error.strerror or str(error)) from None
