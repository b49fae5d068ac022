"""Plain-number helpers the map tools share: snapping, hit tests and brush cells.

No Qt here, so the rules are easy to read and test. All coordinates are in cells.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from battlemap.model.encounter import Encounter
from battlemap.model.features import Point
from battlemap.model.grid import Grid

Cell = tuple[int, int]


def clamp_to_map(point: Point, grid: Grid) -> Point:
    """``point`` moved inside the map rectangle [0, width] x [0, height] (border included)."""
    return (min(max(point[0], 0.0), float(grid.width)), min(max(point[1], 0.0), float(grid.height)))


def snap_to_corner(point: Point, grid: Grid) -> Point:
    """The grid corner nearest to ``point`` (halves round up), on the map."""
    return clamp_to_map((math.floor(point[0] + 0.5), math.floor(point[1] + 0.5)), grid)


def cell_at(point: Point) -> Cell:
    """The cell containing ``point``; a point on a grid line belongs to the cell right/below."""
    return (math.floor(point[0]), math.floor(point[1]))


def snap_to_centre(point: Point, grid: Grid) -> Point:
    """The centre of the map cell under ``point`` (off-map points use the nearest edge cell)."""
    col, row = cell_at(point)
    col = min(max(col, 0), grid.width - 1)
    row = min(max(row, 0), grid.height - 1)
    return (col + 0.5, row + 0.5)


def points_along(a: Point, b: Point, step: float) -> list[Point]:
    """Points from ``a`` to ``b`` inclusive, at most ``step`` apart (a fast drag, filled in)."""
    count = max(1, math.ceil(math.hypot(b[0] - a[0], b[1] - a[1]) / step))
    return [
        (a[0] + (b[0] - a[0]) * i / count, a[1] + (b[1] - a[1]) * i / count)
        for i in range(count + 1)
    ]


def distance_to_segment(point: Point, a: Point, b: Point) -> float:
    """Shortest distance from ``point`` to the segment ``a``-``b`` (a point when a == b)."""
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    length_sq = dx * dx + dy * dy
    t = 0.0 if length_sq == 0 else ((point[0] - ax) * dx + (point[1] - ay) * dy) / length_sq
    t = min(1.0, max(0.0, t))
    return math.hypot(point[0] - (ax + t * dx), point[1] - (ay + t * dy))


def point_in_polygon(point: Point, polygon: Sequence[Point]) -> bool:
    """Even-odd test: True strictly inside; points on the boundary may go either way."""
    x, y = point
    inside = False
    j = len(polygon) - 1
    for i in range(len(polygon)):
        xi, yi = polygon[i]
        xj, yj = polygon[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            inside = not inside
        j = i
    return inside


def feature_at(encounter: Encounter, point: Point, tolerance: float) -> str | None:
    """The id of the map feature the DM points at, or None.

    Walls, doors and windows win over obstacles, and obstacles over terrain, because the
    thinner thing is the harder one to hit. Among walls the nearest within ``tolerance``
    cells wins; among polygons the one drawn last (on top) that contains the point.
    """
    nearest: tuple[float, str] | None = None
    for wall in encounter.walls:
        distance = distance_to_segment(point, wall.a, wall.b)
        if distance <= tolerance and (nearest is None or distance < nearest[0]):
            nearest = (distance, wall.id)
    if nearest is not None:
        return nearest[1]
    for obstacle in reversed(encounter.obstacles):
        if point_in_polygon(point, obstacle.points):
            return obstacle.id
    for region in reversed(encounter.terrain):
        if point_in_polygon(point, region.points):
            return region.id
    return None


def cells_to_rectangles(cells: Iterable[Cell]) -> list[list[Point]]:
    """Cover ``cells`` exactly with few axis-aligned rectangles (as 4-point polygons).

    Each row is cut into runs of adjacent cells; a run continues the rectangle above it
    when it spans exactly the same columns. The result never overlaps and is ordered top
    to bottom, left to right.
    """
    rows: dict[int, list[int]] = {}
    for col, row in set(cells):
        rows.setdefault(row, []).append(col)
    open_rects: dict[tuple[int, int], list[int]] = {}  # (first col, last col) -> [top, bottom]
    done: list[tuple[int, int, int, int]] = []
    for row in sorted(rows):
        runs: list[tuple[int, int]] = []
        for col in sorted(rows[row]):
            if runs and runs[-1][1] == col - 1:
                runs[-1] = (runs[-1][0], col)
            else:
                runs.append((col, col))
        still_open: dict[tuple[int, int], list[int]] = {}
        for run in runs:
            rect = open_rects.pop(run, None)
            if rect is not None and rect[1] == row - 1:
                rect[1] = row
            else:
                if rect is not None:
                    done.append((run[0], run[1], rect[0], rect[1]))
                rect = [row, row]
            still_open[run] = rect
        done += [(run[0], run[1], top, bottom) for run, (top, bottom) in open_rects.items()]
        open_rects = still_open
    done += [(run[0], run[1], top, bottom) for run, (top, bottom) in open_rects.items()]
    done.sort(key=lambda r: (r[2], r[0]))
    return [
        [(left, top), (right + 1, top), (right + 1, bottom + 1), (left, bottom + 1)]
        for left, right, top, bottom in done
    ]
