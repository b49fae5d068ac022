"""Rule 8: sight between creatures through walls, and the visibility polygon for fog of war."""

from __future__ import annotations

import math

import shapely

from battlemap.geometry import SightReason, can_see, point_sees_point, visibility_polygon
from battlemap.model import CoverDegree
from tests.geometry.helpers import body, door, foe, index, obstacle, wall, window

A, B = body("a", 2, 5), foe("b", 8, 5)


def test_creatures_in_the_open_see_each_other_along_the_centre_line() -> None:
    result = can_see(index(), A, B)
    assert result.visible and result.reason is SightReason.CLEAR_LINE
    assert result.line == ((2.5, 5.5), (8.5, 5.5))


def test_a_wall_hides_and_a_partial_wall_does_not() -> None:
    assert can_see(index(wall((5, 0), (5, 30))), A, B).reason is SightReason.WALLS
    partial = can_see(index(wall((5, 0), (5, 5.8))), A, B)
    assert partial.visible and partial.line != ((2.5, 5.5), (8.5, 5.5))


def test_windows_and_open_doors_let_sight_through_closed_doors_do_not() -> None:
    assert can_see(index(window((5, 0), (5, 30))), A, B).visible
    assert can_see(index(door((5, 0), (5, 30), open_=True)), A, B).visible
    assert not can_see(index(door((5, 0), (5, 30), open_=False)), A, B).visible


def test_pillars_block_sight_but_low_walls_and_tables_do_not() -> None:
    pillar = obstacle("pillar", 4, 0, 6, 30, CoverDegree.TOTAL)
    table = obstacle("table", 4, 0, 6, 30, CoverDegree.HALF)
    assert not can_see(index(obstacles=(pillar,)), A, B).visible
    assert can_see(index(obstacles=(table,)), A, B).visible


def test_blinded_observers_and_invisible_targets_are_never_seen() -> None:
    assert can_see(index(), body("a", 2, 5, blinded=True), B).reason is SightReason.BLINDED
    assert can_see(index(), A, foe("b", 8, 5, invisible=True)).reason is SightReason.INVISIBLE


def test_a_creature_pressed_against_a_wall_does_not_see_through_it() -> None:
    left, right = body("l", 4, 5), foe("r", 5, 5)
    assert not can_see(index(wall((5, 0), (5, 30))), left, right).visible


def test_sight_through_the_gap_at_a_wall_joint_is_blocked() -> None:
    joined = index(wall((5, 0), (5, 5.5)), wall((5, 5.5), (5, 30)))
    assert not point_sees_point(joined, (2.5, 5.5), (8.5, 5.5))
    assert point_sees_point(index(wall((5, 0), (5, 5.5))), (2.5, 5.5), (8.5, 5.5))


def test_the_visibility_polygon_of_an_empty_map_is_the_whole_map() -> None:
    seen = visibility_polygon(index(width=20, height=10), (3.0, 4.0))
    assert math.isclose(seen.area, 200.0, rel_tol=1e-9)


def test_the_visibility_polygon_stops_at_walls_and_sees_round_their_ends() -> None:
    room = index(wall((10, 0), (10, 8)), width=20, height=10)  # a gap from y = 8 to 10
    seen = visibility_polygon(room, (5.0, 5.0))
    assert seen.contains(shapely.Point(9.5, 1.0))
    assert not seen.contains(shapely.Point(15.0, 2.0))
    assert seen.contains(shapely.Point(12.0, 9.5))  # through the gap
    # Exact at the wall's end: the shadow edge passes through (10, 8).
    assert seen.buffer(1e-6).contains(shapely.Point(12.0, 9.2))
    assert not seen.contains(shapely.Point(12.0, 9.0))


def test_the_visibility_polygon_agrees_with_point_to_point_sight() -> None:
    world = index(
        wall((4, 2), (4, 7)), wall((4, 7), (9, 7)), wall((12, 1), (15, 4)), width=20, height=12
    )
    origin = (2.0, 5.0)
    seen = visibility_polygon(world, origin)
    for x in range(1, 20, 2):
        for y in range(1, 12, 2):
            probe = (x + 0.3, y + 0.3)
            assert seen.contains(shapely.Point(probe)) == point_sees_point(world, origin, probe)


def test_the_visibility_polygon_can_be_limited_to_a_radius_and_is_empty_off_the_map() -> None:
    seen = visibility_polygon(index(), (15.0, 15.0), radius=3.0)
    assert math.isclose(seen.area, math.pi * 9, rel_tol=0.01)
    assert visibility_polygon(index(), (-5.0, 3.0)).is_empty
