"""Cheapest paths and reachable areas (rules 5 and 6).

Under ``5-5-5`` and ``5-10-5`` the search is tcod's compiled pathfinder over the layered graph
of ``search_graph`` (Dijkstra for the reachable area, A* for a path); under the Euclidean rule,
whose diagonal costs sqrt(2) cells, it is the exact Python search of ``search_euclidean``.
Either way the step costs are exactly ``MoveContext.step``'s, so a found path walked with
``movement.walk`` costs what the search said.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
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
from battlemap.geometry.search_graph import Window, searching


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
    ctx = MoveContext(index, mover, others, rule, near=_cells_of(window), costs=costs)
    if rule is DiagonalRule.EUCLIDEAN:
        costs_by_cell, route = euclidean_reach(ctx, window, movement_left)
        cells, feet = list(costs_by_cell), list(costs_by_cell.values())
    else:
        cells, feet, route = _compiled_reach(ctx, window, movement_left)
    ends = dict(zip(cells, feet, strict=True))
    if not costs.may_end_in_creature_space:
        start = ctx.start_cell()
        in_window = ctx.creature_grids_in(window.x0, window.y0, window.w, window.h)[0]
        ys, xs = np.nonzero(in_window)
        for cell in zip((xs + window.x0).tolist(), (ys + window.y0).tolist(), strict=True):
            # A space over another's squares may still miss the creature (Tiny ones).
            if cell in ends and cell != start and ctx.end_blocker(cell) is not None:
                del ends[cell]
    return ReachableArea(ends, frozenset(cells), route)


def _compiled_reach(
    ctx: MoveContext, window: Window, budget: float
) -> tuple[list[Cell], list[float], Callable[[Cell], list[Cell]]]:
    """The cells reached within ``budget`` feet and their cheapest costs (in any state), by
    tcod's Dijkstra over the window's layered graph; and the route to a reached cell."""
    with searching(ctx, window) as graph:
        budget_units = math.floor(budget / graph.unit_feet + 1e-9)
        finder = graph.pathfinder(
            ctx.start_cell(), ctx.start_cores(ctx.start_cell()), beyond=budget_units + 1
        )
        finder.resolve()
    distance = finder.distance
    units = distance.min(axis=0)
    ys, xs = np.nonzero(units <= budget_units)
    feet = (units[ys, xs] * graph.unit_feet).tolist()
    cells = list(zip((xs + window.x0).tolist(), (ys + window.y0).tolist(), strict=True))

    def route(cell: Cell) -> list[Cell]:
        y, x = cell[1] - window.y0, cell[0] - window.x0
        node = (int(distance[:, y, x].argmin()), y, x)
        return graph.cells(finder.path_to(node))  # resolved: reads tcod's arrays only

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

    The search covers a window around the start and the destination first and widens it
    until the path found is cheaper than any that could leave it (or the window is the map).

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
    k = footprint_cells(mover)
    x, y = destination
    if not (0 <= x < index.width and 0 <= y < index.height) or not index.on_map(x, y, k, k):
        return MoveResult(0.0, movement_left, False, IllegalReason.OFF_MAP)
    for window, margin in _path_windows(index, mover, destination, rule):
        whole = window == Window(0, 0, index.width, index.height)
        near = None if whole else _cells_of(window)
        ctx = MoveContext(index, mover, others, rule, near=near, costs=costs)
        start_cell = ctx.start_cell()
        if destination == start_cell:
            return walk(ctx, [start_cell], movement_left)
        ender = None if costs.may_end_in_creature_space else ctx.end_blocker(destination)
        if ender is not None:
            return MoveResult(0.0, movement_left, False, IllegalReason.ENDS_IN_CREATURE, ender.id)
        if rule is DiagonalRule.EUCLIDEAN:
            cells = euclidean_path(ctx, window, destination)
            break
        with searching(ctx, window) as graph:
            finder = graph.pathfinder(start_cell, ctx.start_cores(start_cell))
            found = graph.cheapest_arrival(finder, destination)
        # A path that leaves the window goes at least margin + 1 steps out and as many back.
        if whole or (found is not None and found[1] <= 2 * (margin + 1) * graph.min_step_units):
            cells = None if found is None else found[0]
            break
    if cells is None:
        return MoveResult(0.0, movement_left, False, IllegalReason.NO_PATH)
    return walk(ctx, cells, movement_left)


MIN_PATH_MARGIN = 8
"""Cells a path search looks beyond the box of its start and destination at first."""


def _path_windows(
    index: MapIndex, mover: Body, destination: Cell, rule: DiagonalRule
) -> Iterator[tuple[Window, int]]:
    """Windows around the start and ``destination`` with their margins, growing (the margin
    doubles) up to the whole map; the Euclidean search gets the whole map at once."""
    sx, sy = math.floor(mover.x), math.floor(mover.y)
    k = footprint_cells(mover)
    margin = max(MIN_PATH_MARGIN, abs(destination[0] - sx), abs(destination[1] - sy))
    if rule is DiagonalRule.EUCLIDEAN:
        margin = max(index.width, index.height)
    while True:
        x0 = max(0, min(sx, destination[0]) - margin)
        y0 = max(0, min(sy, destination[1]) - margin)
        x1 = min(index.width, max(sx, destination[0]) + k + margin)
        y1 = min(index.height, max(sy, destination[1]) + k + margin)
        yield Window(x0, y0, x1 - x0, y1 - y0), margin
        margin *= 2


def _cells_of(window: Window) -> tuple[int, int, int, int]:
    """``window`` as ``MoveContext``'s inclusive ``near`` range."""
    return (window.x0, window.y0, window.x0 + window.w - 1, window.y0 + window.h - 1)
