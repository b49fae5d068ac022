"""Cheapest paths and reachable areas (rules 5 and 6): Dijkstra and A* over the grid.

The search runs on flat Python lists cut from the numpy grids of a ``MoveContext`` for a window
around the mover, so the inner loop is plain integer arithmetic. Its state is (cell, parity of
diagonals taken) under ``5-10-5`` and the cell alone otherwise; step costs are exactly those of
``MoveContext.step``, so a found path walked with ``movement.walk`` costs what the search said.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from battlemap.geometry.body import Body
from battlemap.geometry.map_index import DIRECTIONS, MapIndex, shift_grid
from battlemap.geometry.metrics import Cell, DiagonalRule
from battlemap.geometry.movement import (
    FULL,
    SRD_COSTS,
    IllegalReason,
    MoveContext,
    MovementCosts,
    MoveResult,
    check_on_map,
    walk,
)


@dataclass(frozen=True)
class _Window:
    x0: int
    y0: int
    w: int
    h: int

    def flat(self, cell: Cell) -> int:
        return (cell[1] - self.y0) * self.w + (cell[0] - self.x0)

    def cell(self, i: int) -> Cell:
        return (self.x0 + i % self.w, self.y0 + i // self.w)

    def contains(self, cell: Cell) -> bool:
        return self.x0 <= cell[0] < self.x0 + self.w and self.y0 <= cell[1] < self.y0 + self.h


class _Graph:
    """Flat per-direction lists for the search, cut to ``window``.

    ``mult[d][i]``: cost multiplier of landing after a step from cell ``i`` in direction ``d``
    (0 when it leaves the window or enters a hostile space it may not pass); ``full[d][i]``:
    the whole space may take that step; ``core[c][d][i]``: core ``c`` may (squeezing);
    ``room[i]``: the whole space fits at ``i``.
    """

    def __init__(self, ctx: MoveContext, window: _Window) -> None:
        self.ctx = ctx
        self.window = window
        ys = slice(window.y0, window.y0 + window.h)
        xs = slice(window.x0, window.x0 + window.w)
        shape = (ctx.index.height, ctx.index.width)
        costs = ctx.costs
        difficult = ctx.difficult
        if costs.creature_space_is_difficult:
            difficult = difficult | ctx.creature_space
        extra_dest = difficult.astype(np.int64) * costs.difficult_extra
        extra_dest += ctx.water.astype(np.int64) * costs.water_extra
        extra_dest += costs.crawl_extra * int(ctx.mover.prone)
        # Landing without room for the whole space means squeezing; without squeezing rules
        # there are no cores and ``lands`` below needs the whole space's step to be free.
        extra_dest += (~ctx.room).astype(np.int64) * (costs.squeeze_extra or 0)
        inside = np.zeros(shape, dtype=bool)
        inside[ys, xs] = True
        squeezes = bool(ctx.core_offsets)
        self.mult: list[list[int]] = []
        self.full: list[list[bool]] = []
        for d, (dx, dy) in enumerate(DIRECTIONS):
            lands = shift_grid(inside, dx, dy) & ~shift_grid(ctx.hostile_block, dx, dy, fill=True)
            if not squeezes:
                lands &= ctx.free[d]
            mult = np.where(lands, 1 + _shift_values(extra_dest, dx, dy), 0)
            self.mult.append(mult[ys, xs].ravel().tolist())
            self.full.append(ctx.free[d][ys, xs].ravel().tolist())
        self.core: list[list[list[bool]]] = [
            [steps[d][ys, xs].ravel().tolist() for d in range(len(DIRECTIONS))]
            for steps in ctx.core_steps
        ]
        self.room = ctx.room[ys, xs].ravel().tolist()
        self.offsets = [dy * window.w + dx for dx, dy in DIRECTIONS]
        self.creature_space = ctx.creature_space[ys, xs].ravel().tolist()

    def can_end(self, i: int) -> bool:
        if not self.creature_space[i] or self.ctx.costs.may_end_in_creature_space:
            return True
        return self.ctx.end_blocker(self.window.cell(i)) is None


def _shift_values(grid: NDArray[np.int64], dx: int, dy: int) -> NDArray[np.int64]:
    """``out[y, x] = grid[y + dy, x + dx]`` (0 off the grid)."""
    h, w = grid.shape
    out = np.zeros_like(grid)
    out[max(0, -dy) : min(h, h - dy), max(0, -dx) : min(w, w - dx)] = grid[
        max(0, dy) : min(h, h + dy), max(0, dx) : min(w, w + dx)
    ]
    return out


def _costs(ctx: MoveContext) -> tuple[float, float, float]:
    """(orthogonal, cheap diagonal, dear diagonal) base costs in feet."""
    feet = ctx.mover.cell_feet
    if ctx.rule is DiagonalRule.FIVE_FIVE_FIVE:
        return feet, feet, feet
    if ctx.rule is DiagonalRule.FIVE_TEN_FIVE:
        return feet, feet, 2 * feet
    return feet, feet * math.sqrt(2), feet * math.sqrt(2)


State = tuple[int, int, int]
"""(flat cell, diagonal parity, core) of the search."""


def _run(
    graph: _Graph,
    start: int,
    start_cores: frozenset[int],
    budget: float,
    goal: int | None,
    target: Cell | None,
) -> tuple[dict[State, float], dict[State, State], State | None]:
    """Dijkstra (or A* towards ``goal``) over (cell, parity, core) states within ``budget``."""
    ortho, cheap, dear = _costs(graph.ctx)
    five_ten = graph.ctx.rule is DiagonalRule.FIVE_TEN_FIVE
    mult, full, core_ok, room = graph.mult, graph.full, graph.core, graph.room
    all_cores = range(len(core_ok))
    offsets = graph.offsets
    diagonal = [dx != 0 and dy != 0 for dx, dy in DIRECTIONS]
    width = graph.window.w
    gx = gy = 0
    if target is not None:
        gx, gy = target[0] - graph.window.x0, target[1] - graph.window.y0
    diag_h = cheap if not five_ten else 1.5 * ortho
    best: dict[State, float] = {}
    parent: dict[State, State] = {}
    heap: list[tuple[float, float, int, int, int]] = []
    for core in start_cores:
        best[(start, 0, core)] = 0.0
        heap.append((0.0, 0.0, start, 0, core))
    found: State | None = None
    while heap:
        _, cost, i, parity, core = heapq.heappop(heap)
        state = (i, parity, core)
        if cost > best.get(state, math.inf):
            continue
        if goal is not None and i == goal:
            found = state
            break
        for d in range(8):
            m = mult[d][i]
            if not m:
                continue
            if diagonal[d]:
                if five_ten:
                    base, new_parity = (dear, 0) if parity else (cheap, 1)
                else:
                    base, new_parity = cheap, parity
            else:
                base, new_parity = ortho, parity
            new_cost = cost + base * m
            if new_cost > budget + 1e-9:
                continue
            j = i + offsets[d]
            if full[d][i]:
                landed: tuple[int, ...] = (FULL,)
            elif core == FULL:
                landed = tuple(FULL if room[j] else c for c in all_cores if core_ok[c][d][i])
            elif core_ok[core][d][i]:
                landed = (FULL if room[j] else core,)
            else:
                continue
            for new_core in landed:
                key = (j, new_parity, new_core)
                if new_cost < best.get(key, math.inf) - 1e-12:
                    best[key] = new_cost
                    parent[key] = state
                    if goal is None:
                        priority = new_cost
                    else:
                        ddx = abs(j % width - gx)
                        ddy = abs(j // width - gy)
                        lo, hi = (ddx, ddy) if ddx < ddy else (ddy, ddx)
                        priority = new_cost + (hi - lo) * ortho + lo * diag_h
                    heapq.heappush(heap, (priority, new_cost, j, new_parity, new_core))
    return best, parent, found


def _unwind(parent: dict[State, State], state: State, window: _Window) -> list[Cell]:
    cells = [window.cell(state[0])]
    while state in parent:
        state = parent[state]
        cells.append(window.cell(state[0]))
    cells.reverse()
    return cells


@dataclass(frozen=True)
class ReachableArea:
    """Every cell (top-left of the mover's space) the mover can end its move in.

    ``cost_feet[cell]`` is the cheapest cost; ``passable`` also lists cells it can cross but not
    end in (another creature's space, unless ``MovementCosts.may_end_in_creature_space``).
    """

    cost_feet: dict[Cell, float]
    passable: frozenset[Cell]
    _parents: dict[State, State]
    _states: dict[Cell, State]
    _window: _Window

    @property
    def cells(self) -> frozenset[Cell]:
        return frozenset(self.cost_feet)

    def path_to(self, cell: Cell) -> list[Cell]:
        """The cheapest single-step path from the start to ``cell`` (first = start).

        Raises:
            KeyError: when ``cell`` is not reachable.
        """
        return _unwind(self._parents, self._states[cell], self._window)


def _window_for(ctx: MoveContext, radius_cells: int) -> _Window:
    sx, sy = ctx.start_cell()
    x0 = max(0, sx - radius_cells)
    y0 = max(0, sy - radius_cells)
    x1 = min(ctx.index.width, sx + ctx.k + radius_cells)
    y1 = min(ctx.index.height, sy + ctx.k + radius_cells)
    return _Window(x0, y0, x1 - x0, y1 - y0)


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
    ctx = MoveContext(index, mover, others, rule, costs=costs)
    check_on_map(ctx)
    radius = max(0, int(movement_left // mover.cell_feet) + 1)
    window = _window_for(ctx, radius)
    graph = _Graph(ctx, window)
    start = window.flat(ctx.start_cell())
    best, parent, _ = _run(
        graph, start, ctx.start_cores(ctx.start_cell()), movement_left, None, None
    )
    cell_costs: dict[Cell, float] = {}
    states: dict[Cell, State] = {}
    passable: set[Cell] = set()
    for (i, parity, core), cost in best.items():
        cell = window.cell(i)
        passable.add(cell)
        cheaper = cell not in cell_costs or cost < cell_costs[cell]
        if cheaper and (i == start or graph.can_end(i)):
            cell_costs[cell] = cost
            states[cell] = (i, parity, core)
    return ReachableArea(cell_costs, frozenset(passable), parent, states, window)


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
    ctx = MoveContext(index, mover, others, rule, costs=costs)
    check_on_map(ctx)
    start_cell = ctx.start_cell()
    window = _Window(0, 0, index.width, index.height)
    if not window.contains(destination) or not index.on_map(
        destination[0], destination[1], ctx.k, ctx.k
    ):
        return MoveResult(0.0, movement_left, False, IllegalReason.OFF_MAP)
    if destination == start_cell:
        return walk(ctx, [start_cell], movement_left)
    ender = None if costs.may_end_in_creature_space else ctx.end_blocker(destination)
    if ender is not None:
        return MoveResult(0.0, movement_left, False, IllegalReason.ENDS_IN_CREATURE, ender.id)
    graph = _Graph(ctx, window)
    goal = window.flat(destination)
    _, parent, found = _run(
        graph,
        window.flat(start_cell),
        ctx.start_cores(start_cell),
        math.inf,
        goal,
        destination,
    )
    if found is None:
        return MoveResult(0.0, movement_left, False, IllegalReason.NO_PATH)
    return walk(ctx, _unwind(parent, found, window), movement_left)
