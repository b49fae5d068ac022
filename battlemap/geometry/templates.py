"""Area-of-effect templates on the grid: which squares and which creatures a spell's area covers.

The shapes follow the 5e areas of effect (circle = sphere or cylinder seen from above, cone,
line, cube); sizes are in feet and positions in cells, like the rest of the geometry.

* **Circle**: every point within ``size_feet`` (the radius) of the origin. On the grid the
  origin is put on a grid intersection by the caller (the tool snaps it there).
* **Cone**: a flat-ended triangle. Its width at any point along its length equals that point's
  distance from the origin, so the far edge is ``size_feet`` wide and the sides open at
  ``atan(1/2)`` (about 26.57 degrees) either side of the aim.
* **Line**: a rectangle ``size_feet`` long and ``width_feet`` wide, centred on the aim line and
  starting at the origin.
* **Cube**: an axis-aligned square of side ``size_feet`` with the origin at one corner (a corner
  lies on two of its faces, as the rules ask of a cube's point of origin); the aim picks which
  of the four squares around the origin it fills.

The SRD rules text in this project is silent on grids, so the common grid rule is used:
**a square is affected when the template covers at least half of its area** (``>= 0.5`` of a
square, with a 1e-9 tolerance so a shape that covers exactly half counts despite float
rounding). A template that only touches a square's edge or corner covers none of its area and
does not affect it. Squares off the map are never affected.

A creature is caught when at least one square of its space is affected (a Large creature
half in the area is caught). A Tiny creature counts the one square its space lies in.

Walls: given a ``MapIndex``, the area stops at walls and closed doors. Only the part of the
template seen from the point of origin (``visibility_polygon``) counts, so the half-square rule
is applied to that part (5e: a location with no unblocked straight line from the origin is not
in the area). Windows let sight through and so do not stop an area here; obstacles do not stop
it either (they give cover, not walls). An origin exactly on a wall is moved a hair
(``ORIGIN_NUDGE``) into the template: toward the aim for a circle, so the side the DM drags
toward is the side the area fills.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.errors import GEOSException
from shapely.geometry import Point as ShapelyPoint
from shapely.geometry import Polygon, box
from shapely.geometry.base import BaseGeometry

from battlemap.geometry.body import Body
from battlemap.geometry.errors import GeometryError
from battlemap.geometry.map_index import MapIndex
from battlemap.geometry.metrics import Cell, PointXY
from battlemap.geometry.sight import visibility_polygon
from battlemap.geometry.template_shape import TemplateShape as TemplateShape  # its home
from battlemap.model import EntityId, Grid

HALF_SQUARE = 0.5
"""Fraction of a square's area a template must cover to affect the square."""
AREA_TOLERANCE = 1e-9
CONE_HALF_ANGLE = math.atan(0.5)
"""The cone's sides open this far either side of its aim: width at distance d equals d."""
CIRCLE_SEGMENTS = 32
"""Segments per quarter circle: the polygon's area is within 0.05 % of the true circle."""
MAX_TEMPLATE_FEET = 5000.0
ORIGIN_NUDGE = 1e-4
"""Cells the origin moves into the template before tracing what it reaches past walls."""


class TemplateError(GeometryError):
    """A template's size or aim is unusable (zero or negative size, no aim for a cone/line)."""


@dataclass(frozen=True)
class Template:
    """One placed area of effect.

    Attributes:
        shape: circle, cone, line or cube.
        origin: the point of origin in cells (a grid intersection for a circle or cube when
            snapped by the caller; any point is accepted).
        size_feet: circle radius, cone or line length, cube side; must be positive.
        aim: a point in cells the cone, line or cube points toward; ignored by a circle.
            A cone or line needs an aim different from the origin; a cube with its aim on the
            origin fills the square to the right of and below it.
        width_feet: the line's width (5 ft for most spells); ignored by the other shapes.
    """

    shape: TemplateShape
    origin: PointXY
    size_feet: float
    aim: PointXY | None = None
    width_feet: float = 5.0

    def direction(self) -> PointXY:
        """The unit vector from the origin toward the aim.

        Raises:
            TemplateError: when there is no aim or it is on the origin.
        """
        if self.aim is None:
            raise TemplateError(f"a {self.shape.value} needs an aim point")
        dx, dy = self.aim[0] - self.origin[0], self.aim[1] - self.origin[1]
        length = math.hypot(dx, dy)
        if length < 1e-9:
            raise TemplateError(f"a {self.shape.value}'s aim point is on its origin")
        return dx / length, dy / length


@dataclass(frozen=True)
class CaughtCreature:
    """A creature inside the area, with the squares of its space that are affected."""

    id: EntityId
    cells: tuple[Cell, ...]


@dataclass(frozen=True)
class TemplateCoverage:
    """What a template covers.

    Attributes:
        polygon: the template's outline in cells (before clipping to the map).
        reached: the part of ``polygon`` the origin reaches past walls (``polygon`` itself
            when no map index was given).
        cells: the affected squares on the map, sorted by row then column.
        caught: the creatures with at least one affected square, in the order given.
    """

    polygon: Polygon
    reached: BaseGeometry
    cells: tuple[Cell, ...]
    caught: tuple[CaughtCreature, ...]

    @property
    def creature_ids(self) -> tuple[EntityId, ...]:
        return tuple(c.id for c in self.caught)


def template_polygon(template: Template, cell_feet: float) -> Polygon:
    """The template's outline in cells on a grid of ``cell_feet`` feet per square.

    Raises:
        TemplateError: a size that is not positive or too large, or a missing aim.
    """
    for name, feet in (("size", template.size_feet), ("width", template.width_feet)):
        if not 0 < feet <= MAX_TEMPLATE_FEET or not math.isfinite(feet):
            raise TemplateError(
                f"template {name} must be between 0 and {MAX_TEMPLATE_FEET:g} ft, got {feet:g}"
            )
    size = template.size_feet / cell_feet
    ox, oy = template.origin
    if template.shape is TemplateShape.CIRCLE:
        polygon: Polygon = ShapelyPoint(ox, oy).buffer(size, quad_segs=CIRCLE_SEGMENTS)
        return polygon
    if template.shape is TemplateShape.CUBE:
        sx, sy = 1.0, 1.0
        if template.aim is not None:
            sx = -1.0 if template.aim[0] < ox else 1.0
            sy = -1.0 if template.aim[1] < oy else 1.0
        return box(
            min(ox, ox + sx * size),
            min(oy, oy + sy * size),
            max(ox, ox + sx * size),
            max(oy, oy + sy * size),
        )
    dx, dy = template.direction()
    px, py = -dy, dx  # perpendicular to the aim
    if template.shape is TemplateShape.CONE:
        end_x, end_y = ox + dx * size, oy + dy * size
        half = size / 2
        return Polygon(
            [
                (ox, oy),
                (end_x + px * half, end_y + py * half),
                (end_x - px * half, end_y - py * half),
            ]
        )
    half = template.width_feet / cell_feet / 2
    end_x, end_y = ox + dx * size, oy + dy * size
    return Polygon(
        [
            (ox + px * half, oy + py * half),
            (end_x + px * half, end_y + py * half),
            (end_x - px * half, end_y - py * half),
            (ox - px * half, oy - py * half),
        ]
    )


def affected_cells(polygon: BaseGeometry, grid: Grid) -> tuple[Cell, ...]:
    """The map squares of which ``polygon`` covers at least half (see the module docstring).

    Touching a square's edge or corner covers none of it; squares off the map never count.
    Sorted by row, then column.
    """
    if polygon.is_empty:
        return ()
    minx, miny, maxx, maxy = polygon.bounds
    cx0, cy0 = max(0, math.floor(minx)), max(0, math.floor(miny))
    cx1, cy1 = min(grid.width - 1, math.ceil(maxx) - 1), min(grid.height - 1, math.ceil(maxy) - 1)
    if cx1 < cx0 or cy1 < cy0:
        return ()
    candidates = [(c, r) for r in range(cy0, cy1 + 1) for c in range(cx0, cx1 + 1)]
    squares = shapely.box(
        [c for c, _ in candidates],
        [r for _, r in candidates],
        [c + 1 for c, _ in candidates],
        [r + 1 for _, r in candidates],
    )
    shapely.prepare(polygon)
    # Only squares on the outline need their overlap measured; the prepared tests settle the
    # rest. A clip by the square's rectangle measures it ~8x faster than an overlay.
    whole = shapely.contains_properly(polygon, squares)
    edge = np.flatnonzero(~whole & shapely.intersects(polygon, squares))
    areas = whole.astype(np.float64)
    areas[edge] = [_clipped_area(polygon, *candidates[i]) for i in edge.tolist()]
    # The clip is not exact on every outline (a sliver of a few thousandths of a cell was
    # seen in the light code): near half a square, the overlay decides.
    share = areas[edge]
    close = edge[np.isnan(share) | (np.abs(share - HALF_SQUARE) < CLIP_DOUBT)]
    areas[close] = shapely.area(shapely.intersection(squares[close], polygon))
    threshold = HALF_SQUARE - AREA_TOLERANCE
    return tuple(cell for cell, area in zip(candidates, areas, strict=True) if area >= threshold)


CLIP_DOUBT = 0.1
"""Squares whose clipped share lies this close to half are measured again by the overlay."""


def _clipped_area(polygon: BaseGeometry, c: int, r: int) -> float:
    """The area of ``polygon`` in the square (c, r), by a clip to its rectangle (NaN when
    GEOS fails on it: the overlay measures it then)."""
    try:
        return float(shapely.clip_by_rect(polygon, c, r, c + 1, r + 1).area)
    except GEOSException:
        return math.nan


def reached_area(template: Template, polygon: Polygon, index: MapIndex) -> BaseGeometry:
    """The part of ``polygon`` (the template's outline) seen from its origin past the walls."""
    ox, oy = template.origin
    dx, dy = _inward(template)
    start = (ox + dx * ORIGIN_NUDGE, oy + dy * ORIGIN_NUDGE)
    far = max(math.hypot(x - ox, y - oy) for x, y, *_ in polygon.exterior.coords) + 1.0
    seen = visibility_polygon(index, start, radius=far)
    reached: BaseGeometry = polygon.intersection(seen)
    return reached


def _inward(template: Template) -> PointXY:
    """A unit vector from the origin into the template (see the module docstring)."""
    ox, oy = template.origin
    if template.shape is TemplateShape.CONE or template.shape is TemplateShape.LINE:
        return template.direction()
    aim = template.aim
    if template.shape is TemplateShape.CUBE:
        sx = -1.0 if aim is not None and aim[0] < ox else 1.0
        sy = -1.0 if aim is not None and aim[1] < oy else 1.0
        return sx / math.sqrt(2), sy / math.sqrt(2)
    if aim is None or math.hypot(aim[0] - ox, aim[1] - oy) < 1e-9:
        return 1 / math.sqrt(2), 1 / math.sqrt(2)
    return template.direction()


def template_coverage(
    template: Template, grid: Grid, bodies: Iterable[Body], index: MapIndex | None = None
) -> TemplateCoverage:
    """The squares ``template`` affects on ``grid`` and the ``bodies`` it catches.

    A body is caught when any square of its space (``Space.cells``) is affected, so a Large
    creature with one of its four squares inside is caught. With ``index`` (the map's walls)
    the area stops at walls and closed doors (see the module docstring).

    Raises:
        TemplateError: see ``template_polygon``.
    """
    polygon = template_polygon(template, grid.cell_feet)
    reached = polygon if index is None else reached_area(template, polygon, index)
    cells = affected_cells(reached, grid)
    inside = set(cells)
    caught = []
    for body in bodies:
        hit = tuple(cell for cell in body.space.cells() if cell in inside)
        if hit:
            caught.append(CaughtCreature(body.id, hit))
    return TemplateCoverage(polygon, reached, cells, tuple(caught))
