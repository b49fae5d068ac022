"""Rule 5: the cost and legality of a dragged path (SRD "Movement and Position": difficult
terrain, being prone, moving around other creatures; Legends of Hyrule "Squeezing into a
Smaller Space")."""

from __future__ import annotations

import math

import pytest

from battlemap.geometry import (
    DiagonalRule,
    IllegalReason,
    InvalidPathError,
    OffMapError,
    StepReason,
    path_cost,
)
from battlemap.geometry.movement import MovementCosts, is_squeezing
from battlemap.model import CoverDegree, Size, Speeds, TerrainKind, Wall
from tests.geometry.helpers import body, door, foe, index, obstacle, terrain, wall, window

R555, R5105, EUC = DiagonalRule.FIVE_FIVE_FIVE, DiagonalRule.FIVE_TEN_FIVE, DiagonalRule.EUCLIDEAN
OPEN = index()
HERO = body("hero", 5, 5)


def straight(n: int, start: tuple[int, int] = (5, 5)) -> list[tuple[float, float]]:
    return [(start[0] + i, start[1]) for i in range(1, n + 1)]


def diagonal(n: int, start: tuple[int, int] = (5, 5)) -> list[tuple[float, float]]:
    return [(start[0] + i, start[1] + i) for i in range(1, n + 1)]


def test_six_straight_steps_cost_30_ft() -> None:
    result = path_cost(OPEN, HERO, straight(6), [], R555, 30)
    assert result.legal and result.cost_feet == 30 and result.remaining_feet == 0
    assert result.cells == tuple((5 + i, 5) for i in range(1, 7))


def test_three_diagonals_under_each_rule() -> None:
    assert path_cost(OPEN, HERO, diagonal(3), [], R555, 30).cost_feet == 15
    assert path_cost(OPEN, HERO, diagonal(3), [], R5105, 30).cost_feet == 20
    assert path_cost(OPEN, HERO, diagonal(3), [], EUC, 30).cost_feet == pytest.approx(
        15 * math.sqrt(2)
    )


def test_5_10_5_parity_runs_across_straight_steps() -> None:
    path = [(6, 6), (7, 6), (8, 7)]  # diagonal, straight, diagonal
    result = path_cost(OPEN, HERO, path, [], R5105, 30)
    assert [s.cost_feet for s in result.steps] == [5, 5, 10]
    assert result.steps[2].reasons == (StepReason.DIAGONAL_DOUBLE,)


def test_entering_difficult_terrain_costs_double_and_leaving_it_does_not() -> None:
    mud = index(terrain_regions=(terrain(TerrainKind.DIFFICULT, 6, 0, 8, 30),))
    result = path_cost(mud, HERO, straight(3), [], R555, 30)
    assert [s.cost_feet for s in result.steps] == [10, 10, 5]
    assert result.steps[0].reasons == (StepReason.DIFFICULT_TERRAIN,)


def test_difficult_diagonal_under_5_10_5_doubles_the_dear_diagonal() -> None:
    mud = index(terrain_regions=(terrain(TerrainKind.DIFFICULT, 0, 0, 30, 30),))
    assert [s.cost_feet for s in path_cost(mud, HERO, diagonal(2), [], R5105, 60).steps] == [10, 20]


def test_crawling_while_prone_costs_double_and_triple_in_difficult_terrain() -> None:
    prone = body("hero", 5, 5, prone=True)
    assert path_cost(OPEN, prone, straight(2), [], R555, 30).cost_feet == 20
    mud = index(terrain_regions=(terrain(TerrainKind.DIFFICULT, 0, 0, 30, 30),))
    result = path_cost(mud, prone, straight(2), [], R555, 30)
    assert result.cost_feet == 30  # "Crawling 1 foot in difficult terrain costs 3 feet"
    assert result.steps[0].reasons == (StepReason.DIFFICULT_TERRAIN, StepReason.PRONE_CRAWL)


def test_another_creatures_space_is_difficult_terrain_and_counts_once_with_mud() -> None:
    ally = body("ally", 6, 5)
    result = path_cost(OPEN, HERO, straight(2), [ally], R555, 30)
    assert result.legal and [s.cost_feet for s in result.steps] == [10, 5]
    assert result.steps[0].reasons == (StepReason.CREATURE_SPACE,)
    mud = index(terrain_regions=(terrain(TerrainKind.DIFFICULT, 0, 0, 30, 30),))
    assert path_cost(mud, HERO, straight(2), [ally], R555, 30).steps[0].cost_feet == 10


def test_a_hostile_of_similar_size_blocks_the_way() -> None:
    orc = foe("orc", 6, 5)
    result = path_cost(OPEN, HERO, straight(2), [orc], R555, 30)
    assert not result.legal and result.reason is IllegalReason.HOSTILE_SPACE
    assert result.blocker_id == "orc" and result.blocked_step == 0
    small = foe("kobold", 6, 5, Size.SMALL)  # one size apart: still blocks
    assert (
        path_cost(OPEN, HERO, straight(2), [small], R555, 30).reason is IllegalReason.HOSTILE_SPACE
    )


def test_a_hostile_two_sizes_larger_or_smaller_can_be_passed_through() -> None:
    giant = foe("giant", 6, 4, Size.HUGE)  # squares 6..8 x 4..6
    assert path_cost(OPEN, HERO, straight(4), [giant], R555, 60).legal
    rat = foe("rat", 6, 5, Size.TINY)
    assert path_cost(OPEN, HERO, straight(2), [rat], R555, 30).legal


def test_a_move_may_not_end_in_another_creatures_space() -> None:
    ally = body("ally", 7, 5)
    result = path_cost(OPEN, HERO, straight(2), [ally], R555, 30)
    assert not result.legal and result.reason is IllegalReason.ENDS_IN_CREATURE
    assert result.blocker_id == "ally"


def test_tiny_creatures_may_end_in_the_same_square_when_their_spaces_do_not_overlap() -> None:
    fairy = body("fairy", 5.0, 5.0, Size.TINY)
    sprite = body("sprite", 6.5, 5.5, Size.TINY)  # bottom-right quarter of square (6, 5)
    assert path_cost(OPEN, fairy, [(6.0, 5.0)], [sprite], R555, 30).legal
    overlapping = body("sprite", 6.0, 5.0, Size.TINY)
    blocked = path_cost(OPEN, fairy, [(6.0, 5.0)], [overlapping], R555, 30)
    assert blocked.reason is IllegalReason.ENDS_IN_CREATURE


def test_a_wall_between_squares_blocks_the_step() -> None:
    walled = index(wall((7, 0), (7, 30), "w"))
    result = path_cost(walled, HERO, straight(3), [], R555, 30)
    assert not result.legal and result.reason is IllegalReason.WALL
    assert result.blocked_step == 1 and result.cost_feet == 5 and result.cells == ((6, 5),)


def test_no_slipping_diagonally_past_the_end_of_a_wall() -> None:
    stub = index(wall((6, 0), (6, 6)))  # ends at the corner between (5,5), (6,5), (5,6), (6,6)
    assert path_cost(stub, HERO, [(6, 6)], [], R555, 30).reason is IllegalReason.WALL
    assert path_cost(stub, HERO, [(5, 6), (6, 6)], [], R555, 30).legal


def test_closed_doors_and_windows_block_movement_and_open_doors_do_not() -> None:
    def through(feature: object) -> bool:
        return path_cost(index(feature), HERO, straight(2), [], R555, 30).legal  # type: ignore[arg-type]

    assert not through(door((6, 0), (6, 30), open_=False))
    assert through(door((6, 0), (6, 30), open_=True))
    assert not through(window((6, 0), (6, 30)))


def test_impassable_terrain_and_blocking_obstacles_stop_the_move() -> None:
    chasm = index(terrain_regions=(terrain(TerrainKind.IMPASSABLE, 6, 0, 7, 30),))
    assert path_cost(chasm, HERO, straight(2), [], R555, 30).reason is IllegalReason.IMPASSABLE
    boulder = index(obstacles=(obstacle("boulder", 6.2, 5.2, 6.8, 5.8, CoverDegree.HALF),))
    assert path_cost(boulder, HERO, straight(2), [], R555, 30).reason is IllegalReason.IMPASSABLE
    post = index(obstacles=(obstacle("post", 5.9, 5.4, 6.1, 5.6, CoverDegree.HALF),))
    assert path_cost(post, HERO, straight(2), [], R555, 30).reason is IllegalReason.WALL
    rug = index(obstacles=(obstacle("rug", 6, 5, 7, 6, CoverDegree.NONE, moves=False),))
    assert path_cost(rug, HERO, straight(2), [], R555, 30).legal


def test_water_costs_double_without_a_swim_speed_and_flyers_ignore_terrain() -> None:
    lake = index(terrain_regions=(terrain(TerrainKind.WATER, 6, 0, 30, 30),))
    assert path_cost(lake, HERO, straight(2), [], R555, 30).cost_feet == 20
    swimmer = body("hero", 5, 5, speeds=Speeds(swim=30))
    assert path_cost(lake, swimmer, straight(2), [], R555, 30).cost_feet == 10
    mud = index(terrain_regions=(terrain(TerrainKind.DIFFICULT, 0, 0, 30, 30),))
    flyer = body("hero", 5, 5, flying=True)
    assert path_cost(mud, flyer, straight(2), [], R555, 30).cost_feet == 10


def test_a_path_costing_more_than_the_movement_left_is_illegal() -> None:
    result = path_cost(OPEN, HERO, straight(7), [], R555, 30)
    assert not result.legal and result.reason is IllegalReason.TOO_FAR
    assert result.remaining_feet == -5


def test_leaving_the_map_is_illegal_and_starting_off_it_is_an_error() -> None:
    edge = body("hero", 29, 5)
    assert path_cost(OPEN, edge, [(30, 5)], [], R555, 30).reason is IllegalReason.OFF_MAP
    with pytest.raises(OffMapError):
        path_cost(OPEN, body("ghost", -1, 5), [(0, 5)], [], R555, 30)


def test_waypoints_are_joined_diagonal_first_and_bad_ones_rejected() -> None:
    result = path_cost(OPEN, HERO, [(5, 5), (8, 6)], [], R555, 30)
    assert result.cells == ((6, 6), (7, 6), (8, 6))
    with pytest.raises(InvalidPathError):
        path_cost(OPEN, HERO, [(math.nan, 5)], [], R555, 30)


def test_an_empty_path_is_legal_and_free() -> None:
    result = path_cost(OPEN, HERO, [], [], R555, 30)
    assert result.legal and result.cost_feet == 0 and result.steps == ()


def corridor(gap_top: float, gap_bottom: float) -> list[Wall]:
    """A wall at x = 8 with an opening from ``gap_top`` to ``gap_bottom``."""
    return [wall((8, 0), (8, gap_top)), wall((8, gap_bottom), (8, 30))]


def test_a_large_creature_needs_room_for_its_whole_space() -> None:
    ogre = body("ogre", 5, 5, Size.LARGE)
    wide = index(*corridor(5, 7))  # gap two cells wide: the ogre walks through
    result = path_cost(wide, ogre, straight(4), [], R555, 30)
    assert result.legal and result.cost_feet == 20
    assert all(StepReason.SQUEEZE not in s.reasons for s in result.steps)


def test_a_large_creature_squeezes_through_a_5_ft_gap_at_double_cost() -> None:
    ogre = body("ogre", 5, 5, Size.LARGE)
    narrow = index(*corridor(5, 6))  # one cell: room for a Medium creature
    result = path_cost(narrow, ogre, straight(4), [], R555, 40)
    assert result.legal
    # Only at (7, 5) does its space straddle the wall; at (8, 5) it stands clear again.
    assert [StepReason.SQUEEZE in s.reasons for s in result.steps] == [False, True, False, False]
    assert result.cost_feet == 25


def test_a_huge_creature_cannot_pass_a_gap_only_a_medium_creature_fits() -> None:
    giant = body("giant", 4, 5, Size.HUGE)
    narrow = index(*corridor(5, 6))
    result = path_cost(narrow, giant, straight(5, (4, 5)), [], R555, 60)
    assert not result.legal and result.reason is IllegalReason.WALL


def test_a_gargantuan_creature_squeezes_where_a_huge_one_fits() -> None:
    dragon = body("dragon", 2, 5, Size.GARGANTUAN)
    gap = index(*corridor(5, 8))  # three cells
    result = path_cost(gap, dragon, straight(6, (2, 5)), [], R555, 90)
    assert result.legal and any(StepReason.SQUEEZE in s.reasons for s in result.steps)


# --- the ruleset's movement numbers (MovementCosts) ------------------------------------------
# The SRD values are the defaults the tests above use; these change one number at a time.


def test_difficult_terrain_extra_cost_scales_the_surcharge_and_zero_removes_it() -> None:
    mud = index(terrain_regions=(terrain(TerrainKind.DIFFICULT, 6, 0, 8, 30),))
    srd = path_cost(mud, HERO, straight(3), [], R555, 60)
    assert [s.terrain_feet for s in srd.steps] == [5, 5, 0]
    doubled = path_cost(mud, HERO, straight(3), [], R555, 60, costs=MovementCosts(2))
    assert [s.cost_feet for s in doubled.steps] == [15, 15, 5]
    assert [s.terrain_feet for s in doubled.steps] == [10, 10, 0]
    assert doubled.steps[0].reasons == (StepReason.DIFFICULT_TERRAIN,)
    free = path_cost(mud, HERO, straight(3), [], R555, 60, costs=MovementCosts(0))
    assert [s.cost_feet for s in free.steps] == [5, 5, 5]
    assert all(s.reasons == () and s.terrain_feet == 0 for s in free.steps)


def test_crawling_through_difficult_terrain_adds_the_crawl_to_the_changed_surcharge() -> None:
    prone = body("hero", 5, 5, prone=True)
    mud = index(terrain_regions=(terrain(TerrainKind.DIFFICULT, 0, 0, 30, 30),))
    step = path_cost(mud, prone, straight(1), [], R555, 60, costs=MovementCosts(2)).steps[0]
    assert step.cost_feet == 20 and step.terrain_feet == 10  # 5 + 10 terrain + 5 crawl


def test_a_creatures_space_costs_nothing_extra_when_the_ruleset_says_it_is_not_difficult() -> None:
    ally = body("ally", 6, 5)
    plain = MovementCosts(creature_space_is_difficult=False)
    result = path_cost(OPEN, HERO, straight(2), [ally], R555, 30, costs=plain)
    assert result.legal and [s.cost_feet for s in result.steps] == [5, 5]
    assert result.steps[0].reasons == ()
    mud = index(terrain_regions=(terrain(TerrainKind.DIFFICULT, 0, 0, 30, 30),))
    in_mud = path_cost(mud, HERO, straight(1), [ally], R555, 30, costs=plain).steps[0]
    assert in_mud.reasons == (StepReason.DIFFICULT_TERRAIN,) and in_mud.cost_feet == 10


def test_the_size_difference_to_pass_a_hostile_comes_from_the_costs() -> None:
    ogre = foe("ogre", 6, 4, Size.LARGE)  # one size larger than the hero
    srd = path_cost(OPEN, HERO, straight(4), [ogre], R555, 60)
    assert srd.reason is IllegalReason.HOSTILE_SPACE and srd.blocker_id == "ogre"
    one_size = MovementCosts(hostile_pass_size_difference=1)
    assert path_cost(OPEN, HERO, straight(4), [ogre], R555, 60, costs=one_size).legal
    giant = foe("giant", 6, 4, Size.HUGE)  # two sizes larger: the SRD lets the hero through
    assert path_cost(OPEN, HERO, straight(4), [giant], R555, 60).legal
    three = MovementCosts(hostile_pass_size_difference=3)
    blocked = path_cost(OPEN, HERO, straight(4), [giant], R555, 60, costs=three)
    assert blocked.reason is IllegalReason.HOSTILE_SPACE
    anyone = MovementCosts(hostile_pass_size_difference=0)
    assert path_cost(OPEN, HERO, straight(4), [foe("orc", 6, 5)], R555, 60, costs=anyone).legal


def test_crawling_costs_the_rulesets_crawl_surcharge() -> None:
    prone = body("hero", 5, 5, prone=True)
    slow = path_cost(OPEN, prone, straight(1), [], R555, 30, costs=MovementCosts(crawl_extra=2))
    step = slow.steps[0]
    assert (step.cost_feet, step.crawl_feet, step.reasons) == (15, 10, (StepReason.PRONE_CRAWL,))
    free = path_cost(OPEN, prone, straight(1), [], R555, 30, costs=MovementCosts(crawl_extra=0))
    assert (free.steps[0].cost_feet, free.steps[0].reasons) == (5, ())


def test_without_squeezing_rules_a_large_creature_needs_room_for_its_whole_space() -> None:
    ogre = body("ogre", 5, 5, Size.LARGE)
    narrow = index(*corridor(5, 6))
    none = MovementCosts(squeeze_extra=None)
    result = path_cost(narrow, ogre, straight(4), [], R555, 40, costs=none)
    assert not result.legal and result.reason is IllegalReason.WALL
    assert result.blocked_step == 1 and result.cells == ((6, 5),)
    wide = index(*corridor(5, 7))  # room for its whole space: no squeezing needed
    assert path_cost(wide, ogre, straight(4), [], R555, 40, costs=none).cost_feet == 20
    dragon = body("dragon", 2, 5, Size.GARGANTUAN)
    three = index(*corridor(5, 8))
    blocked = path_cost(three, dragon, straight(6, (2, 5)), [], R555, 90, costs=none)
    assert blocked.reason is IllegalReason.WALL


def test_the_squeeze_surcharge_comes_from_the_costs_and_zero_still_marks_the_squeeze() -> None:
    ogre = body("ogre", 5, 5, Size.LARGE)
    narrow = index(*corridor(5, 6))
    dear = path_cost(narrow, ogre, straight(4), [], R555, 40, costs=MovementCosts(squeeze_extra=2))
    assert [s.cost_feet for s in dear.steps] == [5, 15, 5, 5]
    assert dear.steps[1].reasons == (StepReason.SQUEEZE,) and dear.steps[1].terrain_feet == 0
    free = path_cost(narrow, ogre, straight(4), [], R555, 40, costs=MovementCosts(squeeze_extra=0))
    assert free.legal and free.cost_feet == 20
    assert free.steps[1].reasons == (StepReason.SQUEEZE,)


def test_water_surcharge_comes_from_the_costs_and_adds_to_difficult_terrain() -> None:
    lake = index(terrain_regions=(terrain(TerrainKind.WATER, 6, 0, 30, 30),))
    step = path_cost(lake, HERO, straight(1), [], R555, 30).steps[0]
    assert (step.cost_feet, step.terrain_feet, step.reasons) == (10, 5, (StepReason.WATER,))
    dear = path_cost(lake, HERO, straight(1), [], R555, 30, costs=MovementCosts(water_extra=2))
    assert (dear.cost_feet, dear.steps[0].terrain_feet) == (15, 10)
    free = path_cost(lake, HERO, straight(1), [], R555, 30, costs=MovementCosts(water_extra=0))
    assert (free.cost_feet, free.steps[0].reasons, free.steps[0].terrain_feet) == (5, (), 0)
    swamp = index(
        terrain_regions=(
            terrain(TerrainKind.WATER, 6, 0, 30, 30),
            terrain(TerrainKind.DIFFICULT, 6, 0, 30, 30),
        )
    )
    both = path_cost(swamp, HERO, straight(1), [], R555, 30).steps[0]
    assert both.cost_feet == 15
    assert both.reasons == (StepReason.DIFFICULT_TERRAIN, StepReason.WATER)


def test_a_move_may_end_in_another_creatures_space_when_the_costs_allow_it() -> None:
    share = MovementCosts(may_end_in_creature_space=True)
    ally = body("ally", 7, 5)
    result = path_cost(OPEN, HERO, straight(2), [ally], R555, 30, costs=share)
    assert result.legal and result.cost_feet == 15  # the ally's space is still difficult
    # Entering is still ruled by passing: a hostile of the same size can't be entered at all.
    orc = foe("orc", 7, 5)
    blocked = path_cost(OPEN, HERO, straight(2), [orc], R555, 30, costs=share)
    assert blocked.reason is IllegalReason.HOSTILE_SPACE and blocked.blocker_id == "orc"
    rat = foe("rat", 7, 5, Size.TINY)  # two sizes smaller: may be entered, and now ended in
    assert path_cost(OPEN, HERO, straight(2), [rat], R555, 30, costs=share).legal


def test_a_large_creature_is_squeezing_only_where_its_whole_space_has_no_room() -> None:
    narrow = index(*corridor(5, 6))
    assert is_squeezing(narrow, body("ogre", 7, 5, Size.LARGE))  # straddles the wall
    assert not is_squeezing(narrow, body("ogre", 5, 5, Size.LARGE))  # clear of it
    assert not is_squeezing(narrow, body("ogre", 8, 5, Size.LARGE))  # wall on its left edge
    assert not is_squeezing(narrow, body("hero", 7, 5))  # one cell: nothing to squeeze into
    # Straddling the wall anywhere, the ogre stands in the 5-ft column beside it (a squeezing
    # walk along the wall gets there too).
    assert is_squeezing(narrow, body("ogre", 7, 10, Size.LARGE))
    rock = index(
        terrain_regions=(
            terrain(TerrainKind.IMPASSABLE, 10, 10, 12, 11),  # one row of two cells
            terrain(TerrainKind.IMPASSABLE, 20, 20, 22, 22),  # two by two
        )
    )
    assert is_squeezing(rock, body("ogre", 10, 10, Size.LARGE))  # the lower row is free
    assert not is_squeezing(rock, body("ogre", 20, 20, Size.LARGE))  # no Medium space free
    assert not is_squeezing(narrow, body("ogre", 29, 5, Size.LARGE))  # half off the map
    three = index(*corridor(5, 8))
    assert is_squeezing(three, body("dragon", 6, 5, Size.GARGANTUAN))  # a Huge space fits
    assert not is_squeezing(three, body("giant", 7, 5, Size.HUGE))  # fits whole


def test_negative_movement_costs_are_refused() -> None:
    with pytest.raises(ValueError, match="negative"):
        MovementCosts(difficult_extra=-1)
    with pytest.raises(ValueError, match="negative"):
        MovementCosts(hostile_pass_size_difference=-2)
    with pytest.raises(ValueError, match="negative"):
        MovementCosts(crawl_extra=-1)
    with pytest.raises(ValueError, match="negative"):
        MovementCosts(squeeze_extra=-1)
    with pytest.raises(ValueError, match="negative"):
        MovementCosts(water_extra=-1)
