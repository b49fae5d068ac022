"""Area templates: the squares a circle, cone, line or cube affects and the creatures caught.

Rule under test (module docstring of battlemap.geometry.templates): a square is affected when
the template covers at least half of it; a creature is caught when any of its squares is.
"""

from __future__ import annotations

import importlib
import math
from unittest import mock

import pytest
from hypothesis import given
from hypothesis import strategies as st
from shapely.errors import GEOSException
from shapely.geometry import box

from battlemap.geometry import MapIndex
from battlemap.geometry.templates import (
    Template,
    TemplateError,
    TemplateShape,
    affected_cells,
    template_coverage,
    template_polygon,
)
from battlemap.model import Grid, Size, WallKind
from tests.geometry.helpers import body, foe, wall

GRID = Grid(width=30, height=30)
templates_module = importlib.import_module("battlemap.geometry.templates")


def cells_of(template: Template, grid: Grid = GRID) -> set[tuple[int, int]]:
    return set(template_coverage(template, grid, []).cells)


# --- circle ---------------------------------------------------------------------------------


def test_circle_of_5_ft_on_an_intersection_affects_the_four_squares_around_it() -> None:
    # Each of the four squares holds a quarter disc of radius 1: pi/4 = 0.785 >= 0.5.
    cells = cells_of(Template(TemplateShape.CIRCLE, (10, 10), 5))
    assert cells == {(9, 9), (10, 9), (9, 10), (10, 10)}


def test_circle_of_20_ft_affects_the_classic_fireball_pattern() -> None:
    cells = cells_of(Template(TemplateShape.CIRCLE, (10, 10), 20))
    # Symmetric about the origin, and the squares whose centre is within 4 cells all count.
    assert all((19 - c, r) in cells and (c, 19 - r) in cells for c, r in cells)
    assert (6, 9) in cells and (13, 10) in cells  # the square touching the edge at the side
    assert (6, 6) not in cells  # the corner square: centre 4.95 cells away, less than half in
    assert 44 <= len(cells) <= 52  # about the disc's area, pi * 16 = 50.3 squares


def test_circle_touching_a_square_only_at_its_corner_does_not_affect_it() -> None:
    # A 5-ft circle centred on (10, 10) reaches (11, 10): the square (11, 10) shares only that
    # point with it, and (11, 11) is not touched at all.
    cells = cells_of(Template(TemplateShape.CIRCLE, (10, 10), 5))
    assert (11, 10) not in cells and (11, 11) not in cells


# --- cube -------------------------------------------------------------------------------------


def test_cube_fills_the_quadrant_of_its_aim() -> None:
    cube = Template(TemplateShape.CUBE, (10, 10), 15, aim=(8, 12))  # aimed left and down
    assert cells_of(cube) == {(c, r) for c in (7, 8, 9) for r in (10, 11, 12)}


def test_cube_squares_sharing_only_its_corner_or_edge_are_not_affected() -> None:
    cells = cells_of(Template(TemplateShape.CUBE, (10, 10), 10, aim=(11, 11)))
    assert cells == {(10, 10), (11, 10), (10, 11), (11, 11)}
    assert (9, 9) not in cells and (12, 10) not in cells


def test_cube_off_the_grid_lines_counts_squares_covered_at_least_half() -> None:
    # Side 5 ft from (10.5, 10.5): covers a quarter of four squares each -> none is affected.
    assert cells_of(Template(TemplateShape.CUBE, (10.5, 10.5), 5, aim=(11, 11))) == set()
    # From (10.5, 10): half of (10, 10) and half of (11, 10) -> both, exactly half counts.
    assert cells_of(Template(TemplateShape.CUBE, (10.5, 10), 5, aim=(11, 11))) == {
        (10, 10),
        (11, 10),
    }


# --- cone -------------------------------------------------------------------------------------


def test_cone_width_equals_its_distance_from_the_origin() -> None:
    cone = Template(TemplateShape.CONE, (0, 10), 30, aim=(1, 10))
    polygon = template_polygon(cone, 5.0)
    for distance in (1.0, 3.0, 6.0):  # cells from the origin along the aim
        cut = box(distance - 0.0005, 0, distance + 0.0005, 30)
        section = polygon.intersection(cut)
        assert section.bounds[3] - section.bounds[1] == pytest.approx(distance, rel=1e-3)


def test_cone_of_15_ft_aimed_along_a_row_from_an_intersection() -> None:
    # Origin on the left edge of row 10 midpoint is common at the table: aim straight right.
    cells = cells_of(Template(TemplateShape.CONE, (10, 10.5), 15, aim=(20, 10.5)))
    assert (10, 10) in cells and (11, 10) in cells and (12, 10) in cells  # the spine
    assert (12, 9) in cells and (12, 11) in cells  # far end is 3 squares wide
    assert (10, 9) not in cells and (10, 11) not in cells  # near the tip it is too narrow
    assert all(10 <= c <= 12 for c, _ in cells)


def test_cone_aimed_diagonally_is_symmetric_about_the_diagonal() -> None:
    cells = cells_of(Template(TemplateShape.CONE, (10, 10), 30, aim=(11, 11)))
    assert cells and all((r, c) in cells for c, r in cells)
    assert (10, 10) in cells and (9, 9) not in cells  # nothing behind the origin


# --- line ---------------------------------------------------------------------------------------


def test_line_of_30_by_5_ft_along_a_row_affects_six_squares() -> None:
    line = Template(TemplateShape.LINE, (5, 10.5), 30, aim=(6, 10.5), width_feet=5)
    assert cells_of(line) == {(c, 10) for c in range(5, 11)}


def test_line_along_a_grid_line_covers_half_of_each_side_and_affects_both() -> None:
    # Centred on y = 10, 5 ft wide: half of each square in rows 9 and 10 (exactly half counts).
    line = Template(TemplateShape.LINE, (5, 10), 10, aim=(6, 10), width_feet=5)
    assert cells_of(line) == {(5, 9), (6, 9), (5, 10), (6, 10)}


def test_line_is_clipped_to_the_map() -> None:
    line = Template(TemplateShape.LINE, (2, 0.5), 100, aim=(-1, 0.5))
    assert cells_of(line) == {(0, 0), (1, 0)}


# --- creatures ------------------------------------------------------------------------------------


def test_large_creature_partly_inside_is_caught_with_its_affected_squares() -> None:
    ogre = foe("ogre", 11, 10, Size.LARGE)  # squares (11..12, 10..11)
    outside = foe("goblin", 20, 20)
    cube = Template(TemplateShape.CUBE, (9, 9), 15, aim=(10, 10))  # squares 9..11 x 9..11
    coverage = template_coverage(cube, GRID, [ogre, outside])
    assert coverage.creature_ids == ("ogre",)
    assert set(coverage.caught[0].cells) == {(11, 10), (11, 11)}


def test_creature_only_touching_the_template_is_not_caught() -> None:
    # The cube's corner touches the creature's square at (12, 12) only.
    cube = Template(TemplateShape.CUBE, (9, 9), 15, aim=(10, 10))
    coverage = template_coverage(cube, GRID, [body("hero", 12, 12), body("near", 12, 11)])
    assert coverage.creature_ids == ()


def test_tiny_creature_counts_the_square_it_stands_in() -> None:
    rat = foe("rat", 10.5, 10.5, Size.TINY)
    coverage = template_coverage(Template(TemplateShape.CIRCLE, (10, 10), 5), GRID, [rat])
    assert coverage.creature_ids == ("rat",)


# --- bad input -----------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [0, -5, math.inf, math.nan])
def test_unusable_sizes_are_refused(size: float) -> None:
    with pytest.raises(TemplateError, match="size"):
        template_polygon(Template(TemplateShape.CIRCLE, (1, 1), size), 5.0)


def test_cone_without_an_aim_away_from_its_origin_is_refused() -> None:
    with pytest.raises(TemplateError, match="aim"):
        template_polygon(Template(TemplateShape.CONE, (1, 1), 15, aim=(1, 1)), 5.0)
    with pytest.raises(ValueError, match="aim"):
        template_polygon(Template(TemplateShape.LINE, (1, 1), 15), 5.0)


# --- invariants -----------------------------------------------------------------------------------

coords = st.floats(min_value=2, max_value=28, allow_nan=False)
angles = st.floats(min_value=0, max_value=2 * math.pi, allow_nan=False)


@given(
    shape=st.sampled_from(list(TemplateShape)),
    x=coords,
    y=coords,
    angle=angles,
    size=st.sampled_from([5.0, 10.0, 15.0, 20.0, 30.0]),
)
def test_every_affected_square_is_at_least_half_covered_and_no_other_is(
    shape: TemplateShape, x: float, y: float, angle: float, size: float
) -> None:
    template = Template(shape, (x, y), size, aim=(x + math.cos(angle), y + math.sin(angle)))
    polygon = template_polygon(template, GRID.cell_feet)
    cells = set(affected_cells(polygon, GRID))
    minx, miny, maxx, maxy = polygon.bounds
    for c in range(max(0, int(minx) - 1), min(30, int(maxx) + 2)):
        for r in range(max(0, int(miny) - 1), min(30, int(maxy) + 2)):
            covered = polygon.intersection(box(c, r, c + 1, r + 1)).area
            if covered >= 0.5 + 1e-6:
                assert (c, r) in cells
            elif covered < 0.5 - 1e-6:
                assert (c, r) not in cells


@given(x=coords, y=coords, angle=angles)
def test_a_bigger_cone_affects_every_square_a_smaller_one_does(
    x: float, y: float, angle: float
) -> None:
    aim = (x + math.cos(angle), y + math.sin(angle))
    small = cells_of(Template(TemplateShape.CONE, (x, y), 15, aim))
    large = cells_of(Template(TemplateShape.CONE, (x, y), 30, aim))
    assert small <= large


# --- walls ---------------------------------------------------------------------------------------


def long_wall(x: float, kind: WallKind = WallKind.WALL, is_open: bool = False) -> MapIndex:
    """The 30 x 30 map with one wall (or door) along the grid line ``x`` from top to bottom."""
    return MapIndex(GRID, [wall((x, 0), (x, 30), kind=kind, open=is_open)])


def test_a_wall_stops_the_area_and_a_creature_behind_it_is_not_caught() -> None:
    fireball = Template(TemplateShape.CIRCLE, (10, 10), 20)
    behind = foe("behind", 12, 10)  # inside the outline, across the wall at x = 12
    front = foe("front", 11, 10)
    open_map = set(template_coverage(fireball, GRID, []).cells)
    coverage = template_coverage(fireball, GRID, [behind, front], long_wall(12))
    assert set(coverage.cells) == {(c, r) for c, r in open_map if c < 12}
    assert coverage.creature_ids == ("front",)


def test_a_circle_centred_on_a_wall_fills_the_side_it_is_aimed_at() -> None:
    index = long_wall(10)
    right = template_coverage(
        Template(TemplateShape.CIRCLE, (10, 10), 10, aim=(11, 10)), GRID, [], index
    )
    left = template_coverage(
        Template(TemplateShape.CIRCLE, (10, 10), 10, aim=(9, 10)), GRID, [], index
    )
    assert right.cells and all(c >= 10 for c, _ in right.cells)
    assert left.cells and all(c <= 9 for c, _ in left.cells)
    assert {(19 - c, r) for c, r in right.cells} == set(left.cells)  # mirror images


def test_an_open_door_lets_the_area_through_and_a_closed_one_does_not() -> None:
    cone = Template(TemplateShape.CONE, (8, 10.5), 30, aim=(9, 10.5))
    free = set(template_coverage(cone, GRID, []).cells)
    through_open = template_coverage(cone, GRID, [], long_wall(11, WallKind.DOOR, is_open=True))
    through_closed = template_coverage(cone, GRID, [], long_wall(11, WallKind.DOOR))
    assert set(through_open.cells) == free
    assert set(through_closed.cells) == {(c, r) for c, r in free if c < 11}


@given(
    shape=st.sampled_from(list(TemplateShape)),
    angle=angles,
    wall_x=st.integers(min_value=1, max_value=29),
    wall_from=st.integers(min_value=0, max_value=29),
)
def test_walls_only_ever_remove_squares(
    shape: TemplateShape, angle: float, wall_x: int, wall_from: int
) -> None:
    template = Template(shape, (15, 15), 20, aim=(15 + math.cos(angle), 15 + math.sin(angle)))
    index = MapIndex(GRID, [wall((wall_x, wall_from), (wall_x, 30))])
    assert set(template_coverage(template, GRID, [], index).cells) <= cells_of(template)


CHECKED_REACHED: list[int] = []


@given(
    x=coords,
    y=coords,
    angle=angles,
    walls=st.lists(
        st.tuples(*[st.floats(3, 27, allow_nan=False)] * 4).filter(
            lambda w: math.hypot(w[2] - w[0], w[3] - w[1]) > 0.1
        ),
        min_size=1,
        max_size=6,
    ),
)
def test_squares_of_an_area_cut_by_walls_are_those_at_least_half_covered(
    x: float, y: float, angle: float, walls: list[tuple[float, float, float, float]]
) -> None:
    # The area a wall cuts has a ragged outline (and pieces or holes): each square's share
    # measured by a clip of its rectangle must agree with the full overlay.
    index = MapIndex(GRID, [wall((w[0], w[1]), (w[2], w[3])) for w in walls])
    template = Template(
        TemplateShape.CONE, (x, y), 30, aim=(x + math.cos(angle), y + math.sin(angle))
    )
    reached = template_coverage(template, GRID, [], index).reached
    cells = set(affected_cells(reached, GRID))
    for c in range(30):
        for r in range(30):
            covered = reached.intersection(box(c, r, c + 1, r + 1)).area
            if covered >= 0.5 + 1e-6:
                assert (c, r) in cells
            elif covered < 0.5 - 1e-6:
                assert (c, r) not in cells
    CHECKED_REACHED.append(len(cells))


def test_a_square_inside_a_hole_or_between_pieces_is_not_affected() -> None:
    ring = box(2, 2, 9, 9).difference(box(4, 4, 7, 7))  # a 3 x 3 hole
    pieces = ring.union(box(12, 2, 14, 4))
    cells = set(affected_cells(pieces, GRID))
    assert (5, 5) not in cells and (4, 4) not in cells  # in the hole
    assert (3, 3) in cells and (12, 2) in cells and (13, 3) in cells
    assert (10, 3) not in cells  # between the pieces
    assert len(cells) == 7 * 7 - 3 * 3 + 4


def test_the_cut_area_property_checked_enough_areas() -> None:
    # Runs after the property above (file order): its draws really had squares to check.
    assert len(CHECKED_REACHED) >= 50 and sum(CHECKED_REACHED) > 1000, CHECKED_REACHED


def test_a_clip_that_fails_or_errs_near_half_a_square_is_measured_by_the_overlay() -> None:
    # A circle of 15 ft: squares on its outline hold all shares from slivers to nearly whole.
    polygon = template_polygon(Template(TemplateShape.CIRCLE, (10.3, 10.6), 15), GRID.cell_feet)
    exact = set(affected_cells(polygon, GRID))
    real_clip = templates_module.shapely.clip_by_rect
    calls: list[tuple[float, float]] = []
    pushed: list[tuple[float, float]] = []

    def unreliable(geometry: object, x0: float, y0: float, x1: float, y1: float) -> object:
        calls.append((x0, y0))
        if len(calls) % 3 == 0:
            raise GEOSException("TopologyException: side location conflict")
        clipped = real_clip(geometry, x0, y0, x1, y1)
        if abs(clipped.area - 0.5) < 0.05:  # a sliver's error pushes it across half
            pushed.append((x0, y0))
            return box(x0, y0, x0 + 1, y0 + (0.46 if clipped.area >= 0.5 else 0.54))
        return clipped

    with mock.patch.object(templates_module.shapely, "clip_by_rect", unreliable):
        assert set(affected_cells(polygon, GRID)) == exact
    assert len(calls) >= 12 and pushed  # the outline's squares went through the clip
