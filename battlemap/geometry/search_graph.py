"""The compiled search behind cheapest paths and reachable areas: tcod's pathfinder (C) over a
layered grid graph built from a ``MoveContext`` (README, "Why tcod").

A node is ``(layer, y, x)`` in a window of the map; its layer is a search state: the diagonal
parity under ``5-10-5`` (0: the next diagonal is cheap) times the squeeze state (0: the whole
space carries the mover, ``1 + c``: squeeze core ``c`` does, see ``MoveContext.next_cores``).
Every edge is one grid step, with exactly ``MoveContext.step``'s rules:

* walls, the map's edge and landing without room are missing edges; a hostile space the mover
  may not pass is a node no edge enters;
* an edge costs its base (1 cell's feet; a dear 5-10-5 diagonal 2) times the multiplier of the
  node entered (1 + difficult terrain or a creature's space + water + crawling + squeezing).

Costs are whole numbers of *search units*: one unit is a cell's feet under ``5-5-5`` and half a
cell's feet under ``5-10-5``, so every path costs an even number of units there. The A* towards
a destination counts 2 units per straight step and 3 per diagonal: that overestimates the
cheapest rest of a path by at most one unit (an odd number of diagonals from parity 0), so the
path found costs at most one unit more than the cheapest, and, both being even, exactly as
much. Under ``5-5-5`` the estimate (1 per step) never overestimates.

tcod reads a rule's cost array at the node an edge enters, so the per-direction step masks
(which are indexed by the cell a step leaves) are shifted onto the cell it enters.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

import numpy as np
from numpy.lib.stride_tricks import as_strided
from numpy.typing import NDArray

from battlemap.geometry.map_index import DIRECTIONS, BoolGrid, shift_grid
from battlemap.geometry.metrics import Cell, DiagonalRule
from battlemap.geometry.movement import FULL, MoveContext

if TYPE_CHECKING:
    import tcod.path

G = TypeVar("G", bound=np.generic)

Node = tuple[int, int, int]
"""(layer, y, x) of the tcod grid: y and x inside the window."""


@dataclass(frozen=True)
class Window:
    """The part of the map a search covers: top-left (x0, y0), w x h cells."""

    x0: int
    y0: int
    w: int
    h: int

    def contains(self, cell: Cell) -> bool:
        return self.x0 <= cell[0] < self.x0 + self.w and self.y0 <= cell[1] < self.y0 + self.h

    def cut(self, grid: NDArray[G]) -> NDArray[G]:
        return grid[self.y0 : self.y0 + self.h, self.x0 : self.x0 + self.w]

    def cut_shifted(self, grid: BoolGrid, dx: int, dy: int) -> BoolGrid:
        """``out[y, x] = grid[y0 + y - dy, x0 + x - dx]`` (False off ``grid``): the window of
        ``grid`` moved by (dx, dy), without shifting all of ``grid``."""
        out = np.zeros((self.h, self.w), dtype=bool)
        height, width = grid.shape
        ys0, xs0 = max(0, self.y0 - dy), max(0, self.x0 - dx)
        ys1 = min(height, self.y0 + self.h - dy)
        xs1 = min(width, self.x0 + self.w - dx)
        if ys0 < ys1 and xs0 < xs1:
            oy, ox = ys0 - (self.y0 - dy), xs0 - (self.x0 - dx)
            out[oy : oy + ys1 - ys0, ox : ox + xs1 - xs0] = grid[ys0:ys1, xs0:xs1]
        return out


def load_path_search() -> None:
    """Import tcod now. Its import takes a few tenths of a second (the whole package and
    cffi's C parser), so nothing imports it before a search needs it or this is called
    (when the app is idle, say)."""
    import tcod.path  # noqa: F401


class LayeredGraph:
    """The tcod graph of ``ctx``'s moves inside ``window``."""

    def __init__(self, ctx: MoveContext, window: Window) -> None:
        self.ctx = ctx
        self.window = window
        self.five_ten = ctx.rule is DiagonalRule.FIVE_TEN_FIVE
        self.parities = 2 if self.five_ten else 1
        self.states = 1 + len(ctx.core_offsets)
        self.layers = self.parities * self.states
        self.unit_feet = ctx.mover.cell_feet / (2 if self.five_ten else 1)
        """Feet per search unit."""
        self.min_step_units = 2 if self.five_ten else 1
        """The least any step costs."""
        import tcod.path  # here, not at start-up: see load_path_search

        shape = (self.layers, window.h, window.w)
        self.graph = tcod.path.CustomGraph(shape)
        self._keep: list[NDArray[np.generic]] = []  # tcod holds raw pointers into these
        self.rules: list[tuple[NDArray[np.integer], list[tuple[Node, int]]]] = []
        """Every rule given to tcod: its cost array (read at the node entered) and its edges
        ((dz, dy, dx), base units); for benchmarks that run other searches on this graph."""
        mult = self._multipliers()
        if self.states == 1:
            self._add_plain_steps(mult, shape)
        else:
            self._add_squeezing_steps(mult, shape)
        if self.five_ten:
            self.graph.set_heuristic(cardinal=2, diagonal=3)
        else:
            self.graph.set_heuristic(cardinal=1, diagonal=1)

    def layer(self, parity: int, core: int) -> int:
        return parity * self.states + (0 if core == FULL else core + 1)

    def node(self, layer: int, cell: Cell) -> Node:
        return (layer, cell[1] - self.window.y0, cell[0] - self.window.x0)

    def cell(self, node: NDArray[np.intc] | Node) -> Cell:
        return (int(node[2]) + self.window.x0, int(node[1]) + self.window.y0)

    # -- building ---------------------------------------------------------------------------

    def _multipliers(self) -> NDArray[np.integer]:
        """Per node entered (window cell): 1 + the extra base costs of landing there; 0 in a
        space the mover may not pass."""
        ctx, costs, cut = self.ctx, self.ctx.costs, self.window.cut
        difficult = cut(ctx.difficult)
        if costs.creature_space_is_difficult:
            difficult = difficult | cut(ctx.creature_space)
        extra = difficult.astype(np.int32) * costs.difficult_extra
        extra += cut(ctx.water).astype(np.int32) * costs.water_extra
        extra += costs.crawl_extra * int(ctx.mover.prone)
        # Landing without room for the whole space means squeezing (without squeezing
        # rules such a step has no edge at all).
        extra += (~cut(ctx.room)).astype(np.int32) * (costs.squeeze_extra or 0)
        mult = np.where(cut(ctx.hostile_block), 0, 1 + extra)
        # The smallest type that holds them: tcod reads less memory per edge.
        largest = int(mult.max(initial=0))
        dtype = np.int8 if largest <= 127 else np.int16 if largest <= 32_767 else np.int32
        return np.ascontiguousarray(mult, dtype=dtype)

    def _into(self, from_mask: BoolGrid, d: int) -> NDArray[np.bool_]:
        """``from_mask`` (indexed by the cell a step in direction ``d`` leaves) indexed by the
        window cell it enters."""
        dx, dy = DIRECTIONS[d]
        return self.window.cut_shifted(from_mask, dx, dy)

    def _base_units(self, d: int, parity: int) -> tuple[int, int]:
        """(base cost in units, parity after) of a step in direction ``d`` from ``parity``."""
        dx, dy = DIRECTIONS[d]
        if not self.five_ten:
            return 1, parity
        if dx == 0 or dy == 0:
            return 2, parity
        return (4, 0) if parity else (2, 1)

    def _add_rule(self, cost: NDArray[np.integer], edges: list[tuple[Node, int]]) -> None:
        self._keep.append(cost)
        self.rules.append((cost, edges))
        for edge_dir, units in edges:
            self.graph.add_edge(edge_dir, units, cost=cost)

    def _add_plain_steps(self, mult: NDArray[np.integer], shape: tuple[int, ...]) -> None:
        """The whole space steps (no squeeze cores): one rule per direction, the same plane
        of costs for every parity layer (a view, not a copy). A 5-10-5 diagonal leaves parity
        0 for 1 (cheap) and 1 for 0 (dear); the other edge runs off the layers."""
        free, into = self.ctx.free, self._into
        for d, (dx, dy) in enumerate(DIRECTIONS):
            plane = mult * into(free[d], d)
            cost = as_strided(plane, shape, (0, *plane.strides), writeable=False)
            edges = {
                ((after - parity, dy, dx), units)
                for parity in range(self.parities)
                for units, after in [self._base_units(d, parity)]
            }
            self._keep.append(plane)
            self._add_rule(cost, list(edges))

    def _add_squeezing_steps(self, mult: NDArray[np.integer], shape: tuple[int, ...]) -> None:
        """Steps of a mover that may squeeze: the whole space or one core carries it
        (``MoveContext.next_cores``). One rule per direction and change of squeeze state."""
        ctx = self.ctx
        cores = range(len(ctx.core_offsets))
        for d, (dx, dy) in enumerate(DIRECTIONS):
            whole = ctx.free[d]
            room_after = shift_grid(ctx.room, dx, dy)
            core_moves = [ctx.core_steps[c][d] for c in cores]
            stays = [~whole & core_moves[c] & ~room_after for c in cores]
            unsqueezes = [whole | (core_moves[c] & room_after) for c in cores]
            any_core_lands = np.zeros_like(whole)
            for c in cores:
                any_core_lands |= core_moves[c] & room_after
            # (state before, state after) -> the cells such a step may leave.
            moves: dict[tuple[int, int], BoolGrid] = {(0, 0): whole | any_core_lands}
            for c in cores:
                moves[(0, c + 1)] = stays[c]  # the whole space squeezes into core c
                moves[(c + 1, 0)] = unsqueezes[c]
                moves[(c + 1, c + 1)] = stays[c]
            by_change: dict[int, list[tuple[int, BoolGrid]]] = {}
            for (before, after), mask in moves.items():
                if mask.any():
                    by_change.setdefault(after - before, []).append((after, mask))
            for change, group in by_change.items():
                cost = np.zeros(shape, dtype=mult.dtype)
                edges = set()
                for after, mask in group:
                    plane = mult * self._into(mask, d)
                    for parity in range(self.parities):
                        units, parity_after = self._base_units(d, parity)
                        cost[parity_after * self.states + after] = plane
                        dz = (parity_after - parity) * self.states + change
                        edges.add(((dz, dy, dx), units))
                self._add_rule(cost, sorted(edges))

    # -- searching --------------------------------------------------------------------------

    def pathfinder(self, start: Cell, start_cores: frozenset[int]) -> tcod.path.Pathfinder:
        """A pathfinder rooted at ``start`` in each of ``start_cores`` (parity 0)."""
        import tcod.path

        finder = tcod.path.Pathfinder(self.graph)
        for core in sorted(start_cores):
            finder.add_root(self.node(self.layer(0, core), start))
        return finder

    def cheapest_arrival(
        self, finder: tcod.path.Pathfinder, goal: Cell
    ) -> tuple[list[Cell], int] | None:
        """The cells of the cheapest path to ``goal`` (first = start) in any state and its cost
        in units, or None.

        A* runs until each state the mover can be in at ``goal`` is settled (the whole space
        where it fits, else the cores that fit); the cheapest of them is the answer (within
        one unit each, so exact: see the module's docstring)."""
        x, y = goal
        ctx = self.ctx
        if ctx.room[y, x]:
            states = [0]
        else:
            states = [c + 1 for c, room in enumerate(ctx.core_room) if room[y, x]]
        nodes = [self.node(p * self.states + s, goal) for p in range(self.parities) for s in states]
        for node in nodes:
            finder.resolve(node)
        unreached = np.iinfo(finder.distance.dtype).max
        reached = [node for node in nodes if finder.distance[node] < unreached]
        if not reached:
            return None
        best = min(reached, key=lambda node: int(finder.distance[node]))
        return [self.cell(step) for step in finder.path_to(best)], int(finder.distance[best])
