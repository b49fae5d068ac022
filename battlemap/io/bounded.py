"""Read a whole file a user chose, refusing it before reading when it is too large, and count
what a JSON file holds before parsing it."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator
from pathlib import Path

import pydantic_core

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


def check_json_size(
    data: bytes,
    path: Path,
    *,
    max_values: int,
    holder: str,
    max_objects: int | None = None,
    objects: str = "",
) -> None:
    """Refuse JSON ``data`` with more commas than ``max_values`` or (when given) more ``{``
    than ``max_objects``, counted in the bytes before any parsing (a parse, and a list of one
    error per bad item, grow with what is counted). Braces and commas inside strings count
    too: an upper bound, generous for any real file. Every object but the last is followed
    by a comma, so a bound on objects only binds below the bound on values.

    Args:
        holder: what may hold that many, for the message ("a map").
        objects: what the objects are, for the message ("wall points, portals, lights").

    Raises:
        FileFormatError: naming the file, the count and the limit.
    """
    if max_objects is not None:
        found = data.count(b"{")
        if found > max_objects:
            kinds = f" ({objects})" if objects else ""
            raise FileFormatError(
                path, f"{found} JSON objects{kinds}, more than the {max_objects} {holder} may have"
            )
    found = data.count(b",")
    if found > max_values:
        raise FileFormatError(
            path, f"{found} JSON values, more than the {max_values} {holder} may have"
        )


def read_bounded_json(
    path: Path, *, max_bytes: int, max_objects: int, max_values: int, holder: str
) -> object:
    """The JSON value in the file at ``path``, read and counted within the bounds before any
    parsing (``read_bounded``, ``check_json_size``).

    Raises:
        FileFormatError: naming the file: unreadable, too large, too many JSON objects or
            values, or "not JSON" (pydantic's parser: deep nesting and bad UTF-8 are errors
            like any other, never RecursionError).
    """
    data = read_bounded(path, max_bytes)
    check_json_size(data, path, max_objects=max_objects, max_values=max_values, holder=holder)
    try:
        return pydantic_core.from_json(data)
    except ValueError as error:
        raise FileFormatError(path, f"not JSON: {error}") from None


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while a file's models are built.

    Reading an encounter builds up to a few hundred thousand objects, none in a cycle; the
    collector, triggered by the allocations, would walk them again and again (43 % of the
    time to read the largest admitted encounter). It runs again as before afterwards.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
