"""Ask the map what ``rules.vision`` needs: the light on a creature, a clear line, its senses
(and the creatures as the geometry's bodies, with their conditions' flags).

The one place the sight rules meet the geometry (as ``rules.attack_situation`` is for
attacks): the verdict itself stays a pure query.
"""

from __future__ import annotations

from battlemap.geometry.body import Body
from battlemap.geometry.illumination import LitMap
from battlemap.geometry.map_index import MapIndex
from battlemap.geometry.reach import distance_feet
from battlemap.geometry.sight import line_of_sight, sight_points
from battlemap.model.creature import Creature
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.model.statblock import Senses
from battlemap.rules.conditions import is_incapacitated, reactions_left
from battlemap.rules.errors import InvalidRequestError
from battlemap.rules.movement import diagonal_rule
from battlemap.rules.schema import Ruleset
from battlemap.rules.vision import LightLevel, SightVerdict, sight_verdict


def combat_bodies(encounter: Encounter, ruleset: Ruleset) -> list[Body]:
    """A body per creature, with the flags its conditions give (none outside a combat)."""
    combat = encounter.combat
    bodies = []
    for creature in encounter.creatures:
        combatant = (
            combat.combatant(creature.id)
            if combat is not None and combat.has(creature.id)
            else None
        )
        if combatant is None:
            bodies.append(Body.from_creature(creature, encounter.grid))
            continue
        bodies.append(
            Body.from_creature(
                creature,
                encounter.grid,
                prone=combatant.has_condition(ruleset.roles.conditions.prone),
                incapacitated=is_incapacitated(ruleset, combatant),
                invisible=combatant.has_condition(ruleset.roles.conditions.invisible),
                blinded=combatant.has_condition(ruleset.roles.conditions.blinded),
                reaction_spent=reactions_left(ruleset, combatant) == 0,
                disengaged=combatant.disengaged,
            )
        )
    return bodies


def light_levels(index: MapIndex, encounter: Encounter) -> LitMap:
    """A ``LitMap`` for reading light levels only (``LitMap.levels_only``: no polygons)."""
    return LitMap.levels_only(index, encounter)


def senses_of(creature: Creature) -> Senses:
    """The creature's special senses: its stat block's, or none."""
    return creature.statblock.senses if creature.statblock is not None else Senses()


def light_on(lit: LitMap, body: Body) -> LightLevel:
    """The light on ``body``'s space: the brightest at its centre and its inset corners (the
    points sight looks at, ``geometry.sight.sight_points``), so a creature half in a torch's
    light is in that light."""
    best = LightLevel.DARK
    for point in sight_points(body.space):
        best = min(best, lit.level_at(point), key=lambda level: level.rank)
        if best is LightLevel.BRIGHT:
            break  # nothing is brighter: the other points needn't be asked
    return best


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

    ``lit`` is ``light_levels(index, encounter)``; ``whom`` names ``looked_at`` in the reason
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


def creature_sees(
    encounter: Encounter,
    ruleset: Ruleset,
    looker_id: EntityId,
    looked_at_id: EntityId,
) -> SightVerdict:
    """Whether one creature sees another on ``encounter``'s map (its combat's conditions
    included), and why; the reason calls the one looked at by its name.

    Raises:
        InvalidRequestError: an unknown creature.
    """
    bodies = {b.id: b for b in combat_bodies(encounter, ruleset)}
    for cid in (looker_id, looked_at_id):
        if cid not in bodies:
            raise InvalidRequestError(f"no creature '{cid}' in the encounter")
    looker, looked_at = bodies[looker_id], bodies[looked_at_id]
    lit = light_levels(MapIndex.build(encounter), encounter)
    distance = distance_feet(looker, looked_at, diagonal_rule(ruleset))
    name = encounter.creature(looked_at_id).name
    return creature_sight(ruleset, lit, encounter, looker, looked_at, distance, name)
