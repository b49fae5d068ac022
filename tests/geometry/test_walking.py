"""The array walk (``walking.plain_steps``, behind ``movement.walk``) against the walk one
``MoveContext.step`` at a time, and the move context's shortcuts against the plain lookups
they replace (``end_blocker`` without ``cells_of``, the creature grids per window).

Worlds are the search reference's random small maps (walls on and off the grid lines, all
terrains, creatures of every side and size); paths are random king steps and the cheapest
paths found, so that most are walked over arrays and some fall back step by step.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from battlemap.geometry import Body, DiagonalRule, MapIndex, cheapest_path
from battlemap.geometry.map_index import DIRECTIONS, BoolGrid, window_any
from battlemap.geometry.metrics import Cell
from battlemap.geometry.movement import (
    MoveContext,
    MovementCosts,
    StepCost,
    walk,
    walk_step_by_step,
)
from battlemap.geometry.walking import plain_steps
from battlemap.model import Size
from tests.geometry.helpers import body
from tests.geometry.helpers import index as map_index
from tests.geometry.test_search import costs
from tests.geometry.test_search_reference import SIDE, worlds

EXAMPLES = 120


def _cells(start: Cell, directions: list[int]) -> list[Cell]:
    cells = [start]
    for d in directions:
        dx, dy = DIRECTIONS[d]
        cells.append((cells[-1][0] + dx, cells[-1][1] + dy))
    return cells


def test_the_array_walk_gives_exactly_the_step_by_step_walk() -> None:
    walked: list[bool] = []  # per path: taken over arrays

    @settings(max_examples=EXAMPLES, deadline=None, database=None)
    @given(
        worlds(),
        st.sampled_from(list(DiagonalRule)),
        st.sampled_from([Size.TINY, Size.MEDIUM, Size.LARGE]),
        st.booleans(),
        costs,
        st.lists(st.integers(0, 7), min_size=1, max_size=14),
        st.tuples(st.integers(0, SIDE - 1), st.integers(0, SIDE - 1)),
    )
    def compare(
        world: tuple[MapIndex, list[Body]],
        rule: DiagonalRule,
        size: Size,
        prone: bool,
        numbers: MovementCosts,
        directions: list[int],
        goal: Cell,
    ) -> None:
        grid, others = world
        mover = body("mover", 5, 5, size, prone=prone)
        others = [o for o in others if not o.space.overlaps(mover.space)]
        ctx = MoveContext(grid, mover, others, rule, costs=numbers)
        found = cheapest_path(grid, mover, goal, others, rule, costs=numbers)
        paths = [_cells((5, 5), directions)]
        if found.steps:
            paths.append([(5, 5), *found.cells])
        for cells in paths:
            assert walk(ctx, cells, 30) == walk_step_by_step(ctx, cells, 30)
            walked.append(plain_steps(ctx, cells) is not None)

    compare()
    assert len(walked) >= EXAMPLES
    # Both ways are exercised: most paths over arrays, and some step by step.
    assert sum(walked) >= len(walked) // 3 and not all(walked), (sum(walked), len(walked))


def reference_end_blocker(ctx: MoveContext, cell: Cell) -> Body | None:
    """The creature ended in, through ``footprint_bodies`` (the lookup by squares)."""
    space = ctx.space_at(cell)
    return next((b for b in ctx.footprint_bodies(cell) if b.space.overlaps(space)), None)


def test_end_blocker_and_the_window_grids_match_the_plain_lookups() -> None:
    checked: list[int] = []

    @settings(max_examples=60, deadline=None, database=None)
    @given(
        worlds(),
        st.sampled_from([Size.TINY, Size.MEDIUM, Size.LARGE, Size.HUGE]),
        st.tuples(st.integers(0, SIDE - 1), st.integers(0, SIDE - 1)),
        st.tuples(st.integers(1, SIDE), st.integers(1, SIDE)),
    )
    def compare(world: tuple[MapIndex, list[Body]], size: Size, corner: Cell, extent: Cell) -> None:
        grid, others = world
        mover = body("mover", 0, 0, size)
        ctx = MoveContext(grid, mover, others, DiagonalRule.FIVE_TEN_FIVE)
        k = ctx.k
        for y in range(SIDE - k + 1):
            for x in range(SIDE - k + 1):
                assert ctx.end_blocker((x, y)) == reference_end_blocker(ctx, (x, y))
        # The grids by window against the squares painted and widened by window_any.
        squares = _squares(ctx)
        x0, y0 = corner
        w, h = min(extent[0], SIDE - x0), min(extent[1], SIDE - y0)
        fresh = MoveContext(grid, mover, others, DiagonalRule.FIVE_TEN_FIVE)
        occupied, hostile = fresh.creature_grids_in(x0, y0, w, h)
        for grid_in, painted in zip((occupied, hostile), squares, strict=True):
            widened = window_any(painted, k, k) if k > 1 else painted
            assert (grid_in == widened[y0 : y0 + h, x0 : x0 + w]).all()
        checked.append(len(ctx.others))

    compare()
    assert len(checked) == 60 and sum(n > 0 for n in checked) >= 30, checked


def _squares(ctx: MoveContext) -> tuple[BoolGrid, BoolGrid]:
    """The other creatures' squares (and the blocking ones'), painted one by one."""
    occupied = np.zeros((SIDE, SIDE), dtype=bool)
    hostile = np.zeros((SIDE, SIDE), dtype=bool)
    for other in ctx.others:
        cx0, cy0, cx1, cy1 = other.space.cell_range()
        ys = slice(max(cy0, 0), max(min(cy1 + 1, SIDE), 0))
        xs = slice(max(cx0, 0), max(min(cx1 + 1, SIDE), 0))
        occupied[ys, xs] = True
        if ctx.blocks_passage[other.id]:
            hostile[ys, xs] = True
    return occupied, hostile


def test_the_array_walk_makes_step_costs_of_int_cells_only() -> None:
    ctx = MoveContext(map_index(), body("mover", 2, 2), [], DiagonalRule.FIVE_TEN_FIVE)
    plain = plain_steps(ctx, [(2, 2), (3, 3), (4, 4), (5, 4)])
    assert plain is not None
    steps, total = plain
    assert all(type(step) is StepCost for step in steps)
    assert [step.cost_feet for step in steps] == [5.0, 10.0, 5.0] and total == 20.0
    assert steps[1].start == (3, 3) and steps[1].end == (4, 4)
    # Not cells of ints: walked step by step, which says what is wrong.
    assert plain_steps(ctx, [(2.0, 2.0), (3.0, 3.0)]) is None  # type: ignore[list-item]
    assert plain_steps(ctx, [(2, 2), (4, 2)]) is None  # not neighbours
