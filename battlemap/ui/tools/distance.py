"""Distances along a ruler path under a diagonal rule, and which rule a ruleset uses.

STOPGAP: the geometry engineer is writing ``battlemap.geometry.metrics`` with the canonical
``DiagonalRule`` and ``grid_steps_to_feet``; it was not committed when the ruler was written.
``path_feet`` below counts the same way (and keeps the 5-10-5 parity across waypoints, which
a per-leg call would not); swap its body for the geometry call once that lands.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

from battlemap.model.features import Point
from battlemap.rules.loader import RulesetError, RulesetRegistry

FIVE_FIVE_FIVE = "5-5-5"
"""Every diagonal step costs one cell (the SRD's grid variant; gms-den says so outright)."""
FIVE_TEN_FIVE = "5-10-5"
"""Diagonal steps alternate one and two cells, counted along the whole path."""
EUCLIDEAN = "euclidean"
"""Straight-line distance."""
DIAGONAL_RULES = (FIVE_FIVE_FIVE, FIVE_TEN_FIVE, EUCLIDEAN)


def ruleset_diagonal_rule(ruleset: str, registry: RulesetRegistry) -> str:
    """The diagonal rule the named ruleset uses (``movement.diagonal`` in its YAML file).

    A ruleset that is unknown or fails to load falls back to 5-5-5, the simplest count, so
    the ruler always works; the ruleset's own problem is reported where rulesets are loaded.
    """
    try:
        return str(registry.get(ruleset).movement.diagonal.value)
    except RulesetError:
        return FIVE_FIVE_FIVE


def path_feet(points: Sequence[Point], cell_feet: float, rule: str) -> list[float]:
    """Cumulative distance in feet at each point of a path (the first is 0).

    Grid rules count whole cells: each leg's horizontal and vertical extents are rounded
    to the nearest whole cell (halves round up) before counting steps. Under 5-10-5 the
    alternation continues across waypoints, as it does for a move broken into legs.

    Raises:
        ValueError: for an unknown rule name.
    """
    if rule not in DIAGONAL_RULES:
        raise ValueError(f"unknown diagonal rule '{rule}'; expected one of {DIAGONAL_RULES}")
    totals = [0.0] if points else []
    diagonals_so_far = 0
    cells = 0.0
    for a, b in itertools.pairwise(points):
        if rule == EUCLIDEAN:
            cells += math.hypot(b[0] - a[0], b[1] - a[1])
        else:
            dx = math.floor(abs(b[0] - a[0]) + 0.5)
            dy = math.floor(abs(b[1] - a[1]) + 0.5)
            diagonal, straight = min(dx, dy), abs(dx - dy)
            cells += straight + diagonal
            if rule == FIVE_TEN_FIVE:
                cells += (diagonals_so_far + diagonal) // 2 - diagonals_so_far // 2
            diagonals_so_far += diagonal
        totals.append(cells * cell_feet)
    return totals
