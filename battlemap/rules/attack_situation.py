"""Build an ``AttackSituation`` from the geometry: distance, range band, cover, flanking, sight.

The attack engine takes the geometry's answers as plain values so it doesn't depend on
geometry internals; this is the one place that asks the geometry. Combat flags on the bodies
(prone, incapacitated, invisible, blinded, reaction spent, Disengaged) come from the
combatants' conditions under the ruleset.
"""

from __future__ import annotations

from battlemap.geometry.cover import cover
from battlemap.geometry.flanking import FlankReason, FlankTerms, Threat, flanking
from battlemap.geometry.illumination import LitMap
from battlemap.geometry.map_index import MapIndex
from battlemap.geometry.movement import is_squeezing
from battlemap.geometry.reach import RangeBand as GeometryBand
from battlemap.geometry.reach import distance_feet, ranged_attack
from battlemap.model.combat import CombatState
from battlemap.model.encounter import Encounter
from battlemap.model.features import CoverDegree
from battlemap.model.ids import EntityId
from battlemap.model.statblock import Attack, AttackKind
from battlemap.rules.attacks import AttackProfile, AttackSituation, Delivery, RangeBand
from battlemap.rules.errors import InvalidRequestError
from battlemap.rules.movement import diagonal_rule
from battlemap.rules.outcome import with_combat
from battlemap.rules.schema import Ruleset
from battlemap.rules.sight_on_map import combat_bodies, creature_sight

__all__ = ["attack_situation", "combat_bodies", "flank_refusal", "flank_terms", "statblock_profile"]

_BANDS = {
    GeometryBand.NORMAL: RangeBand.NORMAL,
    GeometryBand.LONG: RangeBand.LONG,
    GeometryBand.OUT_OF_RANGE: RangeBand.OUT_OF_RANGE,
}


def flank_terms(ruleset: Ruleset) -> FlankTerms:
    """The geometry's flanking numbers from ``ruleset.attacks.flanking``.

    ``min_reach_feet`` (gms-den 5: "Creatures with a reach of 0 feet can't flank an
    opponent") and ``both_must_threaten`` (gms-den true: "Only a creature or character that
    threatens the defender can help an attacker get a flanking bonus").
    """
    rules = ruleset.attacks.flanking
    return FlankTerms(float(rules.min_reach_feet), rules.both_must_threaten)


def attack_situation(
    index: MapIndex,
    encounter: Encounter,
    combat: CombatState | None,
    ruleset: Ruleset,
    attacker_id: EntityId,
    target_id: EntityId,
    profile: AttackProfile,
    *,
    underwater: bool = False,
) -> AttackSituation:
    """Ask the geometry everything the attack needs, with its reasons.

    Whether either creature stands squeezed (``geometry.movement.is_squeezing``) is passed on;
    the attack rules weigh it only when the ruleset has ``movement.squeezing`` rules.

    ``index`` is ``MapIndex.build(encounter)`` (build it once per map change, not per attack).

    Raises:
        InvalidRequestError: unknown creature, or a ranged profile without a range.
    """
    bodies = combat_bodies(with_combat(encounter, combat), ruleset)
    by_id = {b.id: b for b in bodies}
    if attacker_id not in by_id or target_id not in by_id:
        raise InvalidRequestError(
            f"no creature '{attacker_id if attacker_id not in by_id else target_id}'"
        )
    attacker, target = by_id[attacker_id], by_id[target_id]
    rule = diagonal_rule(ruleset)
    others = [b for b in bodies if b.id != attacker_id]
    reasons: list[str] = []
    distance = distance_feet(attacker, target, rule)
    band = RangeBand.REACH
    hostile_near = False
    if profile.delivery is Delivery.RANGED:
        if profile.range_normal is None:
            raise InvalidRequestError(f"{profile.name} is ranged but has no range")
        ranged = ranged_attack(
            index, attacker, target, others, rule, profile.range_normal, profile.range_long
        )
        band = _BANDS[ranged.band]
        hostile_near = bool(ranged.threatened_by)
        if hostile_near:
            names = ", ".join(encounter.creature(i).name for i in ranged.threatened_by)
            reasons.append(f"hostile within 5 ft: {names}")
    cover_result = cover(index, attacker, target, bodies)
    if cover_result.degree is not CoverDegree.NONE:
        source = cover_result.source.value if cover_result.source is not None else "cover"
        reasons.append(f"{cover_result.degree.value} cover from a {source}")
    flanked = False
    if ruleset.attacks.flanking.enabled and profile.delivery is Delivery.MELEE:
        flank = flanking(index, attacker, target, bodies, rule, flank_terms(ruleset))
        flanked = flank.flanked
        if flanked and flank.partner_id is not None:
            reasons.append(f"flanked with {encounter.creature(EntityId(flank.partner_id)).name}")
        elif flank.reason is FlankReason.ALLY_OPPOSITE_CANNOT_THREATEN:
            reasons.append(f"not flanked: {flank_refusal(encounter, flank.opposite)}")
    lit = LitMap.build(index, encounter)
    sees = creature_sight(ruleset, lit, encounter, attacker, target, distance, "target")
    seen = creature_sight(ruleset, lit, encounter, target, attacker, distance, "attacker")
    if not sees.sees:
        reasons.append(f"attacker can't see the target ({sees.reason})")
    elif sees.reason:
        reasons.append(sees.reason)
    if not seen.sees:
        reasons.append(f"target can't see the attacker ({seen.reason})")
    return AttackSituation(
        distance_feet=distance,
        range_band=band,
        cover=cover_result.degree,
        flanked=flanked,
        attacker_sees_target=sees.sees,
        target_sees_attacker=seen.sees,
        unseen_target_why="" if sees.sees else sees.reason,
        unseen_attacker_why="" if seen.sees else seen.reason,
        hostile_within_5ft=hostile_near,
        underwater=underwater,
        attacker_squeezing=is_squeezing(index, attacker),
        target_squeezing=is_squeezing(index, target),
        reasons=tuple(reasons),
    )


def flank_refusal(encounter: Encounter, opposite: tuple[tuple[EntityId, Threat], ...]) -> str:
    """Why the allies standing opposite don't help: "Cleric opposite, total cover"."""
    return "; ".join(
        f"{encounter.creature(ally).name} opposite, {why.value}" for ally, why in opposite
    )


def statblock_profile(
    encounter: Encounter,
    ruleset: Ruleset,
    attacker_id: EntityId,
    target_id: EntityId,
    attack: Attack,
) -> AttackProfile:
    """A stat-block ``attack`` as made against this target: a melee-or-ranged (thrown) one is
    thrown, a ranged attack, at a target beyond its reach, and a melee attack within it (a
    javelin at 20 ft is thrown, not refused as out of reach). Unknown creatures: melee.
    """
    ranged = None
    if attack.kind is AttackKind.MELEE_OR_RANGED:
        bodies = {b.id: b for b in combat_bodies(encounter, ruleset)}
        attacker, target = bodies.get(attacker_id), bodies.get(target_id)
        if attacker is not None and target is not None:
            reach = attack.reach or 5
            ranged = distance_feet(attacker, target, diagonal_rule(ruleset)) > reach
    return AttackProfile.from_statblock(attack, ranged=ranged)
