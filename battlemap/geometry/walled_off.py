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

import numpy as np
from numpy.typing import NDArray

from battlemap.geometry.barriers import _CROSSING_MARGIN, END_SNAP, END_TRIM, BarrierSet, _GridUnits

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
    for axis, units in enumerate(walls.grid_units):
        if units is None:
            continue
        todo = np.flatnonzero(~proven)
        found = _walled_off_across(units, a[todo], b[todo], axis, scale)
        proven[todo[found]] = True
    return proven


def _walled_off_across(
    units: _GridUnits, a: Boxes, b: Boxes, axis: int, scale: float
) -> NDArray[np.bool_]:
    """``boxes_walled_off`` through the grid lines ``coord[axis] = X`` of ``units``."""
    other = 1 - axis
    # Name the boxes so that ``near`` lies below ``far`` along ``axis``.
    swap = a[:, 0, axis] > b[:, 0, axis]
    near = np.where(swap[:, None, None], b, a)
    far = np.where(swap[:, None, None], a, b)
    u0, u1 = near[:, 1, axis], far[:, 0, axis]
    gap = u1 - u0
    with np.errstate(divide="ignore", invalid="ignore"):
        slope = np.maximum(
            np.abs(far[:, 1, other] - near[:, 0, other]),
            np.abs(near[:, 1, other] - far[:, 0, other]),
        ) / np.where(gap > 0, gap, np.nan)
    margin = 2 * (END_SNAP + _CROSSING_MARGIN * scale) * (1.0 + slope)
    clear = 4 * END_TRIM + 2 * margin
    usable = (gap > 0) & (margin < 0.25)
    lines_at = units.lines_at
    first = np.searchsorted(lines_at, u0 + clear, side="right")
    last = np.searchsorted(lines_at, u1 - clear, side="left")
    count = np.where(usable, np.maximum(last - first, 0), 0)
    pair = np.repeat(np.arange(len(a)), count)
    row = np.arange(int(count.sum())) - np.repeat(np.cumsum(count) - count, count) + first[pair]
    at = lines_at[row]
    n, f = near[pair], far[pair]
    # A segment from (p, v) in ``near`` to (q, w) in ``far`` meets the grid line at
    # v + s * (w - v), s = (X - p) / (q - p): lowest at the boxes' low sides, highest at
    # their high sides, and s is largest from the near box's low end to the far box's low end.
    s_most = (at - n[:, 0, axis]) / (f[:, 0, axis] - n[:, 0, axis])
    s_least = (at - n[:, 1, axis]) / (f[:, 1, axis] - n[:, 1, axis])
    low, high = n[:, 0, other], n[:, 1, other]
    rise_low, rise_high = f[:, 0, other] - low, f[:, 1, other] - high
    lowest = np.minimum(low + s_most * rise_low, low + s_least * rise_low)
    highest = np.maximum(high + s_most * rise_high, high + s_least * rise_high)
    m = margin[pair]
    j0 = np.floor(lowest - m) - units.unit0
    j1 = np.floor(highest + m) - units.unit0 + 1
    inside = (j0 >= 0) & (j1 <= units.n_unit)
    j0 = np.where(inside, j0, 0).astype(np.intp)
    j1 = np.where(inside, j1, 0).astype(np.intp)
    before = units.covered_before
    whole = inside & (before[row, j1] - before[row, j0] == j1 - j0)
    proven = np.zeros(len(a), dtype=bool)
    proven[pair[whole]] = True
    return proven
