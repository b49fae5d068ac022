"""Rules 1 and 2: distance between spaces, reach and range (SRD "Melee Attacks", "Range",
"Ranged Attacks in Close Combat"; sizes from Legends of Hyrule "Size Categories")."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from battlemap.geometry import (
    DiagonalRule,
    InvalidRangeError,
    RangeBand,
    UnknownDiagonalRuleError,
    distance_feet,
    range_band,
    ranged_attack,
    within_reach,
)
from battlemap.model import Size
from tests.geometry.helpers import body, foe, index, wall

R555, R5105, EUC = DiagonalRule.FIVE_FIVE_FIVE, DiagonalRule.FIVE_TEN_FIVE, DiagonalRule.EUCLIDEAN


def test_diagonal_rule_values_are_the_strings_rulesets_use() -> None:
    assert [r.value for r in DiagonalRule] == ["5-5-5", "5-10-5", "euclidean"]
    assert DiagonalRule.parse("5-10-5") is R5105


def test_unknown_diagonal_rule_is_a_value_error_naming_the_choices() -> None:
    with pytest.raises(UnknownDiagonalRuleError, match="5-5-5") as info:
        DiagonalRule.parse("manhattan")
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("dx, dy", [(1, 0), (0, 1), (1, 1), (-1, -1), (1, -1)])
@pytest.mark.parametrize("rule", list(DiagonalRule))
def test_adjacent_by_side_or_corner_is_5_ft_under_every_rule(
    rule: DiagonalRule, dx: int, dy: int
) -> None:
    assert distance_feet(body("a", 5, 5), body("b", 5 + dx, 5 + dy), rule) == 5


def test_three_diagonals_are_15_ft_under_5_5_5_and_20_ft_under_5_10_5() -> None:
    a, b = body("a", 0, 0), body("b", 3, 3)
    assert distance_feet(a, b, R555) == 15
    assert distance_feet(a, b, R5105) == 20  # 5 + 10 + 5


def test_euclidean_distance_rounds_to_the_nearest_whole_cell() -> None:
    a = body("a", 0, 0)
    assert distance_feet(a, body("b", 3, 3), EUC) == 20  # 4.24 cells -> 4
    assert distance_feet(a, body("b", 5, 5), EUC) == 35  # 7.07 cells -> 7
    assert distance_feet(a, body("b", 4, 2), EUC) == 20  # 4.47 cells -> 4
    assert distance_feet(a, body("b", 2, 1), EUC) == 10  # 2.24 cells -> 2


def test_5_10_5_counts_every_second_diagonal_double() -> None:
    a = body("a", 0, 0)
    assert [distance_feet(a, body("b", n, n), R5105) for n in range(1, 5)] == [5, 15, 20, 30]
    assert distance_feet(a, body("b", 4, 1), R5105) == 20  # 3 straight + 1 diagonal


def test_large_creature_measures_from_its_nearest_square() -> None:
    ogre = body("ogre", 0, 0, Size.LARGE)  # squares (0..1, 0..1)
    assert distance_feet(ogre, body("b", 2, 1), R555) == 5
    assert distance_feet(ogre, body("b", 3, 0), R555) == 10


def test_gargantuan_creature_is_adjacent_to_anything_touching_its_20_ft_space() -> None:
    dragon = body("dragon", 10, 10, Size.GARGANTUAN)  # squares 10..13
    assert distance_feet(dragon, body("b", 14, 13), R555) == 5
    assert distance_feet(dragon, body("b", 9, 9), R5105) == 5
    assert distance_feet(dragon, body("b", 17, 10), R555) == 20


def test_tiny_creatures_sharing_a_square_are_0_ft_apart() -> None:
    fairy = body("fairy", 3.0, 3.0, Size.TINY)
    sprite = body("sprite", 3.5, 3.5, Size.TINY)
    assert distance_feet(fairy, sprite, R555) == 0
    assert distance_feet(fairy, body("m", 4, 3), R555) == 5


positions = st.tuples(st.integers(-5, 40), st.integers(-5, 40))
sizes = st.sampled_from(list(Size))


@given(positions, sizes, positions, sizes, st.sampled_from(list(DiagonalRule)))
def test_distance_is_symmetric(
    p: tuple[int, int], sa: Size, q: tuple[int, int], sb: Size, rule: DiagonalRule
) -> None:
    a, b = body("a", *p, size=sa), body("b", *q, size=sb)
    assert distance_feet(a, b, rule) == distance_feet(b, a, rule)


@given(positions, positions)
def test_5_5_5_is_shortest_and_euclidean_is_true_distance_to_half_a_cell(
    p: tuple[int, int], q: tuple[int, int]
) -> None:
    a, b = body("a", *p), body("b", *q)
    true_feet = 5 * math.hypot(p[0] - q[0], p[1] - q[1])
    assert distance_feet(a, b, R555) <= distance_feet(a, b, EUC) <= distance_feet(a, b, R5105)
    assert abs(distance_feet(a, b, EUC) - true_feet) <= 2.5 + 1e-9


def test_within_reach_when_distance_is_at_most_reach() -> None:
    knight = body("k", 0, 0)
    assert within_reach(knight, body("t", 1, 1), R555).within
    assert not within_reach(knight, body("t", 2, 0), R555).within
    pike = body("p", 0, 0, reach_feet=10.0)
    assert within_reach(pike, body("t", 2, 2), R555).within
    assert not within_reach(pike, body("t", 2, 2), R5105).within  # 15 ft under 5-10-5


def test_reach_0_reaches_nothing_not_even_a_shared_square() -> None:
    fairy = body("fairy", 3, 3, Size.TINY, reach_feet=0.0)
    assert not within_reach(fairy, body("f2", 3.5, 3, Size.TINY), R555).within


@pytest.mark.parametrize(
    "distance, band",
    [
        (80, RangeBand.NORMAL),
        (85, RangeBand.LONG),
        (320, RangeBand.LONG),
        (325, RangeBand.OUT_OF_RANGE),
    ],
)
def test_range_bands_of_a_shortbow_80_320(distance: float, band: RangeBand) -> None:
    assert range_band(distance, 80, 320) is band


def test_single_range_has_no_long_band() -> None:
    assert range_band(120, 120) is RangeBand.NORMAL
    assert range_band(125, 120) is RangeBand.OUT_OF_RANGE


def test_inverted_ranges_are_rejected_with_a_typed_error() -> None:
    with pytest.raises(InvalidRangeError):
        range_band(10, 80, 20)


def test_ranged_attack_at_disadvantage_next_to_a_hostile_that_sees_you() -> None:
    archer = body("archer", 5, 5)
    goblin = foe("goblin", 6, 6)
    result = ranged_attack(index(), archer, foe("t", 15, 5), [goblin], R555, 80, 320)
    assert result.threatened_by == ("goblin",)
    assert result.disadvantage


def test_sleeping_blind_or_walled_off_neighbours_do_not_threaten_ranged_attacks() -> None:
    archer = body("archer", 5, 5)
    target = foe("t", 15, 5)
    sleeping = foe("sleeping", 6, 5, incapacitated=True)
    blind = foe("blind", 4, 5, blinded=True)
    behind_wall = foe("behind", 5, 6)
    ally = body("ally", 5, 4)
    walled = index(wall((0, 6), (12, 6)))
    result = ranged_attack(walled, archer, target, [sleeping, blind, behind_wall, ally], R555, 80)
    assert result.threatened_by == ()
    assert result.band is RangeBand.NORMAL and not result.disadvantage
