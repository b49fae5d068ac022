"""The roster file: player characters exported from one app and imported into another.

A small JSON document (``docs/roster.md``)::

    {"format": "battlemap-roster", "format_version": 1, "characters": [<stat block>, ...]}

Each character is a ``StatBlock`` as the encounter file saves one (its ``character`` sheet,
level, attacks...). The file is untrusted: its size and its count of JSON objects and values
are checked before it is parsed, pydantic's parser refuses deep nesting, every field is
bounded by the model, and a newer ``format_version`` is refused by name. Nothing is
unpickled or evaluated. Writes are atomic.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from battlemap.io.atomic import write_atomic
from battlemap.io.bounded import read_bounded_json
from battlemap.io.errors import FileFormatError, describe_validation_error
from battlemap.model.limits import MAX_PARTY
from battlemap.model.statblock import StatBlock

ROSTER_FORMAT = "battlemap-roster"
ROSTER_VERSION = 1
ROSTER_SUFFIX = ".json"
MAX_ROSTER_BYTES = 8 * 1024 * 1024
"""A hundred characters with fifty attacks each write about 2 MiB."""
MAX_ROSTER_JSON_OBJECTS = MAX_PARTY * 1_000
MAX_ROSTER_JSON_VALUES = MAX_PARTY * 10_000
"""Counted before parsing, to bound its cost; a full party of the largest characters the
form makes holds about a tenth of these."""


class RosterDocument(BaseModel):
    """The roster file's top level."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    format: Literal["battlemap-roster"]
    format_version: Literal[1]
    characters: tuple[StatBlock, ...] = Field(default=(), max_length=MAX_PARTY)

    @field_validator("characters")
    @classmethod
    def _names_are_unique(cls, characters: tuple[StatBlock, ...]) -> tuple[StatBlock, ...]:
        """The roster and the party know a character by its name."""
        seen: set[str] = set()
        for block in characters:
            if block.name in seen:
                raise ValueError(f"two characters are named '{block.name}'")
            seen.add(block.name)
        return characters


def roster_bytes(characters: Iterable[StatBlock]) -> bytes:
    """The roster file's bytes for ``characters`` (indented, so a DM can read and diff it)."""
    document = RosterDocument(
        format=ROSTER_FORMAT, format_version=ROSTER_VERSION, characters=tuple(characters)
    )
    return (json.dumps(document.model_dump(mode="json"), indent=2) + "\n").encode()


def write_roster(path: Path, characters: Iterable[StatBlock]) -> None:
    """Write the roster file atomically (a crash leaves the old file whole).

    Raises:
        OSError: the folder can't be written.
    """
    write_atomic(path, roster_bytes(characters))


def read_roster(path: Path) -> tuple[StatBlock, ...]:
    """The characters of the roster file at ``path``.

    Raises:
        FileFormatError: naming the file and the field: unreadable, too large, too many JSON
            objects or values, not JSON, not a roster, a newer format, a bad character.
    """
    parsed = read_bounded_json(
        path,
        max_bytes=MAX_ROSTER_BYTES,
        max_objects=MAX_ROSTER_JSON_OBJECTS,
        max_values=MAX_ROSTER_JSON_VALUES,
        holder=f"a roster of {MAX_PARTY} characters",
    )
    if not isinstance(parsed, dict) or parsed.get("format") != ROSTER_FORMAT:
        raise FileFormatError(path, f"not a roster file: 'format' must be '{ROSTER_FORMAT}'")
    version = parsed.get("format_version")
    if isinstance(version, int) and not isinstance(version, bool) and version > ROSTER_VERSION:
        raise FileFormatError(
            path,
            f"format_version {version} is newer than this app reads ({ROSTER_VERSION}):"
            " update Battlemap",
        )
    try:
        return RosterDocument.model_validate(parsed).characters
    except ValidationError as error:
        raise FileFormatError(path, describe_validation_error(error)) from None
