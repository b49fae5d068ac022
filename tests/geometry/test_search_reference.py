"""The compiled search (tcod) against a brute force: Dijkstra over ``MoveContext.step`` itself.

The brute force walks states (cell, diagonal parity, cores carrying the mover) exactly as
``movement.walk`` does, so its cost for a cell is the cheapest any single-step path there
walks for. On random small maps (walls on and off the grid lines, difficult terrain, water,
an impassable patch, creatures of every side and size), for every diagonal rule, mover size
and set of movement numbers, the reachable area and the cheapest path must cost exactly that.
"""

from __future__ import annotations

import heapq
import itertools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from battlemap.geometry import Body, DiagonalRule, MapIndex, cheapest_path, reachable_area
from battlemap.geometry.metrics import Cell
from battlemap.geometry.movement import MoveContext, MovementCosts
from battlemap.model import Side, Size, TerrainKind
from tests.geometry.helpers import body, index, terrain, wall
from tests.geometry.test_search import costs

SIDE = 14
BUDGET = 40.0


def brute_force_costs(ctx: MoveContext, budget: float) -> dict[Cell, float]:
    """The cheapest walked cost of every cell within ``budget`` feet (any end state)."""
    start = ctx.start_cell()
    order = itertools.count()
    heap = [(0.0, next(order), start, 0, ctx.start_cores(start))]
    done: set[tuple[Cell, int, frozenset[int]]] = set()
    cheapest: dict[Cell, float] = {}
    while heap:
        cost, _, cell, parity, cores = heapq.heappop(heap)
        if (cell, parity, cores) in done:
            continue
        done.add((cell, parity, cores))
        cheapest.setdefault(cell, cost)  # popped in cost order: the first is the cheapest
        for d in range(8):
            step, _, after, carried = ctx.step(cell, d, parity, cores)
            if step is not None and cost + step.cost_feet <= budget + 1e-9:
                heapq.heappush(heap, (cost + step.cost_feet, next(order), step.end, after, carried))
    return cheapest


@st.composite
def worlds(draw: st.DrawFn) -> tuple[MapIndex, list[Body]]:
    walls = []
    for _ in range(draw(st.integers(0, 10))):
        x, y = draw(st.integers(1, SIDE - 1)), draw(st.integers(1, SIDE - 1))
        length = draw(st.integers(1, 5))
        if draw(st.booleans()):
            walls.append(wall((x, y), (min(x + length, SIDE), y)))
        else:
            walls.append(wall((x, y), (x, min(y + length, SIDE))))
    for _ in range(draw(st.integers(0, 3))):  # off the grid lines, like imported rubble
        rx, ry = draw(st.floats(1, SIDE - 2)), draw(st.floats(1, SIDE - 2))
        walls.append(wall((rx, ry), (rx + draw(st.floats(-1, 1)), ry + draw(st.floats(-1, 1)))))
    regions = []
    for kind in (TerrainKind.DIFFICULT, TerrainKind.WATER, TerrainKind.IMPASSABLE):
        for _ in range(draw(st.integers(0, 2))):
            x, y = draw(st.integers(0, SIDE - 2)), draw(st.integers(0, SIDE - 2))
            w, h = draw(st.integers(1, 4)), draw(st.integers(1, 4))
            regions.append(terrain(kind, x, y, x + w, y + h))
    others = []
    for i in range(draw(st.integers(0, 4))):
        size = draw(st.sampled_from([Size.TINY, Size.SMALL, Size.MEDIUM, Size.LARGE, Size.HUGE]))
        side = draw(st.sampled_from(list(Side)))
        x, y = draw(st.integers(0, SIDE - 3)), draw(st.integers(0, SIDE - 3))
        others.append(body(f"other{i}", x, y, size, side))
    return index(*walls, terrain_regions=tuple(regions), width=SIDE, height=SIDE), others


EXAMPLES = 40


def test_the_search_costs_what_the_brute_force_walks() -> None:
    cells_compared: list[int] = []

    @settings(max_examples=EXAMPLES, deadline=None, database=None)
    @given(
        worlds(),
        st.sampled_from(list(DiagonalRule)),
        st.sampled_from([Size.MEDIUM, Size.LARGE, Size.HUGE]),
        st.booleans(),
        costs,
    )
    def compare(
        world: tuple[MapIndex, list[Body]],
        rule: DiagonalRule,
        size: Size,
        prone: bool,
        numbers: MovementCosts,
    ) -> None:
        grid, others = world
        mover = body("mover", 5, 5, size, prone=prone)
        others = [o for o in others if not o.space.overlaps(mover.space)]
        ctx = MoveContext(grid, mover, others, rule, costs=numbers)
        truth = brute_force_costs(ctx, BUDGET)
        area = reachable_area(grid, mover, others, rule, BUDGET, costs=numbers)
        assert area.passable == set(truth)
        exact = rule is not DiagonalRule.EUCLIDEAN  # float sums may differ in the last bit
        for cell, cost in area.cost_feet.items():
            assert cost == (truth[cell] if exact else pytest.approx(truth[cell]))
            route = area.path_to(cell)
            assert route[0] == ctx.start_cell() and route[-1] == cell
        unbounded = brute_force_costs(ctx, math.inf)
        for cell in sorted(area.cost_feet)[::7]:
            found = cheapest_path(grid, mover, cell, others, rule, costs=numbers)
            assert found.legal
            assert found.cost_feet == (unbounded[cell] if exact else pytest.approx(unbounded[cell]))
        cells_compared.append(len(area.cost_feet))

    compare()
    assert len(cells_compared) == EXAMPLES
    # Most areas are more than the start: the comparisons are not of trivial areas.
    assert sum(n > 1 for n in cells_compared) >= EXAMPLES * 2 // 3, cells_compared


@pytest.mark.parametrize("rule", [DiagonalRule.FIVE_FIVE_FIVE, DiagonalRule.FIVE_TEN_FIVE])
@pytest.mark.parametrize("size", [Size.MEDIUM, Size.LARGE])
def test_a_detour_beyond_the_first_search_window_is_still_found_and_cheapest(
    rule: DiagonalRule, size: Size
) -> None:
    # Start and destination 4 cells apart; the wall between them ends 18 rows further down,
    # beyond the first window's margin, so the search must widen it.
    world = index(wall((12, 0), (12, 28)), width=30, height=40)
    mover = body("mover", 9, 10, size)
    found = cheapest_path(world, mover, (14, 10), [], rule)
    truth = brute_force_costs(MoveContext(world, mover, [], rule), math.inf)
    assert found.legal and found.cost_feet == truth[(14, 10)]
    side = 2 if size is Size.LARGE else 1
    assert max(y for _, y in found.cells) + side - 1 >= 28  # its space rounds the wall's end
