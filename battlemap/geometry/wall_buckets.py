"""A uniform grid of square buckets over a map's wall segments, for the wall test
(``barriers.BarrierSet``): the walls a line may touch are those filed in the buckets it
passes, found column by column of buckets without a sort."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar

import numpy as np
from numpy.typing import NDArray

Lines = NDArray[np.float64]
"""Array of shape (n, 2, 2): n lines, each (start, end), each (x, y) in cells."""
WALK_SLACK = 1e-9
"""Bucket units by which a line's height in a column of buckets is widened (rounding)."""
BUCKET_ENTRIES = 1 << 21
"""Most (bucket, wall) entries in a bucket grid; beyond, buckets grow, then the STR-tree."""
IntegerT = TypeVar("IntegerT", bound=np.integer)


def sorted_unique(values: NDArray[IntegerT]) -> NDArray[IntegerT]:
    """``np.unique`` by sorting (numpy's hashing path is several times slower here)."""
    ordered = np.sort(values)
    return ordered[np.r_[True, ordered[1:] != ordered[:-1]]] if len(ordered) else ordered


def cut_lines(
    lines: Lines, count: NDArray[np.intp]
) -> tuple[NDArray[np.intp], NDArray[np.float64], NDArray[np.float64]]:
    """Each line cut into ``count`` equal pieces: (line of each piece, piece starts, ends)."""
    owner = np.repeat(np.arange(len(lines)), count)
    k = np.arange(int(count.sum())) - np.repeat(np.cumsum(count) - count, count)
    start, delta = lines[owner, 0, :], lines[owner, 1, :] - lines[owner, 0, :]
    step = 1.0 / count[owner]
    a = start + delta * (k * step)[:, None]
    b = start + delta * np.minimum((k + 1) * step, 1.0)[:, None]
    return owner, a, b


@dataclass(frozen=True, slots=True)
class WallBuckets:
    """A uniform grid of square buckets of ``size`` cells from ``origin``; bucket
    ``by * nx + bx`` lists (``walls[starts[i]:starts[i + 1]]``) every wall whose bounding box,
    grown by ``pad`` (``of``), meets it. Built once per map."""

    origin: NDArray[np.float64]
    size: float
    nx: int
    ny: int
    starts: NDArray[np.intp]
    walls: NDArray[np.intp]

    @classmethod
    def of(cls, coords: NDArray[np.float64], pad: float) -> WallBuckets | None:
        """The grid for these segments, each box grown by ``pad`` (None when no grid of at
        most ``BUCKET_ENTRIES`` entries fits them, e.g. coordinates far apart or not
        finite)."""
        lo = coords.min(axis=1) - pad
        hi = coords.max(axis=1) + pad
        if not (np.all(np.isfinite(lo)) and np.all(np.isfinite(hi))):
            return None
        origin = np.floor(lo.min(axis=0))
        size = 2.0
        while size <= 1 << 16:
            first = np.floor((lo - origin) / size).astype(np.int64)
            last = np.floor((hi - origin) / size).astype(np.int64)
            nx, ny = (int(v) + 1 for v in last.max(axis=0))
            span = last - first + 1
            count = span[:, 0] * span[:, 1]
            if nx * ny <= BUCKET_ENTRIES and int(count.sum()) <= BUCKET_ENTRIES:
                break
            size *= 2
        else:
            return None
        wall = np.repeat(np.arange(len(coords)), count)
        k = np.arange(int(count.sum())) - np.repeat(np.cumsum(count) - count, count)
        bx = first[wall, 0] + k % span[wall, 0]
        by = first[wall, 1] + k // span[wall, 0]
        bucket = by * nx + bx
        order = np.argsort(bucket, kind="stable")
        starts = np.zeros(nx * ny + 1, dtype=np.intp)
        starts[1:] = np.cumsum(np.bincount(bucket, minlength=nx * ny))
        return cls(origin, size, nx, ny, starts, wall[order].astype(np.intp))

    def near(
        self, lines: Lines, length: NDArray[np.float64]
    ) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
        """(line, wall) pairs, possibly repeated, for every wall listed in a bucket a line
        passes (``_visits``), each bucket of a line once."""
        finite = np.all(np.isfinite(lines))
        line, bucket = self._visits(lines) if finite else self._visits_by_pieces(lines, length)
        lo, n = self.starts[bucket], self.starts[bucket + 1] - self.starts[bucket]
        total = int(n.sum())
        k = np.arange(total) - np.repeat(np.cumsum(n) - n, n)
        return np.repeat(line, n).astype(np.intp), self.walls[np.repeat(lo, n) + k]

    def _visits(self, lines: Lines) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
        """(line, bucket) pairs, each once, among them the bucket of every point of every
        line (as ``of`` files a wall: by the floor of its bucket coordinates). Column by
        column of buckets, the line's rows there, widened by ``WALK_SLACK`` against the
        rounding of the line's height at the column's sides."""
        ends = (lines - self.origin) / self.size  # bucket units, computed as ``of`` does
        swap = ends[:, 0, 0] > ends[:, 1, 0]
        ends = np.where(swap[:, None, None], ends[:, ::-1, :], ends)  # left end first
        (ax, ay), (bx, by) = ends[:, 0, :].T, ends[:, 1, :].T
        first_col = np.maximum(np.floor(ax), 0)  # only the grid's columns
        n_cols = np.maximum(np.minimum(np.floor(bx), self.nx - 1) - first_col + 1, 0)
        n_cols = n_cols.astype(np.intp)
        owner = np.repeat(np.arange(len(lines)), n_cols)
        col = first_col[owner] + (
            np.arange(int(n_cols.sum())) - np.repeat(np.cumsum(n_cols) - n_cols, n_cols)
        )
        x0, x1 = np.maximum(ax[owner], col), np.minimum(bx[owner], col + 1)
        dx, dy = (bx - ax)[owner], (by - ay)[owner]
        with np.errstate(divide="ignore", invalid="ignore"):
            slope = np.where(dx > 0, dy / dx, 0.0)
        y0 = ay[owner] + (x0 - ax[owner]) * slope
        y1 = ay[owner] + (x1 - ax[owner]) * slope
        y1 = np.where(dx > 0, y1, by[owner])  # a vertical line: all of it in its column
        # Never beyond the line's own rows (fmax/fmin: a slope that overflowed gives them all).
        low = np.fmax(np.minimum(y0, y1) - WALK_SLACK, np.minimum(ay, by)[owner])
        high = np.fmin(np.maximum(y0, y1) + WALK_SLACK, np.maximum(ay, by)[owner])
        row0 = np.maximum(np.floor(low), 0)
        row1 = np.minimum(np.floor(high), self.ny - 1)
        n_rows = np.maximum(row1 - row0 + 1, 0).astype(np.intp)
        at = np.repeat(np.arange(len(col)), n_rows)
        row = row0[at] + (
            np.arange(int(n_rows.sum())) - np.repeat(np.cumsum(n_rows) - n_rows, n_rows)
        )
        bucket = (row * self.nx + col[at]).astype(np.intp)
        return owner[at].astype(np.intp), bucket

    def _visits_by_pieces(
        self, lines: Lines, length: NDArray[np.float64]
    ) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
        """``_visits`` for any lines: each line is cut into pieces shorter than a bucket,
        whose bounding boxes meet at most 2 x 2 buckets."""
        count = np.maximum(1, np.ceil(length / (self.size * 0.99))).astype(np.intp)
        owner, a, b = cut_lines(lines, count)
        first = np.floor((np.minimum(a, b) - self.origin) / self.size)
        last = np.floor((np.maximum(a, b) - self.origin) / self.size)
        visits = []
        n_buckets = self.nx * self.ny
        for dx, dy in ((0, 0), (1, 0), (0, 1), (1, 1)):
            bx, by = first[:, 0] + dx, first[:, 1] + dy
            ok = (bx <= last[:, 0]) & (by <= last[:, 1])
            ok &= (bx >= 0) & (bx < self.nx) & (by >= 0) & (by < self.ny)
            bucket = (by[ok] * self.nx + bx[ok]).astype(np.int64)
            visits.append(owner[ok].astype(np.int64) * n_buckets + bucket)
        # Each (line, bucket) once: a line's consecutive pieces share buckets.
        visit = sorted_unique(np.concatenate(visits))
        return (visit // n_buckets).astype(np.intp), (visit % n_buckets).astype(np.intp)
