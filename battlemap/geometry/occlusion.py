"""Rays from a viewpoint to the nearest wall, cast only against walls that may be seen.

``view_cast`` casts the visibility rays (a hair to either side of every wall end, see
``sight.visibility_polygon``) against a growing set of candidate segments: first those in the
buckets near the viewpoint, then ring after ring of farther buckets. After each cast the
rays bound what can still be seen: where two consecutive rays stop on one segment, or on two
segments joined at a point between them, that straight piece (or chain) covers the directions
between the rays, and nothing there farther than the farthest of its stopping points (and the
joint) can be seen; the distance along a ray to a straight piece is largest at the ends of
its interval of directions. A bucket, or a segment, that lies wholly beyond those bounds in
every direction it spans is culled. Adding segments only brings stopping points nearer, so
every ray between a culled segment's directions meets a nearer segment first: culling never
changes where a ray stops, it only spares casting against hidden walls. A cave export of
24,000 segments seen from one chamber casts against a few hundred.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol

import numpy as np
from numpy.typing import NDArray
from shapely import Point, STRtree, dwithin

from battlemap.geometry.barriers import line_array

BUCKET_CELLS = 4.0
"""Side of the square buckets the sight segments are grouped in."""
_FIRST_RING = 8.0
"""Cells round the viewpoint whose buckets the first cast takes; each next ring doubles it."""
_MARGIN = 1e-7
"""Cells (plus 1e-9 relative) a segment must lie beyond a bound to be culled: far above the
rounding of the distances, far below anything a map draws."""
_TOUCHING = 1e-9
"""A segment this close to the viewpoint is never culled (its directions are ill-defined)."""
SIDE_STEP = 1e-5
"""Radians between a wall end's direction and the two rays cast beside it."""
CIRCLE_RAYS = 181
"""Rays round the edge of a limited sight range."""


Pieces = tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.intp]]
"""Intervals of directions: starts, stops (radians, ascending within a piece) and the index
of the segment or box each piece belongs to (see ``angular_pieces``)."""


@dataclass(frozen=True, slots=True)
class SegmentBuckets:
    """Segments grouped by the square bucket (``BUCKET_CELLS``) holding their midpoint.

    Bucket ``k`` holds ``order[starts[k]:starts[k + 1]]``; ``boxes[k]`` (x0, y0, x1, y1)
    bounds its segments. Only buckets holding segments are kept.
    """

    order: NDArray[np.intp]
    starts: NDArray[np.intp]
    boxes: NDArray[np.float64]

    @classmethod
    def of(cls, segments: NDArray[np.float64]) -> SegmentBuckets:
        if len(segments) == 0 or not np.all(np.isfinite(segments)):
            # One bucket (no culling by buckets) for no segments or unusable coordinates.
            box = np.array([[-np.inf, -np.inf, np.inf, np.inf]])
            return cls(np.arange(len(segments)), np.array([0, len(segments)]), box)
        middle = segments.mean(axis=1)
        cell = np.floor(middle / BUCKET_CELLS).astype(np.int64)
        cell -= cell.min(axis=0)
        key = cell[:, 1] * (int(cell[:, 0].max()) + 1) + cell[:, 0]
        order = np.argsort(key, kind="stable").astype(np.intp)
        sorted_key = key[order]
        first = np.flatnonzero(np.r_[True, sorted_key[1:] != sorted_key[:-1]])
        starts = np.append(first, len(order)).astype(np.intp)
        low = segments.min(axis=1)[order]
        high = segments.max(axis=1)[order]
        boxes = np.concatenate(
            [np.minimum.reduceat(low, first), np.maximum.reduceat(high, first)], axis=1
        )
        return cls(order, starts, boxes)

    def with_loose(self, first: int, count: int) -> SegmentBuckets:
        """These buckets and one more holding segments ``first`` to ``first + count - 1``,
        spanning the whole plane (a few segments added later, e.g. closed doors)."""
        if count == 0:
            return self
        loose = np.array([[-np.inf, -np.inf, np.inf, np.inf]])
        return SegmentBuckets(
            np.concatenate([self.order, np.arange(first, first + count)]),
            np.append(self.starts, self.starts[-1] + count),
            np.concatenate([self.boxes, loose]),
        )


@dataclass(frozen=True, slots=True)
class ViewCast:
    """The rays cast from a viewpoint: ``segments`` (relative to it, the candidates that were
    not culled), the rays' ``angles`` (sorted) and ``bases`` (the wall end's exact direction
    each side ray was cast for), and where each stopped (``distances``) on which segment
    (``hits``, -1: none within ``limit``)."""

    segments: NDArray[np.float64]
    angles: NDArray[np.float64]
    bases: NDArray[np.float64]
    distances: NDArray[np.float64]
    hits: NDArray[np.intp]
    limit: float
    pieces: Pieces
    """``angular_pieces(segments)``, kept so a larger cast need not recompute them."""


def split_at_crossings(
    segments: NDArray[np.float64], lines: NDArray[np.object_]
) -> NDArray[np.float64]:
    """``segments`` with every pair that crosses (interiors meeting at one point) cut there.

    Where two walls cross, the nearest wall changes with no wall end between: cut, each
    crossing is a wall end, and rays are cast beside it like beside any other.
    """
    if len(segments) < 2:
        return segments
    first, second = STRtree(lines).query(lines)
    once = first < second
    first, second, along_first, along_second = _crossings(
        segments, segments, first[once], second[once]
    )
    seg = np.concatenate([first, second])
    return _cut(segments, seg, np.concatenate([along_first, along_second]))


class BoxQuery(Protocol):
    """What ``cut_where_crossed`` asks of a tree: ``STRtree.query``'s (input, item) pairs."""

    def query(self, geometry: NDArray[np.object_]) -> NDArray[np.intp]: ...


def cut_where_crossed(
    segments: NDArray[np.float64], others: NDArray[np.float64], others_tree: BoxQuery
) -> tuple[NDArray[np.float64], NDArray[np.intp], NDArray[np.float64]]:
    """``segments`` cut where they cross one another or one of ``others`` (``others_tree``
    holds them as LineStrings), and the ``others`` crossed, cut there too: their positions
    in ``others`` and their pieces (one per position first, in order, then the rest), so
    that no two segments cross (the sweep of ``sweep`` needs that)."""
    own = split_at_crossings(segments, line_array(segments))
    mine, theirs = others_tree.query(line_array(own))
    mine, theirs, along, along_theirs = _crossings(own, others, mine, theirs)
    crossed = np.unique(theirs)
    local = np.searchsorted(crossed, theirs)
    pieces = _cut(others[crossed], local, along_theirs, owners_first=True)
    return _cut(own, mine, along), crossed, pieces


def _crossings(
    a_segments: NDArray[np.float64],
    b_segments: NDArray[np.float64],
    first: NDArray[np.intp],
    second: NDArray[np.intp],
) -> tuple[NDArray[np.intp], NDArray[np.intp], NDArray[np.float64], NDArray[np.float64]]:
    """The candidate pairs (``a_segments[first]``, ``b_segments[second]``) that cross, with
    where along each (0 to 1) they do."""
    a, e = a_segments[first, 0], a_segments[first, 1] - a_segments[first, 0]
    c, f = b_segments[second, 0], b_segments[second, 1] - b_segments[second, 0]
    d = b_segments[second, 1]
    # Proper crossings: each segment's ends strictly on both sides of the other's line.
    crossing = (_side(a, e, c) * _side(a, e, d) < 0) & (_side(c, f, a) * _side(c, f, a + e) < 0)
    a, e, c, f = a[crossing], e[crossing], c[crossing], f[crossing]
    denom = e[:, 0] * f[:, 1] - e[:, 1] * f[:, 0]
    ac = c - a
    along_a = np.clip((ac[:, 0] * f[:, 1] - ac[:, 1] * f[:, 0]) / denom, 0.0, 1.0)
    along_b = np.clip((ac[:, 0] * e[:, 1] - ac[:, 1] * e[:, 0]) / denom, 0.0, 1.0)
    return first[crossing], second[crossing], along_a, along_b


def _cut(
    segments: NDArray[np.float64],
    cut: NDArray[np.intp],
    at: NDArray[np.float64],
    owners_first: bool = False,
) -> NDArray[np.float64]:
    """``segments`` with segment ``cut[k]`` cut at fraction ``at[k]`` of its length: the
    untouched ones, then the pieces; with ``owners_first`` (every segment cut), each
    segment's first piece in its order, then the others."""
    if len(cut) == 0:
        return segments
    touched = np.unique(cut)
    seg = np.concatenate([cut, touched, touched])
    params = np.concatenate([at, np.zeros(len(touched)), np.ones(len(touched))])
    order = np.lexsort((params, seg))
    seg, params = seg[order], params[order]
    same = seg[1:] == seg[:-1]
    owner, t0, t1 = seg[:-1][same], params[:-1][same], params[1:][same]
    start, step = segments[owner, 0], segments[owner, 1] - segments[owner, 0]
    pieces = np.stack([start + step * t0[:, None], start + step * t1[:, None]], axis=1)
    kept = t1 > t0
    if owners_first:
        first = kept & np.r_[True, owner[1:] != owner[:-1]]
        return np.concatenate([pieces[first], pieces[kept & ~first]])
    untouched = np.ones(len(segments), dtype=bool)
    untouched[touched] = False
    return np.concatenate([segments[untouched], pieces[kept]])


def _side(
    start: NDArray[np.float64], step: NDArray[np.float64], points: NDArray[np.float64]
) -> NDArray[np.float64]:
    """Sign of the side of each line (``start`` + t ``step``) each point lies on (0: on it)."""
    rel = points - start
    return np.sign(step[:, 0] * rel[:, 1] - step[:, 1] * rel[:, 0])


def view_cast(
    segments: NDArray[np.float64],
    lines: NDArray[np.object_],
    buckets: SegmentBuckets,
    origin: tuple[float, float],
    radius: float | None,
    limit: float,
) -> ViewCast:
    """The visibility rays from ``origin`` against ``segments`` (n, 2, 2; ``lines`` are them as
    shapely LineStrings), within ``radius`` when given (segments farther are left out, as
    shapely's ``dwithin`` decides). See the module for the culling."""
    here = np.array(origin, dtype=np.float64)
    gap = np.maximum(np.maximum(buckets.boxes[:, :2] - here, here - buckets.boxes[:, 2:]), 0.0)
    bucket_near = np.hypot(gap[:, 0], gap[:, 1])
    waiting = np.flatnonzero(bucket_near <= (math.inf if radius is None else radius))
    cast: ViewCast | None = None
    reach = _FIRST_RING
    while cast is None or len(waiting):
        ring = waiting[bucket_near[waiting] <= reach]
        waiting = waiting[bucket_near[waiting] > reach]
        reach *= 4
        bound = None if cast is None else _interval_bounds(cast)
        if cast is not None and bound is not None and len(ring):
            boxes = buckets.boxes[ring] - np.tile(here, 2)
            ring = ring[_seen(cast.angles, bound, _box_pieces(boxes), bucket_near[ring])]
        fresh = _segments_of(buckets, ring)
        rel = segments[fresh] - here
        near = nearest_distances(rel)
        if radius is not None:
            inside = _within(lines[fresh], origin, radius, near)
            rel, near = rel[inside], near[inside]
        if cast is None or bound is None:
            cast = _cast_from(rel, radius, limit)
        elif len(rel):
            pieces = angular_pieces(rel)
            keep = _seen(cast.angles, bound, pieces, near) | (near <= _TOUCHING)
            if keep.any():
                cast = _extended(cast, rel[keep], _kept_pieces(pieces, keep))
    return cast


def _kept_pieces(pieces: Pieces, keep: NDArray[np.bool_]) -> Pieces:
    """``pieces`` of the kept owners only, renumbered."""
    starts, stops, owner = pieces
    chosen = keep[owner]
    renumber = np.cumsum(keep) - 1
    return starts[chosen], stops[chosen], renumber[owner[chosen]]


def _extended(cast: ViewCast, fresh: NDArray[np.float64], fresh_pieces: Pieces) -> ViewCast:
    """``cast`` with the segments ``fresh`` added: its rays cast against them too, and their
    ends' rays cast against all."""
    segments = np.concatenate([cast.segments, fresh])
    starts, stops, owner = cast.pieces
    pieces = (
        np.concatenate([starts, fresh_pieces[0]]),
        np.concatenate([stops, fresh_pieces[1]]),
        np.concatenate([owner, fresh_pieces[2] + len(cast.segments)]),
    )
    distances, hits = cast_rays(fresh, cast.angles, cast.limit, fresh_pieces)
    nearer = (hits >= 0) & (distances < cast.distances)
    distances = np.where(nearer, distances, cast.distances)
    hits = np.where(nearer, hits + len(cast.segments), cast.hits)
    angles, bases = endpoint_rays(fresh, None)
    new_distances, new_hits = cast_rays(segments, angles, cast.limit, pieces)
    all_angles = np.concatenate([cast.angles, angles])
    merged, first_of = np.unique(all_angles, return_index=True)
    return ViewCast(
        segments,
        merged,
        np.concatenate([cast.bases, bases])[first_of],
        np.concatenate([distances, new_distances])[first_of],
        np.concatenate([hits, new_hits])[first_of],
        cast.limit,
        pieces,
    )


def _segments_of(buckets: SegmentBuckets, chosen: NDArray[np.intp]) -> NDArray[np.intp]:
    counts = buckets.starts[chosen + 1] - buckets.starts[chosen]
    return buckets.order[_expand(buckets.starts[chosen], counts)]


def _within(
    lines: NDArray[np.object_],
    origin: tuple[float, float],
    radius: float,
    near: NDArray[np.float64],
) -> NDArray[np.bool_]:
    """Which segments lie within ``radius``: shapely's ``dwithin`` decides the few whose numpy
    distance is within rounding of the radius."""
    inside = near <= radius
    unsure = np.flatnonzero(np.abs(near - radius) <= 1e-9 * (1 + radius))
    if len(unsure):
        inside[unsure] = dwithin(lines[unsure], Point(origin), radius)
    return inside


def endpoint_rays(
    rel: NDArray[np.float64], radius: float | None
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The rays' sorted angles and their base directions: a hair to either side of every
    segment end, plus ``CIRCLE_RAYS`` round the edge of a limited range."""
    ends = rel.reshape(-1, 2)
    angles = np.arctan2(ends[:, 1], ends[:, 0])
    candidates = np.concatenate([angles - SIDE_STEP, angles + SIDE_STEP])
    bases = np.concatenate([angles, angles])
    if radius is not None:
        circle = np.linspace(-math.pi, math.pi, CIRCLE_RAYS)
        candidates = np.concatenate([candidates, circle])
        bases = np.concatenate([bases, circle])
    candidates = (candidates + math.pi) % (2 * math.pi) - math.pi
    ray_angles, first_of = np.unique(candidates, return_index=True)
    return ray_angles, bases[first_of]


def _cast_from(rel: NDArray[np.float64], radius: float | None, limit: float) -> ViewCast:
    angles, bases = endpoint_rays(rel, radius)
    pieces = angular_pieces(rel)
    distances, hits = cast_rays(rel, angles, limit, pieces)
    return ViewCast(rel, angles, bases, distances, hits, limit, pieces)


def _box_pieces(
    boxes: NDArray[np.float64],
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.intp]]:
    """Intervals of directions of boxes (x0, y0, x1, y1 relative to the viewpoint), split at
    the direction pi like ``angular_pieces``; a box holding the viewpoint spans every one."""
    xs, ys = boxes[:, [0, 2, 2, 0]], boxes[:, [1, 1, 3, 3]]
    angles = np.arctan2(ys, xs)
    holds = (boxes[:, 0] <= 0) & (boxes[:, 2] >= 0) & (boxes[:, 1] <= 0) & (boxes[:, 3] >= 0)
    wraps = ~holds & (boxes[:, 2] < 0) & (boxes[:, 1] < 0) & (boxes[:, 3] >= 0)
    lo, hi = angles.min(axis=1), angles.max(axis=1)
    lo = np.where(holds, -math.pi, lo)
    hi = np.where(holds, math.pi, hi)
    below = np.where(ys < 0, angles, -math.inf).max(axis=1)
    above = np.where(ys >= 0, angles, math.inf).min(axis=1)
    starts = np.concatenate([np.where(wraps, -math.pi, lo), above[wraps]])
    stops = np.concatenate([np.where(wraps, below, hi), np.full(int(wraps.sum()), math.pi)])
    owner = np.concatenate([np.arange(len(boxes)), np.flatnonzero(wraps)])
    return starts, stops, owner


def _seen(
    angles: NDArray[np.float64],
    bound: NDArray[np.float64],
    pieces: tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.intp]],
    near: NDArray[np.float64],
) -> NDArray[np.bool_]:
    """Which owners of the angular ``pieces`` (``near``: each owner's distance) may be seen in
    some direction they span, given the rays' sorted ``angles`` and ``_interval_bounds``."""
    starts, stops, owner = pieces
    first = np.searchsorted(angles, starts, side="right")
    last = np.maximum(np.searchsorted(angles, stops, side="left"), first)
    counts = last - first + 1
    deepest = np.maximum.reduceat(bound[_expand(first, counts)], np.cumsum(counts) - counts)
    piece_seen = near[owner] <= deepest * (1 + 1e-9) + _MARGIN
    seen = np.zeros(len(near), dtype=bool)
    seen[owner[piece_seen]] = True
    return seen


def _interval_bounds(cast: ViewCast) -> NDArray[np.float64]:
    """Beyond what distance nothing is seen between consecutive rays: entry ``k`` is for the
    directions between ray ``k - 1`` and ray ``k`` (entries 0 and ``len(rays)`` run to -pi
    and pi and are unbounded; so are gaps that no pieces of the rays' segments cover).

    Two rays stopping on segments ``s1`` and ``s2`` bound the directions between them when
    they are the side rays of one wall end and, in that end's direction, ``s1``'s ray also
    meets ``s1`` and ``s2``'s meets ``s2`` (a joint, or an end in front of a farther wall).
    Segments cut where they cross (``split_at_crossings``) change nowhere else.
    """
    left, right = cast.hits[:-1], cast.hits[1:]
    bound = np.maximum(cast.distances[:-1], cast.distances[1:])
    found = (left == right) & (left >= 0)
    base = cast.bases[:-1]
    pairs = np.flatnonzero((left >= 0) & (right >= 0) & ~found & (base == cast.bases[1:]))
    if len(pairs):
        at = base[pairs]
        s1, s2 = cast.segments[left[pairs]], cast.segments[right[pairs]]
        far = np.maximum(_ray_hits(s1[:, 0], s1[:, 1], at), _ray_hits(s2[:, 0], s2[:, 1], at))
        bound[pairs] = np.maximum(bound[pairs], far)
        found[pairs] = np.isfinite(far)
    inner = np.where(found, bound, math.inf)
    return np.concatenate([[math.inf], inner, [math.inf]])


def _expand(first: NDArray[np.intp], counts: NDArray[np.intp]) -> NDArray[np.intp]:
    """``first[i], first[i] + 1, ...`` (``counts[i]`` of them) for every i, concatenated."""
    # One repeat of each run's offset from its place in the output, not two (a third less).
    starts = np.cumsum(counts) - counts
    expanded: NDArray[np.intp] = np.repeat(first - starts, counts) + np.arange(int(counts.sum()))
    return expanded


def angular_pieces(
    rel: NDArray[np.float64],
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.intp]]:
    """Each segment's interval of directions (radians in [-pi, pi]) seen from the origin.

    ``rel`` holds segments (n, 2, 2) relative to the viewpoint. A segment whose interval
    crosses the direction pi (-pi) is split in two there. Returns the pieces' starts, stops
    and owning segment indices.
    """
    return pieces_of_directions(np.arctan2(rel[:, :, 1], rel[:, :, 0]))


def pieces_of_directions(
    angles: NDArray[np.float64],
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.intp]]:
    """``angular_pieces`` of segments whose ends lie in directions ``angles`` (n, 2)."""
    lo, hi = np.minimum(angles[:, 0], angles[:, 1]), np.maximum(angles[:, 0], angles[:, 1])
    wraps = hi - lo > math.pi
    if not wraps.any():
        return lo, hi, np.arange(len(angles))
    starts = np.concatenate([np.where(wraps, -math.pi, lo), hi[wraps]])
    stops = np.concatenate([np.where(wraps, lo, hi), np.full(int(wraps.sum()), math.pi)])
    owner = np.concatenate([np.arange(len(angles)), np.flatnonzero(wraps)])
    return starts, stops, owner


def nearest_distances(rel: NDArray[np.float64]) -> NDArray[np.float64]:
    """Distance from the origin to each segment of ``rel`` (n, 2, 2)."""
    # By coordinate: numpy's sums over an axis of two are slower than the products' adds.
    ax, ay = rel[:, 0, 0], rel[:, 0, 1]
    ex, ey = rel[:, 1, 0] - ax, rel[:, 1, 1] - ay
    length2 = ex * ex + ey * ey
    along = np.clip(-(ax * ex + ay * ey) / np.where(length2 > 0, length2, 1.0), 0.0, 1.0)
    distances: NDArray[np.float64] = np.hypot(ax + ex * along, ay + ey * along)
    return distances


def cast_rays(
    rel: NDArray[np.float64],
    ray_angles: NDArray[np.float64],
    limit: float,
    pieces: Pieces | None = None,
) -> tuple[NDArray[np.float64], NDArray[np.intp]]:
    """Distance along each ray (from the origin at 0, 0; ``ray_angles`` sorted) to the nearest
    segment of ``rel``, at most ``limit``, and the index of that segment (-1 when none is
    nearer than ``limit``). Only segment/ray pairs whose angular span covers the ray are
    evaluated; ``pieces`` are ``angular_pieces(rel)`` when already known."""
    n_rays = len(ray_angles)
    best = np.full(n_rays, limit, dtype=np.float64)
    nearest = np.full(n_rays, -1, dtype=np.intp)
    starts, stops, owner = angular_pieces(rel) if pieces is None else pieces
    first = np.searchsorted(ray_angles, starts - 1e-12, side="left")
    last = np.searchsorted(ray_angles, stops + 1e-12, side="right")
    counts = np.maximum(last - first, 0)
    if not counts.any():
        return best, nearest
    seg = np.repeat(owner, counts)
    ray = _expand(first, counts)
    t = _ray_hits(rel[seg, 0], rel[seg, 1], ray_angles[ray])
    hit = np.isfinite(t)
    np.minimum.at(best, ray[hit], t[hit])
    winners = hit & (t <= best[ray])
    nearest[ray[winners]] = seg[winners]
    return best, nearest


def _ray_hits(
    a: NDArray[np.float64], b: NDArray[np.float64], angles: NDArray[np.float64]
) -> NDArray[np.float64]:
    """Distance along rays from (0, 0) at ``angles`` to segments ``a``-``b`` (inf: no hit).
    A ray exactly along a segment does not hit it."""
    dx, dy = np.cos(angles), np.sin(angles)
    ex, ey = b[:, 0] - a[:, 0], b[:, 1] - a[:, 1]
    denom = dx * ey - dy * ex
    ok = np.abs(denom) > 1e-12
    safe = np.where(ok, denom, 1.0)
    t = (a[:, 0] * ey - a[:, 1] * ex) / safe
    u = (a[:, 0] * dy - a[:, 1] * dx) / safe
    hit = ok & (t >= 0) & (u >= -1e-9) & (u <= 1 + 1e-9)
    return np.where(hit, t, np.inf)
