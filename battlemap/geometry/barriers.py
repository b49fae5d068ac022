"""Line-versus-wall tests with the boundary rules the rules need, fast enough for a drag.

The rule (cover and sight), exactly. A straight line from ``a`` to ``b`` is blocked by a set of
wall segments when, at some point strictly inside it (more than ``END_TRIM`` from either end),
walls lie strictly on *both* sides of it:

* a wall crossing it from one side to the other blocks (a proper crossing);
* a wall end within ``END_SNAP`` (perpendicular distance, in cells) of the line is taken to lie
  *on* the line, at its foot: the wall then only touches the line there, leaving to the side
  of its other end (or to no side, when that end is within ``END_SNAP`` as well: the wall runs
  along the line). So a crossing within ``END_SNAP`` of a wall's end is grazing that end, and
  ``END_SNAP`` is the one tolerance for every wall end, on the grid lattice or not, and for
  every line, exact, nudged (``cover``) or inset (``sight``);
* where wall ends lie on the line at one point (their feet within ``END_SNAP`` of each other)
  the walls there are one barrier: the line is blocked when they leave to both sides (through
  the joint of two segments, or into a T) and not when they leave to one side (grazing a free
  end or a corner) or run along it.

Touching a wall with the line's own end, grazing a wall's free end or a corner from outside and
running along a wall therefore do not block; a zero-length line is never blocked.

How it is computed: most lines across a walled map plainly cross a wall on a grid line; those
are settled in numpy from a per-map table of grid-line units that walls cover
(``_surely_blocked``, conservative: it only says "blocked" where the exact rule does). The
rest are checked exactly: the walls near each line are found in a per-map grid of buckets
(each wall listed in the buckets its box, grown by ``2 * END_SNAP``, meets; the STR-tree when
no grid fits) and every (line, wall) pair is classified with signed distances in numpy
(``_events``). Lines are checked from their starts outwards in rounds of doubling reach, and
a line leaves once blocked, so a line that meets a wall early costs little.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely import STRtree
from shapely.geometry.base import BaseGeometry

from battlemap.geometry.wall_buckets import Lines, WallBuckets, cut_lines, sorted_unique
from battlemap.model import EntityId

END_TRIM = 1e-6
"""Cells at each end of a line where meeting a wall never blocks (touching at an end)."""
END_SNAP = 1e-6
"""Cells within which a wall end counts as lying on a line (see the module)."""
_LATTICE = 4
"""Points on multiples of 1/_LATTICE cells are looked up in tables (``inside_walls``)."""
_NEAR_LATTICE = END_SNAP * _LATTICE
"""Lattice steps (per axis) within which a point or wall end counts as on the lattice:
``END_SNAP`` cells, so wall ends that close together are one joint here as for ``blocks``."""
_KEY_SPAN = 1 << 20
_SURE_BATCH = 256
"""Batches smaller than this skip the numpy grid-line settling (its per-call cost dominates)."""
_QUERY_CELLS = 4.0
"""Longest piece of a line whose box is looked up in the STR-tree for candidate walls."""
_EXACT_BATCH = 1 << 14
"""Lines checked by the exact rule together (their candidate walls are held at once)."""
_FIRST_REACH = 8.0
"""Cells from a line's start whose walls the first exact round looks at (then each round
``_REACH_GROWTH`` times further)."""
_REACH_GROWTH = 2.0
_LAST_ROUND_LINES = 256
"""With this few lines left, the next round takes them to their ends."""
_ROUND_OVERLAP = 1e-3
"""Cells by which a round's stretch of a line overlaps the rounds before and after it."""
_CROSSING_MARGIN = 1e-12
"""Relative margin (times the coordinates' scale and 1 + slope) a grid-line crossing must
clear to be sure: about 2,000 times the rounding error of computing it."""
_SURE_FIRST = 2
"""Grid lines per axis ``_surely_blocked`` tries first, from each line's start."""
_SURE_CHUNK = 1 << 16
"""Grid-line crossings checked per numpy batch by ``_surely_blocked`` (bounds memory)."""
_GRID_LIMIT = 1 << 18
"""Grid lines and units beyond this many cells from the origin are not tabled."""
_GRID_TABLE_CELLS = 1 << 24
"""Largest table of covered grid-line units (larger maps check every line exactly)."""


def unique_points(points: NDArray[np.float64]) -> tuple[NDArray[np.float64], NDArray[np.intp]]:
    """The distinct points, and the index of each input among them."""
    order = np.lexsort((points[:, 1], points[:, 0]))
    ordered = points[order]
    new = np.r_[True, np.any(ordered[1:] != ordered[:-1], axis=1)]
    inverse = np.empty(len(points), dtype=np.intp)
    inverse[order] = np.cumsum(new) - 1
    return ordered[new], inverse


def _lattice_keys(points: NDArray[np.int64]) -> NDArray[np.int64]:
    """One integer per lattice point (coordinates within +-2**19 lattice steps)."""
    half = _KEY_SPAN // 2
    return (points[:, 0] + half) * _KEY_SPAN + (points[:, 1] + half)


_Events = tuple[NDArray[np.intp], NDArray[np.float64], NDArray[np.intp]]
"""(line, distance along it in cells, wall) of each place a line is blocked."""


def line_array(lines: Lines) -> NDArray[np.object_]:
    """Shapely LineStrings for an (n, 2, 2) array of lines."""
    return cast(NDArray[np.object_], np.asarray(shapely.linestrings(lines), dtype=object))


def _without_duplicates(
    segments: Sequence[tuple[tuple[float, float], tuple[float, float]]], ids: Sequence[EntityId]
) -> tuple[NDArray[np.float64], list[EntityId]]:
    """The segments (n, 2, 2) with exact repeats (either direction) dropped, keeping the first
    and its id.

    A wall drawn twice is one wall. Kept twice, its two copies would meet at their shared ends
    like the two arms of a joint, and a line through such an end would count as blocked.
    """
    coords = np.asarray(segments, dtype=np.float64).reshape(-1, 2, 2)
    if len(coords) < 2:
        return coords, list(ids)
    a, b = coords[:, 0], coords[:, 1]
    swap = (a[:, 0] > b[:, 0]) | ((a[:, 0] == b[:, 0]) & (a[:, 1] > b[:, 1]))
    key = np.where(swap[:, None], np.concatenate([b, a], axis=1), np.concatenate([a, b], axis=1))
    key = key + 0.0  # -0.0 and 0.0 are one coordinate, as in tuple comparison
    order = np.lexsort((np.arange(len(key)), key[:, 3], key[:, 2], key[:, 1], key[:, 0]))
    ordered = key[order]
    repeat = np.r_[False, np.all(ordered[1:] == ordered[:-1], axis=1)]
    keep = np.ones(len(coords), dtype=bool)
    keep[order[repeat]] = False
    if keep.all():
        return coords, list(ids)
    return coords[keep], [i for i, k in zip(ids, keep.tolist(), strict=True) if k]


class BarrierSet:
    """A set of wall segments answering "is this line blocked?" for arrays of lines.

    Built once per map change. ``ids[i]`` names the feature segment ``i`` came from.
    """

    def __init__(
        self,
        segments: Sequence[tuple[tuple[float, float], tuple[float, float]]],
        ids: Sequence[EntityId],
    ) -> None:
        coords, kept_ids = _without_duplicates(segments, ids)
        self.ids: list[EntityId] = kept_ids
        self.coords = coords
        self.geoms = line_array(coords) if len(coords) else np.empty(0, dtype=object)
        self.tree = STRtree(self.geoms)
        self._union: BaseGeometry | None = None
        self._sided_keys: NDArray[np.int64] = np.empty(0, dtype=np.int64)
        self._odd: NDArray[np.intp] = np.empty(0, dtype=np.intp)
        self._odd_tree: STRtree | None = None
        self._grid_units: tuple[_GridUnits | None, _GridUnits | None] = (None, None)
        self._odd_cells: tuple[int, int, NDArray[np.bool_]] | None = None
        self._sided_table: _LatticeTable | None = None
        self._buckets = WallBuckets.of(coords, 2 * END_SNAP) if len(coords) else None
        if len(coords):
            self._sided_keys = self._lattice_sided_keys(coords)
            self._sided_table = self._build_sided_table()
        self._grid_units = (_grid_units(coords, axis=0), _grid_units(coords, axis=1))

    @property
    def grid_units(self) -> tuple[_GridUnits | None, _GridUnits | None]:
        """The tables of grid-line units covered whole by walls that always count (along
        ``x = X`` and along ``y = Y``; None: none), which ``_surely_blocked`` settles from."""
        return self._grid_units

    def __len__(self) -> int:
        return len(self.ids)

    @property
    def union(self) -> BaseGeometry | None:
        """All segments as one prepared MultiLineString (None when empty); made on first use."""
        if self._union is None and len(self.geoms):
            self._union = shapely.MultiLineString(list(self.geoms))
            shapely.prepare(self._union)
        return self._union

    def _lattice_sided_keys(self, coords: NDArray[np.float64]) -> NDArray[np.int64]:
        """Keys of the lattice points that have a side (see ``inside_walls``) as far as the
        segments on the lattice tell: their inner lattice points, and the lattice ends shared
        by two or more segments of any kind. Segments off the lattice are kept in
        ``self._odd_tree`` for the points on their middles."""
        scaled = coords * _LATTICE
        on = np.all(np.abs(scaled - np.rint(scaled)) <= _NEAR_LATTICE, axis=(1, 2))
        odd = np.flatnonzero(~on)
        self._odd = odd
        self._odd_tree = STRtree(self.geoms[odd]) if len(odd) else None
        self._odd_cells = self._odd_cell_table()
        ends = np.rint(scaled[on]).astype(np.int64)
        a, d = ends[:, 0, :], ends[:, 1, :] - ends[:, 0, :]
        g = np.gcd(np.abs(d[:, 0]), np.abs(d[:, 1]))
        counts = np.maximum(g - 1, 0)
        seg = np.repeat(np.arange(len(a)), counts)
        k = np.arange(int(counts.sum())) - np.repeat(np.cumsum(counts) - counts, counts) + 1
        inner = a[seg] + (d[seg] // g[seg, None]) * k[:, None]
        all_ends = scaled.reshape(-1, 2)
        lattice_ends = np.all(np.abs(all_ends - np.rint(all_ends)) <= _NEAR_LATTICE, axis=1)
        end_keys = np.sort(_lattice_keys(np.rint(all_ends[lattice_ends]).astype(np.int64)))
        shared = end_keys[1:][end_keys[1:] == end_keys[:-1]]
        return np.unique(np.concatenate([_lattice_keys(inner), shared]))

    def inside_walls(self, points: NDArray[np.float64]) -> NDArray[np.bool_]:
        """For each point, whether it lies on a wall other than at a wall's free end.

        "On" with the module's one tolerance: within ``END_SNAP`` of the wall, and "at an end"
        within ``END_SNAP`` of it, so a corner that a wall drawn off the lattice misses by a
        rounding error lies on it, as a line's end that close to a wall does for ``blocks``.

        Such a point (on a wall's middle, at a joint, or where a wall ends on another) has a
        side: a line from it is traced from a point nudged into the creature's own space
        (see ``cover``). A free end is the end of exactly one segment touching no other.
        Lattice points are looked up in a table (plus the middles of any off-lattice walls);
        other points go through the spatial index.
        """
        if not len(self.ids) or len(points) == 0:
            return np.zeros(len(points), dtype=bool)
        unique, inverse = unique_points(points)
        on_unique = self._sided(unique)
        return np.asarray(on_unique[inverse], dtype=bool)

    def _sided(self, points: NDArray[np.float64]) -> NDArray[np.bool_]:
        result = np.zeros(len(points), dtype=bool)
        scaled = points * _LATTICE
        rounded = np.rint(scaled)
        near_lattice = np.all(np.abs(scaled - rounded) <= _NEAR_LATTICE, axis=1)
        rest = ~near_lattice
        if self._sided_table is not None:
            # Points exactly on the lattice: one table look-up (built with the same tests).
            exact = np.all(scaled == rounded, axis=1)
            result[exact] = self._sided_table.lookup(rounded[exact])
            near_lattice &= ~exact
        lattice = np.flatnonzero(near_lattice)
        keys = _lattice_keys(np.rint(scaled[lattice]).astype(np.int64))
        if len(self._sided_keys):
            slot = np.minimum(np.searchsorted(self._sided_keys, keys), len(self._sided_keys) - 1)
            result[lattice] = self._sided_keys[slot] == keys
        if self._odd_tree is not None and len(lattice):
            near = lattice[self._near_odd(points[lattice])]
            point_idx, wall_idx = self._odd_tree.query(
                shapely.points(points[near]), predicate="dwithin", distance=END_SNAP
            )
            middle = ~_at_an_end(points[near][point_idx], self.coords[self._odd[wall_idx]])
            result[near[point_idx[middle]]] = True
        if rest.any():
            result[rest] = self._inside_walls_by_index(points[rest])
        return result

    def _build_sided_table(self) -> _LatticeTable | None:
        """``_sided`` for every exact lattice point, as a table: the lattice points of the
        segments' middles and shared ends, and those lying on the middle of an off-lattice
        segment (shapely's test, as ``_sided`` makes it). None when an off-lattice segment
        spans too many lattice points or the table would be too large."""
        half = _KEY_SPAN // 2
        keys = self._sided_keys
        marked = [np.stack([keys // _KEY_SPAN - half, keys % _KEY_SPAN - half], axis=1)]
        if len(self._odd):
            odd = self.coords[self._odd] * _LATTICE
            lo = np.ceil(odd.min(axis=1) - END_SNAP * _LATTICE)
            hi = np.floor(odd.max(axis=1) + END_SNAP * _LATTICE)
            span = np.maximum(hi - lo + 1, 0)
            if not np.all(np.isfinite(span)) or float(np.prod(span, axis=1).sum()) > 1 << 20:
                return None
            width = span[:, 0].astype(np.intp)
            count = width * span[:, 1].astype(np.intp)
            which = np.repeat(np.arange(len(odd)), count)
            k = np.arange(int(count.sum())) - np.repeat(np.cumsum(count) - count, count)
            grid = lo[which] + np.stack([k % width[which], k // width[which]], axis=1)
            at = grid / _LATTICE
            on = _within_snap(at, self.coords[self._odd[which]], self.geoms[self._odd[which]])
            on &= ~_at_an_end(at, self.coords[self._odd[which]])
            marked.append(grid[on].astype(np.int64))
        return _LatticeTable.of(np.concatenate(marked))

    def _near_odd(self, points: NDArray[np.float64]) -> NDArray[np.bool_]:
        """Points whose grid cell meets the bounding box of an off-lattice wall (only these
        can lie on one); all points when there is no table."""
        table = self._odd_cells
        if table is None:
            return np.ones(len(points), dtype=bool)
        x0, y0, cells = table
        cx = np.floor(points[:, 0]) - x0
        cy = np.floor(points[:, 1]) - y0
        inside = (cx >= 0) & (cx < cells.shape[1]) & (cy >= 0) & (cy < cells.shape[0])
        near = np.zeros(len(points), dtype=bool)
        near[inside] = cells[cy[inside].astype(np.intp), cx[inside].astype(np.intp)]
        return near

    def _odd_cell_table(self) -> tuple[int, int, NDArray[np.bool_]] | None:
        """Grid cells (from the origin ``(x0, y0)``) that an off-lattice wall's closed bounding
        box meets; None when there are none or the table would be too large."""
        if len(self._odd) == 0:
            return None
        odd = self.coords[self._odd]
        lo = np.floor(odd.min(axis=1) - END_SNAP)
        hi = np.floor(odd.max(axis=1) + END_SNAP)
        if not (np.all(np.isfinite(lo)) and np.all(np.isfinite(hi))):
            return None
        x0, y0 = int(lo[:, 0].min()), int(lo[:, 1].min())
        width, height = int(hi[:, 0].max()) - x0 + 1, int(hi[:, 1].max()) - y0 + 1
        if width * height > _GRID_TABLE_CELLS:
            return None
        # Each box adds 1 over its cells: +1 and -1 at its corners, then running sums.
        first = (lo - (x0, y0)).astype(np.intp)
        last = (hi - (x0, y0)).astype(np.intp) + 1
        marks = np.zeros((height + 1, width + 1), dtype=np.int32)
        np.add.at(marks, (first[:, 1], first[:, 0]), 1)
        np.add.at(marks, (first[:, 1], last[:, 0]), -1)
        np.add.at(marks, (last[:, 1], first[:, 0]), -1)
        np.add.at(marks, (last[:, 1], last[:, 0]), 1)
        cells = np.cumsum(np.cumsum(marks, axis=0), axis=1)[:height, :width] > 0
        return x0, y0, cells

    def _inside_walls_by_index(self, points: NDArray[np.float64]) -> NDArray[np.bool_]:
        """``inside_walls`` for any points, through the spatial index."""
        result = np.zeros(len(points), dtype=bool)
        unique, inverse = unique_points(points)
        point_idx, wall_idx = self.tree.query(
            shapely.points(unique), predicate="dwithin", distance=END_SNAP
        )
        if len(point_idx) == 0:
            return result
        is_end = _at_an_end(unique[point_idx], self.coords[wall_idx])
        touching = np.bincount(point_idx, minlength=len(unique))
        middle = np.bincount(point_idx, weights=~is_end, minlength=len(unique)) > 0
        on_unique = (touching >= 2) | middle
        return np.asarray(on_unique[inverse.ravel()], dtype=bool)

    def blocks(self, lines: Lines) -> NDArray[np.bool_]:
        """For each line, whether walls lie strictly on both sides of it somewhere (see module).

        Zero-length lines (a corner on a corner) are never blocked.
        """
        n = len(lines)
        result = np.zeros(n, dtype=bool)
        if not len(self.ids) or n == 0:
            return result
        delta = lines[:, 1, :] - lines[:, 0, :]
        length = np.hypot(delta[:, 0], delta[:, 1])
        todo = np.flatnonzero(length > 2 * END_TRIM)
        if len(todo) >= _SURE_BATCH:
            # Most lines across a walled map plainly cross a grid-line wall somewhere: settle
            # those in numpy first; only the rest are checked wall by wall.
            sure = self._surely_blocked(lines[todo], length[todo])
            result[todo[sure]] = True
            todo = todo[~sure]
        # Batches of lines bound the memory of the (line, wall) pairs of a round.
        for at in range(0, len(todo), _EXACT_BATCH):
            batch = todo[at : at + _EXACT_BATCH]
            result[batch] = self._blocked_in_rounds(lines[batch], length[batch])
        return result

    def _blocked_in_rounds(self, lines: Lines, length: NDArray[np.float64]) -> NDArray[np.bool_]:
        """``blocks`` by the exact rule, looking for walls near the lines' starts first: round
        ``k`` takes the walls near each line's stretch from ``_FIRST_REACH * 2**(k-1)`` to
        ``_FIRST_REACH * 2**k`` cells from its start (grown by ``_ROUND_OVERLAP`` both ways,
        so walls meeting at one point near a boundary are seen together), and only lines not
        yet blocked go on. Sound because walls only ever add places where a line is blocked.
        """
        blocked = np.zeros(len(lines), dtype=bool)
        active = np.arange(len(lines))
        done, reach = 0.0, _FIRST_REACH
        while len(active):
            span = length[active]
            if len(active) <= _LAST_ROUND_LINES:
                reach = float(span.max())  # few lines left: one round to their ends
            lo = np.maximum(done - _ROUND_OVERLAP, 0.0) / span
            hi = np.minimum((reach + _ROUND_OVERLAP) / span, 1.0)
            start = lines[active, 0, :]
            delta = lines[active, 1, :] - start
            stretch = np.stack([start + delta * lo[:, None], start + delta * hi[:, None]], axis=1)
            near, wall = self._candidates(stretch, (hi - lo) * span)
            line, _, _ = self._events(lines[active], span, near, wall)
            blocked[active[line]] = True
            active = active[~blocked[active] & (span > reach)]
            done, reach = reach, reach * _REACH_GROWTH
        return blocked

    def first_blocker(self, line: NDArray[np.float64]) -> EntityId | None:
        """The id of the wall that blocks ``line`` nearest its start, or None.

        At a joint or a T (several walls meeting on the line) it is the first of the walls
        there that leave to a side, in the order the segments were given.
        """
        if not len(self.ids):
            return None
        lines = np.asarray(line, dtype=np.float64).reshape(1, 2, 2)
        length = np.hypot(*(lines[0, 1] - lines[0, 0]))
        if length <= 2 * END_TRIM:
            return None
        lengths = np.array([length])
        rank = self._fresh_rank()
        crossings, joints = self._crossings_and_joints(
            lines, lengths, *self._candidates(lines, lengths), rank
        )
        along = np.concatenate([crossings[1], joints[1]])
        if len(along) == 0:
            return None
        wall = np.concatenate([crossings[2], joints[2]])
        # Nearest the start; there a crossing before a joint, then the first in the order.
        is_joint = np.arange(len(along)) >= len(crossings[1])
        order = np.lexsort((wall if rank is None else rank[wall], is_joint, along))
        return self.ids[int(wall[order[0]])]

    def _fresh_rank(self) -> NDArray[np.intp] | None:
        """Each segment's place in the order a set built afresh from the same walls would
        hold it (None: its own index); ``first_blocker`` names the first by it."""
        return None

    def _candidates(
        self, lines: Lines, length: NDArray[np.float64]
    ) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
        """(line, wall) pairs, each once, among them every wall within ``END_SNAP`` of a line
        (from the bucket grid; the STR-tree on a map too large for one)."""
        if not len(self.ids):
            return np.empty(0, dtype=np.intp), np.empty(0, dtype=np.intp)
        if self._buckets is not None:
            line, wall = self._buckets.near(lines, length)
        else:
            count = np.maximum(1, np.ceil(length / _QUERY_CELLS)).astype(np.intp)
            owner, a, b = cut_lines(lines, count)
            pad = 2 * END_SNAP
            lo, hi = np.minimum(a, b) - pad, np.maximum(a, b) + pad
            piece, wall = self.tree.query(shapely.box(lo[:, 0], lo[:, 1], hi[:, 0], hi[:, 1]))
            line = owner[piece]
        key_type = np.int32 if len(lines) * len(self.ids) < 1 << 31 else np.int64  # sorts faster
        keys = sorted_unique(line.astype(key_type) * len(self.ids) + wall.astype(key_type))
        return (keys // len(self.ids)).astype(np.intp), (keys % len(self.ids)).astype(np.intp)

    def _events(
        self,
        lines: Lines,
        length: NDArray[np.float64],
        li: NDArray[np.intp],
        wi: NDArray[np.intp],
    ) -> tuple[NDArray[np.intp], NDArray[np.float64], NDArray[np.intp]]:
        """Every place a line is blocked by the walls paired with it (``lines[li[k]]`` with
        wall ``wi[k]``), by the exact rule of the module: (line, distance along it in cells,
        wall), for proper crossings and for points on the line where wall ends leave to both
        sides (the wall named is the first of those leaving to a side)."""
        crossings, joints = self._crossings_and_joints(lines, length, li, wi, None)
        return (
            np.concatenate([crossings[0], joints[0]]),
            np.concatenate([crossings[1], joints[1]]),
            np.concatenate([crossings[2], joints[2]]),
        )

    def _crossings_and_joints(
        self,
        lines: Lines,
        length: NDArray[np.float64],
        li: NDArray[np.intp],
        wi: NDArray[np.intp],
        rank: NDArray[np.intp] | None,
    ) -> tuple[_Events, _Events]:
        """``_events``' proper crossings and its joints apart; at a joint the wall named is
        the first by ``rank`` (by index when None)."""
        empty = (np.empty(0, dtype=np.intp), np.empty(0), np.empty(0, dtype=np.intp))
        if len(li) == 0:
            return empty, empty
        a = lines[li, 0, :]
        unit = (lines[li, 1, :] - a) / length[li, None]
        ends = self.coords[wi]
        rel_p, rel_q = ends[:, 0, :] - a, ends[:, 1, :] - a
        # Signed distance from the line (left positive) and distance along it, of each end.
        h_p = unit[:, 0] * rel_p[:, 1] - unit[:, 1] * rel_p[:, 0]
        h_q = unit[:, 0] * rel_q[:, 1] - unit[:, 1] * rel_q[:, 0]
        s_p = unit[:, 0] * rel_p[:, 0] + unit[:, 1] * rel_p[:, 1]
        s_q = unit[:, 0] * rel_q[:, 0] + unit[:, 1] * rel_q[:, 1]
        on_p, on_q = np.abs(h_p) <= END_SNAP, np.abs(h_q) <= END_SNAP
        lo, hi = END_TRIM, length[li] - END_TRIM
        # Proper crossings: both ends off the line, on opposite sides.
        crossing = ~on_p & ~on_q & ((h_p > 0) != (h_q > 0))
        with np.errstate(divide="ignore", invalid="ignore"):
            s_x = s_p + (s_q - s_p) * (h_p / (h_p - h_q))
        crossing &= (s_x > lo) & (s_x < hi)
        # Ends on the line: the wall leaves to the side of its other end (0: along the line).
        meet_p = on_p & (s_p > lo) & (s_p < hi)
        meet_q = on_q & (s_q > lo) & (s_q < hi)
        side_p = np.where(on_q, 0, np.sign(h_q))
        side_q = np.where(on_p, 0, np.sign(h_p))
        m_line = np.concatenate([li[meet_p], li[meet_q]])
        m_along = np.concatenate([s_p[meet_p], s_q[meet_q]])
        m_side = np.concatenate([side_p[meet_p], side_q[meet_q]]).astype(np.int8)
        m_wall = np.concatenate([wi[meet_p], wi[meet_q]])
        joints = _two_sided_points(m_line, m_along, m_side, m_wall, rank)
        return (li[crossing], s_x[crossing], wi[crossing]), joints

    def _surely_blocked(self, lines: Lines, length: NDArray[np.float64]) -> NDArray[np.bool_]:
        """Which lines are certainly blocked by walls along grid lines: somewhere they cross an
        integer grid line inside a stretch of whole units ``[j, j + 1]`` that walls cover, with
        the stretch's ends farther than ``END_SNAP`` from the line (see ``_GridUnits.crossed``)
        and more than ``2 * END_TRIM`` from the line's own ends. The rule of the module then
        blocks the line wherever along it that crossing lies. A False only means "not sure".

        The first ``_SURE_FIRST`` grid lines from each line's start are tried first (a line
        usually leaves its room through a wall), then all of them for the lines left, in
        batches of at most ``_SURE_CHUNK`` crossings.
        """
        sure = np.zeros(len(lines), dtype=bool)
        if len(lines) == 0 or not any(units is not None for units in self._grid_units):
            return sure
        scale = max(1.0, float(np.abs(lines).max()))
        trim = 2 * END_TRIM / length
        spans = []
        for axis, units in enumerate(self._grid_units):
            if units is None:
                continue
            a, b = lines[:, 0, axis], lines[:, 1, axis]
            first = np.searchsorted(units.lines_at, np.minimum(a, b), side="right")
            last = np.searchsorted(units.lines_at, np.maximum(a, b), side="left")
            spans.append((axis, units, first, np.maximum(last - first, 0), a > b))
        for limit in (_SURE_FIRST, None):
            for axis, units, first, count_all, backwards in spans:
                todo = np.flatnonzero(~sure & (count_all > 0))
                count_todo = count_all[todo]
                skip = np.zeros(len(todo), dtype=np.intp)
                if limit is not None:
                    count_todo = np.minimum(count_todo, limit)
                else:
                    # The first ones were tried already.
                    skip = np.minimum(count_all[todo], _SURE_FIRST)
                    count_todo = count_all[todo] - skip
                    keep = count_todo > 0
                    todo, count_todo, skip = todo[keep], count_todo[keep], skip[keep]
                if len(todo) == 0:
                    continue
                ends = np.cumsum(count_todo)
                bounds = np.searchsorted(ends, np.arange(0, int(ends[-1]), _SURE_CHUNK))
                for lo, hi in itertools.pairwise([*bounds.tolist(), len(todo)]):
                    rows = todo[lo:hi]
                    count = count_todo[lo:hi]
                    total = int(count.sum())
                    local = np.repeat(np.arange(len(rows)), count)
                    step = np.arange(total) - np.repeat(np.cumsum(count) - count, count)
                    step += skip[lo:hi][local]
                    # From the line's start: upwards, or downwards when it runs backwards.
                    n_lines = count_all[rows][local]
                    step = np.where(backwards[rows][local], n_lines - 1 - step, step)
                    which = rows[local]
                    found = units.crossed(
                        lines[which], units.lines_at[first[which] + step], axis, scale, trim[which]
                    )
                    sure[which[found]] = True
        return sure


@dataclass(frozen=True, slots=True)
class _LatticeTable:
    """A set of lattice points (in lattice steps) as a dense table over their bounding box."""

    x0: int
    y0: int
    marked: NDArray[np.bool_]

    @classmethod
    def of(cls, points: NDArray[np.int64]) -> _LatticeTable | None:
        """The table of ``points`` (None when it would exceed ``_GRID_TABLE_CELLS``)."""
        if len(points) == 0:
            return cls(0, 0, np.zeros((0, 0), dtype=bool))
        x0, y0 = int(points[:, 0].min()), int(points[:, 1].min())
        width = int(points[:, 0].max()) - x0 + 1
        height = int(points[:, 1].max()) - y0 + 1
        if width * height > _GRID_TABLE_CELLS:
            return None
        marked = np.zeros((height, width), dtype=bool)
        marked[points[:, 1] - y0, points[:, 0] - x0] = True
        return cls(x0, y0, marked)

    def lookup(self, points: NDArray[np.float64]) -> NDArray[np.bool_]:
        """Whether each point (whole lattice steps, as floats) is in the set."""
        height, width = self.marked.shape
        x = points[:, 0] - self.x0
        y = points[:, 1] - self.y0
        inside = (x >= 0) & (x < width) & (y >= 0) & (y < height)
        found = np.zeros(len(points), dtype=bool)
        found[inside] = self.marked[y[inside].astype(np.intp), x[inside].astype(np.intp)]
        return found


@dataclass(frozen=True, slots=True)
class _GridUnits:
    """Which unit stretches ``[j, j + 1]`` of the integer grid lines ``coord[axis] = X`` one
    wall segment along that line covers whole: ``covered[(X - at0) * n_unit + j - unit0]``."""

    at0: int
    n_at: int
    unit0: int
    n_unit: int
    covered: NDArray[np.bool_]
    lines_at: NDArray[np.float64]
    """The distinct ``X`` with a covered unit, sorted."""
    covered_before: NDArray[np.int32] = dataclasses.field(init=False, repr=False)
    """``covered_before[i, j]``: how many of the units ``unit0 .. unit0 + j - 1`` walls cover
    on the grid line ``lines_at[i]`` (so a stretch of units is covered whole in O(1))."""

    def __post_init__(self) -> None:
        rows = self.covered.reshape(self.n_at, self.n_unit)[
            (self.lines_at - self.at0).astype(np.intp)
        ]
        before = np.zeros((len(rows), self.n_unit + 1), dtype=np.int32)
        np.cumsum(rows, axis=1, out=before[:, 1:])
        object.__setattr__(self, "covered_before", before)

    def crossed(
        self,
        lines: Lines,
        at: NDArray[np.float64],
        axis: int,
        scale: float,
        end_trim: NDArray[np.float64],
    ) -> NDArray[np.bool_]:
        """Whether each line certainly crosses walls covering its grid line ``coord[axis] = at``
        from one side to the other, by the rule of the module.

        The line must cross the grid line strictly between its ends and more than
        ``end_trim`` (a fraction of the line) from them, inside a covered unit, with every
        uncovered point of the grid line more than ``END_SNAP`` from the line (perpendicular
        distance): then either it crosses a wall's middle with both wall ends farther than
        ``END_SNAP`` from it, or it passes within ``END_SNAP`` of the joint between two
        covered units, whose arms leave to both sides. A crossing within that distance of a
        unit's end therefore also needs the next unit covered. The margin adds a bound on the
        rounding of the computed crossing (about 4.4e-16 x ``scale`` x (1 + |slope|) cells,
        ``scale`` the largest coordinate; the margin is 2,000 times that); a unit end ``d``
        cells along the grid line lies ``d * sin(angle) >= d / (1 + slope)`` from the line.
        Lines too nearly along the grid line (margin of a quarter cell or more) are not sure.
        """
        a, b = lines[:, 0, axis], lines[:, 1, axis]
        inside = (np.minimum(a, b) < at) & (at < np.maximum(a, b))
        p, q = lines[:, 0, 1 - axis], lines[:, 1, 1 - axis]
        with np.errstate(divide="ignore", invalid="ignore"):
            t = (at - a) / (b - a)
            slope = np.abs(q - p) / np.abs(b - a)
        inside &= (t > end_trim) & (t < 1.0 - end_trim)
        other = p + t * (q - p)
        margin = (END_SNAP + _CROSSING_MARGIN * scale) * (1.0 + slope)
        unit = np.floor(other)
        frac = other - unit
        clear = inside & (margin < 0.25) & (unit >= self.unit0) & (unit < self.unit0 + self.n_unit)
        rel = np.where(clear, unit - self.unit0, 0).astype(np.intp)
        slot = np.where(clear, (at - self.at0) * self.n_unit, 0).astype(np.intp) + rel
        sure: NDArray[np.bool_] = clear & self.covered[slot]
        # Near a unit's end: the neighbouring unit must be covered too (a joint).
        low = np.flatnonzero(sure & (frac <= margin))
        high = np.flatnonzero(sure & (1.0 - frac <= margin))
        sure[low] = (rel[low] > 0) & self.covered[np.maximum(slot[low] - 1, 0)]
        last = len(self.covered) - 1
        sure[high] = (rel[high] < self.n_unit - 1) & self.covered[np.minimum(slot[high] + 1, last)]
        return sure


def _grid_units(coords: NDArray[np.float64], axis: int) -> _GridUnits | None:
    """The grid-line units walls cover along ``axis`` (None: none, or too wide a map)."""
    if len(coords) == 0:
        return None
    at = coords[:, 0, axis]
    along = coords[:, :, 1 - axis]
    lo = np.ceil(along.min(axis=1))
    hi = np.floor(along.max(axis=1))
    on_grid = (
        (coords[:, 1, axis] == at)
        & (at == np.round(at))
        & (np.abs(at) < _GRID_LIMIT)
        & (np.abs(lo) < _GRID_LIMIT)
        & (np.abs(hi) < _GRID_LIMIT)
        & (hi - lo >= 1)
    )
    if not on_grid.any():
        return None
    at, lo, hi = at[on_grid], lo[on_grid], hi[on_grid]
    at0, unit0 = int(at.min()), int(lo.min())
    n_at, n_unit = int(at.max()) - at0 + 1, int(hi.max()) - unit0
    if n_at * n_unit > _GRID_TABLE_CELLS:
        return None
    count = (hi - lo).astype(np.intp)
    which = np.repeat(np.arange(len(at)), count)
    k = np.arange(int(count.sum())) - np.repeat(np.cumsum(count) - count, count)
    covered = np.zeros(n_at * n_unit, dtype=bool)
    covered[
        (at[which] - at0).astype(np.intp) * n_unit + (lo[which] + k - unit0).astype(np.intp)
    ] = True
    return _GridUnits(at0, n_at, unit0, n_unit, covered, np.unique(at))


def grid_units_without(
    units: _GridUnits | None, segments: NDArray[np.float64], axis: int
) -> _GridUnits | None:
    """``units`` with the units ``segments`` cover unmarked, though another wall may cover
    them too (sound: a unit not tabled only leaves its lines to the exact test)."""
    gone = _grid_units(segments, axis) if units is not None and len(segments) else None
    if units is None or gone is None:
        return units
    at, unit = np.divmod(np.flatnonzero(gone.covered), gone.n_unit)
    at, unit = at + gone.at0 - units.at0, unit + gone.unit0 - units.unit0
    inside = (at >= 0) & (at < units.n_at) & (unit >= 0) & (unit < units.n_unit)
    covered = units.covered.copy()
    covered[at[inside] * units.n_unit + unit[inside]] = False
    return dataclasses.replace(units, covered=covered)


def _two_sided_points(
    line: NDArray[np.intp],
    along: NDArray[np.float64],
    side: NDArray[np.int8],
    wall: NDArray[np.intp],
    rank: NDArray[np.intp] | None = None,
) -> _Events:
    """Points where wall ends on a line leave to both sides of it: ends whose feet lie within
    ``END_SNAP`` of the next one along the same line are one point. Returns (line, distance
    along it of the point's first end, the first wall of the point leaving to a side, first
    by ``rank`` among ends at one distance; by index when None)."""
    if len(line) == 0:
        return np.empty(0, dtype=np.intp), np.empty(0), np.empty(0, dtype=np.intp)
    order = np.lexsort((wall if rank is None else rank[wall], along, line))
    line, along, side, wall = line[order], along[order], side[order], wall[order]
    new = np.r_[True, (line[1:] != line[:-1]) | (along[1:] - along[:-1] > END_SNAP)]
    group = np.cumsum(new) - 1
    n_groups = int(group[-1]) + 1
    left = np.bincount(group, weights=side > 0, minlength=n_groups) > 0
    right = np.bincount(group, weights=side < 0, minlength=n_groups) > 0
    both = np.flatnonzero(left & right)
    first = np.flatnonzero(new)
    # The first wall leaving to a side at each point (walls along the line have no side).
    sided = np.flatnonzero(side != 0)
    first_sided = np.full(n_groups, -1, dtype=np.intp)
    first_sided[group[sided[::-1]]] = sided[::-1]
    return line[first[both]], along[first[both]], wall[first_sided[both]]


def _within_snap(
    points: NDArray[np.float64], walls: NDArray[np.float64], geoms: NDArray[np.object_]
) -> NDArray[np.bool_]:
    """``shapely.dwithin(point, wall, END_SNAP)`` for each pair: in numpy, with shapely
    deciding the few whose distance is within rounding of ``END_SNAP``."""
    a = walls[:, 0]
    e = walls[:, 1] - a
    along = np.clip(((points - a) * e).sum(axis=1) / np.maximum((e * e).sum(axis=1), 1e-300), 0, 1)
    gap = points - (a + e * along[:, None])
    distance = np.hypot(gap[:, 0], gap[:, 1])
    within: NDArray[np.bool_] = distance <= END_SNAP
    unsure = np.flatnonzero(np.abs(distance - END_SNAP) <= 1e-12)
    if len(unsure):
        within[unsure] = shapely.dwithin(shapely.points(points[unsure]), geoms[unsure], END_SNAP)
    return within


def _at_an_end(points: NDArray[np.float64], walls: NDArray[np.float64]) -> NDArray[np.bool_]:
    """Whether each point lies within ``END_SNAP`` of an end of its wall (``walls[i]``)."""
    near_a = np.hypot(*(points - walls[:, 0]).T) <= END_SNAP
    return np.asarray(near_a | (np.hypot(*(points - walls[:, 1]).T) <= END_SNAP), dtype=bool)
