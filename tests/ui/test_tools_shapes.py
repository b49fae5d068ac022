"""The tools' plain-number helpers: snapping, hit tests, brush rectangles, ruler distances."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from battlemap.geometry import UnknownDiagonalRuleError
from battlemap.model import Encounter, Grid, Obstacle, TerrainRegion, Wall
from battlemap.rules.loader import load_registry
from battlemap.ui.tools.distance import path_feet, ruleset_diagonal_rule
from battlemap.ui.tools.shapes import (
    cell_at,
    cells_to_rectangles,
    distance_to_segment,
    feature_at,
    point_in_polygon,
    points_along,
    snap_to_centre,
    snap_to_corner,
)

GRID = Grid(width=10, height=8)


def test_snap_to_corner_rounds_halves_up_and_stays_on_the_map() -> None:
    assert snap_to_corner((1.5, 2.49), GRID) == (2, 2)
    assert snap_to_corner((-3.2, 9.7), GRID) == (0, 8)
    assert snap_to_corner((10.4, 0.4), GRID) == (10, 0)


def test_snap_to_centre_uses_the_cell_under_the_point() -> None:
    assert snap_to_centre((1.0, 1.99), GRID) == (1.5, 1.5)  # a grid line belongs right/below
    assert snap_to_centre((-1, 12), GRID) == (0.5, 7.5)
    assert cell_at((2.0, -0.1)) == (2, -1)


def test_distance_to_segment_edges() -> None:
    assert distance_to_segment((1, 1), (0, 0), (2, 0)) == 1
    assert distance_to_segment((3, 0), (0, 0), (2, 0)) == 1  # beyond the end: to the end
    assert distance_to_segment((1, 1), (0, 0), (0, 0)) == pytest.approx(math.sqrt(2))


def test_point_in_polygon_inside_outside_concave() -> None:
    ell = [(0, 0), (2, 0), (2, 1), (1, 1), (1, 2), (0, 2)]
    assert point_in_polygon((0.5, 1.5), ell)
    assert not point_in_polygon((1.5, 1.5), ell)  # the notch
    assert not point_in_polygon((3, 0.5), ell)


def test_points_along_never_leaves_gaps() -> None:
    points = points_along((0, 0), (1, 0), 0.3)
    assert points[0] == (0, 0) and points[-1] == (1, 0)
    assert all(b[0] - a[0] <= 0.3 for a, b in itertools.pairwise(points))
    assert points_along((2, 2), (2, 2), 0.3) == [(2, 2), (2, 2)]


def test_feature_at_prefers_walls_then_obstacles_then_terrain_on_top() -> None:
    box = [(0, 0), (4, 0), (4, 4), (0, 4)]
    encounter = Encounter(
        walls=(Wall(id="w", a=(0, 2), b=(4, 2)),),
        obstacles=(Obstacle(id="o", points=[(1, 1), (3, 1), (3, 3), (1, 3)]),),
        terrain=(
            TerrainRegion(id="t-under", points=box),
            TerrainRegion(id="t-over", points=box),
        ),
    )
    assert feature_at(encounter, (2, 2.1), 0.2) == "w"
    assert feature_at(encounter, (2, 2.5), 0.2) == "o"
    assert feature_at(encounter, (0.5, 0.5), 0.2) == "t-over"
    assert feature_at(encounter, (5, 5), 0.2) is None


def rect_cells(rect: list[tuple[float, float]]) -> set[tuple[int, int]]:
    (left, top), (right, _), (_, bottom) = rect[0], rect[1], rect[2]
    return {(x, y) for x in range(int(left), int(right)) for y in range(int(top), int(bottom))}


def test_cells_to_rectangles_merges_rows_and_columns() -> None:
    block = {(x, y) for x in range(2, 5) for y in range(1, 4)}
    assert cells_to_rectangles(block) == [[(2, 1), (5, 1), (5, 4), (2, 4)]]
    assert cells_to_rectangles([]) == []


@given(st.sets(st.tuples(st.integers(0, 7), st.integers(0, 7)), max_size=40))
def test_cells_to_rectangles_cover_exactly_without_overlap(cells: set[tuple[int, int]]) -> None:
    rects = cells_to_rectangles(cells)
    covered = [rect_cells(rect) for rect in rects]
    assert sum(len(c) for c in covered) == len(cells)  # no overlap
    assert set().union(*covered) == cells
    assert len(rects) <= len(cells)


@pytest.mark.parametrize(
    ("rule", "points", "expected"),
    [
        ("5-5-5", [(0.5, 0.5), (3.5, 3.5)], [0, 15]),
        ("5-10-5", [(0.5, 0.5), (3.5, 3.5)], [0, 20]),
        ("5-10-5", [(0.5, 0.5), (1.5, 1.5), (2.5, 2.5)], [0, 5, 15]),  # parity carries over
        ("5-10-5", [(0.5, 0.5), (4.5, 1.5)], [0, 20]),  # 3 straight + 1 diagonal
        ("euclidean", [(0.5, 0.5), (3.5, 4.5)], [0, 25]),
        ("5-5-5", [(0.2, 0.0), (1.7, 0.0)], [0, 10]),  # 1.5 cells rounds up to 2
        ("5-5-5", [], []),
    ],
)
def test_path_feet(rule: str, points: list[tuple[float, float]], expected: list[float]) -> None:
    assert path_feet(points, 5.0, rule) == pytest.approx(expected)


def test_path_feet_scales_with_cell_size_and_rejects_unknown_rules() -> None:
    assert path_feet([(0, 0), (2, 0)], 10.0, "5-5-5") == [0, 20]
    with pytest.raises(UnknownDiagonalRuleError, match="unknown diagonal rule"):
        path_feet([(0, 0), (1, 1)], 5.0, "manhattan")


def test_each_ruleset_names_its_diagonal_rule() -> None:
    registry = load_registry()
    assert ruleset_diagonal_rule("srd-5e", registry) == "5-10-5"
    assert ruleset_diagonal_rule("gms-den", registry) == "5-5-5"
    assert ruleset_diagonal_rule("missing", registry) == "5-5-5"


@given(
    st.lists(
        st.tuples(st.integers(0, 20), st.integers(0, 20)).map(lambda p: (p[0] + 0.5, p[1] + 0.5)),
        min_size=2,
        max_size=6,
    )
)
def test_rules_order_for_any_grid_path(points: list[tuple[float, float]]) -> None:
    five = path_feet(points, 5.0, "5-5-5")[-1]
    alternating = path_feet(points, 5.0, "5-10-5")[-1]
    euclid = path_feet(points, 5.0, "euclidean")[-1]
    assert five <= alternating <= five * 1.5 + 5
    assert five <= euclid + 1e-9
