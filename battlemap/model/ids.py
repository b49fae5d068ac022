"""Identifiers for entities in an encounter. Commands refer to entities by id, never by object."""

from __future__ import annotations

import uuid
from typing import NewType

EntityId = NewType("EntityId", str)


def new_id(prefix: str) -> EntityId:
    """A fresh id such as ``creature-3f2a9c1b``; the prefix makes logs readable."""
    return EntityId(f"{prefix}-{uuid.uuid4().hex[:8]}")
