"""Flanking (rule 4): the optional rule of the GM's Den ruleset (other rulesets turn it off).

GM's Den, "Flanking": "If the line passes through opposite borders of the opponent's space
(including corners of those borders), then the opponent is flanked and both flanking attackers
get advantage on their attack rolls. Only a creature or character that threatens the defender
can help an attacker get a flanking bonus. Creatures with a reach of 0 feet can't flank."

The line joins the centres of the attacker's and the ally's spaces. It must pass through the
inside of the target's space, entering through one border and leaving through the opposite
one; a corner belongs to both borders it joins, so a line from corner to opposite corner
flanks, and so does a line entering at a corner and leaving through the side opposite either
of that corner's borders.

A creature threatens the target when it could make a melee attack on it now (``threat``): not
incapacitated, the target within its reach (``reach.within_reach``), and no total cover between
them (``cover.cover``: a wall, a closed door or a pillar that no line gets past; creatures never
give more than half cover, windows and arrow slits three-quarters, so neither stops a threat).
The ruleset's numbers come in as plain values (``FlankTerms``): the least reach a flanker needs
and whether the ally must threaten too. The attacker always must: it is the one attacking.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from battlemap.geometry.body import Body
from battlemap.geometry.cover import cover
from battlemap.geometry.map_index import MapIndex
from battlemap.geometry.metrics import DiagonalRule, PointXY, Space
from battlemap.geometry.reach import within_reach
from battlemap.model import CoverDegree, EntityId

_TOL = 1e-9


@dataclass(frozen=True, slots=True)
class FlankTerms:
    """The ruleset's flanking numbers, as plain values (the geometry never reads a ruleset;
    ``battlemap.rules.attack_situation.flank_terms`` makes one from ``attacks.flanking``).

    The defaults are the gms-den ruleset's ("Only a creature or character that threatens the
    defender can help ... Creatures with a reach of 0 feet can't flank").

    Attributes:
        min_reach_feet: the least melee reach a flanker (attacker or ally) needs; a reach
            below it can't flank even when it reaches (5: reach 0 can't flank). 0 adds no
            limit beyond threatening (a reach of 0 still reaches nothing).
        both_must_threaten: the ally must threaten the target too (``threat``); False: an
            ally standing opposite helps wherever its reach ends, behind a wall or
            incapacitated (it still needs ``min_reach_feet``).

    Raises:
        ValueError: for a negative ``min_reach_feet``.
    """

    min_reach_feet: float = 5.0
    both_must_threaten: bool = True

    def __post_init__(self) -> None:
        if self.min_reach_feet < 0:
            raise ValueError(f"min_reach_feet must be >= 0, got {self.min_reach_feet}")


class Threat(StrEnum):
    """Whether a creature threatens a target, or why not."""

    THREATENS = "threatens"
    INCAPACITATED = "incapacitated"
    REACH_TOO_SHORT = "reach too short to flank"
    """Its reach is below ``FlankTerms.min_reach_feet`` (reach 0 under gms-den)."""
    OUT_OF_REACH = "out of reach"
    TOTAL_COVER = "total cover"
    """A wall, closed door or obstacle leaves no line from it to the target: it can't attack."""


class FlankReason(StrEnum):
    """Why a target is or is not flanked."""

    FLANKED = "flanked"
    ATTACKER_CANNOT_THREATEN = "attacker-cannot-threaten"
    """The attacker doesn't threaten the target (``FlankResult.attacker_threat`` says why)."""
    ALLY_OPPOSITE_CANNOT_THREATEN = "ally-opposite-cannot-threaten"
    """Allies stand opposite but none of them can help (``FlankResult.opposite`` says why)."""
    NO_ALLY_OPPOSITE = "no-ally-opposite"
    """No ally stands where the line between centres crosses opposite borders."""


@dataclass(frozen=True, slots=True)
class FlankResult:
    """Whether ``target`` is flanked by the attacker, by whom, the line that shows it, and why
    not.

    Attributes:
        flanked: the attacker has a flanking partner.
        reason: the verdict's reason.
        partner_id: the helping ally (the first in ``creatures`` order), or None.
        line: centre of the attacker to centre of the partner, or None.
        attacker_threat: whether the attacker threatens the target, or why not.
        opposite: allies standing opposite that could not help, each with why, in
            ``creatures`` order (empty when the attacker doesn't threaten: nothing is looked
            at then).
    """

    flanked: bool
    reason: FlankReason
    partner_id: EntityId | None = None
    line: tuple[PointXY, PointXY] | None = None
    attacker_threat: Threat = Threat.THREATENS
    opposite: tuple[tuple[EntityId, Threat], ...] = ()


def threat(
    index: MapIndex,
    creature: Body,
    target: Body,
    rule: DiagonalRule,
    min_reach_feet: float = 0.0,
) -> Threat:
    """Whether ``creature`` could make a melee attack on ``target`` now, or why not.

    Checked in this order (the first failing check is the answer): incapacitated; reach below
    ``min_reach_feet`` (0: no minimum); target beyond reach (a reach of 0 never reaches);
    total cover from walls, closed doors and obstacles (creatures in between never give
    total cover, so they are not traced).
    """
    found = _reach_threat(creature, target, rule, min_reach_feet)
    if found is Threat.THREATENS and _totally_covered(index, creature, target):
        return Threat.TOTAL_COVER
    return found


def _reach_threat(
    creature: Body, target: Body, rule: DiagonalRule, min_reach_feet: float
) -> Threat:
    """``threat`` without the cover check."""
    if creature.incapacitated:
        return Threat.INCAPACITATED
    if creature.reach_feet < min_reach_feet - _TOL:
        return Threat.REACH_TOO_SHORT
    if not within_reach(creature, target, rule).within:
        return Threat.OUT_OF_REACH
    return Threat.THREATENS


def _totally_covered(index: MapIndex, creature: Body, target: Body) -> bool:
    return cover(index, creature, target, ()).degree is CoverDegree.TOTAL


def threatens(index: MapIndex, creature: Body, target: Body, rule: DiagonalRule) -> bool:
    """``threat(...)`` is ``THREATENS`` (no minimum reach beyond reaching the target)."""
    return threat(index, creature, target, rule) is Threat.THREATENS


def _borders(space: Space, point: PointXY) -> set[str]:
    x, y = point
    borders = set()
    if abs(x - space.x) < _TOL:
        borders.add("left")
    if abs(x - space.x1) < _TOL:
        borders.add("right")
    if abs(y - space.y) < _TOL:
        borders.add("top")
    if abs(y - space.y1) < _TOL:
        borders.add("bottom")
    return borders


_OPPOSITE = {"left": "right", "right": "left", "top": "bottom", "bottom": "top"}


def line_flanks(a: PointXY, b: PointXY, space: Space) -> bool:
    """True when segment ``a``-``b`` passes through the inside of ``space`` and meets two
    opposite borders of it (corners count as part of both their borders).

    A line only touching the space (along an edge or at a corner) does not flank.
    """
    (ax, ay), (bx, by) = a, b
    dx, dy = bx - ax, by - ay
    t0, t1 = 0.0, 1.0
    for p, d, lo, hi in ((ax, dx, space.x, space.x1), (ay, dy, space.y, space.y1)):
        if abs(d) < _TOL:
            if not (lo + _TOL < p < hi - _TOL):
                return False
            continue
        ta, tb = (lo - p) / d, (hi - p) / d
        t0, t1 = max(t0, min(ta, tb)), min(t1, max(ta, tb))
    if t1 - t0 <= _TOL:
        return False
    entry = (ax + dx * t0, ay + dy * t0)
    exit_ = (ax + dx * t1, ay + dy * t1)
    entered, left = _borders(space, entry), _borders(space, exit_)
    return any(_OPPOSITE[b] in left for b in entered)


def _ally_reach_help(ally: Body, target: Body, rule: DiagonalRule, terms: FlankTerms) -> Threat:
    """What stops ``ally`` from helping to flank, short of cover (``THREATENS``: nothing)."""
    if terms.both_must_threaten:
        return _reach_threat(ally, target, rule, terms.min_reach_feet)
    if ally.reach_feet < terms.min_reach_feet - _TOL:
        return Threat.REACH_TOO_SHORT
    return Threat.THREATENS


def flanking(
    index: MapIndex,
    attacker: Body,
    target: Body,
    creatures: Sequence[Body],
    rule: DiagonalRule,
    terms: FlankTerms = FlankTerms(),
) -> FlankResult:
    """Whether ``attacker`` flanks ``target`` with an ally from ``creatures`` (rule 4).

    Allies are creatures on the attacker's side other than the attacker and the target. The
    attacker must threaten the target (``threat`` with ``terms.min_reach_feet``); an ally must
    stand opposite (``line_flanks``) and, where ``terms.both_must_threaten``, threaten it
    too. When several allies qualify, the first in ``creatures`` order is named; allies
    opposite that can't help are listed in ``FlankResult.opposite`` with why.

    The verdict's reason is the first that applies, in this order: the attacker is
    incapacitated, its reach too short or the target beyond it; no ally stands opposite; no
    ally opposite could help for its reach or state (``opposite`` says why); the attacker
    has total cover; no ally opposite can help (behind total cover). Cover, the one costly
    check, is traced only for an attacker and allies that pass the others.
    """
    attacker_threat = _reach_threat(attacker, target, rule, terms.min_reach_feet)
    if attacker_threat is not Threat.THREATENS:
        return FlankResult(
            False, FlankReason.ATTACKER_CANNOT_THREATEN, attacker_threat=attacker_threat
        )
    a_centre = attacker.space.centre
    helps: list[tuple[Body, Threat]] = [
        (ally, _ally_reach_help(ally, target, rule, terms))
        for ally in creatures
        if ally.id not in (attacker.id, target.id)
        and ally.is_ally_of(attacker)
        and line_flanks(a_centre, ally.space.centre, target.space)
    ]
    if not helps:
        return FlankResult(False, FlankReason.NO_ALLY_OPPOSITE)
    if any(h is Threat.THREATENS for _, h in helps) and _totally_covered(index, attacker, target):
        return FlankResult(
            False, FlankReason.ATTACKER_CANNOT_THREATEN, attacker_threat=Threat.TOTAL_COVER
        )
    cannot: list[tuple[EntityId, Threat]] = []
    for ally, help_ in helps:
        walled_off = help_ is Threat.THREATENS and terms.both_must_threaten
        if walled_off and _totally_covered(index, ally, target):
            help_ = Threat.TOTAL_COVER
        if help_ is Threat.THREATENS:
            line = (a_centre, ally.space.centre)
            return FlankResult(True, FlankReason.FLANKED, ally.id, line, opposite=tuple(cannot))
        cannot.append((ally.id, help_))
    return FlankResult(False, FlankReason.ALLY_OPPOSITE_CANNOT_THREATEN, opposite=tuple(cannot))
