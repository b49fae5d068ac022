"""Which stat block a creature on the map uses, and the defenses it gives (no Qt).

Shared by the attack dialog, the creature panel, the Area damage dialog and the opportunity
attacks of a drop.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from battlemap.model.creature import Creature
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.model.statblock import StatBlock
from battlemap.rules.damage import Defenses, defenses_from_text
from battlemap.rules.schema import Ruleset

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


def statblock_defenses(
    block: StatBlock | None, ruleset: Ruleset
) -> tuple[Defenses, tuple[str, ...]]:
    """A stat block's resistances, immunities and vulnerabilities as the ruleset's damage
    types (the engine reads texts such as "bludgeoning, piercing, and slashing from
    nonmagical attacks"), with notes on what it could not judge."""
    if block is None:
        return Defenses(), ()
    return defenses_from_text(
        ruleset,
        resistances=block.damage_resistances,
        immunities=block.damage_immunities,
        vulnerabilities=block.damage_vulnerabilities,
    )


def creature_defenses(
    encounter: Encounter,
    ruleset: Ruleset,
    library: Mapping[str, StatBlock],
    creature_id: EntityId,
) -> Defenses:
    """The creature's resistances, vulnerabilities and immunities from the stat block it uses
    (``find_statblock``: its own, else the party's or the library's of its name); none when
    no stat block matches. Used by the panel's damage, the Area damage dialog and the
    opportunity attacks of a drop (the mover's)."""
    block = find_statblock(encounter.creature(creature_id), encounter, library)
    return statblock_defenses(block, ruleset)[0]
