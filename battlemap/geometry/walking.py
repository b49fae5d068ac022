"""``movement.walk`` over arrays for a path of plain steps: the whole space may take every one
of them (its centre segments clear, room where it lands, on the map) and none enters a space
the mover may not pass. Such a path never squeezes, so each step's cost and reasons follow
from its direction, its 5-10-5 parity (how many diagonals came before it) and what it lands
on; ``MoveContext.step_parts`` makes them once per kind of step. A found cheapest path (a
hundred steps and more) costs a few array reads instead of a hundred ``MoveContext.step``s.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from battlemap.geometry.map_index import DIRECTIONS
from battlemap.geometry.metrics import Cell
from battlemap.geometry.movement import MoveContext, StepCost, StepParts

_DIRECTION_OF = np.full((3, 3), -1, dtype=np.int64)
for _d, (_dx, _dy) in enumerate(DIRECTIONS):
    _DIRECTION_OF[_dy + 1, _dx + 1] = _d


def plain_steps(ctx: MoveContext, cells: Sequence[Cell]) -> tuple[list[StepCost], float] | None:
    """The steps of ``cells`` (first = start) and their total cost (added in order, as
    ``walk`` adds them), or None when a step is not plain (``walk`` then steps one by one)."""
    if len(cells) < 2:
        return None
    points = np.asarray(cells)
    if points.dtype.kind != "i" or points.ndim != 2:
        return None
    index, k = ctx.index, ctx.k
    xs, ys = points[:-1, 0], points[:-1, 1]
    nxs, nys = points[1:, 0], points[1:, 1]
    dx, dy = nxs - xs, nys - ys
    if np.abs(dx).max() > 1 or np.abs(dy).max() > 1:
        return None  # not neighbours: walk says which
    x_lo, x_hi = int(points[:, 0].min()), int(points[:, 0].max())
    y_lo, y_hi = int(points[:, 1].min()), int(points[:, 1].max())
    if x_lo < 0 or y_lo < 0 or x_hi > index.width - k or y_hi > index.height - k:
        return None
    directions = _DIRECTION_OF[dy + 1, dx + 1]
    if (directions < 0).any():
        return None  # a step that stays put
    free = np.empty(len(directions), dtype=bool)
    for d, mask in enumerate(ctx.free):
        taken = directions == d
        free[taken] = mask[ys[taken], xs[taken]]
    if not free.all():
        return None
    occupied, hostile = ctx.creature_grids_in(x_lo, y_lo, x_hi - x_lo + 1, y_hi - y_lo + 1)
    if hostile[nys - y_lo, nxs - x_lo].any():
        return None
    entered = occupied[nys - y_lo, nxs - x_lo]
    diagonal = (dx != 0) & (dy != 0)
    before = np.cumsum(diagonal) - diagonal  # diagonals before each step
    kinds = diagonal.astype(np.int64) * (1 + (before & 1))  # 0 straight, 1 diagonal, 2 odd one
    keys = kinds * 16 + ctx.difficult[nys, nxs] * 8 + entered * 4 + ctx.water[nys, nxs] * 2
    keys += ~ctx.room[nys, nxs]
    parts: dict[int, StepParts] = {}
    steps = []
    total = 0.0
    ends = list(zip(nxs.tolist(), nys.tolist(), strict=True))
    start = (int(xs[0]), int(ys[0]))
    for end, key in zip(ends, keys.tolist(), strict=True):
        made = parts.get(key)
        if made is None:
            made = parts[key] = _parts(ctx, key)
        steps.append(StepCost(start, end, *made))
        total += made[0]
        start = end
    return steps, total


def _parts(ctx: MoveContext, key: int) -> StepParts:
    kind = key >> 4
    parity = 1 if kind == 2 else 0
    base, _, doubled = ctx.base_cost(int(kind > 0), int(kind > 0), parity)
    return ctx.step_parts(base, doubled, bool(key & 8), bool(key & 4), bool(key & 2), bool(key & 1))
