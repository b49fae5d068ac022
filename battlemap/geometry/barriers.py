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
when the line grazes wall ends from opposite sides; lines that pass exactly through a wall end
are therefore split at those ends and checked piece by piece, and at each end point on its own.
All bulk tests are prepared-geometry predicates evaluated by shapely on whole arrays of lines.

Finding the wall ends a line passes through is exact for the lattice of quarter cells (grid
corners, half cells, quarter cells), where map walls and creature corners lie: a line between
two lattice points meets lattice points only at multiples of ``1/gcd`` of its length, which are
looked up in a table of wall ends. A wall end off that lattice (an imported map's odd
coordinates) is taken not to lie exactly on a traced line: a line passing within
``SIDE_SHIFT`` of such an end is treated like one that misses it by more. A traced line off
the lattice (a corner nudged off a wall by ``cover``, an inset sight point) passes through a
lattice wall end when it comes within ``END_SNAP`` of it, if its ends lie within
``_NEAR_LATTICE`` of lattice points (sight's inset corners, 1e-3 cells in, do not).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely import STRtree
from shapely.geometry.base import BaseGeometry

from battlemap.model import EntityId

END_TRIM = 1e-6
"""Cells cut off each end of a traced line: touching a wall at an end never blocks."""
END_SNAP = 1e-6
"""Cells within which a line off the lattice is taken to pass through a lattice wall end."""
_NEAR_LATTICE = 5e-4
"""Lines whose ends are this close to lattice points (cells) are checked for ``END_SNAP``."""
SIDE_SHIFT = 1e-7
"""Cells a line is shifted sideways to see which side of it walls lie on."""
POINT_PROBE = 1e-5
"""Half-length, in cells, of the probe used at a wall end lying on a line."""
_PIECE_CELLS = 2.0
_CHUNK_CELLS = 12.0
"""Longest piece of a line traced in one test: short pieces make a hit near the start cheap."""
_LATTICE = 4
"""Wall ends on multiples of 1/_LATTICE cells are found exactly on traced lines."""
_KEY_SPAN = 1 << 20
_LAST_ROUND_PIECES = 1024
"""When this few pieces are left untraced, they are traced together in one last round."""
_SURE_BATCH = 256
"""Batches smaller than this go straight to shapely (numpy's per-call cost would dominate)."""
_CROSSING_MARGIN = 1e-12
"""Relative margin (times the coordinates' scale and 1 + slope) a grid-line crossing must
clear to be sure: about 2,000 times the rounding error of computing it."""
_GRID_LIMIT = 1 << 18
"""Grid lines and units beyond this many cells from the origin are left to shapely."""
_GRID_TABLE_CELLS = 1 << 24
"""Largest table of covered grid-line units (larger maps leave every line to shapely)."""


def _unique_points(points: NDArray[np.float64]) -> tuple[NDArray[np.float64], NDArray[np.intp]]:
    """The distinct points, and the index of each input among them."""
    order = np.lexsort((points[:, 1], points[:, 0]))
    ordered = points[order]
    new = np.r_[True, np.any(ordered[1:] != ordered[:-1], axis=1)]
    inverse = np.empty(len(points), dtype=np.intp)
    inverse[order] = np.cumsum(new) - 1
    return ordered[new], inverse


def _on_lattice(lines: Lines, resolution: int) -> NDArray[np.bool_]:
    """Both ends of each line lie on multiples of ``1/resolution`` cells."""
    scaled = lines * resolution
    return np.asarray(np.all(np.abs(scaled - np.rint(scaled)) < 1e-6, axis=(1, 2)), dtype=bool)


def _lattice_keys(points: NDArray[np.int64]) -> NDArray[np.int64]:
    """One integer per lattice point (coordinates within +-2**19 lattice steps)."""
    half = _KEY_SPAN // 2
    return (points[:, 0] + half) * _KEY_SPAN + (points[:, 1] + half)


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


def _without_duplicates(
    segments: Sequence[tuple[tuple[float, float], tuple[float, float]]], ids: Sequence[EntityId]
) -> tuple[list[tuple[tuple[float, float], tuple[float, float]]], list[EntityId]]:
    """The segments with exact repeats (either direction) dropped, keeping the first id.

    A wall drawn twice is one wall. Kept twice, its two copies would meet at their shared ends
    like the two arms of a joint, and a line through such an end would count as blocked.
    """
    seen: set[tuple[tuple[float, float], tuple[float, float]]] = set()
    kept: list[tuple[tuple[float, float], tuple[float, float]]] = []
    kept_ids: list[EntityId] = []
    for (a, b), wall_id in zip(segments, ids, strict=True):
        a, b = (float(a[0]), float(a[1])), (float(b[0]), float(b[1]))
        key = (a, b) if a <= b else (b, a)
        if key not in seen:
            seen.add(key)
            kept.append((a, b))
            kept_ids.append(wall_id)
    return kept, kept_ids


class BarrierSet:
    """A set of wall segments answering "is this line blocked?" for arrays of lines.

    Built once per map change. ``ids[i]`` names the feature segment ``i`` came from.
    """

    def __init__(
        self,
        segments: Sequence[tuple[tuple[float, float], tuple[float, float]]],
        ids: Sequence[EntityId],
    ) -> None:
        segments, ids = _without_duplicates(segments, ids)
        self.ids: list[EntityId] = list(ids)
        coords = np.asarray(segments, dtype=np.float64).reshape(-1, 2, 2)
        self.coords = coords
        self.geoms = line_array(coords) if len(coords) else np.empty(0, dtype=object)
        self.tree = STRtree(self.geoms)
        self._union: BaseGeometry | None = None
        self._end_keys: NDArray[np.int64] = np.empty(0, dtype=np.int64)
        self._coarse = _LATTICE
        self._coarse_keys: NDArray[np.int64] = self._end_keys
        self._sided_keys: NDArray[np.int64] = np.empty(0, dtype=np.int64)
        self._odd: NDArray[np.intp] = np.empty(0, dtype=np.intp)
        self._odd_tree: STRtree | None = None
        self._grid_units: tuple[_GridUnits | None, _GridUnits | None] = (None, None)
        self._odd_cells: tuple[int, int, NDArray[np.bool_]] | None = None
        self._sided_table: _LatticeTable | None = None
        if len(coords):
            self._union = shapely.MultiLineString(list(self.geoms))
            shapely.prepare(self._union)
            ends = coords.reshape(-1, 2) * _LATTICE
            lattice = np.all(np.abs(ends - np.rint(ends)) < 1e-6, axis=1)
            fine = np.rint(ends[lattice]).astype(np.int64)
            self._end_keys = np.unique(_lattice_keys(fine))
            # The coarsest lattice holding every end: lines on it need 4x fewer steps.
            self._coarse = next(q for q in (1, 2, 4) if not np.any(fine % (_LATTICE // q)))
            self._coarse_keys = np.unique(_lattice_keys(fine // (_LATTICE // self._coarse)))
            self._sided_keys = self._lattice_sided_keys(coords)
            self._sided_table = self._build_sided_table()
        self._grid_units = (_grid_units(coords, axis=0), _grid_units(coords, axis=1))

    def __len__(self) -> int:
        return len(self.ids)

    @property
    def union(self) -> BaseGeometry | None:
        """All segments as one prepared MultiLineString (None when empty)."""
        return self._union

    def _lattice_sided_keys(self, coords: NDArray[np.float64]) -> NDArray[np.int64]:
        """Keys of the lattice points that have a side (see ``inside_walls``) as far as the
        segments on the lattice tell: their inner lattice points, and the lattice ends shared
        by two or more segments of any kind. Segments off the lattice are kept in
        ``self._odd_tree`` for the points on their middles."""
        scaled = coords * _LATTICE
        on = np.all(np.abs(scaled - np.rint(scaled)) < 1e-6, axis=(1, 2))
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
        lattice_ends = np.all(np.abs(all_ends - np.rint(all_ends)) < 1e-6, axis=1)
        end_keys = np.sort(_lattice_keys(np.rint(all_ends[lattice_ends]).astype(np.int64)))
        shared = end_keys[1:][end_keys[1:] == end_keys[:-1]]
        return np.unique(np.concatenate([_lattice_keys(inner), shared]))

    def inside_walls(self, points: NDArray[np.float64]) -> NDArray[np.bool_]:
        """For each point, whether it lies on a wall other than at a wall's free end.

        Such a point (on a wall's middle, at a joint, or where a wall ends on another) has a
        side: a line from it is traced from a point nudged into the creature's own space
        (see ``cover``). A free end is the end of exactly one segment touching no other.
        Lattice points are looked up in a table (plus the middles of any off-lattice walls);
        other points go through the spatial index.
        """
        if self._union is None or len(points) == 0:
            return np.zeros(len(points), dtype=bool)
        unique, inverse = _unique_points(points)
        on_unique = self._sided(unique)
        return np.asarray(on_unique[inverse], dtype=bool)

    def _sided(self, points: NDArray[np.float64]) -> NDArray[np.bool_]:
        result = np.zeros(len(points), dtype=bool)
        scaled = points * _LATTICE
        rounded = np.rint(scaled)
        near_lattice = np.all(np.abs(scaled - rounded) < 1e-6, axis=1)
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
                shapely.points(points[near]), predicate="intersects"
            )
            ends = self.coords[self._odd[wall_idx]]
            at = points[near][point_idx]
            middle = ~(np.all(ends[:, 0] == at, axis=1) | np.all(ends[:, 1] == at, axis=1))
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
            lo = np.ceil(odd.min(axis=1))
            hi = np.floor(odd.max(axis=1))
            span = np.maximum(hi - lo + 1, 0)
            if not np.all(np.isfinite(span)) or float(np.prod(span, axis=1).sum()) > 1 << 20:
                return None
            width = span[:, 0].astype(np.intp)
            count = width * span[:, 1].astype(np.intp)
            which = np.repeat(np.arange(len(odd)), count)
            k = np.arange(int(count.sum())) - np.repeat(np.cumsum(count) - count, count)
            grid = lo[which] + np.stack([k % width[which], k // width[which]], axis=1)
            at = grid / _LATTICE
            on = shapely.intersects(shapely.points(at), self.geoms[self._odd[which]])
            ends = self.coords[self._odd[which]]
            on &= ~(np.all(at == ends[:, 0], axis=1) | np.all(at == ends[:, 1], axis=1))
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
        lo = np.floor(odd.min(axis=1))
        hi = np.floor(odd.max(axis=1))
        if not (np.all(np.isfinite(lo)) and np.all(np.isfinite(hi))):
            return None
        x0, y0 = int(lo[:, 0].min()), int(lo[:, 1].min())
        width, height = int(hi[:, 0].max()) - x0 + 1, int(hi[:, 1].max()) - y0 + 1
        if width * height > _GRID_TABLE_CELLS:
            return None
        cells = np.zeros((height, width), dtype=bool)
        for (ax, ay), (bx, by) in zip(
            (lo - (x0, y0)).astype(np.intp).tolist(),
            (hi - (x0, y0)).astype(np.intp).tolist(),
            strict=True,
        ):
            cells[ay : by + 1, ax : bx + 1] = True
        return x0, y0, cells

    def _inside_walls_by_index(self, points: NDArray[np.float64]) -> NDArray[np.bool_]:
        """``inside_walls`` for any points, through the spatial index."""
        result = np.zeros(len(points), dtype=bool)
        unique, inverse = _unique_points(points)
        point_idx, wall_idx = self.tree.query(shapely.points(unique), predicate="intersects")
        if len(point_idx) == 0:
            return result
        ends = self.coords[wall_idx]
        at = unique[point_idx]
        is_end = np.all(ends[:, 0] == at, axis=1) | np.all(ends[:, 1] == at, axis=1)
        touching = np.bincount(point_idx, minlength=len(unique))
        middle = np.bincount(point_idx, weights=~is_end, minlength=len(unique)) > 0
        on_unique = (touching >= 2) | middle
        return np.asarray(on_unique[inverse.ravel()], dtype=bool)

    def blocks(self, lines: Lines) -> NDArray[np.bool_]:
        """For each line, whether walls lie strictly on both sides of it somewhere (see module).

        Zero-length lines (a corner on a corner) are never blocked.

        Each line is cut at the wall ends it passes (each end gets a short probe of its own)
        and into pieces of at most ``_CHUNK_CELLS``; pieces are traced from the line's start
        in rounds, and a line is settled by the first piece with walls on both sides, so a
        far line that meets a wall early costs one short test.
        """
        n = len(lines)
        result = np.zeros(n, dtype=bool)
        if self._union is None or n == 0:
            return result
        delta = lines[:, 1, :] - lines[:, 0, :]
        length = np.hypot(delta[:, 0], delta[:, 1])
        todo = np.flatnonzero(length > 2 * END_TRIM)
        if len(todo) == 0:
            return result
        pieces = self._pieces(lines[todo], length[todo])
        owner = pieces[:, 0].astype(np.intp)
        rank = pieces[:, 3].astype(np.intp)
        blocked = np.zeros(len(todo), dtype=bool)
        start = lines[todo][owner, 0, :]
        step = delta[todo][owner]
        spans = np.stack([start + step * pieces[:, 1:2], start + step * pieces[:, 2:3]], axis=1)
        by_rank = np.argsort(rank.astype(np.int16), kind="stable")
        bounds = np.searchsorted(rank[by_rank], np.arange(int(rank.max()) + 2))
        for lo in bounds[:-1].tolist():
            rest = by_rank[lo:]
            rest = rest[~blocked[owner[rest]]]
            # Few pieces left: trace them all in one round (a round costs more than a piece).
            last_round = len(rest) <= _LAST_ROUND_PIECES
            chosen = rest if last_round else rest[rank[rest] == rank[by_rank[lo]]]
            if len(chosen):
                blocked[owner[chosen[self._two_sided(spans[chosen])]]] = True
            if last_round:
                break
        result[todo] = blocked
        return result

    def _pieces(self, lines: Lines, length: NDArray[np.float64]) -> NDArray[np.float64]:
        """Rows (line, t0, t1, rank): probes across the wall ends each line passes and the
        stretches between them cut to at most ``_CHUNK_CELLS``, ranked from the start."""
        owner, ts = self._ends_on(lines)
        order = np.lexsort((ts, owner))
        line, t = owner[order], ts[order]
        probe = POINT_PROBE / length[line]
        trim = END_TRIM / length
        first = np.r_[True, line[1:] != line[:-1]] if len(line) else np.empty(0, dtype=bool)
        last = np.r_[line[1:] != line[:-1], True] if len(line) else np.empty(0, dtype=bool)
        previous = np.where(first, trim[line], np.r_[0.0, t[:-1]] + probe)
        # Position of each end among its line's ends (0, 1, ...), for the tracing order.
        index_in_line = np.arange(len(line)) - np.maximum.accumulate(
            np.where(first, np.arange(len(line)), 0)
        )
        # Stretch ends: before each end point, and from the last one (or the start) to the end.
        passed = np.ones(len(lines), dtype=bool)
        passed[line] = False
        plain = np.flatnonzero(passed)
        tail_from = np.concatenate([t[last] + 2 * POINT_PROBE / length[line[last]], trim[plain]])
        tail_line = np.concatenate([line[last], plain])
        tail_rank = np.concatenate([index_in_line[last] + 1, np.zeros(len(plain), dtype=np.intp)])
        stretch_rank = np.concatenate([index_in_line, tail_rank])
        stretch_line = np.concatenate([line, tail_line])
        stretch_t0 = np.concatenate([previous + probe, tail_from])
        stretch_t1 = np.concatenate([t - 2 * probe, 1.0 - trim[tail_line]])
        keep = stretch_t1 > stretch_t0
        stretch_line, stretch_t0, stretch_t1, stretch_rank = (
            stretch_line[keep],
            stretch_t0[keep],
            stretch_t1[keep],
            stretch_rank[keep],
        )
        # Cut stretches into chunks of at most _CHUNK_CELLS.
        cells = (stretch_t1 - stretch_t0) * length[stretch_line]
        count = np.maximum(1, np.ceil(cells / _CHUNK_CELLS)).astype(np.intp)
        which = np.repeat(np.arange(len(count)), count)
        part = np.arange(int(count.sum())) - np.repeat(np.cumsum(count) - count, count)
        size = (stretch_t1 - stretch_t0) / count
        chunk_t0 = stretch_t0[which] + size[which] * part
        rows_line = np.concatenate([stretch_line[which], line])
        rows_t0 = np.concatenate([chunk_t0, t - probe])
        rows_t1 = np.concatenate([chunk_t0 + size[which], t + probe])
        # Tracing round: roughly the piece's place along its line, a few pieces per round.
        rank = np.concatenate([stretch_rank[which] + part, index_in_line + 1])
        return np.stack([rows_line, rows_t0, rows_t1, rank], axis=1).astype(np.float64)

    def _two_sided(self, lines: Lines) -> NDArray[np.bool_]:
        """Both copies of each line, shifted ``SIDE_SHIFT`` to the left and right, meet a wall."""
        assert self._union is not None
        both = np.zeros(len(lines), dtype=bool)
        if len(lines) == 0:
            return both
        left, right, _ = _shift_and_trim(lines, 0.0, SIDE_SHIFT)
        n = len(lines)
        if n >= _SURE_BATCH:
            # Settle the plain crossings of grid-line walls in numpy; shapely gets the rest.
            sure_left, sure_right = self._surely_crosses_grid(left, right)
        else:
            sure_left = sure_right = np.zeros(n, dtype=bool)
        hits_left = sure_left.copy()
        ask = np.flatnonzero(~sure_left)
        hits_left[ask] = shapely.intersects(self._union, line_array(left[ask]))
        todo = np.flatnonzero(hits_left)
        ask = todo[~sure_right[todo]]
        hits_right = sure_right.copy()
        hits_right[ask] = shapely.intersects(self._union, line_array(right[ask]))
        both[todo[hits_right[todo]]] = True
        return both

    def _surely_crosses_grid(
        self, left: Lines, right: Lines
    ) -> tuple[NDArray[np.bool_], NDArray[np.bool_]]:
        """Which of the ``left`` lines, and of their twins in ``right``, certainly meet a wall:
        they cross an integer grid line ``x = X`` (or ``y = Y``) strictly inside a unit
        ``[j, j + 1]`` of it that one wall covers whole. A twin is only tried on the grid
        lines where its ``left`` line was found to cross.

        Conservative: the crossing must lie strictly between the line's ends (exact
        comparisons) and clear the unit's ends by a margin far above the rounding error of
        computing it (``_GridUnits.crossed``), so shapely's exact answer is then True too; a
        False here only means "ask shapely".
        """
        sure_left = np.zeros(len(left), dtype=bool)
        sure_right = np.zeros(len(left), dtype=bool)
        if len(left) == 0:
            return sure_left, sure_right
        scale = max(1.0, float(np.abs(left).max()), float(np.abs(right).max()))
        for axis, units in enumerate(self._grid_units):
            if units is None:
                continue
            a, b = left[:, 0, axis], left[:, 1, axis]
            # Candidates: the grid lines with walls strictly between the line's ends.
            first = np.searchsorted(units.lines_at, np.minimum(a, b), side="right")
            last = np.searchsorted(units.lines_at, np.maximum(a, b), side="left")
            count = np.maximum(last - first, 0)
            total = int(count.sum())
            if total == 0:
                continue
            which = np.repeat(np.arange(len(left)), count)
            k = np.arange(total) - np.repeat(np.cumsum(count) - count - first, count)
            at = units.lines_at[k]
            found = units.crossed(left[which], at, axis, scale)
            which, at = which[found], at[found]
            sure_left[which] = True
            sure_right[which[units.crossed(right[which], at, axis, scale)]] = True
        return sure_left, sure_right

    def _ends_on(self, lines: Lines) -> tuple[NDArray[np.intp], NDArray[np.float64]]:
        """(line index, parameter t in (0, 1)) for every lattice wall end strictly inside a
        lattice line, found by stepping the line in ``1/gcd`` steps (see module)."""
        empty = (np.empty(0, dtype=np.intp), np.empty(0, dtype=np.float64))
        if len(self._end_keys) == 0 or len(lines) == 0:
            return empty
        coarse = _on_lattice(lines, self._coarse)
        on_fine = _on_lattice(lines, _LATTICE)
        fine = on_fine & ~coarse
        found = [
            self._ends_on_lattice(lines, np.flatnonzero(coarse), self._coarse, self._coarse_keys),
            self._ends_on_lattice(lines, np.flatnonzero(fine), _LATTICE, self._end_keys),
            self._lattice_ends_near(lines, np.flatnonzero(~on_fine)),
        ]
        return (
            np.concatenate([f[0] for f in found]),
            np.concatenate([f[1] for f in found]),
        )

    def _lattice_ends_near(
        self, lines: Lines, idx: NDArray[np.intp]
    ) -> tuple[NDArray[np.intp], NDArray[np.float64]]:
        """(line index, t) for lattice wall ends within ``END_SNAP`` cells of the middle of a
        line whose ends lie within ``_NEAR_LATTICE`` of lattice points (a corner nudged off a
        wall by ``cover`` passes an end by ~1e-8 cells): the line is taken to pass through
        them, as lattice lines do. Found on the line snapped to the lattice."""
        empty = (np.empty(0, dtype=np.intp), np.empty(0, dtype=np.float64))
        if len(idx) == 0:
            return empty
        scaled = lines[idx] * _LATTICE
        rounded = np.rint(scaled)
        near = np.all(np.abs(scaled - rounded) < _NEAR_LATTICE * _LATTICE, axis=(1, 2))
        idx = idx[near]
        snapped = rounded[near] / _LATTICE
        local, t_snapped = self._ends_on_lattice(
            snapped, np.arange(len(idx)), _LATTICE, self._end_keys
        )
        if len(local) == 0:
            return empty
        ends = (
            snapped[local, 0, :]
            + (snapped[local, 1, :] - snapped[local, 0, :]) * t_snapped[:, None]
        )
        start = lines[idx[local], 0, :]
        delta = lines[idx[local], 1, :] - start
        length_sq = np.einsum("ij,ij->i", delta, delta)
        t = np.einsum("ij,ij->i", ends - start, delta) / length_sq
        off = ends - (start + delta * t[:, None])
        trim = END_TRIM / np.sqrt(length_sq)
        keep = (np.hypot(off[:, 0], off[:, 1]) <= END_SNAP) & (t > trim) & (t < 1 - trim)
        return idx[local[keep]], t[keep].astype(np.float64)

    @staticmethod
    def _ends_on_lattice(
        lines: Lines, idx: NDArray[np.intp], resolution: int, end_keys: NDArray[np.int64]
    ) -> tuple[NDArray[np.intp], NDArray[np.float64]]:
        empty = (np.empty(0, dtype=np.intp), np.empty(0, dtype=np.float64))
        if len(idx) == 0:
            return empty
        rounded = np.rint(lines[idx] * resolution).astype(np.int64)
        a = rounded[:, 0, :]
        d = rounded[:, 1, :] - a
        g = np.gcd(np.abs(d[:, 0]), np.abs(d[:, 1]))
        counts = np.maximum(g - 1, 0)
        total = int(counts.sum())
        if total == 0:
            return empty
        line_of = np.repeat(np.arange(len(idx)), counts)
        k = np.arange(total) - np.repeat(np.cumsum(counts) - counts, counts) + 1
        step = d[line_of] // g[line_of, None]
        points = a[line_of] + step * k[:, None]
        keys = _lattice_keys(points)
        slot = np.minimum(np.searchsorted(end_keys, keys), len(end_keys) - 1)
        hit = end_keys[slot] == keys
        return idx[line_of[hit]], (k[hit] / g[line_of[hit]]).astype(np.float64)

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

    def crossed(
        self, lines: Lines, at: NDArray[np.float64], axis: int, scale: float
    ) -> NDArray[np.bool_]:
        """Whether each line crosses its grid line ``coord[axis] = at`` strictly between its
        ends and strictly inside a covered unit, beyond the rounding error of the computed
        crossing (a bound of about 4.4e-16 x ``scale`` x (1 + |slope|) cells, with ``scale``
        the largest coordinate; the margin is 2,000 times that, so it also holds for lines
        nearly along the grid line)."""
        a, b = lines[:, 0, axis], lines[:, 1, axis]
        inside = (np.minimum(a, b) < at) & (at < np.maximum(a, b))
        p, q = lines[:, 0, 1 - axis], lines[:, 1, 1 - axis]
        with np.errstate(divide="ignore", invalid="ignore"):
            t = (at - a) / (b - a)
            slope = np.abs(q - p) / np.abs(b - a)
        other = p + t * (q - p)
        margin = _CROSSING_MARGIN * scale * (1.0 + slope)
        unit = np.floor(other)
        clear = (
            inside
            & (other - unit > margin)
            & (unit + 1 - other > margin)
            & (unit >= self.unit0)
            & (unit < self.unit0 + self.n_unit)
        )
        slot = np.where(clear, (at - self.at0) * self.n_unit + (unit - self.unit0), 0)
        return clear & self.covered[slot.astype(np.intp)]


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


def _trimmed(lines: Lines, trim: float) -> Lines:
    start, end = lines[:, 0, :], lines[:, 1, :]
    delta = end - start
    length = np.hypot(delta[:, 0], delta[:, 1])
    safe = np.where(length == 0, 1.0, length)
    unit = delta / safe[:, None]
    return np.stack([start + unit * trim, end - unit * trim], axis=1)
