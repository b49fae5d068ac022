"""``movement.walk`` over arrays for a path of plain steps: the whole space may take every one
of them (its centre segments clear, room where it lands, on the map) and none enters a space
the mover may not pass. Such a path never squeezes, so each step's cost and reasons follow
from its direction, its 5-10-5 parity (how many diagonals came before it) and what it lands
on; ``MoveContext.step_parts`` makes them once per kind of step. A found cheapest path (a
hundred steps and more) costs a few array reads instead of a hundred ``MoveContext.step``s.
"""

from __future__ import annotations

import functools
import itertools
import operator
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from battlemap.geometry.map_index import DIRECTIONS, BoolGrid
from battlemap.geometry.metrics import Cell
from battlemap.geometry.movement import MoveContext, StepCost, StepParts

_DIRECTION_OF = np.full((3, 3), -1, dtype=np.int64)
for _d, (_dx, _dy) in enumerate(DIRECTIONS):
    _DIRECTION_OF[_dy + 1, _dx + 1] = _d
_DIAGONAL = np.array([dx != 0 and dy != 0 for dx, dy in DIRECTIONS])


def plain_steps(ctx: MoveContext, cells: Sequence[Cell]) -> tuple[list[StepCost], float] | None:
    """The steps of ``cells`` (first = start) and their total cost (added in order, as
    ``walk`` adds them), or None when a step is not plain (``walk`` then steps one by one)."""
    count = len(cells)
    if count < 2:
        return None
    flat = list(itertools.chain.from_iterable(cells))
    points = np.array(flat)
    if points.dtype.kind != "i" or points.shape != (2 * count,):
        return None  # not (x, y) pairs of ints: walk says what is wrong
    points = points.reshape(count, 2)
    index, k = ctx.index, ctx.k
    (x_lo, y_lo), (x_hi, y_hi) = points.min(axis=0).tolist(), points.max(axis=0).tolist()
    if x_lo < 0 or y_lo < 0 or x_hi > index.width - k or y_hi > index.height - k:
        return None
    moves = points[1:] - points[:-1]
    if moves.min() < -1 or moves.max() > 1:
        return None  # not neighbours: walk says which
    directions = _DIRECTION_OF[moves[:, 1] + 1, moves[:, 0] + 1]
    if directions.min() < 0:
        return None  # a step that stays put
    flat_cells = points[:, 1] * index.width + points[:, 0]
    leaving, entering = flat_cells[:-1], flat_cells[1:]
    if not _stacked(ctx.free)[directions, leaving].all():
        return None
    occupied, hostile = ctx.creature_grids_in(x_lo, y_lo, x_hi - x_lo + 1, y_hi - y_lo + 1)
    in_box = (points[1:, 1] - y_lo) * (x_hi - x_lo + 1) + (points[1:, 0] - x_lo)
    if hostile.ravel()[in_box].any():
        return None
    diagonal = _DIAGONAL[directions]
    before = np.cumsum(diagonal) - diagonal  # diagonals before each step
    keys = diagonal * (16 + (before & 1) * 16)  # 0 straight, 16 diagonal, 32 a dear one
    keys += _landing_keys(ctx)[entering] + occupied.ravel()[in_box] * 4
    # Each kind of step's fields made once (there are a few), then gathered per step.
    fields = np.empty((_KEYS, 5), dtype=object)
    for key in np.flatnonzero(np.bincount(keys, minlength=_KEYS)).tolist():
        fields[key] = _parts(ctx, key)
    cost, base, reasons, terrain, crawl = fields[keys].T.tolist()
    visited = list(zip(flat[0::2], flat[1::2], strict=True))
    # tuple.__new__ in C: StepCost(...) runs the named tuple's __new__, Python code.
    rows = zip(visited[:-1], visited[1:], cost, base, reasons, terrain, crawl, strict=True)
    steps = list(map(tuple.__new__, itertools.repeat(StepCost), rows))
    total = functools.reduce(operator.add, cost, 0.0)  # in order, as walk adds them
    return steps, total


_KEYS = 64
"""Step kinds: 16 x (straight, diagonal, dear diagonal) + 8 x difficult + 4 x another's
space + 2 x water + 1 x squeezing room."""

_LANDING: dict[int, tuple[tuple[BoolGrid, BoolGrid, BoolGrid], NDArray[np.int64]]] = {}


def _landing_keys(ctx: MoveContext) -> NDArray[np.int64]:
    """Per map cell (flat): what landing there adds to a step's kind (difficult 8, water 2,
    no room for the whole space 1), made once per terrain arrays (the index keeps them)."""
    sources = (ctx.difficult, ctx.water, ctx.room)
    kept = _LANDING.get(id(ctx.difficult))
    if kept is None or any(a is not b for a, b in zip(kept[0], sources, strict=True)):
        if len(_LANDING) >= 8:
            _LANDING.clear()
        keys = ctx.difficult.astype(np.int64) * 8 + ctx.water * 2 + ~ctx.room
        kept = _LANDING[id(ctx.difficult)] = (sources, keys.ravel())
    return kept[1]


_STACKS: dict[int, tuple[list[BoolGrid], NDArray[np.bool_]]] = {}


def _stacked(free: list[BoolGrid]) -> NDArray[np.bool_]:
    """``free`` (an index's ``step_free`` list, never changed) as one (direction, cell) array."""
    kept = _STACKS.get(id(free))
    if kept is None or kept[0] is not free:
        if len(_STACKS) >= 8:
            _STACKS.clear()
        kept = _STACKS[id(free)] = (free, np.stack(free).reshape(len(free), -1))
    return kept[1]


def _parts(ctx: MoveContext, key: int) -> StepParts:
    kind = key >> 4
    parity = 1 if kind == 2 else 0
    base, _, doubled = ctx.base_cost(int(kind > 0), int(kind > 0), parity)
    return ctx.step_parts(base, doubled, bool(key & 8), bool(key & 4), bool(key & 2), bool(key & 1))
