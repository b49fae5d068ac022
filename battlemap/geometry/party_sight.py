"""What the party sees: the union of its members' visibility, as grid cells (fog of war)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import shapely

from battlemap.geometry.map_index import MapIndex
from battlemap.geometry.sight import visibility_polygon
from battlemap.model.creature import Creature

Cell = tuple[int, int]


def visible_cells(
    index: MapIndex, viewers: Sequence[Creature], radius_feet: float | None = None
) -> frozenset[Cell]:
    """Cells the viewers see from the centres of their spaces.

    A cell counts as seen when its centre lies inside (or on the edge of) a viewer's
    visibility polygon, so a cell half behind a wall corner is seen only if its middle is;
    a viewer always sees the cells of its own space. ``radius_feet`` limits sight (a dark
    map); None means unlimited.
    """
    if not viewers:
        return frozenset()
    radius = None if radius_feet is None else radius_feet / index.cell_feet
    polygons = []
    seen: set[Cell] = set()
    for viewer in viewers:
        side = viewer.space_cells(index.cell_feet)
        centre = (viewer.x + side / 2, viewer.y + side / 2)
        polygons.append(visibility_polygon(index, centre, radius))
        first_col, first_row = int(np.floor(viewer.x)), int(np.floor(viewer.y))
        last_col, last_row = int(np.ceil(viewer.x + side)), int(np.ceil(viewer.y + side))
        seen.update(
            (c, r)
            for c in range(max(0, first_col), min(index.width, last_col))
            for r in range(max(0, first_row), min(index.height, last_row))
        )
    region = shapely.union_all(polygons)
    if region.is_empty:
        return frozenset(seen)
    min_x, min_y, max_x, max_y = region.bounds
    cols = np.arange(max(0, int(min_x)), min(index.width, int(np.ceil(max_x))))
    rows = np.arange(max(0, int(min_y)), min(index.height, int(np.ceil(max_y))))
    grid_cols, grid_rows = np.meshgrid(cols, rows)
    centres_x, centres_y = grid_cols.ravel() + 0.5, grid_rows.ravel() + 0.5
    shapely.prepare(region)
    inside = shapely.intersects_xy(region, centres_x, centres_y)
    seen.update(
        zip(grid_cols.ravel()[inside].tolist(), grid_rows.ravel()[inside].tolist(), strict=True)
    )
    return frozenset(seen)
