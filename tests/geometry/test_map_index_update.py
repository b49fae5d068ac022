"""``MapIndex.updated``: after doors open and close (kept fixed walls, door layer redone) or
walls change (built anew), the index answers exactly as one built afresh, and both as plain
barrier sets of the walls that count now."""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from battlemap.geometry import MapIndex, visibility_polygon
from battlemap.geometry.barriers import BarrierSet
from battlemap.geometry.wall_layers import DIRECTIONS, Segment, centre_steps, ring_segments
from battlemap.model import CoverDegree, Encounter, EntityId, Grid, Obstacle, Wall, WallKind

SIZE = 16
EDITS = 30


def random_encounter(rng: random.Random) -> Encounter:
    """Rooms on grid lines with doors in them (some sharing ends with walls, some loose and
    slanted, one over a wall), a window, a pillar and a zero-length door."""
    walls: list[Wall] = []
    for i in range(30):
        x, y = rng.randrange(SIZE), rng.randrange(SIZE)
        dx, dy = rng.choice([(1, 0), (0, 1), (2, 0), (0, 2)])
        kind = rng.choice([WallKind.WALL, WallKind.WALL, WallKind.DOOR])
        walls.append(Wall(id=EntityId(f"w{i}"), a=(x, y), b=(x + dx, y + dy), kind=kind))
    for i in range(4):
        a = (rng.uniform(0, SIZE), rng.uniform(0, SIZE))
        b = (a[0] + rng.uniform(-2, 2), a[1] + rng.uniform(-2, 2))
        walls.append(Wall(id=EntityId(f"slant{i}"), a=a, b=b, kind=WallKind.DOOR))
    walls.append(Wall(id=EntityId("over"), a=walls[0].a, b=walls[0].b, kind=WallKind.DOOR))
    walls.append(Wall(id=EntityId("dot"), a=(3, 3), b=(3, 3), kind=WallKind.DOOR))
    walls.append(Wall(id=EntityId("win"), a=(1, 1), b=(1, 4), kind=WallKind.WINDOW))
    pillar = Obstacle(
        id=EntityId("pillar"), points=[(8, 8), (9, 8), (9, 9), (8, 9)], cover=CoverDegree.TOTAL
    )
    return Encounter(grid=Grid(width=SIZE, height=SIZE), walls=tuple(walls), obstacles=(pillar,))


def edit(rng: random.Random, encounter: Encounter) -> tuple[Encounter, bool]:
    """Open or close a door (mostly), or move a wall; and whether only a door changed."""
    walls = list(encounter.walls)
    doors = [i for i, w in enumerate(walls) if w.kind is WallKind.DOOR]
    if rng.random() < 0.85:
        i = rng.choice(doors)
        walls[i] = walls[i].model_copy(update={"open": not walls[i].open})
        door_only = True
    else:
        i = rng.randrange(len(walls))
        walls[i] = walls[i].model_copy(update={"b": (rng.randrange(SIZE), rng.randrange(SIZE))})
        door_only = False
    return encounter.model_copy(update={"walls": tuple(walls)}), door_only


def plain_sets(encounter: Encounter) -> dict[str, BarrierSet]:
    """The barrier sets as one plain ``BarrierSet`` each of the walls that count now (fixed
    walls first, then the closed doors, as the index orders them)."""
    usable = [w for w in encounter.walls if w.a != w.b]
    walls = [w for w in usable if w.kind is WallKind.WALL]
    windows = [w for w in usable if w.kind is WallKind.WINDOW]
    closed = [w for w in usable if w.kind is WallKind.DOOR and not w.open]
    pillar = shapely.Polygon(encounter.obstacles[0].points)
    pillar_ids = [encounter.obstacles[0].id] * len(ring_segments(pillar))

    def plain(fixed: list[Wall], extra: Sequence[tuple[Segment, EntityId]] = ()) -> BarrierSet:
        segments = [(w.a, w.b) for w in fixed] + [s for s, _ in extra]
        ids = [w.id for w in fixed] + [i for _, i in extra]
        return BarrierSet(segments + [(d.a, d.b) for d in closed], ids + [d.id for d in closed])

    return {
        "cover_walls": plain(walls),
        "cover_walls_and_windows": plain(walls + windows),
        "sight_walls": plain(walls, list(zip(ring_segments(pillar), pillar_ids, strict=True))),
    }


def plain_steps(encounter: Encounter) -> list[np.ndarray]:
    """``segment_free`` from one STR-tree of every movement-blocking wall and obstacle."""
    usable = [w for w in encounter.walls if w.a != w.b and w.blocks_movement]
    geoms: list[BaseGeometry] = [shapely.LineString([w.a, w.b]) for w in usable]
    geoms.append(shapely.Polygon(encounter.obstacles[0].points))
    free = [np.zeros((SIZE, SIZE), dtype=bool) for _ in DIRECTIONS]
    for d, (dx, dy) in enumerate(DIRECTIONS):
        sy, sx, blocked = centre_steps(shapely.STRtree(geoms), SIZE, SIZE, dx, dy)
        free[d][sy, sx] = ~blocked
    return free


def assert_same_answers(
    rng: random.Random, updated: MapIndex, fresh: MapIndex, encounter: Encounter, door_only: bool
) -> None:
    """An index edited for a wall (``wall_edits``) may cut the sight outline in more pieces
    (the polygons seen are the same)."""
    lines = np.array(
        [[[rng.uniform(0, SIZE), rng.uniform(0, SIZE)] for _ in range(2)] for _ in range(150)]
        + [[[rng.randrange(SIZE), rng.randrange(SIZE)] for _ in range(2)] for _ in range(150)],
        dtype=np.float64,
    )
    points = np.array(
        [[rng.randrange(4 * SIZE) / 4, rng.randrange(4 * SIZE) / 4] for _ in range(400)]
    )
    for name, plain in plain_sets(encounter).items():
        for new in (getattr(updated, name), getattr(fresh, name)):
            assert len(new) == len(plain), name
            assert np.array_equal(new.blocks(lines), plain.blocks(lines)), name
            assert np.array_equal(new.inside_walls(points), plain.inside_walls(points)), name
            named = [new.first_blocker(line) for line in lines[:30]]
            assert named == [plain.first_blocker(line) for line in lines[:30]], name
    for d, free in enumerate(plain_steps(encounter)):
        assert np.array_equal(updated.segment_free[d], free)
        assert np.array_equal(fresh.segment_free[d], free)
    assert np.array_equal(updated.room(2), fresh.room(2))
    if door_only:
        outline_new = np.sort(updated.sight_outline.reshape(-1, 4), axis=0)
        outline_old = np.sort(fresh.sight_outline.reshape(-1, 4), axis=0)
        assert np.array_equal(outline_new, outline_old)
    origin = (rng.uniform(0, SIZE), rng.uniform(0, SIZE))
    seen_new, seen_old = visibility_polygon(updated, origin), visibility_polygon(fresh, origin)
    assert seen_new.symmetric_difference(seen_old).area <= 1e-9
    assert updated.walls == fresh.walls
    assert sorted(map(repr, updated.problems)) == sorted(map(repr, fresh.problems))


def test_an_updated_index_answers_as_one_built_afresh() -> None:
    rng = random.Random(17)
    encounter = random_encounter(rng)
    index = MapIndex.build(encounter)
    kinds = {True: 0, False: 0}
    for _ in range(EDITS):
        encounter, door_only = edit(rng, encounter)
        previous, index = index, index.updated(encounter)
        assert (index._fixed is previous._fixed) == door_only  # the fixed walls were kept
        assert_same_answers(rng, index, MapIndex.build(encounter), encounter, door_only)
        kinds[door_only] += 1
    assert sum(kinds.values()) == EDITS
    assert kinds[True] >= EDITS // 2 and kinds[False] >= 2, kinds


def test_a_door_update_keeps_the_fixed_walls_and_the_terrain() -> None:
    encounter = random_encounter(random.Random(3))
    index = MapIndex.build(encounter)
    opened, _ = edit(random.Random(1), encounter)
    updated = index.updated(opened)
    assert updated._fixed is index._fixed and updated.difficult is index.difficult
    # Anything else (here a whole other grid) builds anew.
    bigger = opened.model_copy(update={"grid": Grid(width=SIZE + 1, height=SIZE)})
    assert index.updated(bigger).width == SIZE + 1
