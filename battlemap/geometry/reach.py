"""Distance, reach and range between creatures (rules 1 and 2).

SRD "Melee Attacks": a creature can attack targets within its reach (usually 5 ft). SRD "Range":
beyond normal range the attack roll has disadvantage, beyond long range it is impossible. SRD
"Ranged Attacks in Close Combat": disadvantage within 5 ft of a hostile creature who can see
you and isn't incapacitated.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from battlemap.geometry.body import Body
from battlemap.geometry.errors import GeometryError
from battlemap.geometry.map_index import MapIndex
from battlemap.geometry.metrics import Cell, DiagonalRule, Space, space_distance_feet
from battlemap.geometry.sight import can_see
from battlemap.model import EntityId


def distance_feet(a: Body, b: Body, rule: DiagonalRule) -> float:
    """Feet between two creatures' spaces, square to nearest square (rule 1).

    Adjacent creatures (sides or corners touching) are 5 ft apart on a 5-ft grid; creatures
    sharing a square (Tiny) are 0 ft apart. Symmetric.
    """
    return space_distance_feet(a.space, b.space, rule, a.cell_feet)


@dataclass(frozen=True, slots=True)
class ReachResult:
    """Whether ``target`` is within ``attacker``'s melee reach, with the numbers."""

    within: bool
    distance_feet: float
    reach_feet: float


def within_reach(attacker: Body, target: Body, rule: DiagonalRule) -> ReachResult:
    """Melee reach check: within when the distance is at most the reach (rule 2).

    A reach of 0 never reaches, not even a creature sharing the square.
    """
    distance = distance_feet(attacker, target, rule)
    within = attacker.reach_feet > 0 and distance <= attacker.reach_feet + 1e-9
    return ReachResult(within, distance, attacker.reach_feet)


def cells_within_reach(attacker: Body, rule: DiagonalRule) -> frozenset[Cell]:
    """The grid squares outside ``attacker``'s space that a one-square target standing in
    would be within its reach (``within_reach``'s distance and rule): the reach ring drawn
    for the table. Empty for a reach of 0. Squares may lie off the map (negative indices).
    """
    if attacker.reach_feet <= 0:
        return frozenset()
    space = attacker.space
    cx0, cy0, cx1, cy1 = space.cell_range()
    own = set(space.cells())
    ring = math.ceil(attacker.reach_feet / attacker.cell_feet + 1e-9)
    found = set()
    for cy in range(cy0 - ring, cy1 + ring + 1):
        for cx in range(cx0 - ring, cx1 + ring + 1):
            if (cx, cy) in own:
                continue
            square = Space(cx, cy, 1.0, 1.0)
            feet = space_distance_feet(space, square, rule, attacker.cell_feet)
            if feet <= attacker.reach_feet + 1e-9:
                found.add((cx, cy))
    return frozenset(found)


class RangeBand(StrEnum):
    """Where a target lies for a ranged attack."""

    NORMAL = "normal"
    """Within normal range: no penalty from range."""
    LONG = "long"
    """Beyond normal range but within long range: disadvantage."""
    OUT_OF_RANGE = "out-of-range"
    """Beyond long range: the attack cannot be made."""


@dataclass(frozen=True, slots=True)
class RangeResult:
    """A ranged attack's range band and the close-combat threats that impose disadvantage."""

    band: RangeBand
    distance_feet: float
    normal_feet: float
    long_feet: float
    threatened_by: tuple[EntityId, ...]
    """Hostile creatures within 5 ft of the attacker that can see it and aren't incapacitated."""

    @property
    def disadvantage(self) -> bool:
        return self.band is RangeBand.LONG or bool(self.threatened_by)


class InvalidRangeError(GeometryError):
    """Normal and long ranges are negative or out of order."""


def range_band(distance: float, normal_feet: float, long_feet: float | None = None) -> RangeBand:
    """The band of ``distance`` for a weapon of ``normal_feet``/``long_feet`` (inclusive bounds).

    Raises:
        InvalidRangeError: when a range is negative or long range is below normal range.
    """
    long_value = normal_feet if long_feet is None else long_feet
    if normal_feet < 0 or long_value < normal_feet:
        raise InvalidRangeError(
            f"ranges must satisfy 0 <= normal <= long, got normal={normal_feet}, long={long_value}"
        )
    if distance <= normal_feet + 1e-9:
        return RangeBand.NORMAL
    if distance <= long_value + 1e-9:
        return RangeBand.LONG
    return RangeBand.OUT_OF_RANGE


def ranged_attack(
    index: MapIndex,
    attacker: Body,
    target: Body,
    others: Iterable[Body],
    rule: DiagonalRule,
    normal_feet: float,
    long_feet: float | None = None,
) -> RangeResult:
    """Range band of ``target`` and who threatens ``attacker`` in close combat (rule 2).

    ``others`` are the other creatures on the map (the target may be among them; it threatens
    like anyone else). "Within 5 ft" uses the same square-to-square distance; "can see" is
    ``sight.can_see`` through the map's walls.
    """
    distance = distance_feet(attacker, target, rule)
    band = range_band(distance, normal_feet, long_feet)
    threats = tuple(
        other.id
        for other in others
        if other.id != attacker.id
        and other.is_hostile_to(attacker)
        and not other.incapacitated
        and distance_feet(other, attacker, rule) <= max(5.0, attacker.cell_feet) + 1e-9
        and can_see(index, other, attacker).visible
    )
    return RangeResult(band, distance, normal_feet, long_feet or normal_feet, threats)
