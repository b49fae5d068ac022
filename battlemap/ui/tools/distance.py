"""Distances along a ruler path under a diagonal rule, and which rule a ruleset uses.

Steps are counted by ``battlemap.geometry.grid_steps_to_feet`` (the same count the movement
engine uses), over the whole path at once, so the 5-10-5 alternation runs on across
waypoints as it does for a move broken into legs.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

from battlemap.geometry import DiagonalRule, grid_steps_to_feet
from battlemap.model.features import Point
from battlemap.rules.loader import RulesetError, RulesetRegistry

DIAGONAL_RULES = tuple(rule.value for rule in DiagonalRule)
FALLBACK_RULE = DiagonalRule.FIVE_FIVE_FIVE.value


def ruleset_diagonal_rule(ruleset: str, registry: RulesetRegistry) -> str:
    """The diagonal rule the named ruleset uses (``movement.diagonal`` in its YAML file).

    A ruleset that is unknown or fails to load falls back to 5-5-5, the simplest count, so
    the ruler always works; the ruleset's own problem is reported where rulesets are loaded.
    """
    try:
        return str(registry.get(ruleset).movement.diagonal.value)
    except RulesetError:
        return FALLBACK_RULE


def path_feet(points: Sequence[Point], cell_feet: float, rule: str) -> list[float]:
    """Cumulative distance in feet at each point of a path (the first is 0).

    Grid rules count whole cells: each leg's horizontal and vertical extents are rounded to
    the nearest whole cell (halves round up); a leg of dx by dy cells is ``min`` diagonal
    steps and ``|dx - dy|`` straight ones. Euclidean is the exact straight-line length
    (points need not be cell centres when the DM measures free-hand).

    Raises:
        UnknownDiagonalRuleError: (a ValueError) for an unknown rule name.
    """
    diagonal_rule = DiagonalRule.parse(rule)
    totals = [0.0] if points else []
    straight = diagonals = 0
    exact = 0.0
    for a, b in itertools.pairwise(points):
        if diagonal_rule is DiagonalRule.EUCLIDEAN:
            exact += math.hypot(b[0] - a[0], b[1] - a[1])
            totals.append(exact * cell_feet)
            continue
        dx = math.floor(abs(b[0] - a[0]) + 0.5)
        dy = math.floor(abs(b[1] - a[1]) + 0.5)
        straight += abs(dx - dy)
        diagonals += min(dx, dy)
        # n diagonals cost the same as an n-by-n displacement; straight steps one cell each
        totals.append(
            straight * cell_feet
            + grid_steps_to_feet(diagonals, diagonals, diagonal_rule, cell_feet)
        )
    return totals
