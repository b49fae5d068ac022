"""Rooms for the fog tool: walls, doors (open or not) and windows all bound a room."""

from battlemap.geometry.rooms import room_cells
from battlemap.model import Grid, Wall, WallKind

GRID = Grid(width=8, height=4)
# A wall along the grid line x = 4 with an open door from y = 1 to 2 and a window below it.
WALLS = (
    Wall(a=(4, 0), b=(4, 1)),
    Wall(a=(4, 1), b=(4, 2), kind=WallKind.DOOR, open=True),
    Wall(a=(4, 2), b=(4, 3), kind=WallKind.WINDOW),
    Wall(a=(4, 3), b=(4, 4)),
)


def test_a_room_stops_at_walls_on_grid_lines_doors_and_windows() -> None:
    west = room_cells(GRID, WALLS, (0, 0))
    assert west == {(c, r) for c in range(4) for r in range(4)}
    east = room_cells(GRID, WALLS, (7, 3))
    assert east == {(c, r) for c in range(4, 8) for r in range(4)}


def test_a_gap_in_the_wall_joins_the_rooms() -> None:
    gappy = (WALLS[0], WALLS[3])  # no door and no window: a two-cell gap
    assert len(room_cells(GRID, gappy, (0, 0))) == 32


def test_a_map_without_walls_is_one_room_and_off_map_is_empty() -> None:
    assert len(room_cells(GRID, (), (3, 2))) == 32
    assert room_cells(GRID, WALLS, (8, 0)) == frozenset()


def test_a_wall_touching_only_a_corner_does_not_split_cells_diagonally() -> None:
    # A short wall from (2, 0) to (2, 1): cells (1, 0) and (2, 0) are separated; (1, 1)
    # and (2, 1) are not, since the wall ends at their shared corner.
    wall = (Wall(a=(2, 0), b=(2, 1)),)
    room = room_cells(Grid(width=4, height=2), wall, (1, 0))
    assert (2, 0) in room  # reached around the wall's end, through row 1
    assert len(room) == 8
