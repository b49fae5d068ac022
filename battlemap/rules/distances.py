"""The distances the engine measures itself from the encounter (never trusting a distance a
dialog hands in): between two creatures' spaces, by the ruleset's diagonal rule."""

from __future__ import annotations

from battlemap.geometry.body import Body
from battlemap.geometry.reach import distance_feet
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.rules.combat_ops import creature_of
from battlemap.rules.movement import diagonal_rule
from battlemap.rules.schema import Ruleset


def distance_between(
    encounter: Encounter, ruleset: Ruleset, a_id: EntityId, b_id: EntityId
) -> float:
    """Feet between the two creatures' spaces on the encounter's grid (``geometry.reach
    .distance_feet``: 5 for adjacent squares, 0 for overlapping ones).

    Raises:
        InvalidRequestError: either creature isn't in the encounter.
    """
    grid = encounter.grid
    a = Body.from_creature(creature_of(encounter, a_id), grid)
    b = Body.from_creature(creature_of(encounter, b_id), grid)
    return distance_feet(a, b, diagonal_rule(ruleset))
