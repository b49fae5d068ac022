"""Read an encounter from a plain JSON file (the demo encounter and hand-written fixtures)."""

from __future__ import annotations

from pathlib import Path

from pydantic import ValidationError

from battlemap.io.errors import FileFormatError, describe_validation_error
from battlemap.model.encounter import Encounter

MAX_JSON_BYTES = 64 * 1024 * 1024


def load_encounter_json(path: Path) -> Encounter:
    """Load and validate an encounter.

    Raises:
        FileFormatError: the file is missing, unreadable, too large, not JSON or not a valid
            encounter; the message names the file and the offending field.
    """
    try:
        size = path.stat().st_size
        if size > MAX_JSON_BYTES:
            raise FileFormatError(
                path, f"file is {size} bytes, more than the {MAX_JSON_BYTES} allowed"
            )
        text = path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        raise FileFormatError(path, "no such file") from None
    except IsADirectoryError:
        raise FileFormatError(path, "is a folder, not a file") from None
    except PermissionError:
        raise FileFormatError(path, "permission denied") from None
    except UnicodeDecodeError as error:
        raise FileFormatError(path, f"not UTF-8 text (byte {error.start})") from None
    except OSError as error:
        raise FileFormatError(path, error.strerror or str(error)) from None
    try:
        return Encounter.model_validate_json(text)
    except ValidationError as error:
        raise FileFormatError(path, describe_validation_error(error)) from None
