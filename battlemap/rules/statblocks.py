"""Which stat block a creature on the map uses, and the defenses it gives (no Qt).

Shared by the attack dialog, the creature panel, the Area damage dialog and the opportunity
attacks of a drop.
"""

from __future__ import annotations

from collections.abc import Mapping

from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.model.statblock import StatBlock
from battlemap.rules.damage import Defenses, defenses_from_text
from battlemap.rules.schema import Ruleset
from battlemap.rules.statblock_lookup import NUMBERED as NUMBERED
from battlemap.rules.statblock_lookup import find_statblock as find_statblock


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
