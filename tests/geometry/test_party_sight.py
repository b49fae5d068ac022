"""Which cells the party sees, for the players' fog of war."""

from __future__ import annotations

import random

import numpy as np

from battlemap.geometry.map_index import MapIndex
from battlemap.geometry.party_sight import PartySight, grid_cells, visible_cells
from battlemap.model import Creature, Encounter, Grid, Side, Size, Wall, WallKind

# A 10x6 map split by a wall at x = 5 with a door in it from y = 2 to y = 3.
WALLS = (
    Wall(id="w-top", a=(5, 0), b=(5, 2)),
    Wall(id="w-bottom", a=(5, 3), b=(5, 6)),
)
HERO = Creature(id="hero", name="Hero", side=Side.PARTY, x=1, y=2)


def index(door_kind: WallKind = WallKind.DOOR, door_open: bool = False) -> MapIndex:
    door = Wall(id="door", a=(5, 2), b=(5, 3), kind=door_kind, open=door_open)
    return MapIndex.build(Encounter(grid=Grid(width=10, height=6), walls=(*WALLS, door)))


def test_a_closed_door_hides_the_other_room() -> None:
    seen = visible_cells(index(), [HERO])
    assert (0, 0) in seen and (4, 5) in seen
    assert not any(col >= 5 for col, _ in seen)


def test_an_open_door_shows_a_wedge_of_the_other_room() -> None:
    seen = visible_cells(index(door_open=True), [HERO])
    assert (6, 2) in seen and (9, 2) in seen  # straight through the doorway
    assert (9, 5) not in seen  # far corner stays behind the wall


def test_windows_let_sight_through() -> None:
    seen = visible_cells(index(WallKind.WINDOW), [HERO])
    assert (7, 2) in seen


def test_sight_range_limits_what_is_seen_on_a_dark_map() -> None:
    seen = visible_cells(index(), [HERO], radius_feet=10)  # two cells from the centre (1.5, 2.5)
    assert (3, 2) in seen
    assert (4, 2) not in seen  # centre 3 cells away


def test_a_viewer_always_sees_its_own_space_and_large_viewers_see_from_their_centre() -> None:
    ogre = Creature(id="ogre", name="Ogre", size=Size.LARGE, side=Side.PARTY, x=6, y=0)
    seen = visible_cells(index(), [ogre], radius_feet=0.1)
    assert {(6, 0), (7, 0), (6, 1), (7, 1)} <= seen


def test_no_viewers_see_nothing() -> None:
    assert visible_cells(index(), []) == frozenset()


def test_party_sight_recomputes_only_the_viewers_that_moved() -> None:
    world = index(door_open=True)
    elf = Creature(id="elf", name="Elf", side=Side.PARTY, x=8, y=4)
    sight = PartySight()
    assert sight.visible(world, [HERO, elf]) == visible_cells(world, [HERO, elf])
    assert sight.computed == 2
    moved = HERO.model_copy(update={"x": 3})
    assert sight.visible(world, [moved, elf]) == visible_cells(world, [moved, elf])
    assert sight.computed == 3  # the elf's cells were kept
    assert sight.visible(world, [moved, elf], radius_feet=10) == visible_cells(
        world, [moved, elf], radius_feet=10
    )
    assert sight.computed == 5  # a new sight range: every viewer again


def test_party_sight_after_random_moves_equals_the_sight_computed_afresh() -> None:
    rng = random.Random(4)
    world = MapIndex.build(
        Encounter(
            grid=Grid(width=16, height=12),
            walls=tuple(
                Wall(id=f"w{i}", a=(x, y), b=(x + dx, y + dy))
                for i, (x, y, dx, dy) in enumerate(
                    (rng.randrange(16), rng.randrange(12), *rng.choice([(3, 0), (0, 3), (2, 2)]))
                    for _ in range(14)
                )
            ),
        )
    )
    party = [
        Creature(id=f"p{i}", name="P", side=Side.PARTY, x=rng.randrange(15), y=rng.randrange(11))
        for i in range(4)
    ]
    sight = PartySight()
    steps = 0
    for _ in range(40):
        who = rng.randrange(4)
        party[who] = party[who].model_copy(update={"x": rng.randrange(15), "y": rng.randrange(11)})
        assert sight.visible(world, party) == visible_cells(world, party)
        steps += 1
    assert steps == 40
    assert sight.computed <= 4 + 40  # one viewer per move (the start: all four)


def test_grid_cells_are_the_seen_cells_as_col_row_on_grids_of_any_shape() -> None:
    rng = np.random.default_rng(3)
    shapes = [(1, 1), (6, 10), (10, 6), (7, 3), (6, 10)]  # (6, 10) again: the kept table
    for height, width in shapes:
        grid = rng.random((height, width)) < 0.4
        rows, cols = np.nonzero(grid)
        assert grid_cells(grid) == {(int(c), int(r)) for r, c in zip(rows, cols, strict=True)}
    assert grid_cells(np.zeros((6, 10), dtype=bool)) == frozenset()
    full = grid_cells(np.ones((2, 3), dtype=bool))
    assert full == {(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1)}
