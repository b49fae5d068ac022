"""Bring an ``encounter.json`` written by an older Battlemap up to the current format.

Format changelog (one migration function per step, each with its own test):

- **0**: the plain encounter layout, the pydantic ``Encounter`` fields at the top level and no
  ``format_version`` (``assets/demo-encounter.json`` and hand-written fixtures use it).
- **1**: an envelope ``{"format_version": 1, "encounter": {...}}``; the encounter inside is
  the same pydantic model. Images live beside it in the ``.battlemap`` zip.
- **2**: the encounter carries its session log (``log``: the events outside combat and the
  logs of ended combats). Version 1 had none, so it gets an empty one. The version goes up
  so that an older Battlemap refuses a file with a log as newer, instead of calling ``log``
  an unknown field. A file that says version 1 and has a ``log`` wasn't written by Battlemap:
  it is refused (``FIELDS_SINCE``), not taken as it is.
- **3**: the fog keeps its cells as text (``battlemap.model.fog.cells_text``: a fully explored
  map reads fifty times faster); lists of pairs still load. Logs keep at most ``MAX_LOG``
  (now 20,000) lines and rolls each, so a version-2 log longer than that keeps its newest. The
  version goes up so that an older Battlemap refuses the text as newer, not as damaged.
- **4**: a creature's spent limited uses (1/Day, Recharge, Legendary Resistance) live on the
  creature (``creatures[].spent_uses``), kept across combats until a rest; version 3 kept them
  on its combatant (``combat.combatants[].spent_uses``), so they move there. The version goes
  up so that an older Battlemap refuses such a file as newer.
- **5**: lights have a bright and a dim radius (``lights[].bright_cells``, ``dim_cells``) and
  may be carried (``carried_by``); the map has its light (``lighting``: ``ambient`` and
  ``baked_lighting``). Version 4 lights had one ``range_cells``, read as Universal VTT's range
  (``model.features.uvtt_light_radii``: bright to it, dim to twice it); version 4 had no
  ``lighting``, so its maps stay lit bright everywhere, as they were drawn.

Migrations work on plain JSON data (dicts and lists) and never on models, so an old file can
be read after the models have moved on. Each step takes data at version N and returns data at
version N + 1 without changing its argument.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from battlemap.io.errors import FileFormatError
from battlemap.model.features import uvtt_light_radii
from battlemap.model.limits import MAX_LOG

CURRENT_FORMAT_VERSION = 5
FORMAT_VERSION_KEY = "format_version"
ENCOUNTER_KEY = "encounter"

JsonObject = dict[str, Any]
Migration = Callable[[JsonObject], JsonObject]

FIELDS_SINCE: dict[str, int] = {"log": 2, "lighting": 5}
"""Encounter fields added by a format version: a file of an older enveloped version (1 and
up) with one is refused. Version 0 is the model's own layout and may have any model field."""


class NewerFormatError(FileFormatError):
    """The file was written by a newer Battlemap whose format this version cannot read."""


def migrate_0_to_1(data: JsonObject) -> JsonObject:
    """Wrap a plain version-0 encounter in the version-1 envelope.

    A version-0 document is the encounter itself; every key moves into ``encounter``
    unchanged (the model validates them afterwards, so unknown keys are still reported).
    """
    return {FORMAT_VERSION_KEY: 1, ENCOUNTER_KEY: dict(data)}


def migrate_1_to_2(data: JsonObject) -> JsonObject:
    """Give a version-1 encounter an empty session log and mark the data version 2.

    Every other key is kept as it is; an encounter that isn't an object is left for the
    model to report. A ``log`` already there came from a version-0 document (the model's own
    layout) and is kept; ``migrate`` refuses one in a file that says version 1.
    """
    migrated = dict(data)
    migrated[FORMAT_VERSION_KEY] = 2
    encounter = data.get(ENCOUNTER_KEY)
    if isinstance(encounter, dict):
        migrated[ENCOUNTER_KEY] = {**encounter, "log": encounter.get("log", [])}
    return migrated


def migrate_2_to_3(data: JsonObject) -> JsonObject:
    """Keep the newest ``MAX_LOG`` lines of each log (the session's, the fight's log and its
    rolls) and mark the data version 3; fog cells as lists stay valid as they are."""
    migrated = dict(data)
    migrated[FORMAT_VERSION_KEY] = 3
    encounter = data.get(ENCOUNTER_KEY)
    if isinstance(encounter, dict):
        encounter = _newest_lines(encounter, "log")
        combat = encounter.get("combat")
        if isinstance(combat, dict):
            encounter["combat"] = _newest_lines(_newest_lines(combat, "log"), "rolls")
        migrated[ENCOUNTER_KEY] = encounter
    return migrated


def _newest_lines(holder: JsonObject, key: str) -> JsonObject:
    """A copy of ``holder`` whose list ``key`` keeps at most its last ``MAX_LOG`` items."""
    lines = holder.get(key)
    if not isinstance(lines, list) or len(lines) <= MAX_LOG:
        return dict(holder)
    return {**holder, key: lines[-MAX_LOG:]}


def migrate_3_to_4(data: JsonObject) -> JsonObject:
    """Move each combatant's ``spent_uses`` to its creature and mark the data version 4.

    Anything that isn't the expected shape (a combatant that isn't an object, no creature of
    its id) is left for the model to report or is dropped with the combatant's field: the
    uses of a creature no longer on the map have no one to belong to.
    """
    migrated = dict(data)
    migrated[FORMAT_VERSION_KEY] = 4
    encounter = data.get(ENCOUNTER_KEY)
    combat = encounter.get("combat") if isinstance(encounter, dict) else None
    combatants = combat.get("combatants") if isinstance(combat, dict) else None
    if not isinstance(encounter, dict) or not isinstance(combat, dict):
        return migrated
    if not isinstance(combatants, list):
        return migrated
    spent: dict[object, object] = {}
    moved: list[object] = []
    for combatant in combatants:
        if isinstance(combatant, dict) and "spent_uses" in combatant:
            spent[combatant.get("creature_id")] = combatant["spent_uses"]
            combatant = {k: v for k, v in combatant.items() if k != "spent_uses"}
        moved.append(combatant)
    creatures = encounter.get("creatures")
    if isinstance(creatures, list):
        creatures = [
            {**c, "spent_uses": spent[c.get("id")]}
            if isinstance(c, dict) and c.get("id") in spent and "spent_uses" not in c
            else c
            for c in creatures
        ]
    migrated[ENCOUNTER_KEY] = {
        **encounter,
        "creatures": creatures,
        "combat": {**combat, "combatants": moved},
    }
    return migrated


def migrate_4_to_5(data: JsonObject) -> JsonObject:
    """Give each light a bright and a dim radius for its ``range_cells`` and mark the data
    version 5 (``lighting`` is left out: its default is the bright map of version 4).

    A light that isn't an object, or whose ``range_cells`` isn't a number, is left for the
    model to report.
    """
    migrated = dict(data)
    migrated[FORMAT_VERSION_KEY] = 5
    encounter = data.get(ENCOUNTER_KEY)
    lights = encounter.get("lights") if isinstance(encounter, dict) else None
    if not isinstance(encounter, dict) or not isinstance(lights, list):
        return migrated
    migrated[ENCOUNTER_KEY] = {**encounter, "lights": [_with_radii(light) for light in lights]}
    return migrated


def _with_radii(light: object) -> object:
    if not isinstance(light, dict) or "range_cells" not in light:
        return light
    range_cells = light["range_cells"]
    if isinstance(range_cells, bool) or not isinstance(range_cells, int | float):
        return light
    bright, dim = uvtt_light_radii(float(range_cells))
    kept = {k: v for k, v in light.items() if k != "range_cells"}
    return {**kept, "bright_cells": bright, "dim_cells": dim}


MIGRATIONS: dict[int, Migration] = {
    0: migrate_0_to_1,
    1: migrate_1_to_2,
    2: migrate_2_to_3,
    3: migrate_3_to_4,
    4: migrate_4_to_5,
}
"""``MIGRATIONS[n]`` turns format ``n`` into format ``n + 1``."""


def format_version_of(data: JsonObject, source: str) -> int:
    """The integer ``format_version`` of a decoded ``encounter.json``; 0 when it has none.

    Raises:
        FileFormatError: the version is present but not a non-negative integer (``true`` and
            ``1.0`` are refused: a version is a count, not a flag or a measurement).
    """
    if FORMAT_VERSION_KEY not in data:
        return 0
    version = data[FORMAT_VERSION_KEY]
    if isinstance(version, bool) or not isinstance(version, int) or version < 0:
        raise FileFormatError(
            source, f"{FORMAT_VERSION_KEY}: expected a whole number >= 0, got {version!r}"
        )
    return version


def migrate(data: JsonObject, source: str) -> JsonObject:
    """Run every step from the data's version up to ``CURRENT_FORMAT_VERSION``.

    Args:
        data: the decoded ``encounter.json`` (not modified).
        source: the file's name, for messages.

    Raises:
        NewerFormatError: the data is newer than this Battlemap reads; the message names both
            versions.
        FileFormatError: the version is malformed, or the encounter has a field its version
            didn't have (``FIELDS_SINCE``).
    """
    version = format_version_of(data, source)
    if version > CURRENT_FORMAT_VERSION:
        raise NewerFormatError(
            source,
            f"this file was saved by a newer Battlemap (format version {version}); this "
            f"Battlemap reads format versions up to {CURRENT_FORMAT_VERSION}. "
            "Update Battlemap to open it.",
        )
    _refuse_later_fields(data, version, source)
    while version < CURRENT_FORMAT_VERSION:
        data = MIGRATIONS[version](data)
        version += 1
    return data


def _refuse_later_fields(data: JsonObject, version: int, source: str) -> None:
    """Refuse an enveloped encounter with a field its ``version`` didn't have.

    Raises:
        FileFormatError: names the field and the version that brought it.
    """
    encounter = data.get(ENCOUNTER_KEY)
    if version < 1 or not isinstance(encounter, dict):
        return
    for field, since in FIELDS_SINCE.items():
        if version < since and field in encounter:
            raise FileFormatError(
                source,
                f"{ENCOUNTER_KEY}.{field}: not part of format version {version} (added in"
                f" format version {since})",
            )
