"""Ask the map what ``rules.vision`` needs: the light on a creature, a clear line, its senses.

The one place the sight rules meet the geometry (as ``rules.attack_situation`` is for
attacks): the verdict itself stays a pure query.
"""

from __future__ import annotations

from battlemap.geometry.body import Body
from battlemap.geometry.illumination import LitMap
from battlemap.geometry.sight import line_of_sight, sight_points
from battlemap.model.creature import Creature
from battlemap.model.encounter import Encounter
from battlemap.model.statblock import Senses
from battlemap.rules.schema import Ruleset
from battlemap.rules.vision import LightLevel, SightVerdict, sight_verdict


def senses_of(creature: Creature) -> Senses:
    """The creature's special senses: its stat block's, or none."""
    return creature.statblock.senses if creature.statblock is not None else Senses()


def light_on(lit: LitMap, body: Body) -> LightLevel:
    """The light on ``body``'s space: the brightest at its centre and its inset corners (the
    points sight looks at, ``geometry.sight.sight_points``), so a creature half in a torch's
    light is in that light."""
    return min((lit.level_at(p) for p in sight_points(body.space)), key=lambda lv: lv.rank)


def creature_sight(
    ruleset: Ruleset,
    lit: LitMap,
    encounter: Encounter,
    looker: Body,
    looked_at: Body,
    distance_feet: float,
    whom: str,
) -> SightVerdict:
    """Whether ``looker`` sees ``looked_at`` (``distance_feet`` apart) on this map, and why.

    ``lit`` is ``LitMap.build(index, encounter)``; ``whom`` names ``looked_at`` in the reason
    ("target", "attacker").
    """
    line = line_of_sight(lit.index, looker.space, looked_at.space)
    return sight_verdict(
        ruleset,
        light_on(lit, looked_at),
        senses_of(encounter.creature(looker.id)),
        distance_feet,
        whom=whom,
        line_clear=line.visible,
        blinded=looker.blinded,
        invisible=looked_at.invisible,
    )
