"""Walls are cut at the map's margin: on load, on drawing, on a shrunk map; undo restores."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from battlemap.model import Document, Encounter, Grid, Wall, WallKind
from battlemap.model.limits import COORD_LIMIT, WALL_MARGIN_CELLS
from battlemap.model.map_commands import AddWalls, SetGrid
from battlemap.model.wall_clip import clip_segment, clip_walls, wall_box

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


def test_wall_box_is_the_map_plus_the_margin() -> None:
    m = WALL_MARGIN_CELLS
    assert wall_box(GRID) == (-m, -m, 10 + m, 8 + m)


def test_walls_inside_keep_the_same_tuple() -> None:
    walls = (Wall(a=(0, 0), b=(10, 0)), Wall(a=(-1, -1), b=(11, 9)))
    assert clip_walls(walls, GRID) is walls


def test_a_cut_wall_keeps_its_id_kind_and_state() -> None:
    door = Wall(id="d", a=(5, 4), b=(5000, 4), kind=WallKind.DOOR, open=True)  # type: ignore[arg-type]
    (cut,) = clip_walls((door,), GRID)
    assert (cut.id, cut.kind, cut.open, cut.a, cut.b) == ("d", door.kind, True, (5, 4), (15, 4))


segments = st.tuples(
    *[st.floats(-COORD_LIMIT, COORD_LIMIT, allow_nan=False) for _ in range(4)]
).filter(lambda s: (s[0], s[1]) != (s[2], s[3]))


def test_a_clipped_segment_lies_inside_the_box_on_the_original_line() -> None:
    box = wall_box(GRID)
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
    box = wall_box(encounter.grid)
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
    command = AddWalls((Wall(id="w", a=(1, 1), b=(1, 900)), Wall(a=(900, 0), b=(901, 0))))  # type: ignore[arg-type]
    document.apply(command)
    assert [(w.id, w.a, w.b) for w in document.encounter.walls] == [
        ("w", (1, 1), (1, 8 + WALL_MARGIN_CELLS))
    ]
    document.revert(command)
    assert document.encounter == start


def test_shrinking_the_map_cuts_walls_and_undo_gives_them_back() -> None:
    start = Encounter(grid=Grid(width=100, height=100), walls=(Wall(a=(2, 2), b=(90, 2)),))
    document = Document(start)
    command = SetGrid.of(start, Grid(width=10, height=10))
    document.apply(command)
    assert document.encounter.walls[0].b == (10 + WALL_MARGIN_CELLS, 2)
    assert Encounter.model_validate(document.encounter.model_dump()) == document.encounter
    document.revert(command)
    assert document.encounter == start


def test_growing_the_map_touches_no_wall() -> None:
    start = Encounter(grid=GRID, walls=(Wall(a=(2, 2), b=(9, 2)),))
    command = SetGrid.of(start, Grid(width=20, height=20))
    assert command.walls_before is None
    assert command.apply(start).walls is start.walls
