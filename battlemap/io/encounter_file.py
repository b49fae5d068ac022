"""The ``.battlemap`` file: one zip that carries an encounter and every image it uses.

Layout::

    encounter.json      {"format_version": 5, "saved_by": "Battlemap 0.1.0", "encounter": {...}}
    images/<name>       the bytes of each image the encounter names (``Background.image``, ...)

Files a user opens are untrusted. Reading refuses, with a message naming the file and the
problem: a file that is not a zip or is truncated, damaged entries, encrypted or exotic
compression, entry names that would escape the file's folder, more entries or more bytes than
the limits below (a zip bomb), a missing ``encounter.json``, invalid JSON, a newer
``format_version``, unknown or mistyped fields, and images the encounter names but the zip
lacks. Nothing is ever extracted to disk; entries are read into memory within the limits.

Saving is atomic (``battlemap.io.atomic``) and deterministic: entries are written in a fixed
order with a fixed timestamp, so saving the same encounter twice gives identical bytes.
"""

from __future__ import annotations

import functools
import json
import typing
import zipfile
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import IO, Any

import pydantic_core
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from battlemap import APP_NAME, __version__
from battlemap.io.atomic import atomic_writer
from battlemap.io.bounded import check_json_size, collector_paused
from battlemap.io.errors import FileFormatError, describe_validation_error
from battlemap.io.images import sniff_token_image
from battlemap.io.migrations import (
    CURRENT_FORMAT_VERSION,
    ENCOUNTER_KEY,
    FORMAT_VERSION_KEY,
    JsonObject,
    migrate,
)
from battlemap.model.encounter import Encounter, duplicate_id, over_limit
from battlemap.model.limits import (
    MAX_ENCOUNTER_JSON_BYTES,
    MAX_ENCOUNTER_JSON_VALUES,
    MAX_IMAGE_NAME,
)

SUFFIX = ".battlemap"
ENCOUNTER_ENTRY = "encounter.json"
IMAGES_FOLDER = "images/"
SAVED_BY_KEY = "saved_by"
TOKEN_IMAGE_KEY = "token_image"
"""The field of a creature naming its token's picture (smaller bounds than a map's)."""
ENVELOPE_KEYS = frozenset({FORMAT_VERSION_KEY, ENCOUNTER_KEY, SAVED_BY_KEY})

MAX_FILE_BYTES = 512 * 1024 * 1024
"""Largest ``.battlemap`` file opened, compressed size on disk."""
MAX_ENTRIES = 1_000
MAX_JSON_BYTES = MAX_ENCOUNTER_JSON_BYTES
MAX_IMAGE_BYTES = 128 * 1024 * 1024
MAX_TOTAL_BYTES = 512 * 1024 * 1024
"""Largest sum of the uncompressed sizes of all entries: the zip-bomb bound."""

_FIXED_TIMESTAMP = (1980, 1, 1, 0, 0, 0)
_ALREADY_COMPRESSED = frozenset({".png", ".jpg", ".jpeg", ".webp", ".gif"})
_ALLOWED_COMPRESSION = frozenset({zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED})


@dataclass(frozen=True)
class EncounterFile:
    """What a ``.battlemap`` file holds: the encounter and the images it names."""

    encounter: Encounter
    images: Mapping[str, bytes] = field(default_factory=dict)


# --- which images an encounter uses -------------------------------------------------------


def _is_image_key(key: str) -> bool:
    return key == "image" or key.endswith("_image")


@functools.cache
def _model_holds_image(model: type[BaseModel]) -> bool:
    """Whether a ``model`` can hold an image field, itself or in a model inside it."""
    return any(
        _is_image_key(name) or _annotation_holds_image(field.annotation)
        for name, field in model.model_fields.items()
    )


def _annotation_holds_image(annotation: object) -> bool:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return _model_holds_image(annotation)
    return any(_annotation_holds_image(argument) for argument in typing.get_args(annotation))


def _collect_images(value: object, where: str, found: dict[str, str]) -> None:
    """Walks only into fields whose type can hold an image: not the 50,000 walls."""
    if isinstance(value, BaseModel):
        for name, field in type(value).model_fields.items():
            item = getattr(value, name)
            path = f"{where}.{name}" if where else name
            if _is_image_key(name) and isinstance(item, str):
                found[path] = item
            elif _annotation_holds_image(field.annotation):
                _collect_images(item, path, found)
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            _collect_images(item, f"{where}.{index}", found)
    elif isinstance(value, dict):
        for key, item in value.items():
            _collect_images(item, f"{where}.{key}", found)


def image_references(encounter: Encounter) -> dict[str, str]:
    """Every image the encounter names, as ``{field path: image name}``.

    Any field called ``image`` or ending in ``_image`` names an image, wherever it sits in the
    model (``background.image`` today), so fields added later are carried along by convention.
    """
    found: dict[str, str] = {}
    _collect_images(encounter, "", found)
    return found


# --- writing --------------------------------------------------------------------------------


def _entry(name: str, compress: bool) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, date_time=_FIXED_TIMESTAMP)
    info.compress_type = zipfile.ZIP_DEFLATED if compress else zipfile.ZIP_STORED
    info.external_attr = 0o644 << 16
    return info


def encounter_json_bytes(encounter: Encounter | dict[str, Any]) -> bytes:
    """The ``encounter.json`` entry for ``encounter`` (or its JSON data) at the current
    format version.

    Compact (no indent): a fully explored fog of the largest map takes 20 MB so instead of
    64 MB, and an encounter at every limit but the log's fits in ``MAX_JSON_BYTES``."""
    dumped = encounter.model_dump(mode="json") if isinstance(encounter, Encounter) else encounter
    envelope = {
        FORMAT_VERSION_KEY: CURRENT_FORMAT_VERSION,
        SAVED_BY_KEY: f"{APP_NAME} {__version__}",
        ENCOUNTER_KEY: dumped,
    }
    return json.dumps(envelope, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def write_battlemap(stream: IO[bytes], encounter: Encounter, images: Mapping[str, bytes]) -> None:
    """Write a ``.battlemap`` zip to an open binary stream.

    Only the images the encounter names are written; others in ``images`` (left over from an
    undone import, say) are dropped.

    Raises:
        ValueError: the encounter names an image that ``images`` lacks, holds more than a
            field's limit (``over_limit``), gives two items one id or takes more than
            ``MAX_JSON_BYTES``: writing would make a file that cannot be opened again.
    """
    problem = over_limit(encounter) or duplicate_id(encounter)
    if problem is not None:
        raise ValueError(f"the file could not be opened again: {problem}")
    dumped = encounter.model_dump(mode="json")  # once, for the JSON and its images
    data = encounter_json_bytes(dumped)
    if len(data) > MAX_JSON_BYTES:
        raise ValueError(
            f"the file could not be opened again: the encounter takes {len(data)} bytes, "
            f"more than the {MAX_JSON_BYTES} a file may hold (a long log takes the most)"
        )
    values = data.count(b",")  # as the loader counts them (check_encounter_json_size)
    if values > MAX_ENCOUNTER_JSON_VALUES:
        raise ValueError(
            f"the file could not be opened again: the encounter holds {values} JSON values, "
            f"more than the {MAX_ENCOUNTER_JSON_VALUES} a file may hold (walls, the corners of "
            "obstacles and terrain, and the logs take the most)"
        )
    references = image_references(encounter)
    missing = {where: name for where, name in references.items() if name not in images}
    if missing:
        where, name = next(iter(missing.items()))
        raise ValueError(f"image '{name}' used by {where} is not in the document")
    with zipfile.ZipFile(stream, "w") as archive:
        archive.writestr(_entry(ENCOUNTER_ENTRY, compress=True), data)
        for name in sorted(set(references.values())):
            compress = PurePosixPath(name).suffix.lower() not in _ALREADY_COMPRESSED
            archive.writestr(_entry(IMAGES_FOLDER + name, compress), images[name])


def save_battlemap(path: Path, encounter: Encounter, images: Mapping[str, bytes]) -> None:
    """Save atomically to ``path``: the old file stays whole until the new one is complete.

    Raises:
        FileFormatError: naming the file, when the encounter names an image it lacks or the
            file cannot be written (folder missing or read-only, disk full...).
    """
    try:
        with atomic_writer(path) as stream:
            write_battlemap(stream, encounter, images)
    except OSError as error:
        raise FileFormatError(path, f"cannot save: {error.strerror or error}") from None
    except ValueError as error:
        raise FileFormatError(path, f"cannot save: {error}") from None


# --- reading --------------------------------------------------------------------------------


def _check_entry_name(path: Path, name: str) -> None:
    """Refuse names that would land outside the file's folder if anyone extracted them."""
    parts = PurePosixPath(name).parts
    escapes = (
        name.startswith(("/", "\\"))
        or "\\" in name
        or "\x00" in name
        or ".." in parts
        or (bool(parts) and ":" in parts[0])
    )
    if escapes:
        raise FileFormatError(
            path, f"entry '{name}' has a path that escapes the file's folder; refusing to open"
        )


def _check_entries(path: Path, infos: list[zipfile.ZipInfo]) -> None:
    if len(infos) > MAX_ENTRIES:
        raise FileFormatError(
            path, f"holds {len(infos)} entries, more than the {MAX_ENTRIES} allowed"
        )
    seen: set[str] = set()
    total = 0
    for info in infos:
        _check_entry_name(path, info.filename)
        if info.filename in seen:
            raise FileFormatError(path, f"entry '{info.filename}' appears twice")
        seen.add(info.filename)
        if info.flag_bits & 0x1:
            raise FileFormatError(path, f"entry '{info.filename}' is encrypted")
        if info.compress_type not in _ALLOWED_COMPRESSION:
            raise FileFormatError(
                path,
                f"entry '{info.filename}' uses compression method {info.compress_type}; "
                "only stored and deflated entries are read",
            )
        total += info.file_size
    if total > MAX_TOTAL_BYTES:
        raise FileFormatError(
            path,
            f"entries expand to {total} bytes, more than the {MAX_TOTAL_BYTES} allowed "
            "(a zip bomb?); refusing to open",
        )


def _read_entry(path: Path, archive: zipfile.ZipFile, info: zipfile.ZipInfo, limit: int) -> bytes:
    """The entry's bytes, never more than ``limit`` of them whatever its header claims."""
    if info.file_size > limit:
        raise FileFormatError(
            path,
            f"entry '{info.filename}' expands to {info.file_size} bytes, more than the "
            f"{limit} allowed (a zip bomb?); refusing to open",
        )
    try:
        with archive.open(info) as member:
            data = member.read(limit + 1)
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, NotImplementedError) as error:
        raise FileFormatError(path, f"entry '{info.filename}' is damaged ({error})") from None
    except UnicodeDecodeError:  # the local header names it in bytes that are not UTF-8
        raise FileFormatError(
            path, f"entry '{info.filename}' is damaged (its local header's name is not UTF-8)"
        ) from None
    except RuntimeError as error:  # zipfile's "password required" and similar
        raise FileFormatError(path, f"entry '{info.filename}' cannot be read ({error})") from None
    if len(data) > limit:
        raise FileFormatError(path, f"entry '{info.filename}' expands past {limit} bytes")
    return data


class _CurrentEnvelope(BaseModel):
    """An ``encounter.json`` of the current format, validated straight from its bytes: a
    third faster than decoding the JSON first and validating what it gives."""

    model_config = ConfigDict(extra="forbid")

    format_version: int = Field(strict=True, ge=CURRENT_FORMAT_VERSION, le=CURRENT_FORMAT_VERSION)
    saved_by: Any = None
    encounter: Encounter


def check_encounter_json_size(path: Path, raw: bytes) -> None:
    """Refuse, before parsing, an ``encounter.json`` with more values than any encounter has:
    reading grows with them (``MAX_ENCOUNTER_JSON_VALUES``)."""
    check_json_size(raw, path, max_values=MAX_ENCOUNTER_JSON_VALUES, holder="an encounter")


def _encounter_from_json(path: Path, raw: bytes) -> Encounter:
    """The encounter in ``encounter.json``'s bytes ``raw``.

    A current file is validated in one pass. Anything else (an older format to migrate, or
    a problem with the JSON or the envelope itself) takes the decoding path, which migrates
    and words the envelope's problems; a problem inside the encounter is worded as there.
    """
    check_encounter_json_size(path, raw)
    with collector_paused():
        try:
            return _CurrentEnvelope.model_validate_json(raw).encounter
        except ValidationError as error:
            if all(_inside_the_encounter(item["loc"]) for item in error.errors()):
                raise FileFormatError(path, describe_validation_error(error, outer=1)) from None
        _check_utf8(path, raw)  # only here: the parser took valid UTF-8 without a second pass
        return _encounter_from_envelope(path, _decode_envelope(path, raw))


def _inside_the_encounter(loc: tuple[int | str, ...]) -> bool:
    return len(loc) > 1 and loc[0] == ENCOUNTER_KEY


def _check_utf8(path: Path, raw: bytes) -> None:
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise FileFormatError(
            path, f"{ENCOUNTER_ENTRY}: not UTF-8 text (byte {error.start})"
        ) from None


def _decode_envelope(path: Path, raw: bytes) -> JsonObject:
    where = f"{ENCOUNTER_ENTRY}"
    try:
        data = pydantic_core.from_json(raw)  # twice as fast as json.loads on 100,000 walls
    except ValueError as error:
        if str(error).startswith("recursion limit exceeded"):
            raise FileFormatError(path, f"{where}: JSON nested too deeply") from None
        raise FileFormatError(path, f"{where}: invalid JSON: {error}") from None
    if not isinstance(data, dict):
        raise FileFormatError(path, f"{where}: expected a JSON object, got {type(data).__name__}")
    return data


def _encounter_from_envelope(path: Path, data: JsonObject) -> Encounter:
    """The encounter in the (migrated) envelope ``data``."""
    data = migrate(data, str(path))
    unknown = sorted(set(data) - ENVELOPE_KEYS)
    if unknown:
        raise FileFormatError(path, f"{ENCOUNTER_ENTRY}: unknown field '{unknown[0]}'")
    if ENCOUNTER_KEY not in data:
        raise FileFormatError(path, f"{ENCOUNTER_ENTRY}: the '{ENCOUNTER_KEY}' field is missing")
    try:
        return Encounter.model_validate(data[ENCOUNTER_KEY])
    except ValidationError as error:
        raise FileFormatError(path, describe_validation_error(error)) from None


def _open_archive(path: Path) -> zipfile.ZipFile:
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise FileFormatError(path, "no such file") from None
    except OSError as error:
        raise FileFormatError(path, error.strerror or str(error)) from None
    if path.is_dir():
        raise FileFormatError(path, "is a folder, not a file")
    if size > MAX_FILE_BYTES:
        raise FileFormatError(path, f"file is {size} bytes, more than the {MAX_FILE_BYTES} allowed")
    try:
        return zipfile.ZipFile(path)
    except zipfile.BadZipFile as error:
        raise FileFormatError(
            path, f"not a complete {SUFFIX} file: it is damaged or truncated ({error})"
        ) from None
    except PermissionError:
        raise FileFormatError(path, "permission denied") from None
    except (OSError, EOFError, ValueError, NotImplementedError) as error:  # "zip file version 8.4"
        raise FileFormatError(path, f"cannot be read as a {SUFFIX} file ({error})") from None


def load_battlemap(path: Path) -> EncounterFile:
    """Open a ``.battlemap`` file; see the module docstring for everything it refuses.

    Older format versions are migrated (``battlemap.io.migrations``); images the zip carries
    but the encounter does not name are ignored.

    Raises:
        FileFormatError: naming the file and what is wrong with it. Its subclass
            ``NewerFormatError`` names both format versions.
    """
    path = Path(path)
    with _open_archive(path) as archive:
        infos = archive.infolist()
        _check_entries(path, infos)
        by_name = {info.filename: info for info in infos}
        if ENCOUNTER_ENTRY not in by_name:
            raise FileFormatError(path, f"'{ENCOUNTER_ENTRY}' is missing from the file")
        raw = _read_entry(path, archive, by_name[ENCOUNTER_ENTRY], MAX_JSON_BYTES)
        encounter = _encounter_from_json(path, raw)
        images: dict[str, bytes] = {}
        for where, name in image_references(encounter).items():
            if name in images:
                continue
            entry = by_name.get(IMAGES_FOLDER + name)
            if entry is None or not _is_plain_name(name):
                raise FileFormatError(
                    path, f"image '{name}' used by {where} is missing from the file"
                )
            images[name] = _read_entry(path, archive, entry, MAX_IMAGE_BYTES)
            if where.endswith(TOKEN_IMAGE_KEY):
                sniff_token_image(images[name], path, where)  # bounded as a token's
    return EncounterFile(encounter, images)


def _is_plain_name(name: str) -> bool:
    return 0 < len(name) <= MAX_IMAGE_NAME and "/" not in name and not name.startswith(".")
