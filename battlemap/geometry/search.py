"""Cheapest paths and reachable areas (rules 5 and 6).

Under ``5-5-5`` and ``5-10-5`` the search is tcod's compiled pathfinder over the layered graph
of ``search_graph`` (Dijkstra for the reachable area, A* for a path); under the Euclidean rule,
whose diagonal costs sqrt(2) cells, it is the exact Python search of ``search_euclidean``.
Either way the step costs are exactly ``MoveContext.step``'s, so a found path walked with
``movement.walk`` costs what the search said.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from battlemap.geometry.body import Body
from battlemap.geometry.map_index import MapIndex
from battlemap.geometry.metrics import Cell, DiagonalRule
from battlemap.geometry.movement import (
    SRD_COSTS,
    IllegalReason,
    MoveContext,
    MovementCosts,
    MoveResult,
    check_body_on_map,
    footprint_cells,
    walk,
)
from battlemap.geometry.search_euclidean import euclidean_path, euclidean_reach
from battlemap.geometry.search_graph import LayeredGraph, Window, whole_map


@dataclass(frozen=True)
class ReachableArea:
    """Every cell (top-left of the mover's space) the mover can end its move in.

    ``cost_feet[cell]`` is the cheapest cost; ``passable`` also lists cells it can cross but not
    end in (another creature's space, unless ``MovementCosts.may_end_in_creature_space``).
    """

    cost_feet: dict[Cell, float]
    passable: frozenset[Cell]
    _route: Callable[[Cell], list[Cell]]

    @property
    def cells(self) -> frozenset[Cell]:
        return frozenset(self.cost_feet)

    def path_to(self, cell: Cell) -> list[Cell]:
        """The cheapest single-step path from the start to ``cell`` (first = start).

        Raises:
            KeyError: when ``cell`` is not reachable.
        """
        if cell not in self.cost_feet:
            raise KeyError(cell)
        return self._route(cell)


def _reach_window(index: MapIndex, mover: Body, radius_cells: int) -> Window:
    """The top-left cells within ``radius_cells`` steps of the mover's, on the map."""
    sx, sy = math.floor(mover.x), math.floor(mover.y)
    k = footprint_cells(mover)
    x0, y0 = max(0, sx - radius_cells), max(0, sy - radius_cells)
    x1 = min(index.width, sx + k + radius_cells)
    y1 = min(index.height, sy + k + radius_cells)
    return Window(x0, y0, x1 - x0, y1 - y0)


def reachable_area(
    index: MapIndex,
    mover: Body,
    others: Sequence[Body],
    rule: DiagonalRule,
    movement_left: float,
    *,
    costs: MovementCosts = SRD_COSTS,
) -> ReachableArea:
    """Every cell ``mover`` can reach and end in with ``movement_left`` feet (rule 6).

    The start cell is included at cost 0. ``costs`` are the ruleset's movement numbers.

    Raises:
        OffMapError: when the mover does not start wholly on the map.
    """
    check_body_on_map(index, mover)
    radius = max(0, int(movement_left // mover.cell_feet) + 1)
    window = _reach_window(index, mover, radius)
    near = (window.x0, window.y0, window.x0 + window.w - 1, window.y0 + window.h - 1)
    ctx = MoveContext(index, mover, others, rule, near=near, costs=costs)
    if rule is DiagonalRule.EUCLIDEAN:
        costs_by_cell, route = euclidean_reach(ctx, window, movement_left)
        cells, feet = list(costs_by_cell), list(costs_by_cell.values())
    else:
        cells, feet, route = _compiled_reach(ctx, window, movement_left)
    start = ctx.start_cell()
    may_end = costs.may_end_in_creature_space
    xs, ys = (list(axis) for axis in zip(*cells, strict=True)) if cells else ([], [])
    occupied = ctx.creature_space[ys, xs].tolist()
    ends = {
        cell: cost
        for cell, cost, taken in zip(cells, feet, occupied, strict=True)
        if not taken or may_end or cell == start or ctx.end_blocker(cell) is None
    }
    return ReachableArea(ends, frozenset(cells), route)


def _compiled_reach(
    ctx: MoveContext, window: Window, budget: float
) -> tuple[list[Cell], list[float], Callable[[Cell], list[Cell]]]:
    """The cells reached within ``budget`` feet and their cheapest costs (in any state), by
    tcod's Dijkstra over the window's layered graph; and the route to a reached cell."""
    graph = LayeredGraph(ctx, window)
    finder = graph.pathfinder(ctx.start_cell(), ctx.start_cores(ctx.start_cell()))
    finder.resolve()
    distance = finder.distance
    units = distance.min(axis=0)
    budget_units = math.floor(budget / graph.unit_feet + 1e-9)
    ys, xs = np.nonzero(units <= budget_units)
    feet = (units[ys, xs] * graph.unit_feet).tolist()
    cells = list(zip((xs + window.x0).tolist(), (ys + window.y0).tolist(), strict=True))

    def route(cell: Cell) -> list[Cell]:
        y, x = cell[1] - window.y0, cell[0] - window.x0
        node = (int(distance[:, y, x].argmin()), y, x)
        return [graph.cell(step) for step in finder.path_to(node)]

    return cells, feet, route


def cheapest_path(
    index: MapIndex,
    mover: Body,
    destination: Cell,
    others: Sequence[Body],
    rule: DiagonalRule,
    movement_left: float = math.inf,
    *,
    costs: MovementCosts = SRD_COSTS,
) -> MoveResult:
    """The cheapest legal move of ``mover`` to ``destination`` (top-left cell), by A*.

    The result is the found path walked with ``path_cost``'s rules, so its cost and steps are
    exact. When the destination cannot be ended in (another creature's space, unless
    ``costs.may_end_in_creature_space``), or no path exists, the result is illegal
    with ``ENDS_IN_CREATURE`` or ``NO_PATH`` and no steps. ``movement_left`` only sets
    ``remaining_feet`` and legality; the search itself is not limited by it. ``costs`` are
    the ruleset's movement numbers.

    Raises:
        OffMapError: when the mover does not start wholly on the map.
    """
    check_body_on_map(index, mover)
    ctx = MoveContext(index, mover, others, rule, costs=costs)
    start_cell = ctx.start_cell()
    window = whole_map(ctx)
    if not window.contains(destination) or not index.on_map(
        destination[0], destination[1], ctx.k, ctx.k
    ):
        return MoveResult(0.0, movement_left, False, IllegalReason.OFF_MAP)
    if destination == start_cell:
        return walk(ctx, [start_cell], movement_left)
    ender = None if costs.may_end_in_creature_space else ctx.end_blocker(destination)
    if ender is not None:
        return MoveResult(0.0, movement_left, False, IllegalReason.ENDS_IN_CREATURE, ender.id)
    if rule is DiagonalRule.EUCLIDEAN:
        cells = euclidean_path(ctx, window, destination)
    else:
        graph = LayeredGraph(ctx, window)
        finder = graph.pathfinder(start_cell, ctx.start_cores(start_cell))
        cells = graph.cheapest_arrival(finder, destination)
    if cells is None:
        return MoveResult(0.0, movement_left, False, IllegalReason.NO_PATH)
    return walk(ctx, cells, movement_left)
