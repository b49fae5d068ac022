"""Where tokens may stand while setting up (``geometry/placement.py``): blocked cells, free
spaces, the creatures a new map displaces, spaces apart from the other side. The boundary
cases: a wall along a grid line or touching a corner, a polygon's edge on a cell's centre,
spaces sharing an edge or a corner, Large and Huge creatures."""

from __future__ import annotations

from battlemap.geometry.placement import (
    APART_CELLS,
    blocked_cells,
    free_spaces,
    misplaced,
    near_the_other_side,
    resettled,
    setup_spaces,
    space_cells_of,
)
from battlemap.model import Creature, Encounter, Grid, Side, Size
from battlemap.model.features import Obstacle, TerrainKind, TerrainRegion, Wall, WallKind
from battlemap.model.ids import EntityId


def map_with(**features: object) -> Encounter:
    return Encounter(grid=Grid(width=6, height=6)).model_copy(update=features)


def test_a_wall_through_cells_blocks_them_one_along_a_grid_line_or_at_a_corner_does_not() -> None:
    through = Wall(a=(0.5, 0.0), b=(0.5, 3.0))  # down the middle of column 0
    along = Wall(a=(3.0, 0.0), b=(3.0, 3.0))  # on the line between columns 2 and 3
    corner = Wall(a=(4.0, 4.0), b=(5.0, 5.0))  # diagonal through cell (4, 4) only
    blocked = blocked_cells(map_with(walls=(through, along, corner)))
    assert {(0, 0), (0, 1), (0, 2)} <= blocked and (0, 3) not in blocked
    assert not any(x in (2, 3) and y < 3 for x, y in blocked)  # along the line: neither side
    assert (4, 4) in blocked
    assert {(3, 3), (5, 5), (3, 4), (4, 3)}.isdisjoint(blocked)  # the ends only touch these


def test_an_open_door_blocks_nothing_a_closed_one_blocks_like_a_wall() -> None:
    door = Wall(a=(1.5, 0.0), b=(1.5, 2.0), kind=WallKind.DOOR)
    assert blocked_cells(map_with(walls=(door,))) == {(1, 0), (1, 1)}
    opened = door.model_copy(update={"open": True})
    assert blocked_cells(map_with(walls=(opened,))) == frozenset()


def test_an_obstacle_or_impassable_terrain_blocks_the_cells_whose_centre_it_covers() -> None:
    table = Obstacle(points=((1.0, 1.0), (3.0, 1.0), (3.0, 2.5), (1.0, 2.5)))  # edge at y 2.5
    pit = TerrainRegion(
        points=((4.2, 4.2), (4.8, 4.2), (4.8, 4.8), (4.2, 4.8)), kind=TerrainKind.IMPASSABLE
    )
    low_wall = Obstacle(points=((0.0, 4.0), (1.0, 4.0), (1.0, 5.0)), blocks_movement=False)
    blocked = blocked_cells(map_with(obstacles=(table, low_wall), terrain=(pit,)))
    # the table's edge at y 2.5 runs through the centres of row 2: covered (its boundary counts)
    assert blocked == {(1, 1), (2, 1), (1, 2), (2, 2), (4, 4)}


def test_the_space_of_a_large_creature_is_its_four_cells_and_touching_is_not_overlapping() -> None:
    ogre = Creature(name="Ogre", size=Size.LARGE, x=2, y=2)
    assert sorted(space_cells_of(ogre, 5.0)) == [(2, 2), (2, 3), (3, 2), (3, 3)]
    encounter = Encounter(grid=Grid(width=6, height=6), creatures=(ogre,))
    # a Medium space sharing the ogre's right edge or its corner is free
    spaces = free_spaces(encounter, Size.MEDIUM, 36, near=(0, 0))
    assert (4.0, 2.0) in spaces and (4.0, 4.0) in spaces and (1.0, 1.0) in spaces
    assert not {(2.0, 2.0), (3.0, 3.0)} & set(spaces)
    assert len(spaces) == 36 - 4


def test_free_spaces_skip_occupied_cells_and_stop_when_the_map_is_full() -> None:
    ogre = Creature(name="Ogre", size=Size.LARGE, x=0, y=0)
    encounter = Encounter(grid=Grid(width=3, height=2), creatures=(ogre,))
    assert free_spaces(encounter, Size.MEDIUM, 5, near=(0, 0)) == [(2.0, 0.0), (2.0, 1.0)]
    assert free_spaces(encounter, Size.LARGE, 1, near=(0, 0)) == []
    empty = Encounter(grid=Grid(width=4, height=4))
    spaces = free_spaces(empty, Size.HUGE, 2, near=(2, 2))
    assert spaces == [(0.0, 0.0)]  # one 3x3 fits; a second would overlap it


def test_misplaced_is_off_the_map_in_part_or_on_a_blocked_cell() -> None:
    grid = Grid(width=6, height=6)
    encounter = Encounter(grid=grid)
    blocked = frozenset({(3, 3)})
    on_edge = Creature(name="A", size=Size.LARGE, x=4, y=4)  # touches the map's border: on it
    over = Creature(name="B", size=Size.LARGE, x=5, y=0)  # half off the right edge
    beside = Creature(name="C", x=4, y=3)  # shares an edge with the blocked cell
    on_it = Creature(name="D", size=Size.LARGE, x=2, y=2)  # covers (3, 3)
    assert [misplaced(c, encounter, blocked) for c in (on_edge, over, beside, on_it)] == [
        False,
        True,
        False,
        True,
    ]


def test_resettled_moves_the_displaced_to_the_nearest_free_space_each_in_turn() -> None:
    wall = Wall(a=(0.0, 0.5), b=(6.0, 0.5))  # through row 0
    first = Creature(id=EntityId("a"), name="A", x=2, y=0)
    second = Creature(id=EntityId("b"), name="B", x=2, y=0)
    off = Creature(id=EntityId("c"), name="C", size=Size.LARGE, x=7, y=2)
    stays = Creature(id=EntityId("d"), name="D", x=0, y=4)
    encounter = map_with(walls=(wall,), creatures=(first, second, off, stays))
    moved = {r.creature_id: r for r in resettled(encounter)}
    assert set(moved) == {"a", "b", "c"}
    assert moved[EntityId("a")].new == (2.0, 1.0)  # straight below the wall
    assert moved[EntityId("b")].new != moved[EntityId("a")].new  # the first one is there now
    assert moved[EntityId("c")].new == (4.0, 2.0)  # the nearest Large space on the map
    assert moved[EntityId("a")].old == (2.0, 0.0) and moved[EntityId("a")].name == "A"


def test_new_creatures_keep_a_cell_from_the_other_side_unless_nothing_else_is_left() -> None:
    goblin = Creature(name="Goblin", side=Side.HOSTILE, x=2, y=2)
    encounter = Encounter(grid=Grid(width=6, height=6), creatures=(goblin,))
    near = near_the_other_side(encounter, Side.PARTY)
    assert len(near) == (1 + 2 * APART_CELLS) ** 2 and (1, 1) in near and (3, 3) in near
    assert near_the_other_side(encounter, Side.HOSTILE) == set()  # its own side: no gap
    assert near_the_other_side(encounter, Side.NEUTRAL) == set()
    (space,) = setup_spaces(encounter, Size.MEDIUM, 1, (2.5, 2.5), Side.PARTY)
    assert max(abs(space[0] - 2), abs(space[1] - 2)) == 2  # one cell between them
    crowded = Encounter(
        grid=Grid(width=3, height=3), creatures=(goblin.model_copy(update={"x": 1, "y": 1}),)
    )
    assert len(setup_spaces(crowded, Size.MEDIUM, 1, (0, 0), Side.PARTY)) == 1  # beside it then
