"""What the party sees: the union of its members' visibility, as grid cells (fog of war).

``PartySight`` keeps each viewer's cells between updates, so a move recomputes only the viewers
that moved (one view, a sweep, each) and the union is an OR of boolean grids.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray
from shapely.geometry.base import BaseGeometry

from battlemap.geometry.map_index import MapIndex, rasterise
from battlemap.geometry.sight import cast_polygon, view_of
from battlemap.geometry.sweep import View
from battlemap.model.creature import Creature

Cell = tuple[int, int]
CellGrid = NDArray[np.bool_]
"""``grid[row, col]``: the cell (col, row) is seen."""
ViewerKey = tuple[float, float, float]
"""Where a viewer looks from: its top-left (cells) and its space's side (cells)."""


def viewer_key(index: MapIndex, viewer: Creature) -> ViewerKey:
    return (viewer.x, viewer.y, viewer.space_cells(index.cell_feet))


def viewer_centre(key: ViewerKey) -> tuple[float, float]:
    """The centre of the space of the viewer at ``key`` (cells): where it looks from."""
    x, y, side = key
    return (x + side / 2, y + side / 2)


def viewer_grid(
    index: MapIndex, key: ViewerKey, radius: float | None, view: View | BaseGeometry | None
) -> CellGrid:
    """The cells one viewer sees from the centre of its space (see ``visible_cells``), by
    its ``view`` (``view_of`` from there)."""
    x, y, side = key
    seen = np.zeros((index.height, index.width), dtype=bool)
    centre = viewer_centre(key)
    if isinstance(view, View):
        view.mark_seen(seen)
    elif view is None:  # a wall touches the centre: the ray cast's polygon
        rasterise(cast_polygon(index, centre, radius), seen)  # no second sweep
    first_col, first_row = max(0, int(np.floor(x))), max(0, int(np.floor(y)))
    last_col, last_row = max(0, int(np.ceil(x + side))), max(0, int(np.ceil(y + side)))
    seen[first_row:last_row, first_col:last_col] = True
    return seen


def grid_cells(grid: CellGrid) -> frozenset[Cell]:
    table = _cell_table(*grid.shape)
    return frozenset(map(table.__getitem__, np.flatnonzero(grid).tolist()))


@lru_cache(maxsize=2)
def _cell_table(height: int, width: int) -> tuple[Cell, ...]:
    """Every cell of a grid, row by row: the set of seen cells takes its tuples from here
    instead of making them (half the time, on thousands of cells after each move)."""
    return tuple((col, row) for row in range(height) for col in range(width))


def visible_cells(
    index: MapIndex, viewers: Sequence[Creature], radius_feet: float | None = None
) -> frozenset[Cell]:
    """Cells the viewers see from the centres of their spaces.

    A cell counts as seen when its centre lies inside (or on the edge of) a viewer's
    visibility polygon, so a cell half behind a wall corner is seen only if its middle is;
    a viewer always sees the cells of its own space. ``radius_feet`` limits sight (a dark
    map); None means unlimited.
    """
    return PartySight().visible(index, viewers, radius_feet)


class PartySight:
    """``visible_cells`` that remembers each viewer's cells for the next call.

    The memory is dropped when the index (a map change) or the sight range changes; a viewer
    is recomputed only when its position or size changed.
    """

    def __init__(self) -> None:
        self._index: MapIndex | None = None
        self._radius: float | None = None
        self._grids: dict[ViewerKey, CellGrid] = {}
        self._views: dict[ViewerKey, View | BaseGeometry | None] = {}
        self._last: tuple[frozenset[ViewerKey], frozenset[Cell]] | None = None
        self.computed = 0
        """Viewers' views computed so far (each one sweep, ``view_of``)."""

    def visible(
        self, index: MapIndex, viewers: Sequence[Creature], radius_feet: float | None = None
    ) -> frozenset[Cell]:
        """The cells ``viewers`` see (``visible_cells``), recomputing only the viewers that
        moved since the last call."""
        radius = None if radius_feet is None else radius_feet / index.cell_feet
        self._same_map(index, radius)
        keys = frozenset(viewer_key(index, v) for v in viewers)
        if self._last is not None and self._last[0] == keys:
            return self._last[1]
        self._grids = {k: g for k, g in self._grids.items() if k in keys}
        for key in keys - self._grids.keys():
            self._grids[key] = viewer_grid(index, key, radius, self.view(index, key, radius))
        self._views = {k: v for k, v in self._views.items() if k in keys}
        if not self._grids:
            cells: frozenset[Cell] = frozenset()
        else:
            cells = grid_cells(np.logical_or.reduce(list(self._grids.values())))
        self._last = (keys, cells)
        return cells

    def view(
        self, index: MapIndex, key: ViewerKey, radius: float | None
    ) -> View | BaseGeometry | None:
        """``view_of`` from the centre of the viewer at ``key`` (``radius`` in cells), kept
        for its cells and its polygon (``PartyFog`` asks for both after a move)."""
        self._same_map(index, radius)
        if len(self._views) > 4 * len(self._grids) + 16:  # polygons asked for, never cells
            self._views = {k: v for k, v in self._views.items() if k in self._grids}
        if key not in self._views:
            self._views[key] = view_of(index, viewer_centre(key), radius)
            self.computed += 1
        return self._views[key]

    def _same_map(self, index: MapIndex, radius: float | None) -> None:
        """Forget every viewer on a new map index or sight range."""
        if index is not self._index or radius != self._radius:
            self._index, self._radius, self._grids, self._last = index, radius, {}, None
            self._views = {}
