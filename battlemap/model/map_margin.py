"""Map features are kept only near the map: cut at ``MAP_MARGIN_CELLS`` outside it.

Nothing on the map sees or moves past that margin, but a feature's size costs time in the
players' view and the fog (a wall is sampled along its whole length, an obstacle or terrain
region over every cell of its bounding box: one reaching 10,000 cells off the map hung the
players' view). So a wall running off the map is cut where it leaves the margin, an obstacle
or terrain polygon is cut to it, and a feature wholly outside is dropped. The encounter
model does this on load, the map commands on edit and on a shrunk map, the map importers on
import: every path ends with the same features.
"""

from __future__ import annotations

from typing import TypeVar

from battlemap.model.features import Obstacle, Point, TerrainRegion, Wall
from battlemap.model.grid import Grid
from battlemap.model.limits import MAP_MARGIN_CELLS

Region = TypeVar("Region", Obstacle, TerrainRegion)
Box = tuple[float, float, float, float]
"""``(min_x, min_y, max_x, max_y)`` in cells."""
DECIMALS = 6
"""A cut end is rounded to 1e-6 cells, dropping the division's float noise."""


def margin_box(grid: Grid) -> Box:
    """The closed rectangle features are kept in: the map widened by the margin each side."""
    return (
        -MAP_MARGIN_CELLS,
        -MAP_MARGIN_CELLS,
        grid.width + MAP_MARGIN_CELLS,
        grid.height + MAP_MARGIN_CELLS,
    )


def _inside(point: Point, box: Box) -> bool:
    return box[0] <= point[0] <= box[2] and box[1] <= point[1] <= box[3]


def clip_segment(a: Point, b: Point, box: Box) -> tuple[Point, Point] | None:
    """The part of segment ``a``-``b`` inside the closed ``box`` (Liang-Barsky).

    Returns None when no part of positive length lies inside: a segment that only touches
    the box at a point is dropped, one along its border is kept. Ends inside the box are
    returned unchanged; cut ends are rounded to ``DECIMALS``.
    """
    if _inside(a, box) and _inside(b, box):
        return a, b
    dx, dy = b[0] - a[0], b[1] - a[1]
    enter, leave = 0.0, 1.0
    for step, room in (
        (-dx, a[0] - box[0]),
        (dx, box[2] - a[0]),
        (-dy, a[1] - box[1]),
        (dy, box[3] - a[1]),
    ):
        if step == 0:
            if room < 0:
                return None  # parallel to this side and outside it
            continue
        t = room / step
        if step < 0:
            enter = max(enter, t)
        else:
            leave = min(leave, t)
        if enter >= leave:
            return None
    start = a if enter == 0 else _at(a, dx, dy, enter)
    end = b if leave == 1 else _at(a, dx, dy, leave)
    return (start, end) if start != end else None


def _at(a: Point, dx: float, dy: float, t: float) -> Point:
    return (round(a[0] + t * dx, DECIMALS), round(a[1] + t * dy, DECIMALS))


def clip_walls(walls: tuple[Wall, ...], grid: Grid) -> tuple[Wall, ...]:
    """``walls`` cut to ``margin_box(grid)``: each keeps its id, kind and state; walls with
    nothing inside are dropped. The very same tuple when every wall lies inside already,
    so an unchanged encounter stays identical."""
    box = margin_box(grid)
    if all(_inside(wall.a, box) and _inside(wall.b, box) for wall in walls):
        return walls
    kept: list[Wall] = []
    for wall in walls:
        ends = clip_segment(wall.a, wall.b, box)
        if ends is None:
            continue
        same = ends == (wall.a, wall.b)
        kept.append(wall if same else wall.model_copy(update={"a": ends[0], "b": ends[1]}))
    return tuple(kept)


def clip_polygon(points: list[Point], box: Box) -> list[Point] | None:
    """The polygon cut to the closed ``box`` (Sutherland-Hodgman, one box side at a time).

    The same list when every corner lies inside; None when fewer than 3 distinct corners
    remain (nothing, or only a point or a line, lies inside). Cut corners are rounded to
    ``DECIMALS``. A concave polygon that leaves and re-enters the box comes back as one ring
    joined along the box's border (outside the map), which the map index repairs.
    """
    if all(_inside(point, box) for point in points):
        return points
    kept = points
    for axis, limit, keep_above in (
        (0, box[0], True),
        (0, box[2], False),
        (1, box[1], True),
        (1, box[3], False),
    ):
        corners, kept = kept, []
        if not corners:
            break
        previous = corners[-1]
        previous_in = previous[axis] >= limit if keep_above else previous[axis] <= limit
        for corner in corners:
            corner_in = corner[axis] >= limit if keep_above else corner[axis] <= limit
            if corner_in != previous_in:
                kept.append(_crossing(previous, corner, axis, limit))
            if corner_in:
                kept.append(corner)
            previous, previous_in = corner, corner_in
    ring = [p for i, p in enumerate(kept) if p != kept[i - 1]] if kept else []
    return ring if len(set(ring)) >= 3 else None


def _crossing(a: Point, b: Point, axis: int, limit: float) -> Point:
    """Where segment ``a``-``b`` crosses the line ``axis == limit``."""
    t = (limit - a[axis]) / (b[axis] - a[axis])
    other = round(a[1 - axis] + t * (b[1 - axis] - a[1 - axis]), DECIMALS)
    return (limit, other) if axis == 0 else (other, limit)


def clip_regions(regions: tuple[Region, ...], grid: Grid) -> tuple[Region, ...]:
    """Obstacles or terrain regions cut to ``margin_box(grid)``, each keeping its id and the
    rest of its fields; ones with nothing inside are dropped. The very same tuple when every
    corner lies inside already."""
    box = margin_box(grid)
    if all(_inside(point, box) for region in regions for point in region.points):
        return regions
    kept: list[Region] = []
    for region in regions:
        points = clip_polygon(region.points, box)
        if points is not None:
            same = points is region.points
            kept.append(region if same else region.model_copy(update={"points": points}))
    return tuple(kept)


def cut_features(
    walls: tuple[Wall, ...],
    obstacles: tuple[Obstacle, ...],
    terrain: tuple[TerrainRegion, ...],
    grid: Grid,
) -> dict[str, tuple[Wall, ...] | tuple[Obstacle, ...] | tuple[TerrainRegion, ...]]:
    """The feature fields that cutting to ``grid``'s margin changes, as ``{field: cut}``
    (empty when every feature lies near the map already)."""
    cut: dict[str, tuple[Wall, ...] | tuple[Obstacle, ...] | tuple[TerrainRegion, ...]] = {}
    if (kept_walls := clip_walls(walls, grid)) is not walls:
        cut["walls"] = kept_walls
    if (kept_obstacles := clip_regions(obstacles, grid)) is not obstacles:
        cut["obstacles"] = kept_obstacles
    if (kept_terrain := clip_regions(terrain, grid)) is not terrain:
        cut["terrain"] = kept_terrain
    return cut
