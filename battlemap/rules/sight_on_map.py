"""Ask the map what ``rules.vision`` needs: the light on a creature, a clear line, its senses.

The one place the sight rules meet the geometry (as ``rules.attack_situation`` is for
attacks): the verdict itself stays a pure query.
"""

from __future__ import annotations

from battlemap.geometry.body import Body
from battlemap.geometry.map_index import MapIndex
from battlemap.geometry.sight import line_of_sight
from battlemap.model.creature import Creature
from battlemap.model.encounter import Encounter
from battlemap.model.statblock import Senses
from battlemap.rules.schema import Ruleset
from battlemap.rules.vision import LightLevel, SightVerdict, sight_verdict


def senses_of(creature: Creature) -> Senses:
    """The creature's special senses: its stat block's, or none."""
    return creature.statblock.senses if creature.statblock is not None else Senses()


def light_on(encounter: Encounter, body: Body) -> LightLevel:
    """The light on ``body``'s space (a map without lights is in bright light)."""
    return LightLevel.BRIGHT


def creature_sight(
    ruleset: Ruleset,
    index: MapIndex,
    encounter: Encounter,
    looker: Body,
    looked_at: Body,
    distance_feet: float,
    whom: str,
) -> SightVerdict:
    """Whether ``looker`` sees ``looked_at`` (``distance_feet`` apart) on this map, and why.

    ``whom`` names ``looked_at`` in the reason ("target", "attacker").
    """
    line = line_of_sight(index, looker.space, looked_at.space)
    return sight_verdict(
        ruleset,
        light_on(encounter, looked_at),
        senses_of(encounter.creature(looker.id)),
        distance_feet,
        whom=whom,
        line_clear=line.visible,
        blinded=looker.blinded,
        invisible=looked_at.invisible,
    )
