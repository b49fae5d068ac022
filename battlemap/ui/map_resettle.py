"""The undo commands for where tokens stand while setting up: tokens a new map leaves off the
map or inside walls and obstacles move to free cells (``resettle``). Which cells are free, and
where each creature goes, is the geometry's (``geometry/placement.py``); so are the spaces
for new creatures (``setup_spaces``, re-exported for the docks)."""

from __future__ import annotations

from battlemap.geometry.placement import resettled, setup_spaces
from battlemap.model.document import Command, MoveCreature
from battlemap.model.encounter import Encounter


def resettle(encounter: Encounter) -> tuple[list[Command], list[str]]:
    """Moves putting each misplaced creature of ``encounter`` (the new map already in it) on
    the nearest free space, and the names of those moved (one left where it is when the
    map has no room)."""
    moved = resettled(encounter)
    moves: list[Command] = [MoveCreature(m.creature_id, m.old, m.new) for m in moved]
    return moves, [m.name for m in moved]


__all__ = ["resettle", "setup_spaces"]
