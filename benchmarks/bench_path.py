"""Path search and reachable area (issue 17) on the bench maps, each next to a reference: a
compiled search alone on the same graph (the same nodes, edges and costs, built beforehand),
timed in turns with ours in the same run.

Ours is the whole query: the move context, the graph, the search and the walk of the path
found (``cheapest_path``) or the cells and costs (``reachable_area``). References: tcod's
pathfinder alone (Dijkstra, or A* with the same heuristic), and scipy.sparse.csgraph's
Dijkstra when scipy is installed (it is not a dependency: ``pip install scipy`` for the row).
Goals: cheapest path 5-10-5 <= 10 ms and <= 2x the fastest compiled reference; 5-5-5 <= 2x
tcod's A*; reachable area 60 ft <= 2x tcod's Dijkstra on the same window.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from benchmarks.maps import bench_map, large_map

if TYPE_CHECKING:
    from battlemap.geometry.search_graph import MoveGraph

Case = tuple[str, Callable[[], Callable[[], object] | None]]

PATH_5105 = "path: cheapest path across the bench map, 5-10-5"
PATH_555 = "path: cheapest path across the bench map, 5-5-5"
REACH = "path: reachable area 60 ft (bench map, 5-10-5)"
REF_5105_TCOD = "path:   reference: tcod Dijkstra alone, same graph (5-10-5)"
REF_5105_SCIPY = "path:   reference: scipy csgraph Dijkstra alone, same graph (5-10-5)"
REF_555 = "path:   reference: tcod A* alone, same graph (5-5-5)"
REF_REACH = "path:   reference: tcod Dijkstra alone, same window graph"

HAS_SCIPY = importlib.util.find_spec("scipy") is not None


def describe() -> str:
    scipy = "scipy installed" if HAS_SCIPY else "scipy not installed: no csgraph row"
    return f"path bench: {bench_map().describe()}; {large_map().describe()}; {scipy}"


def goals() -> dict[str, float]:
    return {PATH_5105: 10.0}


def references() -> dict[str, tuple[str, float]]:
    return {
        PATH_5105: (REF_5105_SCIPY if HAS_SCIPY else REF_5105_TCOD, 2.0),
        PATH_555: (REF_555, 2.0),
        REACH: (REF_REACH, 2.0),
    }


def _runner(x: int = 0, y: int = 0, size: str = "medium") -> object:
    from battlemap.geometry import Body
    from battlemap.model import EntityId, Side, Size

    return Body(EntityId("runner"), Size(size), Side.PARTY, x, y)


def _rule(name: str) -> object:
    from battlemap.geometry import DiagonalRule

    return DiagonalRule(name)


def _cheapest(
    rule: str,
    world: Callable[[], object] = bench_map,
    goal: tuple[int, int] = (98, 99),
    size: str = "medium",
) -> Callable[[], Callable[[], object]]:
    def setup() -> Callable[[], object]:
        from battlemap.geometry import cheapest_path

        bench = world()
        index, bodies, mover = bench.index(), list(bench.bodies), _runner(size=size)  # type: ignore[attr-defined]

        def run() -> object:
            result = cheapest_path(index, mover, goal, bodies, _rule(rule))  # type: ignore[arg-type]
            assert result.legal, result.reason
            return result

        return run

    return setup


def _context(rule: str, mover: object, window: str) -> tuple[object, object]:
    """The move context and the search window of ours, for the references' graphs."""
    from battlemap.geometry.movement import MoveContext
    from battlemap.geometry.search import _reach_window
    from battlemap.geometry.search_graph import Window

    bench = bench_map()
    index = bench.index()
    if window == "whole":
        ctx = MoveContext(index, mover, list(bench.bodies), _rule(rule))  # type: ignore[arg-type]
        return ctx, Window(0, 0, index.width, index.height)
    area = _reach_window(index, mover, 13)  # type: ignore[arg-type]
    near = (area.x0, area.y0, area.x0 + area.w - 1, area.y0 + area.h - 1)
    ctx = MoveContext(index, mover, _open_spot_others(), _rule(rule), near=near)  # type: ignore[arg-type]
    return ctx, area


def _tcod_reference(
    rule: str, window: str, goal: tuple[int, int] | None
) -> Callable[[], Callable[[], object]]:
    def setup() -> Callable[[], object]:
        mover = _runner() if window == "whole" else _open_spot_mover()
        ctx, area = _context(rule, mover, window)
        graph = _own_graph(ctx, area)
        start = ctx.start_cell()  # type: ignore[attr-defined]

        def run() -> object:
            finder = graph.pathfinder(start, frozenset({-1}))
            if goal is None:
                finder.resolve()
            else:
                finder.resolve(graph.node(0, goal))
            return finder

        return run

    return setup


def _scipy_reference(rule: str) -> Callable[[], Callable[[], object] | None]:
    def setup() -> Callable[[], object] | None:
        if not HAS_SCIPY:
            return None
        from scipy.sparse.csgraph import dijkstra

        ctx, area = _context(rule, _runner(), "whole")
        graph = _own_graph(ctx, area)
        matrix = _csr(graph)
        start = int(np.ravel_multi_index(graph.node(0, (0, 0)), graph.window_graph.shape))

        def run() -> object:
            return dijkstra(matrix, indices=start, return_predecessors=True)

        return run

    return setup


def _own_graph(ctx: object, area: object) -> MoveGraph:
    """Our graph of ``ctx`` in ``area``, built beforehand and apart from the search's cache."""
    from battlemap.geometry.search_graph import MoveGraph, search_planes

    return MoveGraph(ctx, area, search_planes(ctx), own=True)  # type: ignore[arg-type]


def _csr(graph: MoveGraph) -> object:
    """``graph``'s edges as a scipy CSR matrix (node left x node entered -> cost)."""
    from scipy.sparse import coo_array

    shape = graph.window_graph.shape
    sources, targets, weights = [], [], []
    for cost, condition, edges in graph.rules:
        sz, sy, sx = np.nonzero(condition)
        for (dz, dy, dx), units in edges:
            nz, ny, nx = sz + dz, sy + dy, sx + dx
            ok = (nz >= 0) & (nz < shape[0]) & (ny >= 0) & (ny < shape[1])
            ok &= (nx >= 0) & (nx < shape[2])
            ok[ok] &= cost[nz[ok], ny[ok], nx[ok]] > 0
            sources.append(np.ravel_multi_index((sz[ok], sy[ok], sx[ok]), shape))
            targets.append(np.ravel_multi_index((nz[ok], ny[ok], nx[ok]), shape))
            weights.append(units * cost[nz[ok], ny[ok], nx[ok]].astype(np.float64))
    size = int(np.prod(shape))
    source, target, weight = (np.concatenate(v) for v in (sources, targets, weights))
    return coo_array((weight, (source, target)), shape=(size, size)).tocsr()


def _open_spot_mover() -> object:
    from benchmarks.bench_geometry import _open_spot

    return _open_spot()[1]


def _open_spot_others() -> list[object]:
    from benchmarks.bench_geometry import _open_spot

    return list(_open_spot()[2])  # type: ignore[arg-type]


def _reachable() -> Callable[[], object]:
    from battlemap.geometry import DiagonalRule, reachable_area
    from benchmarks.bench_geometry import _open_spot

    index, mover, others = _open_spot()

    def run() -> object:
        return reachable_area(index, mover, others, DiagonalRule.FIVE_TEN_FIVE, 60)  # type: ignore[arg-type]

    return run


def _reachable_large() -> Callable[[], object]:
    """The 400 x 400 map: the area is searched in a window, the creature grids are the map's."""
    from battlemap.geometry import DiagonalRule, reachable_area

    bench = large_map()
    mover = _runner(200, 200)
    others = [b for b in bench.bodies if not b.space.overlaps(mover.space)]  # type: ignore[attr-defined]
    index = bench.index()

    def run() -> object:
        return reachable_area(index, mover, others, DiagonalRule.FIVE_TEN_FIVE, 60)  # type: ignore[arg-type]

    return run


def cases() -> list[Case]:
    return [
        (PATH_5105, _cheapest("5-10-5")),
        (REF_5105_TCOD, _tcod_reference("5-10-5", "whole", None)),
        (REF_5105_SCIPY, _scipy_reference("5-10-5")),
        (PATH_555, _cheapest("5-5-5")),
        (REF_555, _tcod_reference("5-5-5", "whole", (98, 99))),
        (REACH, _reachable),
        (REF_REACH, _tcod_reference("5-10-5", "reach", None)),
        (
            "path: cheapest path across the bench map, Large mover, 5-10-5",
            _cheapest("5-10-5", goal=(97, 98), size="large"),
        ),
        (
            "path: cheapest path across the 400 x 400 map, 5-10-5",
            _cheapest("5-10-5", large_map, (398, 397)),
        ),
        (
            "path: cheapest path of 12 cells on the 400 x 400 map, 5-10-5",
            _cheapest("5-10-5", large_map, (12, 9)),
        ),
        ("path: reachable area 60 ft (400 x 400 map, 5-10-5)", _reachable_large),
    ]
