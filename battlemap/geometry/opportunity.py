"""Opportunity attacks along a path (rule 7).

SRD "Opportunity Attacks": "You can make an opportunity attack when a hostile creature that you
can see moves out of your reach ... The attack interrupts the provoking creature's movement,
occurring right before it leaves your reach. You can avoid provoking an opportunity attack by
taking the Disengage action. You also don't provoke an opportunity attack when you teleport or
when someone or something moves you without using your movement, action, or reaction."

So, for each creature hostile to the mover that is not incapacitated, still has its reaction,
has reach above 0 and can see the mover (not blinded, mover not invisible, a clear line through
the walls at that moment): the first step that takes the mover from within its reach to beyond
it. Moving within reach, or into reach, provokes nothing. Each creature attacks at most once.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from enum import StrEnum

import numpy as np

from battlemap.geometry.body import Body
from battlemap.geometry.map_index import MapIndex
from battlemap.geometry.metrics import (
    Cell,
    DiagonalRule,
    Space,
    grid_steps_to_feet,
    occupied_cell_range,
)
from battlemap.geometry.movement import (
    LARGEST_SPACE_FEET,
    SRD_COSTS,
    MovementCosts,
    MoveResult,
    OpportunityAttack,
    body_cells,
    path_cost,
)
from battlemap.geometry.sight import sight_points
from battlemap.model import EntityId


class HowMoved(StrEnum):
    """How the mover changes place: only its own movement provokes opportunity attacks."""

    OWN_MOVEMENT = "own-movement"
    """Walking, flying, swimming, crawling on its own: provokes unless it Disengaged."""
    TELEPORT = "teleport"
    """Teleportation: never provokes."""
    FORCED = "forced"
    """Moved by someone or something else (shoved, hurled, falling): never provokes."""


def opportunity_attacks(
    index: MapIndex,
    mover: Body,
    cells: Sequence[Cell],
    others: Sequence[Body],
    rule: DiagonalRule,
    how: HowMoved = HowMoved.OWN_MOVEMENT,
) -> tuple[OpportunityAttack, ...]:
    """Opportunity attacks provoked by ``mover`` walking through ``cells`` (first = start).

    ``cells`` are the top-left cells of the mover's space after each step, as in
    ``MoveResult``; the result is ordered by step, then by ``others`` order.
    """
    if how is not HowMoved.OWN_MOVEMENT or mover.disengaged or len(cells) < 2:
        return ()
    if mover.invisible:
        return ()  # no one can see it
    offset_x = mover.x - math.floor(mover.x)
    offset_y = mover.y - math.floor(mover.y)
    side = mover.side_cells
    # The cell range the mover occupies at each position, as integers.
    spans = [occupied_cell_range(cx + offset_x, cy + offset_y, side, side) for cx, cy in cells]
    lo_x = min(s[0] for s in spans)
    lo_y = min(s[1] for s in spans)
    hi_x = max(s[2] for s in spans)
    hi_y = max(s[3] for s in spans)
    feet = mover.cell_feet
    # Every step at which the mover leaves a watcher's reach, in ``others`` then step order;
    # whether the watcher sees it there is asked for all of them at once below.
    leaves: list[tuple[Body, int]] = []
    for other in others:
        reach_cells = int(other.reach_feet // feet) + 1
        # A cheap test on the raw position first (see ``movement.bodies_near``).
        x, y = other.x, other.y
        slack = reach_cells + LARGEST_SPACE_FEET / other.cell_feet + 1
        if x > hi_x + reach_cells + 1 or y > hi_y + reach_cells + 1:
            continue
        if x < lo_x - slack or y < lo_y - slack:
            continue
        if (
            other.id == mover.id
            or other.incapacitated
            or other.reaction_spent
            or other.reach_feet <= 0
            or other.blinded
            or not other.is_hostile_to(mover)
        ):
            continue
        ox0, oy0, ox1, oy1 = body_cells(other)
        if ox0 - reach_cells > hi_x or ox1 + reach_cells < lo_x:
            continue
        if oy0 - reach_cells > hi_y or oy1 + reach_cells < lo_y:
            continue
        within_before = False
        for i, (sx0, sy0, sx1, sy1) in enumerate(spans):
            dx = max(0, ox0 - sx1, sx0 - ox1)
            dy = max(0, oy0 - sy1, sy0 - oy1)
            within = grid_steps_to_feet(dx, dy, rule, feet) <= other.reach_feet + 1e-9
            if i > 0 and within_before and not within:
                leaves.append((other, i - 1))
            within_before = within
    if not leaves:
        return ()
    seen = _sees(
        index,
        [
            (
                other.space,
                Space(cells[i][0] + offset_x, cells[i][1] + offset_y, side, side),
            )
            for other, i in leaves
        ],
    )
    found: list[OpportunityAttack] = []
    attacked: set[EntityId] = set()
    for (other, i), visible in zip(leaves, seen, strict=True):
        if visible and other.id not in attacked:
            attacked.add(other.id)  # its first leave it sees; each attacks at most once
            found.append(OpportunityAttack(other.id, i, cells[i]))
    found.sort(key=lambda oa: oa.step_index)
    return tuple(found)


def _sees(index: MapIndex, pairs: Sequence[tuple[Space, Space]]) -> list[bool]:
    """``sight.line_of_sight(index, a, b).visible`` for each pair, in two batched calls: the
    centre-to-centre lines of all pairs, then all 25 lines of the pairs still unseen."""
    points = [(sight_points(a), sight_points(b)) for a, b in pairs]
    centres = np.array([[pa[0], pb[0]] for pa, pb in points], dtype=np.float64)
    visible = (~index.sight_walls.blocks(centres)).tolist()
    unseen = [n for n, v in enumerate(visible) if not v]
    if unseen:
        lines = np.array(
            [[p, q] for n in unseen for p in points[n][0] for q in points[n][1]],
            dtype=np.float64,
        )
        clear = ~index.sight_walls.blocks(lines).reshape(len(unseen), -1)
        some_clear = np.any(clear, axis=1)
        for row, n in enumerate(unseen):
            visible[n] = bool(some_clear[row])
    return [bool(v) for v in visible]


def move_with_opportunity_attacks(
    index: MapIndex,
    mover: Body,
    waypoints: Sequence[tuple[float, float]],
    others: Sequence[Body],
    rule: DiagonalRule,
    movement_left: float,
    how: HowMoved = HowMoved.OWN_MOVEMENT,
    *,
    costs: MovementCosts = SRD_COSTS,
) -> MoveResult:
    """The drag update: ``path_cost`` plus the opportunity attacks along the walked steps.

    Opportunity attacks are listed for the steps actually walked (up to a blocked step).
    ``costs`` are the ruleset's movement numbers (SRD by default).

    Raises:
        OffMapError: when the mover does not start wholly on the map.
        InvalidPathError: for a non-finite waypoint.
    """
    result = path_cost(index, mover, waypoints, others, rule, movement_left, costs=costs)
    walked = [(math.floor(mover.x), math.floor(mover.y)), *result.cells]
    attacks = opportunity_attacks(index, mover, walked, others, rule, how)
    return replace(result, opportunity_attacks=attacks)
