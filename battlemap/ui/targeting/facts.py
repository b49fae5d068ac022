"""What the targeting overlay tells about one attacker and one target, without Qt.

Every answer comes from the geometry with its reasons: the distance under the ruleset's
diagonal rule, melee reach, the range band of the attacker's ranged attack (from its stat
block), cover with every corner line traced and what blocked it, flanking (when the ruleset
uses it) with the partner and the line, and whether the attacker can see the target.
"""

from __future__ import annotations

from dataclasses import dataclass

from battlemap.geometry import (
    Body,
    CoverResult,
    DiagonalRule,
    FlankReason,
    FlankResult,
    MapIndex,
    RangeBand,
    ReachResult,
    SightResult,
    can_see,
    range_band,
    within_reach,
)
from battlemap.geometry.cover import BlockerKind, cover
from battlemap.geometry.flanking import flanking
from battlemap.model.encounter import Encounter
from battlemap.model.features import CoverDegree
from battlemap.model.ids import EntityId
from battlemap.model.statblock import AttackKind
from battlemap.rules.schema import CoverRules, Ruleset

# The engine and the heavier geometry are imported in the functions that use them, so
# the window is built without them (issue 17; tests/ui/test_start_up_imports.py).


@dataclass(frozen=True)
class RangedBand:
    """The band of the target for one of the attacker's ranged attacks."""

    attack: str
    band: RangeBand
    normal_feet: float
    long_feet: float


@dataclass(frozen=True)
class TargetFacts:
    """The geometry's answers for ``attacker`` against ``target``."""

    attacker: Body
    target: Body
    attacker_name: str
    target_name: str
    distance_feet: float
    reach: ReachResult
    ranged: RangedBand | None
    cover: CoverResult
    blockers: tuple[str, ...]
    """What blocked the cover lines, named and without repeats (walls, obstacles, creatures)."""
    flank: FlankResult | None
    """None when the ruleset does not use flanking."""
    flank_partner: Body | None
    partner_name: str | None
    sight: SightResult
    flank_note: str = ""
    """Why the target is not flanked, when something stops it ("Cleric opposite, total
    cover"; "Fighter: out of reach"); empty when flanked, without an ally opposite, or without
    flanking."""


@dataclass(frozen=True)
class CoverAgainst:
    """A creature's cover against one attacker, for the AC line of the Creature dock.

    Attributes:
        attacker_name: who would attack.
        degree: the cover degree from ``TargetFacts.cover`` (attacker -> this creature).
        bonus: the ruleset's AC bonus for that degree (0 for none); None for total cover,
            which can't be targeted at all.
    """

    attacker_name: str
    degree: CoverDegree
    bonus: int | None

    def ac_text(self, ac: int) -> str:
        """The AC line: "AC 15 (+2 half cover vs Goblin 1 = 17)", "AC 15 (no cover vs
        Goblin 1)", or "AC 15 (total cover vs Goblin 1: can't be targeted)"."""
        versus = f"vs {self.attacker_name}"
        if self.bonus is None:
            return f"AC {ac} (total cover {versus}: can't be targeted)"
        if self.degree is CoverDegree.NONE or self.bonus == 0:
            return f"AC {ac} (no cover {versus})"
        return f"AC {ac} (+{self.bonus} {self.degree.value} cover {versus} = {ac + self.bonus})"


def cover_against(facts: TargetFacts, ruleset: Ruleset | None) -> CoverAgainst:
    """The cover ``facts.target`` has against ``facts.attacker``, with the ruleset's bonus.

    Without a ruleset the SRD bonuses (+2 half, +5 three-quarters) are used.
    """
    rules = ruleset.attacks.cover if ruleset is not None else CoverRules()
    degree = facts.cover.degree
    return CoverAgainst(facts.attacker_name, degree, rules.bonus(degree))


def target_facts(
    encounter: Encounter,
    ruleset: Ruleset | None,
    index: MapIndex,
    attacker_id: EntityId,
    target_id: EntityId,
) -> TargetFacts:
    """Ask the geometry about ``attacker_id`` against ``target_id`` on ``encounter``.

    Without a usable ruleset the combat flags are left off, distances count 5-5-5 and
    flanking is not shown.

    Raises:
        KeyError: when either creature is not in the encounter.
    """
    from battlemap.rules.attack_situation import combat_bodies, flank_terms
    from battlemap.rules.movement import diagonal_rule

    if ruleset is not None:
        bodies = combat_bodies(encounter, ruleset)
        rule = diagonal_rule(ruleset)
        flanks = ruleset.attacks.flanking.enabled
    else:
        bodies = [Body.from_creature(c, encounter.grid) for c in encounter.creatures]
        rule, flanks = DiagonalRule.FIVE_FIVE_FIVE, False
    by_id = {b.id: b for b in bodies}
    attacker, target = by_id[attacker_id], by_id[target_id]
    names = {c.id: c.name for c in encounter.creatures}
    reach = within_reach(attacker, target, rule)
    found = cover(index, attacker, target, bodies)
    flank = (
        flanking(index, attacker, target, bodies, rule, flank_terms(ruleset))
        if flanks and ruleset is not None
        else None
    )
    partner = by_id.get(EntityId(flank.partner_id)) if flank and flank.partner_id else None
    return TargetFacts(
        attacker=attacker,
        target=target,
        attacker_name=names[attacker_id],
        target_name=names[target_id],
        distance_feet=reach.distance_feet,
        reach=reach,
        ranged=_ranged(encounter, attacker_id, reach.distance_feet),
        cover=found,
        blockers=_blockers(encounter, found, names),
        flank=flank,
        flank_partner=partner,
        partner_name=names.get(partner.id) if partner is not None else None,
        sight=can_see(index, attacker, target),
        flank_note=_flank_note(encounter, flank, names[attacker_id]),
    )


def _flank_note(encounter: Encounter, flank: FlankResult | None, attacker_name: str) -> str:
    from battlemap.rules.attack_situation import flank_refusal

    if flank is None or flank.flanked:
        return ""
    if flank.reason is FlankReason.ATTACKER_CANNOT_THREATEN:
        return f"{attacker_name}: {flank.attacker_threat.value}"
    return flank_refusal(encounter, flank.opposite)


def _ranged(encounter: Encounter, attacker_id: EntityId, distance: float) -> RangedBand | None:
    """The band for the attacker's first ranged (or thrown) attack on its stat block."""
    block = encounter.creature(attacker_id).statblock
    for attack in block.attacks if block is not None else ():
        if attack.kind is AttackKind.MELEE or attack.range_normal is None:
            continue
        long_feet = attack.range_long or attack.range_normal
        band = range_band(distance, attack.range_normal, long_feet)
        return RangedBand(attack.name, band, attack.range_normal, long_feet)
    return None


def _blockers(
    encounter: Encounter, result: CoverResult, names: dict[EntityId, str]
) -> tuple[str, ...]:
    obstacle_names = {o.id: o.name for o in encounter.obstacles}
    found: dict[str, None] = {}
    for line in (*result.lines, result.centre_line):
        if not line.blocked or line.blocker_kind is None:
            continue
        if line.blocker_kind is BlockerKind.CREATURE and line.blocker_id is not None:
            found[names.get(line.blocker_id, "a creature")] = None
        elif line.blocker_kind is BlockerKind.OBSTACLE and line.blocker_id is not None:
            found[obstacle_names.get(line.blocker_id, "an obstacle")] = None
        else:
            found[line.blocker_kind.value] = None
    return tuple(found)
