"""Where tokens may stand while setting up: tokens a new map leaves off the map or inside walls
and obstacles move to free cells (``resettle``); new creatures land on free cells apart from the
other side (``setup_spaces``).

A cell is blocked when a wall, window or closed door crosses its inside (walls along grid lines
block neither side), or a movement-blocking obstacle or impassable terrain covers its centre.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely import LineString, Polygon, STRtree
from shapely.geometry.base import BaseGeometry

from battlemap.model.creature import Creature, Side, Size
from battlemap.model.document import Command, MoveCreature
from battlemap.model.encounter import Encounter
from battlemap.model.features import TerrainKind, WallKind

Cell = tuple[int, int]
INSET = 0.05
"""A wall must cross this far inside a cell to block it (not one drawn on its edge)."""


def blocked_cells(encounter: Encounter) -> frozenset[Cell]:
    """The cells no token may stand in on ``encounter``'s map."""
    lines = [
        LineString([w.a, w.b]) for w in encounter.walls if not (w.kind is WallKind.DOOR and w.open)
    ]
    areas = [Polygon(o.points) for o in encounter.obstacles if o.blocks_movement]
    areas += [Polygon(t.points) for t in encounter.terrain if t.kind is TerrainKind.IMPASSABLE]
    blocked: set[Cell] = set()
    for shapes, crossing in ((lines, True), (areas, False)):
        xs, ys = _cells_under(shapes, encounter.grid.width, encounter.grid.height)
        if not len(xs):
            continue
        if crossing:  # the shape runs through the cell's inside
            probes = shapely.box(xs + INSET, ys + INSET, xs + 1 - INSET, ys + 1 - INSET)
            hits = STRtree(shapes).query(probes, predicate="intersects")[0]
        else:  # the shape covers the cell's centre
            hits = STRtree(shapes).query(shapely.points(xs + 0.5, ys + 0.5), "covered_by")[0]
        blocked.update(zip(xs[hits].tolist(), ys[hits].tolist(), strict=True))
    return frozenset(blocked)


def _cells_under(
    shapes: Sequence[BaseGeometry], width: int, height: int
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """The x and y of every map cell under the bounding boxes of ``shapes`` (each once)."""
    seen: set[Cell] = set()
    for shape in shapes:
        x0, y0, x1, y1 = shape.bounds
        for cx in range(max(0, math.floor(x0)), min(width, math.ceil(x1) + 1)):
            seen.update(
                (cx, cy) for cy in range(max(0, math.floor(y0)), min(height, math.ceil(y1) + 1))
            )
    cells = np.array(sorted(seen), dtype=np.int64).reshape(-1, 2)
    return cells[:, 0], cells[:, 1]


def _misplaced(creature: Creature, encounter: Encounter, blocked: frozenset[Cell]) -> bool:
    grid = encounter.grid
    side = creature.space_cells(grid.cell_feet)
    if not grid.contains_rect(creature.x, creature.y, side, side):
        return True
    x0, y0 = math.floor(creature.x), math.floor(creature.y)
    x1, y1 = math.ceil(creature.x + side - 1e-9), math.ceil(creature.y + side - 1e-9)
    return any((x, y) in blocked for x in range(x0, x1) for y in range(y0, y1))


def resettle(encounter: Encounter) -> tuple[list[Command], list[str]]:
    """Moves putting each misplaced creature of ``encounter`` (the new map already in it) on
    the nearest free space, and the names of those moved (one left where it is when the
    map has no room)."""
    from battlemap.ui.library_dock import free_spaces  # the library imports this module's user

    blocked = blocked_cells(encounter)
    moves: list[Command] = []
    names: list[str] = []
    for creature in encounter.creatures:
        if not _misplaced(creature, encounter, blocked):
            continue
        side = creature.space_cells(encounter.grid.cell_feet)
        near = (
            min(max(creature.x + side / 2, 0.0), float(encounter.grid.width)),
            min(max(creature.y + side / 2, 0.0), float(encounter.grid.height)),
        )
        others = encounter.model_copy(
            update={"creatures": tuple(c for c in encounter.creatures if c.id != creature.id)}
        )
        spaces = free_spaces(others, creature.size, 1, near, blocked)
        if not spaces:
            continue
        move = MoveCreature(creature.id, (creature.x, creature.y), spaces[0])
        encounter = move.apply(encounter)
        moves.append(move)
        names.append(creature.name)
    return moves, names


APART_CELLS = 1
"""New creatures keep this many cells from the other side's (no one starts in melee)."""


def _near_the_other_side(encounter: Encounter, side: Side) -> set[Cell]:
    """Cells within ``APART_CELLS`` of a creature the other side of ``side`` (party/hostile)."""
    other = {Side.PARTY: Side.HOSTILE, Side.HOSTILE: Side.PARTY}.get(side)
    cells: set[Cell] = set()
    for creature in encounter.creatures:
        if creature.side is not other:
            continue
        side_cells = creature.space_cells(encounter.grid.cell_feet)
        x0, y0 = math.floor(creature.x) - APART_CELLS, math.floor(creature.y) - APART_CELLS
        x1 = math.ceil(creature.x + side_cells - 1e-9) + APART_CELLS
        y1 = math.ceil(creature.y + side_cells - 1e-9) + APART_CELLS
        cells.update((x, y) for x in range(x0, x1) for y in range(y0, y1))
    return cells


def setup_spaces(
    encounter: Encounter,
    size: Size,
    count: int,
    near: tuple[float, float],
    side: Side,
    apart: bool = True,
) -> list[tuple[float, float]]:
    """Free spaces for ``count`` new creatures of ``side`` nearest ``near``: out of walls and
    obstacles and (``apart``) away from the other side, next to it only when nothing else is
    left."""
    from battlemap.ui.library_dock import free_spaces  # the library imports this module's user

    blocked = blocked_cells(encounter)
    if apart:
        away = blocked | _near_the_other_side(encounter, side)
        spaces = free_spaces(encounter, size, count, near, away)
        if len(spaces) == count:
            return spaces
    return free_spaces(encounter, size, count, near, blocked)
