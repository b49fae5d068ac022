"""The compiled search behind cheapest paths and reachable areas: tcod's pathfinder (C) over a
layered grid graph built from a ``MoveContext`` (README, "Why tcod").

A node is ``(layer, y, x)`` in a window of the map; its layer is a search state: the diagonal
parity under ``5-10-5`` (0: the next diagonal is cheap) times the squeeze state (0: the whole
space carries the mover, ``1 + c``: squeeze core ``c`` does, see ``MoveContext.next_cores``).
Every edge is one grid step, with exactly ``MoveContext.step``'s rules:

* walls, the map's edge and landing without room are missing edges (a tcod *condition*, read
  at the node a step leaves); a hostile space the mover may not pass is a node no edge enters;
* an edge costs its base (1 cell's feet; a dear 5-10-5 diagonal 2) times the multiplier of the
  node entered (1 + difficult terrain or a creature's space + water + crawling + squeezing).

Costs are whole numbers of *search units*: one unit is a cell's feet under ``5-5-5`` and half a
cell's feet under ``5-10-5``, so every path costs an even number of units there. The A* towards
a destination counts 2 units per straight step and 3 per diagonal: that overestimates the
cheapest rest of a path by at most one unit (an odd number of diagonals from parity 0), so the
path found costs at most one unit more than the cheapest, and, both being even, exactly as
much. Under ``5-5-5`` the estimate (1 per step) never overestimates.

What a search needs from the map alone (the step conditions and the terrain multipliers) is
kept per map index and mover kind (``search_planes``), and tcod's graph per window shape: a
query copies its window of those into the graph's arrays (nothing when the window is where the
last query had it, as along one drag) and writes the creatures' spaces over the multipliers.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

import numpy as np
from numpy.lib.stride_tricks import as_strided
from numpy.typing import NDArray

from battlemap.geometry.map_index import DIRECTIONS, BoolGrid, MapIndex, shift_grid
from battlemap.geometry.metrics import Cell, DiagonalRule
from battlemap.geometry.movement import FULL, MoveContext, MovementCosts

if TYPE_CHECKING:
    import tcod.path

G = TypeVar("G", bound=np.generic)

Node = tuple[int, int, int]
"""(layer, y, x) of the tcod grid: y and x inside the window."""

Edge = tuple[tuple[int, int, int], int]
"""((dz, dy, dx), base units) of a tcod edge."""


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


def load_path_search() -> None:
    """Import tcod now. Its import takes a few tenths of a second (the whole package and
    cffi's C parser), so nothing imports it before a search needs it or this is called
    (when the app is idle, say)."""
    import tcod.path  # noqa: F401


@dataclass
class StepRule:
    """One tcod rule: its edges, and per search state (layer) the whole-map mask of the cells
    they may leave (None: none)."""

    edges: list[Edge]
    sources: list[BoolGrid | None]


@dataclass(eq=False)
class SearchPlanes:
    """The map's part of a search graph for one kind of mover, whole-map arrays.

    ``base_mult``: 1 + the extra base costs of landing at a cell, creatures aside;
    ``creature_extra``: what landing in another creature's space adds there (difficult
    terrain already counted adds nothing more).
    """

    parities: int
    states: int
    base_mult: NDArray[np.integer]
    creature_extra: NDArray[np.integer]
    rules: list[StepRule]
    sources: tuple[object, ...]
    """The index's arrays these were made from: still its arrays means still valid."""
    graphs: OrderedDict[tuple[int, int], WindowGraph] = field(default_factory=OrderedDict)

    @property
    def layers(self) -> int:
        return self.parities * self.states


_PLANES: weakref.WeakKeyDictionary[MapIndex, dict[tuple[object, ...], SearchPlanes]] = (
    weakref.WeakKeyDictionary()
)
_LOCK = threading.Lock()  # the cached graphs' arrays are written per query
GRAPHS_KEPT = 4
"""tcod graphs kept per ``SearchPlanes`` (one per window shape, the last used)..."""
GRAPH_BYTES_KEPT = 48 * 2**20
"""... while their arrays take no more than this together (a squeezing mover's graph of a
400 x 400 map is ~115 MB: it is made per query and let go)."""


def search_planes(ctx: MoveContext) -> SearchPlanes:
    """The cached ``SearchPlanes`` of ``ctx``'s map and mover kind (made on first use, and
    again when the index's movement arrays were made anew)."""
    index, mover = ctx.index, ctx.mover
    key = (ctx.k, ctx.k_small, ctx.rule is DiagonalRule.FIVE_TEN_FIVE, ctx.costs,
           mover.flying, mover.speeds.swim > 0, mover.prone)  # fmt: skip
    # The index's own cached arrays (``MapIndex.step_free`` and the rest), by identity.
    sources = (ctx.free, ctx.room, ctx.core_room if ctx.core_offsets else None,
               index.terrain_under(ctx.k))  # fmt: skip
    by_kind = _PLANES.setdefault(index, {})
    planes = by_kind.get(key)
    if planes is None or any(a is not b for a, b in zip(planes.sources, sources, strict=True)):
        planes = _make_planes(ctx, sources)
        by_kind[key] = planes
    return planes


def _make_planes(ctx: MoveContext, sources: tuple[object, ...]) -> SearchPlanes:
    costs = ctx.costs
    five_ten = ctx.rule is DiagonalRule.FIVE_TEN_FIVE
    extra = ctx.difficult.astype(np.int32) * costs.difficult_extra
    extra += ctx.water.astype(np.int32) * costs.water_extra
    extra += costs.crawl_extra * int(ctx.mover.prone)
    # Landing without room for the whole space means squeezing (without squeezing rules
    # such a step has no edge at all).
    extra += (~ctx.room).astype(np.int32) * (costs.squeeze_extra or 0)
    on_creature = 0 if not costs.creature_space_is_difficult else costs.difficult_extra
    creature_extra = np.where(ctx.difficult, 0, on_creature)
    largest = int(extra.max(initial=0)) + 1 + on_creature
    # The smallest type that holds them: tcod reads less memory per edge.
    dtype = np.int8 if largest <= 127 else np.int16 if largest <= 32_767 else np.int32
    parities = 2 if five_ten else 1
    states = 1 + len(ctx.core_offsets)
    rules = _plain_rules(ctx, parities) if states == 1 else _squeezing_rules(ctx, parities)
    return SearchPlanes(
        parities,
        states,
        (1 + extra).astype(dtype),
        creature_extra.astype(dtype),
        rules,
        sources,
    )


def base_units(five_ten: bool, d: int, parity: int) -> tuple[int, int]:
    """(base cost in units, parity after) of a step in direction ``d`` from ``parity``."""
    dx, dy = DIRECTIONS[d]
    if not five_ten:
        return 1, parity
    if dx == 0 or dy == 0:
        return 2, parity
    return (4, 0) if parity else (2, 1)


def _plain_rules(ctx: MoveContext, parities: int) -> list[StepRule]:
    """The whole space steps (no squeeze cores): one rule per direction, the cells it may
    leave the same for every parity. A 5-10-5 diagonal leaves parity 0 for 1 (cheap) and 1 for
    0 (dear); the other edge runs off the layers."""
    five_ten = parities == 2
    rules = []
    for d, (dx, dy) in enumerate(DIRECTIONS):
        edges = {
            ((after - parity, dy, dx), units)
            for parity in range(parities)
            for units, after in [base_units(five_ten, d, parity)]
        }
        rules.append(StepRule(sorted(edges), [ctx.free[d]]))
    return rules


def _squeezing_rules(ctx: MoveContext, parities: int) -> list[StepRule]:
    """Steps of a mover that may squeeze: the whole space or one core carries it
    (``MoveContext.next_cores``). One rule per direction and change of squeeze state; a
    state's cells are those it may leave by that change."""
    five_ten = parities == 2
    cores = range(len(ctx.core_offsets))
    states = 1 + len(ctx.core_offsets)
    rules = []
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
        by_change: dict[int, dict[int, BoolGrid]] = {}
        for (before, after), mask in moves.items():
            if mask.any():
                by_change.setdefault(after - before, {})[before] = mask
        for change, leaving in by_change.items():
            edges = set()
            for parity in range(parities):
                units, parity_after = base_units(five_ten, d, parity)
                edges.add((((parity_after - parity) * states + change, dy, dx), units))
            per_layer = [leaving.get(s) for _ in range(parities) for s in range(states)]
            rules.append(StepRule(sorted(edges), per_layer))
    return rules


class WindowGraph:
    """tcod's graph over one window shape of ``planes``: the cost of entering each cell
    (shared by every rule and layer) and each rule's condition, filled per query."""

    def __init__(self, planes: SearchPlanes, h: int, w: int) -> None:
        import tcod.path  # here, not at start-up: see load_path_search

        shape = (planes.layers, h, w)
        self.shape = shape
        self.graph = tcod.path.CustomGraph(shape)
        self.mult = np.zeros((h, w), dtype=planes.base_mult.dtype)
        self.cost = as_strided(self.mult, shape, (0, *self.mult.strides), writeable=False)
        self.conditions: list[NDArray[np.uint8]] = []
        self.filled_at: tuple[int, int] | None = None
        """Where the conditions were last cut from (x0, y0): the same window needs no copy."""
        self.rules: list[tuple[NDArray[np.integer], NDArray[np.uint8], list[Edge]]] = []
        """Every rule given to tcod: cost (read at the node entered), condition (read at the
        node left) and edges; for benchmarks that run other searches on this graph."""
        for rule in planes.rules:
            if len(rule.sources) == 1:  # the same cells for every layer: one plane, a view
                plane = np.zeros((h, w), dtype=np.uint8)
                condition = as_strided(plane, shape, (0, *plane.strides), writeable=False)
            else:
                plane = np.zeros(shape, dtype=np.uint8)
                condition = plane
            self.conditions.append(plane)
            self.rules.append((self.cost, condition, rule.edges))
            for edge_dir, units in rule.edges:
                self.graph.add_edge(edge_dir, units, cost=self.cost, condition=condition)
        self.nbytes = self.mult.nbytes + sum(plane.nbytes for plane in self.conditions)
        cardinal, diagonal = (2, 3) if planes.parities == 2 else (1, 1)
        self.graph.set_heuristic(cardinal=cardinal, diagonal=diagonal)

    def fill(self, planes: SearchPlanes, window: Window) -> None:
        """The conditions of ``window`` (the multipliers are the query's: ``MoveGraph``)."""
        if self.filled_at == (window.x0, window.y0):
            return
        for plane, rule in zip(self.conditions, planes.rules, strict=True):
            if len(rule.sources) == 1:
                plane[...] = window.cut(rule.sources[0])  # type: ignore[arg-type]
                continue
            for layer, source in enumerate(rule.sources):
                plane[layer] = 0 if source is None else window.cut(source)
        self.filled_at = (window.x0, window.y0)


def _window_graph(planes: SearchPlanes, window: Window) -> WindowGraph:
    shape = (window.h, window.w)
    graph = planes.graphs.pop(shape, None)
    if graph is None:
        graph = WindowGraph(planes, *shape)
    kept = list(planes.graphs.values())
    while kept and (
        len(kept) >= GRAPHS_KEPT or sum(g.nbytes for g in kept) + graph.nbytes > GRAPH_BYTES_KEPT
    ):
        planes.graphs.popitem(last=False)
        kept.pop(0)
    if graph.nbytes <= GRAPH_BYTES_KEPT:
        planes.graphs[shape] = graph
    graph.fill(planes, window)
    return graph


class MoveGraph:
    """The tcod graph of ``ctx``'s moves inside ``window``; use it inside ``searching`` (unless
    ``own``)."""

    def __init__(
        self, ctx: MoveContext, window: Window, planes: SearchPlanes, *, own: bool = False
    ) -> None:
        self.ctx = ctx
        self.window = window
        self.five_ten = planes.parities == 2
        self.parities = planes.parities
        self.states = planes.states
        self.unit_feet = ctx.mover.cell_feet / (2 if self.five_ten else 1)
        """Feet per search unit."""
        self.min_step_units = 2 if self.five_ten else 1
        """The least any step costs."""
        if own:  # a graph of its own, not the cache's (benchmarks' references)
            self.window_graph = WindowGraph(planes, window.h, window.w)
            self.window_graph.fill(planes, window)
        else:
            self.window_graph = _window_graph(planes, window)
        self.graph = self.window_graph.graph
        self.rules = self.window_graph.rules
        _write_multipliers(self.window_graph.mult, ctx, window, planes)

    def layer(self, parity: int, core: int) -> int:
        return parity * self.states + (0 if core == FULL else core + 1)

    def node(self, layer: int, cell: Cell) -> Node:
        return (layer, cell[1] - self.window.y0, cell[0] - self.window.x0)

    def cells(self, nodes: NDArray[np.intc]) -> list[Cell]:
        """The map cells of tcod's ``(layer, y, x)`` rows."""
        xs = (nodes[:, 2] + self.window.x0).tolist()
        ys = (nodes[:, 1] + self.window.y0).tolist()
        return list(zip(xs, ys, strict=True))

    def pathfinder(
        self, start: Cell, start_cores: frozenset[int], *, beyond: int | None = None
    ) -> tcod.path.Pathfinder:
        """A pathfinder rooted at ``start`` in each of ``start_cores`` (parity 0).

        With ``beyond``, every node starts at that distance instead of unreached, so the
        search never queues a node that costs as much or more: a Dijkstra within a budget.
        """
        import tcod.path

        finder = tcod.path.Pathfinder(self.graph)
        if beyond is not None:
            finder.distance[...] = beyond
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
        if not nodes:
            return None  # no state of the mover fits at the goal
        *first, last = nodes
        for node in first:
            finder.resolve(node)
        # path_to resolves its node: a resolve before it ran tcod's search twice for it.
        path = finder.path_to(last)
        unreached = np.iinfo(finder.distance.dtype).max
        reached = [node for node in nodes if finder.distance[node] < unreached]
        if not reached:
            return None
        best = min(reached, key=lambda node: int(finder.distance[node]))
        if best != last:
            path = finder.path_to(best)
        return self.cells(path), int(finder.distance[best])


def _write_multipliers(
    mult: NDArray[np.integer], ctx: MoveContext, window: Window, planes: SearchPlanes
) -> None:
    """Per node entered (window cell): 1 + the extra base costs of landing there, creatures'
    spaces included; 0 in a space the mover may not pass."""
    cut = window.cut
    np.copyto(mult, cut(planes.base_mult))
    occupied, hostile = ctx.creature_grids_in(window.x0, window.y0, window.w, window.h)
    if _adds_for_creatures(ctx.costs):
        np.add(mult, cut(planes.creature_extra), out=mult, where=occupied)
    mult[hostile] = 0


def _adds_for_creatures(costs: MovementCosts) -> bool:
    return costs.creature_space_is_difficult and costs.difficult_extra > 0


@contextmanager
def searching(ctx: MoveContext, window: Window) -> Iterator[MoveGraph]:
    """The move graph of ``ctx`` in ``window``, on the cached arrays while the block runs (one
    query at a time writes them; a pathfinder made in it may be read after, not resolved)."""
    with _LOCK:
        yield MoveGraph(ctx, window, search_planes(ctx))
