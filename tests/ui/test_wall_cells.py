"""The players' map features: the vectorised wall sampling keeps exactly the walls that
sampling one point at a time keeps, a wall far longer than the cells costs no more to check,
and huge obstacles and terrain are matched to the known cells without listing their cells."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from battlemap.model import EntityId, Wall
from battlemap.model.features import Point
from battlemap.model.fog import Cell
from battlemap.ui.players.wall_cells import KnownCells, walls_touching


def cells_sampled_one_at_a_time(a: Point, b: Point) -> set[Cell]:
    """The rule as first written: samples every quarter cell, the cells within 1e-6 of each."""
    steps = max(1, math.ceil(math.dist(a, b) * 4))
    cells = set()
    for i in range(steps + 1):
        x = a[0] + (b[0] - a[0]) * i / steps
        y = a[1] + (b[1] - a[1]) * i / steps
        for dx in (-1e-6, 1e-6):
            for dy in (-1e-6, 1e-6):
                cells.add((math.floor(x + dx), math.floor(y + dy)))
    return cells


# Quarter and half cells make walls along grid lines and through corners common.
coordinate = st.one_of(
    st.integers(-3, 12).map(float),
    st.integers(-12, 48).map(lambda v: v / 4),
    st.floats(-3, 12, allow_nan=False),
)
point = st.tuples(coordinate, coordinate)
cell = st.tuples(st.integers(-2, 10), st.integers(-2, 10))
grid_line = st.integers(-2, 10).map(float)
wall_ends = st.one_of(
    st.tuples(point, point),
    st.builds(lambda x, y0, y1: ((x, y0), (x, y1)), grid_line, coordinate, coordinate),
)


def test_vectorised_walls_are_exactly_those_sampled_one_at_a_time() -> None:
    seen: Counter[str] = Counter()

    @settings(max_examples=400, deadline=None)
    @given(
        ends=st.lists(wall_ends, min_size=1, max_size=12),
        cells=st.frozensets(cell, min_size=1, max_size=30),
    )
    def check(ends: list[tuple[Point, Point]], cells: frozenset[Cell]) -> None:
        walls = [Wall(a=a, b=b) for a, b in ends]
        expected = tuple(
            w for w in walls if not cells.isdisjoint(cells_sampled_one_at_a_time(w.a, w.b))
        )
        assert walls_touching(walls, cells) == expected
        seen["kept"] += len(expected)
        seen["dropped"] += len(walls) - len(expected)
        seen["on a grid line"] += sum(w.a[0] == w.b[0] and w.a[0].is_integer() for w in expected)

    check()
    assert min(seen.values()) >= 100, seen


def test_a_wall_thousands_of_cells_long_is_checked_only_near_the_cells() -> None:
    long = Wall(a=(-9000.0, 0.5), b=(9000.0, 0.5))
    far = Wall(a=(-9000.0, 5000.0), b=(9000.0, 5000.0))
    assert walls_touching([long, far], frozenset({(3, 0)})) == (long,)


def test_no_walls_or_no_cells_keep_nothing() -> None:
    assert walls_touching([], frozenset({(0, 0)})) == ()
    assert walls_touching([Wall(a=(0, 0), b=(1, 0))], frozenset()) == ()


# --- obstacles and terrain: kept when a known cell lies under their bounding box -------------


def huge_map_features(known: frozenset[Cell]) -> tuple[int, int]:
    """How many of a huge obstacle and a huge terrain region (18,000 cells across, which
    made 324 million cells to test) the players' view keeps under ``known``."""
    from battlemap.model import Encounter, TerrainRegion
    from battlemap.model.features import Obstacle
    from battlemap.model.fog import FogMode, FogOfWar
    from battlemap.ui.players.projection import project

    corners = [(-9000.0, -9000.0), (9000.0, -9000.0), (9000.0, 9000.0)]
    encounter = Encounter(
        obstacles=(Obstacle(points=corners, name="cliff"),),
        terrain=(TerrainRegion(points=corners),),
        fog=FogOfWar(mode=FogMode.MANUAL, revealed=known),
    )
    view = project(encounter, None)
    return len(view.obstacles), len(view.terrain)


def test_huge_obstacles_and_terrain_are_kept_only_over_known_cells() -> None:
    """The encounter cuts them to the map's margin (``model.map_margin``), so their box ends
    ``MAP_MARGIN_CELLS`` past the map's edge."""
    from battlemap.model import Encounter
    from battlemap.model.limits import MAP_MARGIN_CELLS

    grid = Encounter().grid
    margin = int(MAP_MARGIN_CELLS)
    right, bottom = grid.width + margin, grid.height + margin
    assert huge_map_features(frozenset({(1, 1), (2, 1)})) == (1, 1)
    assert huge_map_features(frozenset({(right, 0)})) == (0, 0)  # just right of the box
    assert huge_map_features(frozenset({(right - 1, bottom - 1)})) == (1, 1)  # its last cell


def test_the_walls_arrays_kept_for_a_tuple_follow_a_new_tuple_and_never_a_changed_list() -> None:
    near = Wall(id=EntityId("near"), a=(1.0, 1.5), b=(3.0, 1.5))
    far = Wall(id=EntityId("far"), a=(20.0, 20.5), b=(22.0, 20.5))
    cells = frozenset({(2, 1)})
    walls = (near, far)
    assert walls_touching(walls, cells) == (near,)
    assert walls_touching(walls, frozenset({(21, 20)})) == (far,)  # same walls, other cells
    assert walls_touching((far, near), cells) == (near,)  # a new tuple: its own arrays
    changing = [near, far]
    assert walls_touching(changing, cells) == (near,)
    changing[0] = far
    assert walls_touching(changing, cells) == ()  # the list changed in place: read again


BOXES_CHECKED: list[bool] = []


@settings(max_examples=300)
@given(
    cells=st.frozensets(st.tuples(st.integers(-3, 12), st.integers(-3, 12)), max_size=30),
    box=st.tuples(*[st.integers(-6, 16)] * 4),
)
def test_known_cells_find_a_cell_in_a_box_exactly_when_one_is_there(
    cells: frozenset[Cell], box: tuple[int, int, int, int]
) -> None:
    left, top, width, height = box[0], box[1], box[2] % 8, box[3] % 8
    right, bottom = left + width, top + height
    expected = any(left <= c < right and top <= r < bottom for c, r in cells)
    known = KnownCells.of(cells)
    assert (known is not None and known.any_in(left, top, right, bottom)) is expected
    if known is not None:
        cols = np.array([c for c in range(-5, 15) for _ in range(-5, 15)])
        rows = np.array([r for _ in range(-5, 15) for r in range(-5, 15)])
        held = known.holds(cols, rows)
        assert held.tolist() == [(c, r) in cells for c, r in zip(cols, rows, strict=True)]
    BOXES_CHECKED.append(expected)


def test_the_box_property_saw_boxes_with_and_without_known_cells() -> None:
    # Runs after the property above (file order).
    assert BOXES_CHECKED.count(True) >= 30 and BOXES_CHECKED.count(False) >= 30
