"""Rooms: the cells reachable from one cell without crossing any wall, door or window.

Used by the DM's "reveal the room I click" fog tool. Every wall-like feature counts as a
room's boundary, open doors included, so revealing a room never spills through its door.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

import shapely
from shapely import STRtree

from battlemap.geometry.map_index import BoolGrid, blocked_centre_steps
from battlemap.model.features import Wall
from battlemap.model.grid import Grid

Cell = tuple[int, int]
MAX_ROOM_CELLS = 250_000


def _blocked_edges(grid: Grid, walls: Sequence[Wall]) -> tuple[BoolGrid, BoolGrid]:
    """``east[y, x]``: a wall separates cell (x, y) from (x+1, y); ``south`` likewise down."""
    tree = STRtree([shapely.LineString([w.a, w.b]) for w in walls if w.a != w.b])
    east = blocked_centre_steps(tree, grid.width, grid.height, 1, 0)
    south = blocked_centre_steps(tree, grid.width, grid.height, 0, 1)
    return east, south


def room_cells(grid: Grid, walls: Sequence[Wall], start: Cell) -> frozenset[Cell]:
    """Cells connected to ``start`` by side-to-side steps that cross no wall segment.

    A step crosses a wall when the segment between the two cells' centres touches it, so a
    wall running along a grid line separates the cells on either side. A map with no walls
    is one room. Returns an empty set when ``start`` is off the map.
    """
    col, row = start
    if not (0 <= col < grid.width and 0 <= row < grid.height):
        return frozenset()
    east, south = _blocked_edges(grid, walls)
    seen = {start}
    queue = deque([start])
    while queue and len(seen) < MAX_ROOM_CELLS:
        x, y = queue.popleft()
        steps = (
            (x + 1, y, x < grid.width - 1 and not east[y, x]),
            (x - 1, y, x > 0 and not east[y, x - 1]),
            (x, y + 1, y < grid.height - 1 and not south[y, x]),
            (x, y - 1, y > 0 and not south[y - 1, x]),
        )
        for nx, ny, open_ in steps:
            if open_ and (nx, ny) not in seen:
                seen.add((nx, ny))
                queue.append((nx, ny))
    return frozenset(seen)
