"""Which stat block a creature on the map uses (no Qt, no engine: the turn engine and the
panels both ask)."""

from __future__ import annotations

import re
from collections.abc import Mapping

from battlemap.model.creature import Creature
from battlemap.model.encounter import Encounter
from battlemap.model.statblock import StatBlock

NUMBERED = re.compile(r"^(.*\S)\s+\d+$")
"""A numbered copy's name ("Goblin 3"): group 1 is the base name."""


def find_statblock(
    creature: Creature, encounter: Encounter, library: Mapping[str, StatBlock]
) -> StatBlock | None:
    """The creature's own stat block, else the one it was made from, by name: the party's,
    then the library's. Numbered copies ("Goblin 3") match their base name. None when nothing
    matches.
    """
    if creature.statblock is not None:
        return creature.statblock
    names = [creature.name]
    match = NUMBERED.match(creature.name)
    if match:
        names.append(match.group(1))
    for name in names:
        for block in encounter.party:
            if block.name == name:
                return block
        if name in library:
            return library[name]
    return None
