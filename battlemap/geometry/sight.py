"""Sight (rule 8): can one creature see another through the walls, and what a point sees.

What blocks sight: walls, closed doors and the outlines of obstacles that give total cover
(pillars). Open doors, windows and arrow slits, lower obstacles and creatures do not.
Lines follow the boundary rule of ``barriers``: grazing a wall's end or a corner, or running
along a wall, does not block; crossing a wall or passing through a joint does.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely.geometry.base import BaseGeometry

from battlemap.geometry import overlay
from battlemap.geometry.body import Body
from battlemap.geometry.map_index import MapIndex
from battlemap.geometry.metrics import PointXY, Space
from battlemap.geometry.occlusion import ViewCast, view_cast
from battlemap.geometry.sweep import View, view_from

_INSET = 1e-3
"""Cells the sight points are moved inside a space, so a creature pressed against a wall
does not see through it from a corner lying on the wall."""


class SightReason(StrEnum):
    """Why a creature can or cannot see another."""

    CLEAR_LINE = "clear-line"
    """Some line from the observer's space to the target's space is unblocked."""
    BLINDED = "blinded"
    """The observer is blinded."""
    INVISIBLE = "invisible"
    """The target is invisible."""
    WALLS = "walls"
    """Every line between the two spaces crosses a wall or a pillar."""


@dataclass(frozen=True, slots=True)
class SightResult:
    """Whether the observer sees the target, why, and the first clear line found (if any)."""

    visible: bool
    reason: SightReason
    line: tuple[PointXY, PointXY] | None = None


def sight_points(space: Space) -> list[PointXY]:
    """The centre, then the four corners moved ``_INSET`` cells inside the space."""
    cx, cy = space.centre
    inset = min(_INSET, space.w / 4)
    return [
        (cx, cy),
        (space.x + inset, space.y + inset),
        (space.x1 - inset, space.y + inset),
        (space.x1 - inset, space.y1 - inset),
        (space.x + inset, space.y1 - inset),
    ]


def can_see(index: MapIndex, observer: Body, target: Body) -> SightResult:
    """Whether ``observer`` can see any part of ``target``'s space.

    Blinded observers and invisible targets are never seen. Otherwise the target is visible
    when any of the 25 lines between the centres and (inset) corners of the two spaces is not
    blocked by ``index.sight_walls``; the centre-to-centre line is tried first.
    """
    if observer.blinded:
        return SightResult(False, SightReason.BLINDED)
    if target.invisible:
        return SightResult(False, SightReason.INVISIBLE)
    return line_of_sight(index, observer.space, target.space)


def line_of_sight(index: MapIndex, a: Space, b: Space) -> SightResult:
    """Whether some line between the two spaces is clear of sight-blocking walls."""
    pa, pb = sight_points(a), sight_points(b)
    first = np.array([[pa[0], pb[0]]], dtype=np.float64)
    if not index.sight_walls.blocks(first)[0]:
        return SightResult(True, SightReason.CLEAR_LINE, (pa[0], pb[0]))
    lines = np.array([[p, q] for p in pa for q in pb], dtype=np.float64)
    blocked = index.sight_walls.blocks(lines)
    clear = np.flatnonzero(~blocked)
    if len(clear):
        start, end = lines[clear[0]]
        return SightResult(True, SightReason.CLEAR_LINE, ((start[0], start[1]), (end[0], end[1])))
    return SightResult(False, SightReason.WALLS)


def point_sees_point(index: MapIndex, a: PointXY, b: PointXY) -> bool:
    """True when the segment from ``a`` to ``b`` is not blocked by sight-blocking walls."""
    return not bool(index.sight_walls.blocks(np.array([[a, b]], dtype=np.float64))[0])


def visibility_polygon(
    index: MapIndex, origin: PointXY, radius: float | None = None
) -> BaseGeometry:
    """The region visible from ``origin`` (cells), clipped to the map (for fog of war).

    Exact at wall ends, joints, corners and crossings (``sweep``): in every direction the
    view reaches the nearest sight-blocking wall; a wall the viewpoint touches stops the
    view, a wall exactly along a line of sight does not. ``radius`` (cells) limits the view
    to a circle when given (``CIRCLE_RAYS`` rays round it, joined by straight lines).

    Returns:
        A shapely Polygon (empty when ``origin`` is off the map).
    """
    return polygon_of_view(index, origin, radius, view_of(index, origin, radius))


def polygon_of_view(
    index: MapIndex, origin: PointXY, radius: float | None, view: View | BaseGeometry | None
) -> BaseGeometry:
    """``visibility_polygon`` from ``view``, ``view_of(index, origin, radius)``'s answer
    (asked once where both the polygon and the view's cells are wanted)."""
    if view is None:
        return cast_polygon(index, origin, radius)
    if isinstance(view, BaseGeometry):
        return view
    # The map's edges are walls: the view lies inside the map but for rounding.
    ring = view.ring()
    np.clip(ring[:, 0], 0, index.width, out=ring[:, 0])
    np.clip(ring[:, 1], 0, index.height, out=ring[:, 1])
    polygon: BaseGeometry = shapely.Polygon(ring)
    return polygon if polygon.is_valid else _clipped(index, ring)


def view_of(
    index: MapIndex, origin: PointXY, radius: float | None = None
) -> View | BaseGeometry | None:
    """``visibility_polygon``'s view from ``origin``: a ``View``, an empty polygon when
    ``origin`` is off the map, or None when a wall touches ``origin`` (the ray cast of
    ``occlusion`` decides that case)."""
    ox, oy = origin
    if not (0 <= ox <= index.width and 0 <= oy <= index.height):
        return shapely.Polygon()
    limit = math.hypot(index.width, index.height) * 2
    return view_from(
        index.sight_outline,
        index.sight_outline_lines,
        index.sight_buckets,
        origin,
        radius,
        limit,
    )


def cast_polygon(index: MapIndex, origin: PointXY, radius: float | None) -> BaseGeometry:
    """The visibility polygon by rays cast beside every wall end (``occlusion.view_cast``)."""
    limit = math.hypot(index.width, index.height) * 2 if radius is None else radius
    cast = view_cast(
        index.sight_outline, index.sight_outline_lines, index.sight_buckets, origin, radius, limit
    )
    return polygon_of_cast(index, origin, cast)


def polygon_of_cast(index: MapIndex, origin: PointXY, cast: ViewCast) -> BaseGeometry:
    """The visibility polygon joining the stopping points of ``cast``'s rays from ``origin``."""
    ox, oy = origin
    ray_angles, distances = _onto_exact_angles(
        cast.segments, cast.angles, cast.bases, cast.distances, cast.hits, cast.limit
    )
    xs = ox + np.cos(ray_angles) * distances
    ys = oy + np.sin(ray_angles) * distances
    return _clipped(index, np.stack([xs, ys], axis=1))


def _clipped(index: MapIndex, ring: NDArray[np.float64]) -> BaseGeometry:
    """The polygon of ``ring`` (points in angle order round the viewpoint), made valid and
    clipped to the map."""
    polygon: BaseGeometry = shapely.Polygon(_drop_straight_runs(ring))
    if not polygon.is_valid:
        polygon = shapely.make_valid(polygon)
    return overlay.intersection(polygon, shapely.box(0, 0, index.width, index.height))


def _drop_straight_runs(ring: NDArray[np.float64]) -> NDArray[np.float64]:
    """The ring without repeated points and without points in the middle of a straight run
    (consecutive rays landing on the same wall), so shapely has far fewer vertices to check."""
    keep = np.ones(len(ring), dtype=bool)
    step = np.diff(ring, axis=0, append=ring[:1])
    keep &= np.hypot(step[:, 0], step[:, 1]) > 1e-9
    ring = ring[keep]
    if len(ring) < 4:
        return ring
    before = ring - np.roll(ring, 1, axis=0)
    after = np.roll(ring, -1, axis=0) - ring
    cross = before[:, 0] * after[:, 1] - before[:, 1] * after[:, 0]
    dot = (before * after).sum(axis=1)
    scale = np.hypot(before[:, 0], before[:, 1]) * np.hypot(after[:, 0], after[:, 1])
    straight = (np.abs(cross) <= 1e-9 * scale) & (dot > 0)
    kept: NDArray[np.float64] = ring[~straight]
    return kept


def _onto_exact_angles(
    rel: NDArray[np.float64],
    angles: NDArray[np.float64],
    bases: NDArray[np.float64],
    distances: NDArray[np.float64],
    hit: NDArray[np.intp],
    limit: float,
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Move each side ray back onto its exact base angle, on the line of the segment it hit."""
    side = (angles != bases) & (hit >= 0)
    if not side.any():
        return angles, distances
    seg = rel[hit[side]]
    base = bases[side]
    dx, dy = np.cos(base), np.sin(base)
    ex, ey = seg[:, 1, 0] - seg[:, 0, 0], seg[:, 1, 1] - seg[:, 0, 1]
    denom = dx * ey - dy * ex
    ok = np.abs(denom) > 1e-12
    t = (seg[:, 0, 0] * ey - seg[:, 0, 1] * ex) / np.where(ok, denom, 1.0)
    usable = ok & (t > 0)
    new_angles, new_distances = angles.copy(), distances.copy()
    idx = np.flatnonzero(side)[usable]
    new_angles[idx] = base[usable]
    new_distances[idx] = np.minimum(t[usable], limit)
    order = np.argsort(new_angles, kind="stable")
    return new_angles[order], new_distances[order]
