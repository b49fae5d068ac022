"""Read an encounter from a plain JSON file (the demo encounter and hand-written fixtures)."""

from __future__ import annotations

from pathlib import Path

from pydantic import ValidationError

from battlemap.io.bounded import collector_paused, read_bounded
from battlemap.io.encounter_file import check_encounter_json_size
from battlemap.io.errors import FileFormatError, describe_validation_error
from battlemap.model.encounter import Encounter
from battlemap.model.limits import MAX_ENCOUNTER_JSON_BYTES

MAX_JSON_BYTES = MAX_ENCOUNTER_JSON_BYTES


def load_encounter_json(path: Path) -> Encounter:
    """Load and validate an encounter.

    Raises:
        FileFormatError: the file is missing, unreadable, too large, not JSON or not a valid
            encounter; the message names the file and the offending field.
    """
    data = read_bounded(path, MAX_JSON_BYTES)
    check_encounter_json_size(path, data)
    try:
        with collector_paused():
            return Encounter.model_validate_json(data)
    except ValidationError as error:
        try:  # decoded only when parsing failed: bad UTF-8 is named by its byte
            data.decode("utf-8")
        except UnicodeDecodeError as bad:
            raise FileFormatError(path, f"not UTF-8 text (byte {bad.start})") from None
        raise FileFormatError(path, describe_validation_error(error)) from None
