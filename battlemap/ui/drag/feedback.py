"""The items one drag update draws: path, cost card, difficult cells, opportunity attacks.

Everything here is drawn from the geometry's ``MoveResult`` (steps with their reasons,
opportunity attacks with their step, the reason a move is illegal); nothing is recomputed.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QGraphicsItem

from battlemap.geometry import IllegalReason
from battlemap.geometry.metrics import Cell
from battlemap.geometry.movement import StepCost, StepReason
from battlemap.ui.drag.items import (
    BAD,
    CARD_MUTED,
    CARD_TEXT,
    DIFFICULT,
    GOOD,
    OPPORTUNITY,
    PATH_BAD,
    PATH_OK,
    REACH_EDGE,
    REACH_FILL,
    WARN,
    InfoCard,
    Marker,
    cased_line,
    cells_region,
    hatched_cells,
    outline_square,
    shaded_region,
)

# The engine and the heavier geometry are imported in the functions that use them, so
# the window is built without them (issue 17; tests/ui/test_start_up_imports.py).
if TYPE_CHECKING:
    from battlemap.rules.move_plan import Evaluated, MovePlan

HINT = "Space: waypoint · Ctrl: cheapest path · Alt: place freely"


def reach_shading(cells: Iterable[Cell], side: int) -> QGraphicsItem:
    """The reachable area: every cell the mover's space can cover at a reachable position."""
    return shaded_region(cells_region(cells, side), REACH_FILL, REACH_EDGE)


def feet(value: float) -> str:
    """Feet for the card: whole numbers plainly, others to one decimal (Euclidean moves)."""
    return f"{value:.0f}" if abs(value - round(value)) < 0.05 else f"{value:.1f}"


def feedback_items(
    plan: MovePlan, evaluated: Evaluated, pins: Sequence[Cell], cheapest: bool
) -> list[QGraphicsItem]:
    """Items for one drag update (the reachable area is drawn once, separately)."""
    from battlemap.rules.move_plan import EXTRA_COST_REASONS

    result = evaluated.result
    side = plan.footprint_side()
    ox, oy = plan.offset

    def centre(cell: Cell) -> tuple[float, float]:
        return (cell[0] + ox + side / 2, cell[1] + oy + side / 2)

    whole = max(1, math.ceil(side - 1e-9))
    items: list[QGraphicsItem] = []
    walked = [plan.start, *result.cells]
    colour = PATH_OK if result.legal else PATH_BAD
    over_from = _over_budget_step(plan, evaluated)
    if over_from is None:
        items += cased_line([centre(c) for c in walked], colour)
    else:
        items += cased_line([centre(c) for c in walked[: over_from + 1]], PATH_OK)
        items += cased_line([centre(c) for c in walked[over_from:]], PATH_BAD)
    if result.blocked_step is not None:
        rest = evaluated.intended[result.blocked_step :]
        if len(rest) > 1:
            items += cased_line([centre(c) for c in rest], PATH_BAD, 4.0, Qt.PenStyle.DashLine)
            a, b = centre(rest[0]), centre(rest[1])
            items.append(Marker(((a[0] + b[0]) / 2, (a[1] + b[1]) / 2), "×", PATH_BAD, 15.0))
    difficult = [s.end for s in result.steps if EXTRA_COST_REASONS & set(s.reasons)]
    if difficult:
        items.append(hatched_cells(difficult, whole, DIFFICULT))
    destination = evaluated.intended[-1]
    items.append(outline_square((destination[0] + ox, destination[1] + oy), side, colour))
    for number, pin in enumerate(pins, start=1):
        items.append(Marker(centre(pin), str(number), PATH_OK, 11.0))
    for attack in result.opportunity_attacks:
        at = centre(attack.position)
        attacker = plan.others_by_id.get(attack.attacker_id)
        if attacker is not None:
            items += cased_line([attacker.space.centre, at], OPPORTUNITY, 4.0, Qt.PenStyle.DashLine)
        items.append(Marker(at, "!", OPPORTUNITY, 14.0))
    card_at = (destination[0] + ox + side, destination[1] + oy)
    items.append(InfoCard(card_at, card_lines(plan, evaluated, len(difficult), cheapest), colour))
    return items


def _over_budget_step(plan: MovePlan, evaluated: Evaluated) -> int | None:
    """Index into the walked cells where a too-long move runs out of movement, else None."""
    result = evaluated.result
    if result.reason is not IllegalReason.TOO_FAR or not math.isfinite(plan.budget.left):
        return None
    total = 0.0
    for i, step in enumerate(result.steps):
        total += step.cost_feet
        if total > plan.budget.left + 1e-9:
            return i
    return None


def card_lines(
    plan: MovePlan, evaluated: Evaluated, difficult_cells: int, cheapest: bool
) -> list[tuple[str, QColor]]:
    """The cost card: "25 / 30 ft", what is left, why not, difficult cells, the attacks."""
    result = evaluated.result
    budget = plan.budget
    if budget.total is not None:
        title = f"{feet(result.cost_feet)} / {feet(budget.left)} ft"
    else:
        title = f"{feet(result.cost_feet)} ft"
    lines: list[tuple[str, QColor]] = [(title, CARD_TEXT)]
    if not result.legal:
        lines.append((f"× {evaluated.reason}", BAD))
    elif math.isfinite(budget.left):
        lines.append((f"{feet(result.remaining_feet)} ft left", GOOD))
    if difficult_cells:
        extra = sum(s.terrain_feet for s in result.steps)  # the geometry says what it added
        cells = "1 cell" if difficult_cells == 1 else f"{difficult_cells} cells"
        lines.append((f"{extra_cost_kinds(result.steps)}: {cells}, +{feet(extra)} ft", WARN))
    for attack in result.opportunity_attacks:
        who = plan.names.get(attack.attacker_id, str(attack.attacker_id))
        lines.append((f"! opportunity attack: {who} (step {attack.step_index + 1})", OPPORTUNITY))
    notes = [budget.note] if budget.note else []
    if cheapest:
        notes.append("cheapest path")
    if notes:
        lines.append((" · ".join(notes), CARD_MUTED))
    lines.append((HINT, CARD_MUTED))
    return lines


EXTRA_COST_LABELS = {
    StepReason.DIFFICULT_TERRAIN: "difficult terrain",
    StepReason.CREATURE_SPACE: "through a creature's space",
    StepReason.WATER: "water",
}
"""What the card calls each kind of ground that costs extra (``EXTRA_COST_REASONS``)."""


def extra_cost_kinds(steps: Iterable[StepCost]) -> str:
    """The kinds of extra-cost ground on the path, in the order first met ("difficult
    terrain, through a creature's space"): a creature's space is not terrain."""
    kinds: dict[str, None] = {}
    for step in steps:
        for reason in step.reasons:
            if reason in EXTRA_COST_LABELS:
                kinds[EXTRA_COST_LABELS[reason]] = None
    return ", ".join(kinds) or "difficult terrain"
