"""Identifiers for entities in an encounter. Commands refer to entities by id, never by object."""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from typing import NewType

EntityId = NewType("EntityId", str)

ID_RANDOM_BYTES = 8
"""64 random bits: among 100,000 ids (a map at every limit) a clash has a chance of about
3e-10, where the 32 bits of old files gave 50,000 walls a 25 % chance. A clash that does
happen is caught on load and save (``first_duplicate``)."""


def new_id(prefix: str) -> EntityId:
    """A fresh id such as ``creature-3f2a9c1b04d6e857``; the prefix makes logs readable."""
    return EntityId(f"{prefix}-{secrets.token_hex(ID_RANDOM_BYTES)}")


def new_ids(prefix: str, count: int) -> list[EntityId]:
    """``count`` fresh ids like ``new_id``'s, from one call for random bytes (an import
    makes up to 50,000 at once)."""
    digits = 2 * ID_RANDOM_BYTES
    random_hex = secrets.token_hex(ID_RANDOM_BYTES * count)
    return [
        EntityId(f"{prefix}-{random_hex[i : i + digits]}")
        for i in range(0, len(random_hex), digits)
    ]


def first_duplicate(ids: Iterable[str]) -> tuple[int, int, str] | None:
    """The first id given twice, as ``(first index, second index, id)``, or None when all
    ids differ."""
    ids = list(ids)
    if len(set(ids)) == len(ids):  # the usual answer, found at C speed
        return None
    seen: dict[str, int] = {}
    for index, entity_id in enumerate(ids):
        earlier = seen.setdefault(entity_id, index)
        if earlier != index:
            return earlier, index, entity_id
    return None
