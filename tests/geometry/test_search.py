"""Rules 5 and 6: the cheapest path to a cell and the reachable area, and the property that
the cheapest path is never dearer than any path the DM drags."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from battlemap.geometry import (
    Body,
    DiagonalRule,
    IllegalReason,
    MapIndex,
    cheapest_path,
    path_cost,
    reachable_area,
)
from battlemap.geometry.map_index import DIRECTIONS
from battlemap.geometry.movement import MovementCosts
from battlemap.model import Size, TerrainKind
from tests.geometry.helpers import body, foe, index, terrain, wall

R555, R5105, EUC = DiagonalRule.FIVE_FIVE_FIVE, DiagonalRule.FIVE_TEN_FIVE, DiagonalRule.EUCLIDEAN
HERO = body("hero", 10, 10)


def test_speed_30_reaches_the_13_by_13_square_under_5_5_5() -> None:
    area = reachable_area(index(), HERO, [], R555, 30)
    assert area.cells == {(x, y) for x in range(4, 17) for y in range(4, 17)}
    assert area.cost_feet[(10, 10)] == 0 and area.cost_feet[(16, 16)] == 30


def test_speed_30_reaches_an_octagon_under_5_10_5() -> None:
    area = reachable_area(index(), HERO, [], R5105, 30)
    assert (14, 14) in area.cells  # 4 diagonals: 5+10+5+10 = 30
    assert (15, 15) not in area.cells  # 5 diagonals: 35
    assert area.cost_feet[(15, 12)] == 30  # 2 diagonals (5 + 10) and 3 straight steps
    assert (16, 12) not in area.cells  # 2 diagonals and 4 straight steps: 35 ft


def test_reachable_area_goes_around_walls_and_pays_for_difficult_terrain() -> None:
    walled = index(wall((12, 0), (12, 30)))
    assert all(x < 12 for x, _ in reachable_area(walled, HERO, [], R555, 30).cells)
    mud = index(terrain_regions=(terrain(TerrainKind.DIFFICULT, 11, 0, 30, 30),))
    area = reachable_area(mud, HERO, [], R555, 30)
    assert (13, 10) in area.cells and (14, 10) not in area.cells  # 10 + 10 + 10


def test_occupied_cells_can_be_crossed_but_are_not_offered_as_destinations() -> None:
    ally = body("ally", 11, 10)
    area = reachable_area(index(), HERO, [ally], R555, 30)
    assert (11, 10) not in area.cells and (11, 10) in area.passable
    assert area.cost_feet[(12, 10)] == 10  # through the ally (10) is as cheap as around (10)


def test_path_to_returns_the_cheapest_route_from_the_start() -> None:
    walled = index(wall((12, 0), (12, 12)))
    area = reachable_area(walled, HERO, [], R555, 60)
    route = area.path_to((13, 10))
    assert route[0] == (10, 10) and route[-1] == (13, 10)
    walked = path_cost(walled, HERO, route[1:], [], R555, 60)
    assert walked.legal and walked.cost_feet == area.cost_feet[(13, 10)]


def test_cheapest_path_goes_around_a_wall() -> None:
    walled = index(wall((12, 0), (12, 12)))
    result = cheapest_path(walled, HERO, (14, 10), [], R555, 60)
    assert result.legal and result.cells[-1] == (14, 10)
    # Round the wall's end at (12, 12): no cutting its corner diagonally, so 5 steps.
    assert result.cost_feet == 25
    assert (12, 12) in result.cells


def test_cheapest_path_to_an_occupied_cell_or_behind_a_closed_wall_is_illegal() -> None:
    ally = body("ally", 14, 10)
    assert cheapest_path(index(), HERO, (14, 10), [ally], R555).reason is (
        IllegalReason.ENDS_IN_CREATURE
    )
    boxed = index(wall((12, 0), (12, 30)))
    assert cheapest_path(boxed, HERO, (14, 10), [], R555).reason is IllegalReason.NO_PATH


def test_cheapest_path_weaves_around_hostile_creatures() -> None:
    guards = [foe(f"g{y}", 12, y) for y in range(5, 15)]
    result = cheapest_path(index(), HERO, (14, 10), guards, R555, 60)
    assert result.legal and all(cell[0] != 12 or not 5 <= cell[1] < 15 for cell in result.cells)


def test_a_large_creature_finds_the_squeeze_through_a_narrow_gap() -> None:
    ogre = body("ogre", 5, 5, Size.LARGE)
    narrow = index(wall((8, 0), (8, 5)), wall((8, 6), (8, 30)))
    result = cheapest_path(narrow, ogre, (10, 5), [], R555)
    assert result.legal and result.cost_feet == 30  # 5 steps, one squeezed


def test_without_squeezing_rules_the_search_finds_no_way_through_a_narrow_gap() -> None:
    ogre = body("ogre", 5, 5, Size.LARGE)
    narrow = index(wall((8, 0), (8, 5)), wall((8, 6), (8, 30)))
    none = MovementCosts(squeeze_extra=None)
    assert cheapest_path(narrow, ogre, (10, 5), [], R555, costs=none).reason is (
        IllegalReason.NO_PATH
    )
    area = reachable_area(narrow, ogre, [], R555, 60, costs=none)
    assert area.cells and all(x < 7 for x, _ in area.cells)  # its space stays left of the wall
    dear = cheapest_path(narrow, ogre, (10, 5), [], R555, costs=MovementCosts(squeeze_extra=2))
    assert dear.legal and dear.cost_feet == 35  # 5 steps, one squeezed at 3x


def test_the_search_pays_the_water_surcharge_of_the_costs() -> None:
    lake = index(terrain_regions=(terrain(TerrainKind.WATER, 0, 0, 30, 30),))
    assert reachable_area(lake, HERO, [], R555, 30).cost_feet[(13, 10)] == 30
    free = reachable_area(lake, HERO, [], R555, 30, costs=MovementCosts(water_extra=0))
    assert free.cost_feet[(13, 10)] == 15 and (16, 10) in free.cells


def test_the_search_offers_occupied_cells_when_a_move_may_end_there() -> None:
    ally = body("ally", 11, 10)
    share = MovementCosts(may_end_in_creature_space=True)
    area = reachable_area(index(), HERO, [ally], R555, 30, costs=share)
    assert area.cost_feet[(11, 10)] == 10  # difficult terrain still
    found = cheapest_path(index(), HERO, (11, 10), [ally], R555, costs=share)
    assert found.legal and found.cells == ((11, 10),)


def test_5_10_5_search_keeps_the_diagonal_parity() -> None:
    result = cheapest_path(index(), HERO, (14, 13), [], R5105)
    assert result.cost_feet == 25  # 3 diagonals (5+10+5) and one straight step


paths = st.lists(st.sampled_from(range(8)), min_size=1, max_size=10)


costs = st.builds(
    MovementCosts,
    difficult_extra=st.integers(0, 3),
    creature_space_is_difficult=st.booleans(),
    hostile_pass_size_difference=st.integers(0, 4),
    crawl_extra=st.integers(0, 2),
    squeeze_extra=st.sampled_from([None, 0, 1, 2]),
    water_extra=st.integers(0, 2),
    may_end_in_creature_space=st.booleans(),
)
"""The ruleset's movement numbers: the SRD's and changed ones (the search must agree with the
walk whatever they are)."""


def assert_search_beats_the_drag(
    world: MapIndex,
    mover: Body,
    others: list[Body],
    directions: list[int],
    rule: DiagonalRule,
    numbers: MovementCosts,
) -> bool:
    """Drag ``mover`` one step per direction; if that is a legal move, the cheapest path to
    where it ends is legal, no dearer, and what the reachable area says it costs. Returns
    whether it was a legal move (so the property was checked)."""
    cells = [(math.floor(mover.x), math.floor(mover.y))]
    for d in directions:
        dx, dy = DIRECTIONS[d]
        cells.append((cells[-1][0] + dx, cells[-1][1] + dy))
    dragged = path_cost(world, mover, cells[1:], others, rule, 1000, costs=numbers)
    if not dragged.legal or not dragged.steps:
        return False
    best = cheapest_path(world, mover, dragged.cells[-1], others, rule, 1000, costs=numbers)
    assert best.legal
    assert best.cost_feet <= dragged.cost_feet + 1e-9
    area = reachable_area(world, mover, others, rule, dragged.cost_feet, costs=numbers)
    assert area.cost_feet[dragged.cells[-1]] == best.cost_feet
    return True


DRAGS = 80
"""Drags per property; at least a third of them must be legal moves (about half are)."""


def test_the_cheapest_path_is_never_dearer_than_a_dragged_path() -> None:
    world = index(
        wall((12, 8), (12, 13)),
        wall((8, 12), (11, 12)),
        terrain_regions=(
            terrain(TerrainKind.DIFFICULT, 9, 7, 11, 9),
            terrain(TerrainKind.WATER, 7, 9, 9, 12),
        ),
        width=20,
        height=20,
    )
    others = [body("ally", 9, 10), foe("orc", 11, 11, Size.HUGE)]
    checked: list[bool] = []

    @settings(max_examples=DRAGS, deadline=None, database=None)
    @given(paths, st.sampled_from(list(DiagonalRule)), st.booleans(), costs)
    def drag(
        directions: list[int], rule: DiagonalRule, prone: bool, numbers: MovementCosts
    ) -> None:
        mover = body("hero", 10, 10, prone=prone)
        checked.append(
            assert_search_beats_the_drag(world, mover, others, directions, rule, numbers)
        )

    drag()
    assert sum(checked) >= DRAGS // 3, f"only {sum(checked)} of {len(checked)} drags were legal"


def test_the_reachable_area_shrinks_when_difficult_terrain_costs_more() -> None:
    mud = index(terrain_regions=(terrain(TerrainKind.DIFFICULT, 0, 0, 30, 30),))
    srd = reachable_area(mud, HERO, [], R555, 30)  # 10 ft a step: 3 steps
    assert srd.cells == {(x, y) for x in range(7, 14) for y in range(7, 14)}
    dearer = reachable_area(mud, HERO, [], R555, 30, costs=MovementCosts(difficult_extra=2))
    assert dearer.cells == {(x, y) for x in range(8, 13) for y in range(8, 13)}  # 15 ft: 2
    assert dearer.cost_feet[(12, 12)] == 30


def test_a_large_movers_cheapest_path_is_never_dearer_than_a_dragged_one() -> None:
    ogre = body("ogre", 6, 5, Size.LARGE)
    world = index(
        wall((8, 0), (8, 5)),
        wall((8, 6), (8, 20)),  # a 5-ft gap: squeezing or nothing
        terrain_regions=(terrain(TerrainKind.WATER, 9, 3, 12, 8),),
        width=20,
        height=20,
    )
    others = [body("ally", 10, 5), foe("orc", 6, 8)]
    checked: list[bool] = []

    @settings(max_examples=DRAGS, deadline=None, database=None)
    @given(paths, st.sampled_from(list(DiagonalRule)), costs)
    def drag(directions: list[int], rule: DiagonalRule, numbers: MovementCosts) -> None:
        checked.append(assert_search_beats_the_drag(world, ogre, others, directions, rule, numbers))

    drag()
    assert sum(checked) >= DRAGS // 3, f"only {sum(checked)} of {len(checked)} drags were legal"
