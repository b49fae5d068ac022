"""Walls added, removed and moved edit the map index (``wall_edits``); the edited index must
answer as one built afresh from the same map."""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np

from battlemap.geometry import MapIndex, visibility_polygon
from battlemap.model import (
    CoverDegree,
    Encounter,
    EntityId,
    Grid,
    Obstacle,
    TerrainKind,
    TerrainRegion,
    Wall,
    WallKind,
)
from tests.geometry.helpers import box_points

SIZE = 24
MAPS = 12
EDITS = 10


def a_wall(rng: random.Random, name: str) -> Wall:
    """On grid lines, slanted, short like a cave's, zero-length now and then, or a window."""
    x, y = rng.randrange(SIZE), rng.randrange(SIZE)
    shape = rng.random()
    if shape < 0.4:
        dx, dy = rng.choice([(1, 0), (0, 1), (2, 0), (0, 3)])
        end = (float(min(x + dx, SIZE)), float(min(y + dy, SIZE)))
    elif shape < 0.8:
        end = (x + rng.uniform(-3, 3), y + rng.uniform(-3, 3))
    elif shape < 0.9:
        end = (float(x), float(y))
    else:
        return Wall(id=EntityId(name), a=(x, y), b=(x, min(y + 2, SIZE)), kind=WallKind.WINDOW)
    return Wall(id=EntityId(name), a=(float(x), float(y)), b=end)


def a_map(rng: random.Random) -> Encounter:
    walls = [a_wall(rng, f"w{i}") for i in range(rng.randrange(5, 40))]
    for i in range(rng.randrange(0, 4)):
        x, y = rng.randrange(1, SIZE - 1), rng.randrange(1, SIZE - 1)
        walls.append(
            Wall(
                id=EntityId(f"door{i}"),
                a=(x, y),
                b=(x + 1, y),
                kind=WallKind.DOOR,
                open=rng.random() < 0.5,
            )
        )
    rng.shuffle(walls)
    x, y = rng.randrange(2, SIZE - 4), rng.randrange(2, SIZE - 4)
    pillar = Obstacle(
        id=EntityId("pillar"), points=box_points(x, y, x + 1, y + 1), cover=CoverDegree.TOTAL
    )
    mud = TerrainRegion(
        id=EntityId("mud"), kind=TerrainKind.DIFFICULT, points=box_points(3, 3, 9, 7)
    )
    return Encounter(
        grid=Grid(width=SIZE, height=SIZE), walls=tuple(walls), obstacles=(pillar,), terrain=(mud,)
    )


def edit(rng: random.Random, encounter: Encounter, step: int) -> Encounter:
    """One to three of: add a wall, remove one, move one, open or close a door."""
    walls = list(encounter.walls)
    for k in range(rng.randrange(1, 4)):
        choice = rng.random()
        plain = [i for i, w in enumerate(walls) if w.kind is not WallKind.DOOR]
        if choice < 0.35 or not plain:
            walls.insert(rng.randrange(len(walls) + 1), a_wall(rng, f"new{step}-{k}"))
        elif choice < 0.6:
            walls.pop(rng.choice(plain))
        elif choice < 0.85:
            i = rng.choice(plain)
            moved = a_wall(rng, str(walls[i].id))
            walls[i] = walls[i].model_copy(update={"a": moved.a, "b": moved.b})
        else:
            doors = [i for i, w in enumerate(walls) if w.kind is WallKind.DOOR]
            if doors:
                i = rng.choice(doors)
                walls[i] = walls[i].model_copy(update={"open": not walls[i].open})
    return encounter.model_copy(update={"walls": tuple(walls)})


def assert_same_answers(rng: random.Random, edited: MapIndex, fresh: MapIndex) -> None:
    assert edited.walls == fresh.walls
    assert edited.problems == fresh.problems
    for mine, theirs in zip(edited.segment_free, fresh.segment_free, strict=True):
        assert np.array_equal(mine, theirs)
    assert np.array_equal(edited.room(2), fresh.room(2))
    lines = np.array(
        [
            [
                [rng.uniform(0, SIZE), rng.uniform(0, SIZE)],
                [rng.uniform(0, SIZE), rng.uniform(0, SIZE)],
            ]
            for _ in range(200)
        ]
    )
    wall_ends = [p for w in fresh.walls.values() for p in (w.a, w.b)]
    joint_lines = np.array(
        [(rng.choice(wall_ends), rng.choice(wall_ends)) for _ in range(40)], dtype=np.float64
    ).reshape(-1, 2, 2)
    for mine_set, their_set in (
        (edited.sight_walls, fresh.sight_walls),
        (edited.cover_walls, fresh.cover_walls),
        (edited.cover_walls_and_windows, fresh.cover_walls_and_windows),
    ):
        blocked = mine_set.blocks(lines)
        assert np.array_equal(blocked, their_set.blocks(lines))
        # The wall named first, also at joints of old and new walls (lines between wall ends).
        named = [mine_set.first_blocker(line) for line in [*lines[:40], *joint_lines]]
        assert named == [their_set.first_blocker(line) for line in [*lines[:40], *joint_lines]]
        assert [n is not None for n in named[:40]] == list(blocked[:40])
        # Points on walls, at their ends and joints (the lattice) and anywhere.
        ends = np.array([p for w in fresh.walls.values() for p in (w.a, w.b)]).reshape(-1, 2)
        lattice = np.array([(x / 2, y / 2) for x in range(2 * SIZE) for y in range(0, 2 * SIZE, 3)])
        points = np.concatenate([ends, (ends[::2] + ends[1::2]) / 2, lattice, lines[:, 0]])
        assert np.array_equal(mine_set.inside_walls(points), their_set.inside_walls(points))
    for _ in range(4):
        origin = (rng.uniform(0.1, SIZE - 0.1), rng.uniform(0.1, SIZE - 0.1))
        mine_view = visibility_polygon(edited, origin)
        their_view = visibility_polygon(fresh, origin)
        assert mine_view.symmetric_difference(their_view).area <= 1e-9


def edits(rng: random.Random) -> Iterator[tuple[MapIndex, MapIndex, Encounter]]:
    """MAPS random maps, EDITS edits each: (index before, index updated, the map now)."""
    for _ in range(MAPS):
        encounter = a_map(rng)
        index = MapIndex.build(encounter)
        for step in range(EDITS):
            encounter = edit(rng, encounter, step)
            before, index = index, index.updated(encounter)
            yield before, index, encounter


def test_an_index_edited_wall_by_wall_answers_as_one_built_afresh() -> None:
    rng = random.Random(17)
    compared = edited_in_place = 0
    for before, index, encounter in edits(rng):
        edited_in_place += index.difficult is before.difficult
        assert_same_answers(rng, index, MapIndex.build(encounter))
        compared += 1
    assert compared == MAPS * EDITS
    # Most edits were made in place (a few overlapping walls or many edits rebuild).
    assert edited_in_place >= compared * 0.7, edited_in_place


def tiling(pieces: np.ndarray, segment: np.ndarray) -> list[tuple[float, float]]:
    """The stretches (from, to; 0 to 1 along ``segment``) of the ``pieces`` lying on it."""
    a, step = segment[0], segment[1] - segment[0]
    length2 = float(step @ step)
    rel = pieces - a
    cross = rel[:, :, 0] * step[1] - rel[:, :, 1] * step[0]
    along = (rel @ step) / length2
    on_line = np.all(np.abs(cross) <= 1e-9 * (1.0 + length2), axis=1)
    low, high = along.min(axis=1), along.max(axis=1)
    inside = on_line & (low >= -1e-9) & (high <= 1 + 1e-9) & (high - low > 1e-12)
    return sorted(zip(low[inside].tolist(), high[inside].tolist(), strict=True))


def test_an_edited_sight_outline_is_the_fresh_one_cut_at_more_points() -> None:
    """Exact equality cannot hold: a wall taken away leaves the cuts it made in the walls it
    crossed, and a wall added cuts a piece (not its whole wall) at a crossing computed from
    the piece's ends, a rounding away from the fresh build's. The strongest true statement:
    the edited pieces cover each fresh piece end to end (no gap, to 1e-9), lie on
    a fresh piece each, and keep the fresh build's every cut."""
    rng = random.Random(1717)
    compared = extra_cuts = 0
    for _, index, encounter in edits(rng):
        edited, fresh = index.sight_outline, MapIndex.build(encounter).sight_outline
        used = np.zeros(len(edited), dtype=bool)
        for segment in fresh:
            stretches = tiling(edited, segment)
            assert stretches, segment
            reach = 0.0  # how far from its start the pieces so far cover the fresh piece
            for start, end in stretches:
                assert start <= reach + 1e-9, (segment, stretches)  # no gap
                reach = max(reach, end)
            assert abs(stretches[0][0]) <= 1e-9 and abs(reach - 1) <= 1e-9, stretches
            used |= np.array([bool(tiling(piece[None], segment)) for piece in edited])
        assert used.all(), (edited[~used], fresh)  # every edited piece lies on a fresh one
        extra_cuts += len(edited) - len(fresh)
        compared += 1
    assert compared == MAPS * EDITS
    assert extra_cuts > 0  # the edits did leave cuts a fresh build does not make
