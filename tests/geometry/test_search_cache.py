"""The path search's kept arrays (``search_graph``): answers never depend on what an earlier
query left behind, a changed map is never searched on the old one's arrays, and the kept
graphs stay bounded."""

from __future__ import annotations

import random

import pytest

from battlemap.geometry import (
    Body,
    DiagonalRule,
    MapIndex,
    cheapest_path,
    reachable_area,
    search_graph,
)
from battlemap.geometry.movement import MoveContext
from battlemap.geometry.search_graph import GRAPHS_KEPT, search_planes
from battlemap.model import Encounter, Grid, Side, Size, TerrainKind, TerrainRegion, Wall
from tests.geometry.helpers import body, door, terrain, wall

R5105 = DiagonalRule.FIVE_TEN_FIVE


def _world(seed: int) -> tuple[list[Wall], list[TerrainRegion], list[Body]]:
    rng = random.Random(seed)
    walls = []
    for _ in range(25):
        x, y = rng.randint(1, 28), rng.randint(1, 28)
        walls.append(wall((x, y), (x + rng.randint(1, 4), y) if rng.random() < 0.5 else (x, y + 3)))
    mud = [terrain(TerrainKind.DIFFICULT, x, y, x + 3, y + 2) for x, y in [(4, 20), (18, 6)]]
    sizes, sides = list(Size)[:4], list(Side)
    others = [
        body(f"c{i}", rng.randint(0, 28), rng.randint(0, 28), rng.choice(sizes), rng.choice(sides))
        for i in range(12)
    ]
    return walls, mud, others


def test_queries_on_one_index_answer_as_on_a_fresh_index_each_time() -> None:
    compared = 0
    for seed in range(4):
        walls, regions, others = _world(seed)
        grid = Grid(width=30, height=30)
        shared = MapIndex(grid, walls, (), regions)
        mover = body("mover", 1, 1)
        crowd = [o for o in others if not o.space.overlaps(mover.space)]
        rng = random.Random(seed)
        for _ in range(12):
            goal = (rng.randint(0, 29), rng.randint(0, 29))
            fresh = MapIndex(grid, walls, (), regions)
            for rule in (R5105, DiagonalRule.FIVE_FIVE_FIVE):
                kept = cheapest_path(shared, mover, goal, crowd, rule)
                assert kept == cheapest_path(fresh, mover, goal, crowd, rule)
                compared += 1
            start = body("mover", goal[0], goal[1])
            if all(not o.space.overlaps(start.space) for o in crowd):
                kept_area = reachable_area(shared, start, crowd, R5105, 30)
                assert (
                    kept_area.cost_feet == reachable_area(fresh, start, crowd, R5105, 30).cost_feet
                )
                compared += 1
    assert compared >= 4 * 12 * 2


def test_an_opened_door_is_searched_on_the_new_index_not_the_kept_arrays() -> None:
    grid = Grid(width=20, height=10)
    closed = door((10, 0), (10, 10), open_=False)
    encounter = Encounter(grid=grid, walls=(closed,))
    before = MapIndex.build(encounter)
    mover = body("mover", 5, 5)
    assert not cheapest_path(before, mover, (15, 5), [], R5105).legal  # the door is shut
    opened = encounter.model_copy(update={"walls": (closed.model_copy(update={"open": True}),)})
    after = before.updated(opened)
    found = cheapest_path(after, mover, (15, 5), [], R5105)
    assert found.legal and found.cost_feet == 50
    assert not cheapest_path(before, mover, (15, 5), [], R5105).legal  # the old one still shut


def test_kept_graphs_stay_few_and_small(monkeypatch: pytest.MonkeyPatch) -> None:
    world = MapIndex(Grid(width=60, height=60), (), (), ())
    mover = body("mover", 30, 30)
    for reach in range(2, 12):  # a window of a new shape each time
        reachable_area(world, mover, [], R5105, 5 * reach)
    planes = search_planes(MoveContext(world, mover, [], R5105))
    assert 1 <= len(planes.graphs) <= GRAPHS_KEPT
    monkeypatch.setattr(search_graph, "GRAPH_BYTES_KEPT", 1000)
    area = reachable_area(world, mover, [], R5105, 60)
    assert len(area.cost_feet) > 100 and len(planes.graphs) == 0  # made, used, let go
