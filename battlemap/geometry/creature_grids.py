"""Where a mover's space would overlap other creatures: boolean grids of top-left cells.

One function for the move context's whole-map grids and the search's window: a k x k space
with top-left (x, y) overlaps a creature's square (sx, sy) when x <= sx <= x + k - 1 (and so
for y), so each creature marks the block of top-left cells from its squares moved k - 1 up and
left; squares off the grid are cut first (as ``window_any`` over the clipped squares would).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from battlemap.geometry.map_index import BoolGrid

CellRange = tuple[int, int, int, int]
"""Inclusive ``x0, y0, x1, y1`` of a creature's squares."""


def space_grids(
    map_size: tuple[int, int],
    ranges: Sequence[CellRange],
    blocks: Sequence[bool],
    k: int,
    window: tuple[int, int, int, int],
) -> tuple[BoolGrid, BoolGrid]:
    """(occupied, blocked) over ``window`` (x0, y0, w, h) of top-left cells: a k x k space
    there overlaps the squares of one of ``ranges`` (on the ``map_size`` (width, height) grid);
    of one whose ``blocks`` is True. Read-only arrays: the last few answers are kept, as the
    queries of one drag ask the same (the other creatures stand still while one moves)."""
    return _space_grids(map_size, tuple(ranges), tuple(blocks), k, window)


@functools.lru_cache(maxsize=8)
def _space_grids(
    map_size: tuple[int, int],
    ranges: tuple[CellRange, ...],
    blocks: tuple[bool, ...],
    k: int,
    window: tuple[int, int, int, int],
) -> tuple[BoolGrid, BoolGrid]:
    wx0, wy0, w, h = window
    if not ranges:
        return _read_only(np.zeros((h, w), dtype=bool), np.zeros((h, w), dtype=bool))
    width, height = map_size
    cells = np.fromiter(itertools.chain.from_iterable(ranges), np.int64, 4 * len(ranges))
    cells = cells.reshape(-1, 4)
    x0 = np.maximum(np.maximum(cells[:, 0], 0) - (k - 1) - wx0, 0)
    y0 = np.maximum(np.maximum(cells[:, 1], 0) - (k - 1) - wy0, 0)
    x1 = np.minimum(np.minimum(cells[:, 2], width - 1) - wx0 + 1, w)
    y1 = np.minimum(np.minimum(cells[:, 3], height - 1) - wy0 + 1, h)
    keep = (x0 < x1) & (y0 < y1)
    block = np.asarray(blocks, dtype=bool)
    occupied = _paint((h, w), x0[keep], y0[keep], x1[keep], y1[keep])
    hostile = keep & block
    blocked = _paint((h, w), x0[hostile], y0[hostile], x1[hostile], y1[hostile])
    return _read_only(occupied, blocked)


def _read_only(*grids: BoolGrid) -> tuple[BoolGrid, BoolGrid]:
    for grid in grids:
        grid.flags.writeable = False
    return grids[0], grids[1]


def _paint(
    shape: tuple[int, int],
    x0: NDArray[np.int64],
    y0: NDArray[np.int64],
    x1: NDArray[np.int64],
    y1: NDArray[np.int64],
) -> BoolGrid:
    """True inside any of the half-open boxes [x0, x1) x [y0, y1) (small boxes: every cell of
    every box is listed)."""
    h, w = shape
    flat = np.zeros(h * w, dtype=bool)
    widths = x1 - x0
    areas = widths * (y1 - y0)
    if areas.max(initial=1) == 1:  # one cell each (Medium creatures, a Medium mover)
        flat[y0 * w + x0] = True
        return flat.reshape(shape)
    box = np.repeat(np.arange(len(x0)), areas)
    within = np.arange(len(box)) - np.repeat(np.cumsum(areas) - areas, areas)
    across = widths[box]
    flat[(y0[box] + within // across) * w + x0[box] + within % across] = True
    return flat.reshape(shape)
