"""Walls, obstacles and terrain are cut at the map's margin: on load, on drawing, on a
shrunk map; undo restores them."""

from __future__ import annotations

import math

import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from battlemap.model import Document, Encounter, Grid, Obstacle, TerrainRegion, Wall, WallKind
from battlemap.model.features import Point
from battlemap.model.limits import COORD_LIMIT, MAP_MARGIN_CELLS
from battlemap.model.map_commands import AddObstacle, AddWalls, SetGrid
from battlemap.model.map_margin import clip_polygon, clip_segment, clip_walls, margin_box

BOX = (0.0, 0.0, 10.0, 10.0)
GRID = Grid(width=10, height=8)


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ((1, 1), (9, 9), ((1, 1), (9, 9))),  # inside: unchanged, the same ends
        ((5, 5), (5, 50), ((5, 5), (5, 10))),  # leaves through the bottom
        ((-5, 5), (15, 5), ((0, 5), (10, 5))),  # crosses the whole box
        ((-10, 5), (5, -10), None),  # passes the corner outside
        ((-5, 5), (5, -5), None),  # touches the corner (0, 0) only
        ((0, -5), (0, 15), ((0, 0), (0, 10))),  # runs along the left side: kept
        ((20, 20), (30, 30), None),  # wholly outside
        ((11, 0), (11, 10), None),  # parallel to a side, outside it
    ],
)
def test_clip_segment_boundary_cases(
    a: tuple[float, float], b: tuple[float, float], expected: object
) -> None:
    assert clip_segment(a, b, BOX) == expected


def test_margin_box_is_the_map_plus_the_margin() -> None:
    m = MAP_MARGIN_CELLS
    assert margin_box(GRID) == (-m, -m, 10 + m, 8 + m)


def test_walls_inside_keep_the_same_tuple() -> None:
    walls = (Wall(a=(0, 0), b=(10, 0)), Wall(a=(-1, -1), b=(11, 9)))
    assert clip_walls(walls, GRID) is walls


def test_a_cut_wall_keeps_its_id_kind_and_state() -> None:
    door = Wall(id="d", a=(5, 4), b=(5000, 4), kind=WallKind.DOOR, open=True)
    (cut,) = clip_walls((door,), GRID)
    assert (cut.id, cut.kind, cut.open, cut.a, cut.b) == ("d", door.kind, True, (5, 4), (15, 4))


segments = st.tuples(
    *[st.floats(-COORD_LIMIT, COORD_LIMIT, allow_nan=False) for _ in range(4)]
).filter(lambda s: (s[0], s[1]) != (s[2], s[3]))


def test_a_clipped_segment_lies_inside_the_box_on_the_original_line() -> None:
    box = margin_box(GRID)
    ran: list[bool] = []  # per example: was the segment cut

    @settings(max_examples=300)
    @given(segments)
    def check(seg: tuple[float, float, float, float]) -> None:
        a, b = (seg[0], seg[1]), (seg[2], seg[3])
        clipped = clip_segment(a, b, box)
        ran.append(clipped is not None and clipped != (a, b))
        if clipped is None:
            return
        for x, y in clipped:
            assert box[0] <= x <= box[2] and box[1] <= y <= box[3]
            # on the line through a and b, up to the 1e-6 rounding of a cut end
            cross = (b[0] - a[0]) * (y - a[1]) - (b[1] - a[1]) * (x - a[0])
            assert abs(cross) <= 2e-6 * math.dist(a, b) + 1e-9
        assert clip_segment(*clipped, box) == clipped  # clipping again changes nothing

    check()
    assert len(ran) >= 300
    assert sum(ran) >= 10  # segments that really were cut, not only kept or dropped


def test_loading_cuts_walls_thousands_of_cells_off_the_map() -> None:
    # Issue 18: 100 such walls made every players'-view update take 6.8 s.
    far = [{"a": [i % 10, 0], "b": [9000, 9000 - i]} for i in range(100)]
    far += [{"a": [-9000, -9000], "b": [-8000, -9000]}]  # wholly off the map: dropped
    encounter = Encounter.model_validate({"grid": {"width": 10, "height": 8}, "walls": far})
    assert len(encounter.walls) == 100
    box = margin_box(encounter.grid)
    diagonal = math.dist(box[:2], box[2:])
    for wall in encounter.walls:
        for x, y in (wall.a, wall.b):
            assert box[0] <= x <= box[2] and box[1] <= y <= box[3]
    # What the players' projection samples grows with the walls' length: now at most the
    # box's diagonal per wall, instead of ~12,700 cells.
    assert sum(math.dist(w.a, w.b) for w in encounter.walls) <= 100 * diagonal


def test_a_loaded_encounter_saves_and_reloads_the_same_cut_walls() -> None:
    raw = {"grid": {"width": 10, "height": 8}, "walls": [{"a": [5, 4], "b": [9000, 4.5]}]}
    loaded = Encounter.model_validate(raw)
    assert Encounter.model_validate(loaded.model_dump(mode="json")) == loaded


def test_drawn_walls_are_cut_and_undo_removes_them() -> None:
    start = Encounter(grid=GRID)
    document = Document(start)
    command = AddWalls((Wall(id="w", a=(1, 1), b=(1, 900)), Wall(a=(900, 0), b=(901, 0))))
    document.apply(command)
    assert [(w.id, w.a, w.b) for w in document.encounter.walls] == [
        ("w", (1, 1), (1, 8 + MAP_MARGIN_CELLS))
    ]
    document.revert(command)
    assert document.encounter == start


def test_shrinking_the_map_cuts_walls_and_undo_gives_them_back() -> None:
    start = Encounter(grid=Grid(width=100, height=100), walls=(Wall(a=(2, 2), b=(90, 2)),))
    document = Document(start)
    command = SetGrid.of(start, Grid(width=10, height=10))
    document.apply(command)
    assert document.encounter.walls[0].b == (10 + MAP_MARGIN_CELLS, 2)
    assert Encounter.model_validate(document.encounter.model_dump()) == document.encounter
    document.revert(command)
    assert document.encounter == start


def test_growing_the_map_touches_no_wall() -> None:
    start = Encounter(grid=GRID, walls=(Wall(a=(2, 2), b=(9, 2)),))
    command = SetGrid.of(start, Grid(width=20, height=20))
    assert command.before == ()
    assert command.apply(start).walls is start.walls


# --- obstacles and terrain ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("points", "expected"),
    [
        ([(1, 1), (4, 1), (1, 4)], [(1, 1), (4, 1), (1, 4)]),  # inside: the same corners
        # Issue 18's kind: a region reaching thousands of cells off the map is cut to the box.
        ([(0, 0), (3000, 3000), (0, 3000)], [(0, 10), (0, 0), (10, 10)]),
        ([(20, 20), (30, 20), (30, 30)], None),  # wholly outside
        ([(10, 0), (20, 0), (20, 10)], None),  # touches the box along its side only
        ([(-5, -5), (15, -5), (15, 15), (-5, 15)], [(0, 0), (10, 0), (10, 10), (0, 10)]),
    ],
)
def test_clip_polygon_boundary_cases(points: list[Point], expected: list[Point] | None) -> None:
    clipped = clip_polygon(points, BOX)
    if expected is None:
        assert clipped is None
        return
    assert clipped is not None
    assert shapely.Polygon(clipped).normalize().equals(shapely.Polygon(expected).normalize())
    if expected == points:
        assert clipped is points


def test_a_clipped_polygon_covers_exactly_its_part_inside_the_box() -> None:
    box = margin_box(GRID)
    window = shapely.box(*box)
    ran: list[bool] = []  # per example: was the polygon cut

    coordinate = st.floats(-40, 40, allow_nan=False).map(lambda v: round(v, 3))
    triangles = st.lists(st.tuples(coordinate, coordinate), min_size=3, max_size=3)

    @settings(max_examples=300)
    @given(triangles.filter(lambda t: shapely.Polygon(t).area > 1e-3))
    def check(points: list[Point]) -> None:
        clipped = clip_polygon(points, box)
        ran.append(clipped is not None and clipped is not points)
        inside = shapely.Polygon(points).intersection(window).area
        if clipped is None:
            assert inside <= 1e-6
            return
        assert all(box[0] <= x <= box[2] and box[1] <= y <= box[3] for x, y in clipped)
        assert shapely.Polygon(clipped).area == pytest.approx(inside, abs=1e-4)
        assert clip_polygon(clipped, box) is clipped  # cutting again changes nothing

    check()
    assert len(ran) >= 300
    assert sum(ran) >= 30


def test_loading_cuts_obstacles_and_terrain_far_off_the_map() -> None:
    # A 3000-cell terrain triangle once took the players' view over 30 s (its bounding box).
    raw = {
        "grid": {"width": 10, "height": 8},
        "terrain": [{"id": "t", "points": [[0, 0], [3000, 3000], [0, 3000]]}],
        "obstacles": [
            {"id": "gone", "points": [[-100, -100], [-50, -100], [-50, -50]]},
            {"id": "kept", "points": [[1, 1], [2, 1], [2, 2]]},
        ],
    }
    encounter = Encounter.model_validate(raw)
    box = margin_box(encounter.grid)
    assert [o.id for o in encounter.obstacles] == ["kept"]
    regions: list[TerrainRegion | Obstacle] = [*encounter.terrain, *encounter.obstacles]
    for region in regions:
        assert all(box[0] <= x <= box[2] and box[1] <= y <= box[3] for x, y in region.points)
    assert Encounter.model_validate(encounter.model_dump(mode="json")) == encounter


def test_shrinking_the_map_cuts_terrain_and_undo_gives_it_back() -> None:
    region = TerrainRegion(id="t", points=[(1, 1), (90, 1), (90, 90)])
    start = Encounter(grid=Grid(width=100, height=100), terrain=(region,))
    document = Document(start)
    command = SetGrid.of(start, Grid(width=10, height=10))
    document.apply(command)
    assert max(x for x, _ in document.encounter.terrain[0].points) == 10 + MAP_MARGIN_CELLS
    document.revert(command)
    assert document.encounter == start


def test_a_drawn_obstacle_is_cut_to_the_margin() -> None:
    obstacle = Obstacle(id="o", points=[(1, 1), (900, 1), (1, 900)])
    applied = AddObstacle(obstacle).apply(Encounter(grid=GRID))
    assert {x for x, _ in applied.obstacles[0].points} <= {1.0, 10 + MAP_MARGIN_CELLS}
