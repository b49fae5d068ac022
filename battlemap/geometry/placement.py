"""Where tokens may stand while setting up (Qt-free): the cells no token may stand in
(``blocked_cells``), free spaces nearest a point (``free_spaces``), the creatures a new map
leaves off the map or inside walls and where each goes (``resettled``), and spaces for new
creatures apart from the other side (``setup_spaces``).

Boundary rules, in cells (x right, y down; a cell is the unit square at its top-left corner):

- A cell is blocked when a wall, window or closed door crosses its inside by more than
  ``INSET`` (a wall drawn along a grid line, or one only touching a corner, blocks neither
  side), or a movement-blocking obstacle or impassable terrain covers its centre (a polygon
  touching the centre on its edge covers it).
- A space is every cell a creature's square of side ``space_cells`` overlaps; spaces that only
  share an edge or a corner do not overlap. Tiny creatures take a whole cell each.
- Apart: a new creature keeps ``APART_CELLS`` cells (diagonals included) from every creature
  of the other side, unless nothing else is left.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely import LineString, Polygon, STRtree
from shapely.geometry.base import BaseGeometry

from battlemap.model.creature import Creature, Side, Size
from battlemap.model.encounter import Encounter
from battlemap.model.features import TerrainKind, WallKind
from battlemap.model.ids import EntityId

Cell = tuple[int, int]
INSET = 0.05
"""A wall must cross this far inside a cell to block it (not one drawn on its edge)."""
APART_CELLS = 1
"""New creatures keep this many cells from the other side's (no one starts in melee)."""


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


def space_cells_of(creature: Creature, cell_feet: float) -> list[Cell]:
    """The cells the creature's space overlaps (touching an edge or a corner is not)."""
    side = creature.space_cells(cell_feet)
    x0, y0 = math.floor(creature.x), math.floor(creature.y)
    x1, y1 = math.ceil(creature.x + side - 1e-9), math.ceil(creature.y + side - 1e-9)
    return [(x, y) for x in range(x0, x1) for y in range(y0, y1)]


def free_spaces(
    encounter: Encounter,
    size: Size,
    count: int,
    near: tuple[float, float],
    blocked: Iterable[Cell] = (),
) -> list[tuple[float, float]]:
    """Top-left corners (in cells) of up to ``count`` spaces for creatures of ``size``.

    ``blocked``: cells no space may cover besides the creatures' (walls, obstacles).

    Spaces lie wholly on the map, overlap no creature nor each other, sit on whole cells,
    and are the ones whose centres are nearest ``near`` (ties: top row first, then left).
    Tiny creatures take a whole cell each. Fewer are returned when the map is full.
    """
    grid = encounter.grid
    side = max(1, math.ceil(size.space_feet / grid.cell_feet - 1e-9))
    taken: set[Cell] = set(blocked)
    for creature in encounter.creatures:
        taken.update(space_cells_of(creature, grid.cell_feet))
    # Look in a window around ``near`` first (a 1000 x 1000 map has a million candidates).
    radius = side * math.ceil(math.sqrt(count)) + 10
    spaces = _fill(grid.width, grid.height, side, count, near, taken, radius)
    if len(spaces) < count:
        spaces += _fill(grid.width, grid.height, side, count - len(spaces), near, taken, None)
    return spaces


def _fill(
    width: int,
    height: int,
    side: int,
    count: int,
    near: tuple[float, float],
    taken: set[Cell],
    radius: int | None,
) -> list[tuple[float, float]]:
    """Place up to ``count`` spaces (marking them in ``taken``) within ``radius`` cells of
    ``near``, or anywhere when ``radius`` is None."""
    xs, ys = range(width - side + 1), range(height - side + 1)
    if radius is not None:
        xs = range(max(0, int(near[0]) - radius), min(width - side, int(near[0]) + radius) + 1)
        ys = range(max(0, int(near[1]) - radius), min(height - side, int(near[1]) + radius) + 1)
    candidates = [(x, y) for y in ys for x in xs]
    candidates.sort(key=lambda p: (math.dist((p[0] + side / 2, p[1] + side / 2), near), p[1]))
    spaces: list[tuple[float, float]] = []
    for x, y in candidates:
        cells = {(x + dx, y + dy) for dx in range(side) for dy in range(side)}
        if cells & taken:
            continue
        taken |= cells
        spaces.append((float(x), float(y)))
        if len(spaces) == count:
            break
    return spaces


def misplaced(creature: Creature, encounter: Encounter, blocked: frozenset[Cell]) -> bool:
    """Off the map (any part of its space) or on a blocked cell."""
    grid = encounter.grid
    side = creature.space_cells(grid.cell_feet)
    if not grid.contains_rect(creature.x, creature.y, side, side):
        return True
    return any(cell in blocked for cell in space_cells_of(creature, grid.cell_feet))


@dataclass(frozen=True)
class Relocation:
    """A creature moved from where a new map left it to the nearest free space."""

    creature_id: EntityId
    name: str
    old: tuple[float, float]
    new: tuple[float, float]


def resettled(encounter: Encounter) -> list[Relocation]:
    """Where each misplaced creature of ``encounter`` (the new map already in it) goes: the
    nearest free space to its clamped centre, in creature order, each placed before the next
    looks (one is left where it is when the map has no room)."""
    blocked = blocked_cells(encounter)
    moved: list[Relocation] = []
    for creature in encounter.creatures:
        if not misplaced(creature, encounter, blocked):
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
        x, y = spaces[0]
        moved.append(Relocation(creature.id, creature.name, (creature.x, creature.y), (x, y)))
        encounter = encounter.replace_creature(creature.model_copy(update={"x": x, "y": y}))
    return moved


def near_the_other_side(encounter: Encounter, side: Side) -> set[Cell]:
    """Cells within ``APART_CELLS`` of a creature the other side of ``side`` (party/hostile;
    neutral creatures have no other side)."""
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
    blocked = blocked_cells(encounter)
    if apart:
        away = blocked | near_the_other_side(encounter, side)
        spaces = free_spaces(encounter, size, count, near, away)
        if len(spaces) == count:
            return spaces
    return free_spaces(encounter, size, count, near, blocked)
