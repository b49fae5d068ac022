"""The reach ring shown to the table (SRD "Melee Attacks": a target within reach, usually
5 ft): every square of it passes ``within_reach`` for a one-square target, and no square
just outside it does."""

from __future__ import annotations

import pytest

from battlemap.geometry import DiagonalRule, within_reach
from battlemap.geometry.reach import cells_within_reach
from battlemap.model import Size
from tests.geometry.helpers import body, foe

R555, R5105 = DiagonalRule.FIVE_FIVE_FIVE, DiagonalRule.FIVE_TEN_FIVE


def test_a_medium_creatures_5_ft_reach_is_the_eight_squares_around_it() -> None:
    ring = cells_within_reach(body("a", 4, 4), R555)
    assert ring == {(x, y) for x in (3, 4, 5) for y in (3, 4, 5)} - {(4, 4)}


def test_a_10_ft_reach_under_5_10_5_leaves_out_the_far_corners() -> None:
    """5-10-5: two diagonal steps cost 15 ft, beyond a 10-ft reach (a glaive's)."""
    ring = cells_within_reach(body("a", 4, 4, reach_feet=10.0), R5105)
    assert (6, 6) not in ring and (2, 2) not in ring
    assert (6, 5) in ring and (4, 6) in ring
    assert len(ring) == 5 * 5 - 4 - 1
    square = cells_within_reach(body("a", 4, 4, reach_feet=10.0), R555)
    assert (6, 6) in square and len(square) == 24


def test_no_reach_gives_no_ring() -> None:
    assert cells_within_reach(body("a", 4, 4, reach_feet=0.0), R555) == frozenset()


@pytest.mark.parametrize("rule", [R555, R5105, DiagonalRule.EUCLIDEAN])
@pytest.mark.parametrize("size, reach", [(Size.MEDIUM, 5.0), (Size.LARGE, 10.0), (Size.TINY, 5.0)])
def test_the_ring_is_exactly_the_squares_within_reach(
    rule: DiagonalRule, size: Size, reach: float
) -> None:
    attacker = body("a", 5, 5, size, reach_feet=reach)
    ring = cells_within_reach(attacker, rule)
    own = set(attacker.space.cells())
    checked = 0
    for cx in range(-1, 13):
        for cy in range(-1, 13):
            if (cx, cy) in own:
                continue
            assert ((cx, cy) in ring) == within_reach(attacker, foe("t", cx, cy), rule).within
            checked += 1
    assert checked == 14 * 14 - len(own) and ring
