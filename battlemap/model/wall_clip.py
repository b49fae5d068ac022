"""Walls are kept only near the map: cut at ``WALL_MARGIN_CELLS`` outside its rectangle.

Nothing on the map sees or moves past that margin, but every wall's length costs time in
the players' view and the fog (a wall thousands of cells long is sampled along its whole
length), so a wall running off the map is cut where it leaves the margin and one wholly
outside is dropped. The encounter model does this on load, the wall commands on edit and
on a shrunk map, the map importers on import: every path ends with the same walls.
"""

from __future__ import annotations

from battlemap.model.features import Point, Wall
from battlemap.model.grid import Grid
from battlemap.model.limits import WALL_MARGIN_CELLS

Box = tuple[float, float, float, float]
"""``(min_x, min_y, max_x, max_y)`` in cells."""
DECIMALS = 6
"""A cut end is rounded to 1e-6 cells, dropping the division's float noise."""


def wall_box(grid: Grid) -> Box:
    """The closed rectangle walls are kept in: the map widened by the margin on every side."""
    return (
        -WALL_MARGIN_CELLS,
        -WALL_MARGIN_CELLS,
        grid.width + WALL_MARGIN_CELLS,
        grid.height + WALL_MARGIN_CELLS,
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
    """``walls`` cut to ``wall_box(grid)``: each keeps its id, kind and state; walls with
    nothing inside are dropped. The very same tuple when every wall lies inside already,
    so an unchanged encounter stays identical."""
    box = wall_box(grid)
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
