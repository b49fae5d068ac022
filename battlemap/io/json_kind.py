"""Tell what a ``.json`` file holds from its content, not its name.

A Universal VTT map, a 5e-database monster list or a monster library saved as ``.json``
would otherwise be read as an encounter and refused with a list of schema errors that say
nothing of what the file is.
"""

from __future__ import annotations

from enum import StrEnum

import pydantic_core

MAX_UVTT_BYTES = 128 * 1024 * 1024
"""Largest file read: a base64 image of about 96 MB plus walls. Here, beside the sniffing
that reads every ``.json`` with it, so opening an encounter does not import ``uvtt``."""

UVTT_MARKERS = (b'"resolution"', b'"map_size"', b'"pixels_per_grid"')
"""Keys every Universal VTT file has and no encounter does."""
MONSTER_KEYS = frozenset({"armor_class", "hit_points", "challenge_rating", "strength"})
"""Keys every 5e-database monster has; an encounter has none of them at its top level."""


class JsonKind(StrEnum):
    """What a JSON file is, worded for a message ("... is {kind}")."""

    UNIVERSAL_VTT = "a Universal VTT map"
    MONSTERS = "a 5e-database monster file"
    MONSTER_LIBRARY = "a Battlemap monster library"


def sniff_json(data: bytes) -> JsonKind | None:
    """The kind of file ``data`` is, or None when it is none of the known kinds (then it is
    meant as an encounter, and the encounter reader says what is wrong with it).

    A map is told by its keys in the bytes (it may be too large to parse twice); monster
    files are parsed only when their keys appear, and must be a list of monster objects or
    one monster object.
    """
    if all(marker in data for marker in UVTT_MARKERS):
        return JsonKind.UNIVERSAL_VTT
    if b'"challenge_rating"' not in data:
        return None
    try:
        parsed = pydantic_core.from_json(data)
    except ValueError:
        return None
    if isinstance(parsed, dict) and {"monsters", "attribution", "format_version"} <= parsed.keys():
        return JsonKind.MONSTER_LIBRARY
    monsters = parsed if isinstance(parsed, list) else [parsed]
    if monsters and all(isinstance(m, dict) and m.keys() >= MONSTER_KEYS for m in monsters):
        return JsonKind.MONSTERS
    return None
