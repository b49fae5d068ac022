"""Issue 18: walls and regions running thousands of cells off the map made every players'
view update take seconds (100 walls: 6.8 s; 5,000 with dynamic fog: over 60 s and 3.4 GB).
Loaded, they are cut at the map's margin, so what the projection samples is bounded by the
map's size, whatever the file says. Counted, not timed."""

from __future__ import annotations

import math

from battlemap.model import Encounter
from battlemap.model.limits import MAP_MARGIN_CELLS
from battlemap.model.map_margin import margin_box
from battlemap.ui.players.projection import project

WIDTH, HEIGHT = 30, 20


def far_encounter(walls: int) -> Encounter:
    """An encounter file's content: walls from the map to thousands of cells off it."""
    return Encounter.model_validate(
        {
            "grid": {"width": WIDTH, "height": HEIGHT},
            "walls": [
                {"a": [i % WIDTH, i % HEIGHT], "b": [9000 - i, -9000 + i]} for i in range(walls)
            ],
            "terrain": [{"points": [[0, 0], [9999, 0], [9999, 9999]]}],
            "fog": {"mode": "dynamic"},
        }
    )


def test_the_players_view_samples_only_near_the_map() -> None:
    encounter = far_encounter(5000)
    everything = frozenset((x, y) for x in range(WIDTH) for y in range(HEIGHT))
    view = project(encounter, everything)
    box = margin_box(encounter.grid)
    assert len(view.walls) == 5000
    for wall in view.walls:
        for x, y in (wall.a, wall.b):
            assert box[0] <= x <= box[2] and box[1] <= y <= box[3]
    # Each wall is sampled along its length: now under the box's diagonal, not ~12,700 cells.
    diagonal = math.dist(box[:2], box[2:])
    assert max(math.dist(w.a, w.b) for w in view.walls) <= diagonal
    # A region is looked at over its bounding box: now at most the map and its margin.
    (region,) = view.terrain
    xs, ys = [p[0] for p in region.points], [p[1] for p in region.points]
    area = (max(xs) - min(xs)) * (max(ys) - min(ys))
    assert area <= (WIDTH + 2 * MAP_MARGIN_CELLS) * (HEIGHT + 2 * MAP_MARGIN_CELLS)
