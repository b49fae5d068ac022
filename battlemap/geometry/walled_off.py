"""Proof that walls block every line between two boxes: cover's shortcut to total cover.

On a walled map most pairs of creatures stand in total cover of each other, and proving it
line by line (17 lines a pair of Medium creatures) is most of the work of all-pairs cover. One
wall along a grid line between two creatures often settles all their lines at once: every
segment from a point of one box to a point of the other crosses the grid line somewhere in an
interval computed from the boxes' corners, and where walls on the grid line cover that whole
interval (with margins) each of those segments is blocked by the rule of ``barriers``.

It is ``_GridUnits.crossed``'s test made for a bundle of lines instead of one: the crossing
must lie strictly between the lines' ends, far enough from them, in a stretch of units that
walls cover whole, more than the crossing margin (``END_SNAP`` plus rounding, times
``1 + slope``) from any uncovered point of the grid line; near a joint between two covered
units the wall ends there leave to both sides. The margin here is doubled (the interval is
itself computed in floats) and the slope is bounded over the whole bundle. A False only means
"not proven": the caller checks those lines one by one.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from battlemap.geometry.barriers import _CROSSING_MARGIN, END_SNAP, END_TRIM, BarrierSet, _GridUnits

_PAIRS_AT_ONCE = 1 << 14
"""Pairs of boxes checked together (their grid lines' arrays stay at a few MB)."""

_FIRST_LINES_FIRST = 1024
"""From this many pairs on, the grid lines next to the boxes are tried before the rest (for
fewer pairs one pass costs less than two)."""

Boxes = NDArray[np.float64]
"""Array of shape (n, 2, 2): n closed boxes, each (low corner, high corner), in cells."""


def boxes_walled_off(walls: BarrierSet, a: Boxes, b: Boxes) -> NDArray[np.bool_]:
    """For each pair of boxes ``a[i]``, ``b[i]``, whether walls surely block every segment from
    a point of one to a point of the other (``walls.blocks`` would say True for each).

    Proven through a single integer grid line lying strictly between the boxes (farther than
    ``4 * END_TRIM`` plus twice the margin from both), along which the walls that always count
    cover whole every unit the segments can cross. Boxes that touch or overlap, or lie in
    one band of the grid, are never proven.
    """
    proven = np.zeros(len(a), dtype=bool)
    if len(a) == 0:
        return proven
    scale = max(1.0, float(np.abs(a).max()), float(np.abs(b).max()))
    for start in range(0, len(a), _PAIRS_AT_ONCE):
        chunk = slice(start, start + _PAIRS_AT_ONCE)
        part = proven[chunk]  # a view: written through
        for axis, units in enumerate(walls.grid_units):
            if units is not None:
                todo = np.flatnonzero(~part)
                found = _walled_off_across(units, a[chunk][todo], b[chunk][todo], axis, scale)
                part[todo[found]] = True
    return proven


def _walled_off_across(
    units: _GridUnits, a: Boxes, b: Boxes, axis: int, scale: float
) -> NDArray[np.bool_]:
    """``boxes_walled_off`` through the grid lines ``coord[axis] = X`` of ``units``: for many
    pairs, first the grid line next to each box (where a creature stands against a wall),
    then the rest."""
    bundles = _Bundles.of(a, b, axis, scale)
    lines_at = units.lines_at
    first = np.searchsorted(lines_at, bundles.u0 + bundles.clear, side="right")
    last = np.searchsorted(lines_at, bundles.u1 - bundles.clear, side="left")
    count = np.where(bundles.usable, np.maximum(last - first, 0), 0)
    proven = np.zeros(len(a), dtype=bool)
    skip = np.zeros(len(a), dtype=np.intp)
    if len(a) >= _FIRST_LINES_FIRST:
        some = np.flatnonzero(count)
        for rows in (first[some], last[some] - 1):
            proven[some] |= bundles.through(units, some, rows)
        skip[:] = 1
    # The grid lines in between (all of them, for a few pairs), for the pairs not proven yet.
    rest = np.flatnonzero(~proven & (count > 2 * skip))
    n = count[rest] - 2 * skip[rest]
    pair = np.repeat(rest, n)
    rows = np.repeat(first[rest] + skip[rest] - (np.cumsum(n) - n), n) + np.arange(int(n.sum()))
    proven[pair[bundles.through(units, pair, rows)]] = True
    return proven


@dataclass(frozen=True, slots=True)
class _Bundles:
    """The segments between pairs of boxes, seen along ``axis``: per pair, the box below
    (``near``: ``u`` its extent along ``axis``, ``v`` across) and the box above (``far``)."""

    near_u: NDArray[np.float64]
    far_u: NDArray[np.float64]
    near_v: NDArray[np.float64]
    far_v: NDArray[np.float64]
    """(n, 2): each box's low and high end along or across ``axis``."""
    margin: NDArray[np.float64]
    """The crossing margin, doubled, for the steepest segment of the bundle."""
    usable: NDArray[np.bool_]

    @property
    def u0(self) -> NDArray[np.float64]:
        return self.near_u[:, 1]

    @property
    def u1(self) -> NDArray[np.float64]:
        return self.far_u[:, 0]

    @property
    def clear(self) -> NDArray[np.float64]:
        """How far a grid line must lie from both boxes."""
        return 4 * END_TRIM + 2 * self.margin

    @classmethod
    def of(cls, a: Boxes, b: Boxes, axis: int, scale: float) -> _Bundles:
        other = 1 - axis
        swap = a[:, 0, axis] > b[:, 0, axis]
        near = np.where(swap[:, None, None], b, a)
        far = np.where(swap[:, None, None], a, b)
        near_u, far_u = near[:, :, axis], far[:, :, axis]
        near_v, far_v = near[:, :, other], far[:, :, other]
        gap = far_u[:, 0] - near_u[:, 1]
        with np.errstate(divide="ignore", invalid="ignore"):
            rise = np.maximum(
                np.abs(far_v[:, 1] - near_v[:, 0]), np.abs(near_v[:, 1] - far_v[:, 0])
            )
            slope = rise / np.where(gap > 0, gap, np.nan)
        margin = 2 * (END_SNAP + _CROSSING_MARGIN * scale) * (1.0 + slope)
        return cls(near_u, far_u, near_v, far_v, margin, (gap > 0) & (margin < 0.25))

    def through(
        self, units: _GridUnits, pair: NDArray[np.intp], row: NDArray[np.intp]
    ) -> NDArray[np.bool_]:
        """Whether walls cover every unit the bundle ``pair[k]`` can cross on the grid line
        ``units.lines_at[row[k]]``, with the margin.

        A segment from (p, v) in ``near`` to (q, w) in ``far`` meets the grid line ``X`` at
        v + s * (w - v), s = (X - p) / (q - p): lowest from the boxes' low sides, highest
        from their high sides, s largest from the near box's low end to the far box's low
        end and smallest from high end to high end.
        """
        at = units.lines_at[row]
        p, q = self.near_u[pair], self.far_u[pair]
        s_most = (at - p[:, 0]) / (q[:, 0] - p[:, 0])
        s_least = (at - p[:, 1]) / (q[:, 1] - p[:, 1])
        v, w = self.near_v[pair], self.far_v[pair]
        rise_low, rise_high = w[:, 0] - v[:, 0], w[:, 1] - v[:, 1]
        lowest = v[:, 0] + np.minimum(s_most * rise_low, s_least * rise_low)
        highest = v[:, 1] + np.maximum(s_most * rise_high, s_least * rise_high)
        m = self.margin[pair]
        j0 = np.floor(lowest - m) - units.unit0
        j1 = np.floor(highest + m) - units.unit0 + 1
        inside = (j0 >= 0) & (j1 <= units.n_unit)
        j0 = np.where(inside, j0, 0).astype(np.intp)
        j1 = np.where(inside, j1, 0).astype(np.intp)
        before = units.covered_before
        return np.asarray(inside & (before[row, j1] - before[row, j0] == j1 - j0), dtype=bool)
