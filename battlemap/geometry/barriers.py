"""Line-versus-wall tests with the boundary rules the rules need, fast enough for a drag.

The rule (cover and sight): a straight line is blocked by a set of wall segments when, at some
point along it, walls lie strictly on *both* sides of it. That covers

* a proper crossing through the middle of a segment (blocked);
* a line through the joint of two or more segments whose arms lie on both sides of it
  (blocked: walls that meet form one barrier);
* touching a wall at the line's own end, grazing a wall's free end or a corner from outside,
  and running along a wall (not blocked: walls lie on one side only, or none).

How it is computed: the line is shortened by ``END_TRIM`` at both ends (so touching at an end
never counts) and shifted by ``SIDE_SHIFT`` to each side; walls strictly on both sides of the
line near a point make both shifted copies hit. Both copies can also hit at *different* places
when the line grazes wall ends from opposite sides; lines that pass through a wall end are
therefore split at those ends and checked piece by piece, and at each end point on its own.
All bulk tests are prepared-geometry predicates evaluated by shapely on whole arrays of lines.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import cast

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely import STRtree
from shapely.geometry.base import BaseGeometry

from battlemap.model import EntityId

END_TRIM = 1e-6
"""Cells cut off each end of a traced line: touching a wall at an end never blocks."""
SIDE_SHIFT = 1e-7
"""Cells a line is shifted sideways to see which side of it walls lie on."""
POINT_PROBE = 1e-5
"""Half-length, in cells, of the probe used at a wall end lying on a line."""
_PIECE_CELLS = 2.0

Lines = NDArray[np.float64]
"""Array of shape (n, 2, 2): n lines, each (start, end), each (x, y) in cells."""


def line_array(lines: Lines) -> NDArray[np.object_]:
    """Shapely LineStrings for an (n, 2, 2) array of lines."""
    return cast(NDArray[np.object_], np.asarray(shapely.linestrings(lines), dtype=object))


def _shift_and_trim(
    lines: Lines, trim: float, shift: float
) -> tuple[Lines, Lines, NDArray[np.bool_]]:
    """Copies of ``lines`` trimmed at both ends and shifted to the left and to the right.

    Returns the two shifted arrays and a mask of lines too short to trace (under 2 x trim).
    """
    start, end = lines[:, 0, :], lines[:, 1, :]
    delta = end - start
    length = np.hypot(delta[:, 0], delta[:, 1])
    degenerate = length <= 2 * trim
    safe = np.where(degenerate, 1.0, length)
    unit = delta / safe[:, None]
    normal = np.stack([-unit[:, 1], unit[:, 0]], axis=1)
    s = start + unit * trim
    e = end - unit * trim
    left = np.stack([s + normal * shift, e + normal * shift], axis=1)
    right = np.stack([s - normal * shift, e - normal * shift], axis=1)
    return left, right, degenerate


class BarrierSet:
    """A set of wall segments answering "is this line blocked?" for arrays of lines.

    Built once per map change. ``ids[i]`` names the feature segment ``i`` came from.
    """

    def __init__(
        self,
        segments: Sequence[tuple[tuple[float, float], tuple[float, float]]],
        ids: Sequence[EntityId],
    ) -> None:
        self.ids: list[EntityId] = list(ids)
        coords = np.asarray(segments, dtype=np.float64).reshape(-1, 2, 2)
        self.coords = coords
        self.geoms = line_array(coords) if len(coords) else np.empty(0, dtype=object)
        self.tree = STRtree(self.geoms)
        self._union: BaseGeometry | None = None
        self._ends: BaseGeometry | None = None
        self._end_points: NDArray[np.float64] = np.empty((0, 2))
        self._end_tree: STRtree | None = None
        self._free_ends: set[tuple[float, float]] = set()
        if len(coords):
            self._union = shapely.MultiLineString(list(self.geoms))
            shapely.prepare(self._union)
            points = np.unique(coords.reshape(-1, 2), axis=0)
            self._end_points = points
            boxes = shapely.box(
                points[:, 0] - 2 * SIDE_SHIFT,
                points[:, 1] - 2 * SIDE_SHIFT,
                points[:, 0] + 2 * SIDE_SHIFT,
                points[:, 1] + 2 * SIDE_SHIFT,
            )
            self._ends = shapely.MultiPolygon(list(boxes))
            shapely.prepare(self._ends)
            self._end_tree = STRtree(boxes)
            counts: dict[tuple[float, float], int] = {}
            for x, y in coords.reshape(-1, 2).tolist():
                counts[(x, y)] = counts.get((x, y), 0) + 1
            self._free_ends = {p for p, n in counts.items() if n == 1}

    def __len__(self) -> int:
        return len(self.ids)

    @property
    def union(self) -> BaseGeometry | None:
        """All segments as one prepared MultiLineString (None when empty)."""
        return self._union

    def inside_walls(self, points: NDArray[np.float64]) -> NDArray[np.bool_]:
        """For each point, whether it lies on a wall other than at a wall's free end.

        Such a point (on a wall's middle or at a joint) has a side: a line from it is traced
        from a point nudged into the creature's own space (see ``cover``).
        """
        if self._union is None or len(points) == 0:
            return np.zeros(len(points), dtype=bool)
        on = np.asarray(shapely.intersects_xy(self._union, points[:, 0], points[:, 1]), dtype=bool)
        for i in np.flatnonzero(on):
            point = (float(points[i, 0]), float(points[i, 1]))
            if point in self._free_ends:
                on[i] = self._on_other_segment(point)
        return on

    def _on_other_segment(self, point: tuple[float, float]) -> bool:
        """A free end that also lies on another segment's middle (a T) still has sides."""
        candidates = self.tree.query(shapely.Point(point), predicate="intersects")
        ends = self.coords[candidates].reshape(-1, 2)
        return bool(len(candidates) > 1 or not np.any(np.all(ends == point, axis=1)))

    def touches_any(self, lines: Lines) -> NDArray[np.bool_]:
        """True for each line that meets any segment at all, touching included (movement)."""
        if self._union is None or len(lines) == 0:
            return np.zeros(len(lines), dtype=bool)
        return np.asarray(shapely.intersects(self._union, line_array(lines)), dtype=bool)

    def blocks(self, lines: Lines) -> NDArray[np.bool_]:
        """For each line, whether walls lie strictly on both sides of it somewhere (see module).

        Zero-length lines (a corner on a corner) are never blocked.
        """
        n = len(lines)
        result = np.zeros(n, dtype=bool)
        if self._union is None or n == 0:
            return result
        left, right, degenerate = _shift_and_trim(lines, END_TRIM, SIDE_SHIFT)
        todo = np.flatnonzero(~degenerate)
        if len(todo) == 0:
            return result
        hit_left = shapely.intersects(self._union, line_array(left[todo]))
        todo = todo[hit_left]
        if len(todo) == 0:
            return result
        hit_right = shapely.intersects(self._union, line_array(right[todo]))
        todo = todo[hit_right]
        if len(todo) == 0:
            return result
        trimmed = _trimmed(lines[todo], END_TRIM)
        assert self._ends is not None
        near_end = shapely.intersects(self._ends, line_array(trimmed))
        result[todo[~near_end]] = True
        for i in todo[near_end]:
            result[i] = self._blocks_through_ends(lines[i])
        return result

    def _blocks_through_ends(self, line: NDArray[np.float64]) -> bool:
        """Exact check for a line passing through wall ends: split there, test the pieces."""
        assert self._end_tree is not None
        trimmed = line_array(_trimmed(line[None], END_TRIM))[0]
        hits = self._end_tree.query(trimmed, predicate="intersects")
        start, end = line[0], line[1]
        delta = end - start
        length = float(np.hypot(*delta))
        unit = delta / length
        points = self._end_points[hits]
        ts = np.sort((points - start) @ unit)
        if len(ts) == 0:
            return True
        # Each end point on its own: a short probe across it, walls on both sides block.
        probes = np.stack(
            [
                np.stack([start + unit * (t - POINT_PROBE), start + unit * (t + POINT_PROBE)])
                for t in ts
            ]
        )
        # Pieces between end points, kept clear of the points themselves.
        bounds = np.concatenate([[0.0], ts, [length]])
        pieces = [
            np.stack([start + unit * (a + 2 * POINT_PROBE), start + unit * (b - 2 * POINT_PROBE)])
            for a, b in itertools.pairwise(bounds)
            if b - a > 4 * POINT_PROBE
        ]
        candidates = np.concatenate([probes, np.stack(pieces)]) if pieces else probes
        left, right, degenerate = _shift_and_trim(candidates, 0.0, SIDE_SHIFT)
        hit_left = shapely.intersects(self._union, line_array(left))
        hit_right = shapely.intersects(self._union, line_array(right))
        return bool(np.any(hit_left & hit_right & ~degenerate))

    def first_blocker(self, line: NDArray[np.float64]) -> EntityId | None:
        """The id of the segment that blocks ``line`` nearest its start, or None.

        The line is cut into short pieces so the spatial index sees few candidates; a piece
        whose shifted copies both hit names the segment it crosses (or, at a joint, one of the
        segments meeting there).
        """
        if not len(self.ids):
            return None
        start, end = line[0], line[1]
        delta = end - start
        length = float(np.hypot(*delta))
        if length <= 2 * END_TRIM:
            return None
        count = max(1, int(np.ceil(length / _PIECE_CELLS)))
        ts = np.linspace(0.0, 1.0, count + 1)
        cuts = start + np.outer(ts, delta)
        pieces = np.stack([cuts[:-1], cuts[1:]], axis=1)
        # Overlap pieces slightly so a wall exactly on a cut is seen by one of them.
        unit = delta / length
        pieces[1:, 0, :] -= unit * 1e-4
        pieces[:-1, 1, :] += unit * 1e-4
        pieces[0, 0, :] += unit * END_TRIM
        pieces[-1, 1, :] -= unit * END_TRIM
        left, right, _ = _shift_and_trim(pieces, 0.0, SIDE_SHIFT)
        lhits = self.tree.query(line_array(left), predicate="intersects")
        rhits = self.tree.query(line_array(right), predicate="intersects")
        left_by_piece: dict[int, set[int]] = {}
        for p, w in zip(lhits[0], lhits[1], strict=True):
            left_by_piece.setdefault(int(p), set()).add(int(w))
        for p in sorted({int(p) for p in rhits[0]}):
            if p not in left_by_piece:
                continue
            right_walls = {int(w) for pp, w in zip(rhits[0], rhits[1], strict=True) if pp == p}
            both = left_by_piece[p] & right_walls
            chosen = min(both) if both else min(left_by_piece[p] | right_walls)
            return self.ids[chosen]
        return None


def _trimmed(lines: Lines, trim: float) -> Lines:
    start, end = lines[:, 0, :], lines[:, 1, :]
    delta = end - start
    length = np.hypot(delta[:, 0], delta[:, 1])
    safe = np.where(length == 0, 1.0, length)
    unit = delta / safe[:, None]
    return np.stack([start + unit * trim, end - unit * trim], axis=1)
