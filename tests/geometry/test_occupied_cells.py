"""The grid squares a creature's space occupies: one rule for ``Space``, ``Body`` and paths."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from battlemap.geometry import Body
from battlemap.geometry.metrics import Space, occupied_cell_range
from battlemap.geometry.movement import body_cells
from battlemap.model import EntityId, Side, Size
from tests.geometry.helpers import body


def _squares_whose_interior_it_covers(space: Space) -> set[tuple[int, int]]:
    """The reference: every square sharing some area with the space (touching isn't enough)."""
    found = set()
    for cx in range(math.floor(space.x) - 1, math.ceil(space.x1) + 1):
        for cy in range(math.floor(space.y) - 1, math.ceil(space.y1) + 1):
            width = min(space.x1, cx + 1) - max(space.x, cx)
            height = min(space.y1, cy + 1) - max(space.y, cy)
            if width > 1e-9 and height > 1e-9:
                found.add((cx, cy))
    return found


def test_tiny_on_half_cells_occupies_the_square_it_sits_in() -> None:
    # A Tiny creature (2.5 ft) snaps to half cells: each quarter of a square is that square.
    for x, y in ((5.0, 5.0), (5.5, 5.0), (5.0, 5.5), (5.5, 5.5)):
        assert body_cells(body("fairy", x, y, Size.TINY)) == (5, 5, 5, 5)
    assert body_cells(body("fairy", -0.5, 0.5, Size.TINY)) == (-1, 0, -1, 0)


def test_edges_on_grid_lines_reach_no_further_square() -> None:
    assert body_cells(body("orc", 5, 5)) == (5, 5, 5, 5)
    assert body_cells(body("ogre", 5, 5, Size.LARGE)) == (5, 5, 6, 6)
    assert body_cells(body("dragon", 0, 0, Size.GARGANTUAN)) == (0, 0, 3, 3)
    # Medium on a 10-ft grid: half a cell, on either half of its square.
    for x in (2.0, 2.5):
        assert body_cells(Body(EntityId("m"), Size.MEDIUM, Side.PARTY, x, 0, 10.0)) == (2, 0, 2, 0)


@given(
    st.integers(-20, 40).map(lambda n: n / 2),
    st.integers(-20, 40).map(lambda n: n / 2),
    st.sampled_from(list(Size)),
    st.sampled_from([5.0, 10.0]),
)
def test_the_three_ways_agree_with_the_squares_it_covers(
    x: float, y: float, size: Size, cell_feet: float
) -> None:
    creature = Body(EntityId("c"), size, Side.PARTY, x, y, cell_feet)
    space = creature.space
    cx0, cy0, cx1, cy1 = occupied_cell_range(space.x, space.y, space.w, space.h)
    covered = {(cx, cy) for cx in range(cx0, cx1 + 1) for cy in range(cy0, cy1 + 1)}
    assert covered == _squares_whose_interior_it_covers(space)
    assert space.cell_range() == body_cells(creature) == (cx0, cy0, cx1, cy1)
