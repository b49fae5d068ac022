"""Flanking (rule 4): the optional rule of the GM's Den ruleset (other rulesets turn it off).

GM's Den, "Flanking": "If the line passes through opposite borders of the opponent's space
(including corners of those borders), then the opponent is flanked and both flanking attackers
get advantage on their attack rolls. Only a creature or character that threatens the defender
can help an attacker get a flanking bonus. Creatures with a reach of 0 feet can't flank."

The line joins the centres of the attacker's and the ally's spaces. It must pass through the
inside of the target's space, entering through one border and leaving through the opposite
one; a corner belongs to both borders it joins, so a line from corner to opposite corner
flanks, and so does a line entering at a corner and leaving through the side opposite either
of that corner's borders. Both creatures must threaten the target: within their reach
(``reach.within_reach``), reach above 0, not incapacitated.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from battlemap.geometry.body import Body
from battlemap.geometry.metrics import DiagonalRule, PointXY, Space
from battlemap.geometry.reach import within_reach

_TOL = 1e-9


class FlankReason(StrEnum):
    """Why a target is or is not flanked."""

    FLANKED = "flanked"
    ATTACKER_CANNOT_THREATEN = "attacker-cannot-threaten"
    """The attacker is incapacitated, has reach 0 or the target is beyond its reach."""
    NO_ALLY_OPPOSITE = "no-ally-opposite"
    """No threatening ally stands where the line between centres crosses opposite borders."""


@dataclass(frozen=True, slots=True)
class FlankResult:
    """Whether ``target`` is flanked by the attacker, by whom, and the line that shows it."""

    flanked: bool
    reason: FlankReason
    partner_id: str | None = None
    line: tuple[PointXY, PointXY] | None = None


def threatens(creature: Body, target: Body, rule: DiagonalRule) -> bool:
    """Can make a melee attack on ``target`` now: reach > 0, not incapacitated, within reach."""
    return not creature.incapacitated and within_reach(creature, target, rule).within


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


def flanking(
    attacker: Body, target: Body, creatures: Sequence[Body], rule: DiagonalRule
) -> FlankResult:
    """Whether ``attacker`` flanks ``target`` with an ally from ``creatures`` (rule 4).

    Allies are creatures on the attacker's side other than the attacker and the target. When
    several allies qualify, the first in ``creatures`` order is named.
    """
    if not threatens(attacker, target, rule):
        return FlankResult(False, FlankReason.ATTACKER_CANNOT_THREATEN)
    a_centre = attacker.space.centre
    for ally in creatures:
        if ally.id in (attacker.id, target.id) or not ally.is_ally_of(attacker):
            continue
        if not threatens(ally, target, rule):
            continue
        b_centre = ally.space.centre
        if line_flanks(a_centre, b_centre, target.space):
            return FlankResult(True, FlankReason.FLANKED, ally.id, (a_centre, b_centre))
    return FlankResult(False, FlankReason.NO_ALLY_OPPOSITE)
