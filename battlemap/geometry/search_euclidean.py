"""The search under the Euclidean diagonal rule, in Python: a diagonal costs sqrt(2) cells,
which no whole number of units adds up to, so tcod's integer search (``search_graph``) can't
reproduce its float sums exactly. This one adds the same floats in the same order as
``movement.walk``, so a found path costs exactly what the search said.

It runs on flat Python lists cut from the ``MoveContext``'s numpy grids for the window; its
state is (flat cell, core) (no diagonal parity under this rule).
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

from battlemap.geometry.map_index import DIRECTIONS, shift_grid
from battlemap.geometry.metrics import Cell
from battlemap.geometry.movement import FULL, MoveContext
from battlemap.geometry.search_graph import Window

State = tuple[int, int]
"""(flat cell, core) of the search."""


class _Graph:
    """Flat per-direction lists for the search, cut to ``window``.

    ``mult[d][i]``: cost multiplier of landing after a step from cell ``i`` in direction ``d``
    (0 when it leaves the window or enters a hostile space it may not pass); ``full[d][i]``:
    the whole space may take that step; ``core[c][d][i]``: core ``c`` may (squeezing);
    ``room[i]``: the whole space fits at ``i``.
    """

    def __init__(self, ctx: MoveContext, window: Window) -> None:
        self.ctx = ctx
        self.window = window
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
        window.cut(inside)[:, :] = True
        squeezes = bool(ctx.core_offsets)
        self.mult: list[list[int]] = []
        self.full: list[list[bool]] = []
        for d, (dx, dy) in enumerate(DIRECTIONS):
            lands = shift_grid(inside, dx, dy) & ~shift_grid(ctx.hostile_block, dx, dy, fill=True)
            if not squeezes:
                lands &= ctx.free[d]
            mult = np.where(lands, 1 + _shift_values(extra_dest, dx, dy), 0)
            self.mult.append(window.cut(mult).ravel().tolist())
            self.full.append(window.cut(ctx.free[d]).ravel().tolist())
        self.core: list[list[list[bool]]] = [
            [window.cut(steps[d]).ravel().tolist() for d in range(len(DIRECTIONS))]
            for steps in ctx.core_steps
        ]
        self.room = window.cut(ctx.room).ravel().tolist()
        self.offsets = [dy * window.w + dx for dx, dy in DIRECTIONS]

    def flat(self, cell: Cell) -> int:
        return (cell[1] - self.window.y0) * self.window.w + (cell[0] - self.window.x0)

    def cell(self, i: int) -> Cell:
        return (self.window.x0 + i % self.window.w, self.window.y0 + i // self.window.w)


def _shift_values(grid: NDArray[np.int64], dx: int, dy: int) -> NDArray[np.int64]:
    """``out[y, x] = grid[y + dy, x + dx]`` (0 off the grid)."""
    h, w = grid.shape
    out = np.zeros_like(grid)
    out[max(0, -dy) : min(h, h - dy), max(0, -dx) : min(w, w - dx)] = grid[
        max(0, dy) : min(h, h + dy), max(0, dx) : min(w, w + dx)
    ]
    return out


def _run(
    graph: _Graph, start: Cell, budget: float, target: Cell | None
) -> tuple[dict[State, float], dict[State, State], State | None]:
    """Dijkstra (or A* towards ``target``) over (cell, core) states within ``budget``."""
    ortho = graph.ctx.mover.cell_feet
    diag = ortho * math.sqrt(2)
    mult, full, core_ok, room = graph.mult, graph.full, graph.core, graph.room
    all_cores = range(len(core_ok))
    offsets = graph.offsets
    base = [diag if dx and dy else ortho for dx, dy in DIRECTIONS]
    width = graph.window.w
    goal = gx = gy = None
    if target is not None:
        goal = graph.flat(target)
        gx, gy = target[0] - graph.window.x0, target[1] - graph.window.y0
    best: dict[State, float] = {}
    parent: dict[State, State] = {}
    heap: list[tuple[float, float, int, int]] = []
    for core in graph.ctx.start_cores(start):
        best[(graph.flat(start), core)] = 0.0
        heap.append((0.0, 0.0, graph.flat(start), core))
    found: State | None = None
    while heap:
        _, cost, i, core = heapq.heappop(heap)
        state = (i, core)
        if cost > best.get(state, math.inf):
            continue
        if i == goal:
            found = state
            break
        for d in range(8):
            m = mult[d][i]
            if not m:
                continue
            new_cost = cost + base[d] * m
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
                key = (j, new_core)
                if new_cost < best.get(key, math.inf) - 1e-12:
                    best[key] = new_cost
                    parent[key] = state
                    priority = new_cost
                    if gx is not None and gy is not None:
                        ddx = abs(j % width - gx)
                        ddy = abs(j // width - gy)
                        lo, hi = (ddx, ddy) if ddx < ddy else (ddy, ddx)
                        priority += (hi - lo) * ortho + lo * diag
                    heapq.heappush(heap, (priority, new_cost, j, new_core))
    return best, parent, found


def _unwind(graph: _Graph, parent: dict[State, State], state: State) -> list[Cell]:
    cells = [graph.cell(state[0])]
    while state in parent:
        state = parent[state]
        cells.append(graph.cell(state[0]))
    cells.reverse()
    return cells


def euclidean_reach(
    ctx: MoveContext, window: Window, budget: float
) -> tuple[dict[Cell, float], Callable[[Cell], list[Cell]]]:
    """Per cell reached within ``budget`` feet, the cheapest cost of any state there; and the
    route to a reached cell: its single-step cells, first = start."""
    graph = _Graph(ctx, window)
    best, parent, _ = _run(graph, ctx.start_cell(), budget, None)
    cheapest: dict[Cell, tuple[float, State]] = {}
    for state, cost in best.items():
        cell = graph.cell(state[0])
        if cell not in cheapest or cost < cheapest[cell][0]:
            cheapest[cell] = (cost, state)

    def route(cell: Cell) -> list[Cell]:
        return _unwind(graph, parent, cheapest[cell][1])

    return {cell: cost for cell, (cost, _) in cheapest.items()}, route


def euclidean_path(ctx: MoveContext, window: Window, destination: Cell) -> list[Cell] | None:
    """The single-step cells of the cheapest path to ``destination`` (first = start)."""
    graph = _Graph(ctx, window)
    _, parent, found = _run(graph, ctx.start_cell(), math.inf, destination)
    return None if found is None else _unwind(graph, parent, found)
