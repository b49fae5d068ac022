"""What a viewpoint sees: an angular sweep over the sight segments (issue 17).

The ends of the segments, sorted by their direction from the viewpoint (once, in numpy), cut
the directions into intervals. No segment end lies inside an interval and segments do not
cross (the index cuts them where they do), so one segment is nearest across a whole
interval: the segments spanning an interval are its active edges, and the nearest of them at
the interval's middle direction is the one seen there (all intervals are decided at once, in
numpy, instead of one event at a time). The view is then exact: in interval ``i`` the
visible region is the triangle from the viewpoint to the nearest segment's points on the
interval's two bounding rays. A ray exactly along a segment does not stop at it (such a
segment spans no interval); a segment touching the viewpoint is left to the ray cast of
``occlusion`` (its directions are ill-defined).

Segments hidden behind nearer ones are culled before the sweep: a first sweep over the
segments near the viewpoint bounds how far each interval can see, and
a bucket of segments, or a segment, lying beyond those bounds in every direction it spans
is left out; ring after ring of buckets is added that way until none is left. Adding
segments only brings the nearest nearer, so culling never changes the view.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from battlemap.geometry.occlusion import (
    CIRCLE_RAYS,
    SegmentBuckets,
    _box_pieces,
    _expand,
    _within,
    angular_pieces,
    nearest_distances,
)

TOUCHING = 1e-9
"""Cells: a segment this close to the viewpoint makes the sweep hand over to the ray cast."""
_GROWTH = 3.0
_FIRST_RING = 8.0
"""Cells round the viewpoint whose buckets the first sweep takes; each next ring is 4x."""
_ON_RAY = 1e-12
"""Radians: a cell centre this close to an interval's bounding ray is tested on both sides."""
_MARGIN = 1e-7
"""Cells (plus 1e-9 relative) a segment must lie beyond a bound to be culled."""


@dataclass(frozen=True, slots=True)
class View:
    """The nearest segment in every direction from ``origin``.

    Interval ``i`` runs from direction ``events[i]`` to ``events[i + 1]`` (radians, -pi to
    pi); the visible region in it is the triangle from the origin to the points at distance
    ``near[i, 0]`` along the first ray and ``near[i, 1]`` along the second (capped at the
    sight range, if any).
    """

    origin: tuple[float, float]
    events: NDArray[np.float64]
    near: NDArray[np.float64]

    def ring(self) -> NDArray[np.float64]:
        """The outline's points (absolute cells), two per interval, in angle order."""
        first, second = self.events[:-1], self.events[1:]
        angles = np.stack([first, second], axis=1).ravel()
        distances = self.near.ravel()
        ox, oy = self.origin
        return np.stack([ox + np.cos(angles) * distances, oy + np.sin(angles) * distances], axis=1)

    def mark_seen(self, grid: NDArray[np.bool_]) -> None:
        """Set ``grid[y, x]`` where the centre of cell (x, y) lies inside the view or on its
        edge (as ``map_index.rasterise`` does with the view's polygon)."""
        height, width = grid.shape
        ring = self.ring()
        ox, oy = self.origin
        low = np.minimum(ring.min(axis=0), self.origin)
        high = np.maximum(ring.max(axis=0), self.origin)
        col0, col1 = max(0, math.floor(low[0] - 0.5)), min(width, math.ceil(high[0] - 0.5) + 1)
        row0, row1 = max(0, math.floor(low[1] - 0.5)), min(height, math.ceil(high[1] - 0.5) + 1)
        if col1 <= col0 or row1 <= row0:
            return
        xs = np.arange(col0, col1) + 0.5 - ox
        ys = np.arange(row0, row1) + 0.5 - oy
        grid_x, grid_y = np.meshgrid(xs, ys)
        dx, dy = grid_x.ravel(), grid_y.ravel()
        theta = np.arctan2(dy, dx)
        last = len(self.near) - 1
        inside = np.zeros(len(dx), dtype=bool)
        for shift in (0.0, -_ON_RAY, _ON_RAY):
            interval = np.clip(np.searchsorted(self.events, theta + shift, "right") - 1, 0, last)
            inside |= self._in_triangles(interval, dx, dy, theta)
        wrap = np.abs(theta) >= math.pi - _ON_RAY
        for end in (0, last):
            at = np.full(int(wrap.sum()), end)
            inside[wrap] |= self._in_triangles(at, dx[wrap], dy[wrap], theta[wrap])
        grid[row0:row1, col0:col1] |= inside.reshape(len(ys), len(xs))

    def _in_triangles(
        self,
        interval: NDArray[np.intp],
        dx: NDArray[np.float64],
        dy: NDArray[np.float64],
        theta: NDArray[np.float64],
    ) -> NDArray[np.bool_]:
        """Whether each point (relative to the origin) lies in its interval's triangle: within
        the interval's directions and on the origin's side of the far edge (edges count)."""
        a0, a1 = self.events[interval], self.events[interval + 1]
        d0, d1 = self.near[interval, 0], self.near[interval, 1]
        px, py = np.cos(a0) * d0, np.sin(a0) * d0
        qx, qy = np.cos(a1) * d1, np.sin(a1) * d1
        ex, ey = qx - px, qy - py
        side = ex * (dy - py) - ey * (dx - px)
        origin_side = ex * (-py) - ey * (-px)
        scale = 1e-9 * (np.abs(ex) + np.abs(ey)) * (1.0 + np.abs(px) + np.abs(py))
        beyond = np.where(origin_side >= 0, side < -scale, side > scale)
        within = (theta >= a0 - _ON_RAY) & (theta <= a1 + _ON_RAY)
        at_wrap = (np.abs(theta) >= math.pi - _ON_RAY) & ((a0 == -math.pi) | (a1 == math.pi))
        inside: NDArray[np.bool_] = (within | at_wrap) & ~beyond
        return inside


def sweep(rel: NDArray[np.float64], radius: float | None, limit: float) -> View:
    """The view from the origin (0, 0) of segments ``rel`` (n, 2, 2), none touching it, that
    do not cross one another; distances are capped at ``radius`` (when given, with
    ``CIRCLE_RAYS`` rays round it) or ``limit``."""
    angles = np.arctan2(rel[:, :, 1], rel[:, :, 0])
    extra = [np.array([-math.pi, math.pi])]
    if radius is not None:
        extra.append(np.linspace(-math.pi, math.pi, CIRCLE_RAYS))
    events = np.unique(np.concatenate([angles.ravel(), *extra]))
    near = np.full((len(events) - 1, 2), limit if radius is None else radius)
    starts, stops, owner = _pieces(angles)
    first = np.searchsorted(events, starts)
    counts = np.searchsorted(events, stops) - first
    if not counts.any():
        return View((0.0, 0.0), events, near)
    foot, facing = _normal_form(rel)
    segment = np.repeat(owner, counts)
    interval = _expand(first, counts)
    middle = (events[interval] + events[interval + 1]) * 0.5
    distance = foot[segment] / np.cos(middle - facing[segment])
    best = np.full(len(near), np.inf)
    np.minimum.at(best, interval, distance)
    won = distance <= best[interval]
    winner = np.full(len(near), -1, dtype=np.intp)
    winner[interval[won]] = segment[won]
    covered = np.flatnonzero(winner >= 0)
    line = winner[covered]
    # Within the segment's directions the line is no nearer than its foot and no farther
    # than the segment's farther end (the clip only tames rounding near those).
    longest = np.hypot(rel[line, :, 0], rel[line, :, 1]).max(axis=1)
    for end in (0, 1):
        at = foot[line] / np.cos(events[covered + end] - facing[line])
        at = np.clip(at, foot[line], longest)
        near[covered, end] = np.minimum(at, near[covered, end])
    return View((0.0, 0.0), events, near)


def _pieces(
    angles: NDArray[np.float64],
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.intp]]:
    """``occlusion.angular_pieces`` from the ends' directions (n, 2)."""
    lo, hi = angles.min(axis=1), angles.max(axis=1)
    wraps = hi - lo > math.pi
    if not wraps.any():
        return lo, hi, np.arange(len(angles))
    starts = np.concatenate([np.where(wraps, -math.pi, lo), hi[wraps]])
    stops = np.concatenate([np.where(wraps, lo, hi), np.full(int(wraps.sum()), math.pi)])
    owner = np.concatenate([np.arange(len(angles)), np.flatnonzero(wraps)])
    return starts, stops, owner


def _normal_form(rel: NDArray[np.float64]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Each segment's line as (distance from the origin, direction of its nearest point): the
    line lies ``foot / cos(theta - facing)`` away along the ray at ``theta``."""
    a, b = rel[:, 0], rel[:, 1]
    ex, ey = b[:, 0] - a[:, 0], b[:, 1] - a[:, 1]
    cross = a[:, 0] * ey - a[:, 1] * ex
    # The unit normal pointing away from the origin, towards the line.
    sign = np.where(cross >= 0, 1.0, -1.0)
    length = np.hypot(ex, ey)
    foot = np.abs(cross) / length
    facing = np.arctan2(-ex * sign, ey * sign)
    return foot, facing


def view_from(
    segments: NDArray[np.float64],
    lines: NDArray[np.object_],
    buckets: SegmentBuckets,
    origin: tuple[float, float],
    radius: float | None,
    limit: float,
) -> View | None:
    """The view from ``origin`` of ``segments`` (``lines``: as LineStrings; ``buckets``: by
    bucket), culled ring by ring (see the module). None when a segment touches ``origin``."""
    here = np.array(origin, dtype=np.float64)
    gap = np.maximum(np.maximum(buckets.boxes[:, :2] - here, here - buckets.boxes[:, 2:]), 0.0)
    bucket_near = np.hypot(gap[:, 0], gap[:, 1])
    waiting = np.flatnonzero(bucket_near <= (math.inf if radius is None else radius))
    taken: list[NDArray[np.float64]] = []
    view: View | None = None
    reach = _FIRST_RING
    while view is None or len(waiting):
        ring = waiting[bucket_near[waiting] <= reach]
        waiting = waiting[bucket_near[waiting] > reach]
        reach *= _GROWTH
        if view is not None and len(ring):
            boxes = buckets.boxes[ring] - np.tile(here, 2)
            ring = ring[_may_see(view, _box_pieces(boxes), bucket_near[ring])]
        counts = buckets.starts[ring + 1] - buckets.starts[ring]
        fresh = buckets.order[_expand(buckets.starts[ring], counts)]
        rel = segments[fresh] - here
        near = nearest_distances(rel)
        if radius is not None:
            inside = _within(lines[fresh], origin, radius, near)
            rel, near = rel[inside], near[inside]
        if view is None and (near <= TOUCHING).any():
            return None
        if view is not None and len(rel):
            rel = rel[_may_see(view, angular_pieces(rel), near)]
        if view is None or len(rel):
            taken.append(rel)
            view = sweep(np.concatenate(taken), radius, limit)
    return View(origin, view.events, view.near)


def _may_see(
    view: View,
    pieces: tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.intp]],
    near: NDArray[np.float64],
) -> NDArray[np.bool_]:
    """Which owners of the angular ``pieces`` (``near``: each owner's distance) the view may
    reach in some direction they span: the farthest a triangle reaches is one of its two
    far corners."""
    starts, stops, owner = pieces
    bound = view.near.max(axis=1)
    last = len(bound) - 1
    first = np.clip(np.searchsorted(view.events, starts, "right") - 1, 0, last)
    final = np.clip(np.searchsorted(view.events, stops, "left") - 1, first, last)
    counts = final - first + 1
    deepest = np.maximum.reduceat(bound[_expand(first, counts)], np.cumsum(counts) - counts)
    piece_seen = near[owner] <= deepest * (1 + 1e-9) + _MARGIN
    seen = np.zeros(len(near), dtype=bool)
    seen[owner[piece_seen]] = True
    return seen
