"""``DoorBarriers`` with walls taken away and walls added, without building the set again.

``EditedBarriers`` keeps the built set (``DoorBarriers``), a mask of its fixed walls taken away
and a small ``BarrierSet`` of the walls added since. Lines are tested against the walls that
count in both together, by the exact rule of ``barriers`` (so a joint between an old wall and
a new one is a joint); grid-line settling uses tables of the built set's fixed walls that
are left (sound: fewer walls tabled only settle fewer lines);
a point touching a wall gone, an open door or a new wall is checked again against the walls
that count. A wall added on a wall that counts (a repeat, which a built set drops) cannot be
told from a joint this way: ``edited`` then gives None and the set is built again. At a joint
of several walls ``first_blocker`` names the first in the set's order, and new walls come
last here (a built set has them in the map's order).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import shapely
from numpy.typing import NDArray

from battlemap.geometry.barrier_layers import DoorBarriers, _touches_any
from battlemap.geometry.barriers import (
    END_SNAP,
    BarrierSet,
    Lines,
    _at_an_end,
    _grid_units,
    sorted_unique,
)
from battlemap.model import EntityId

Segment = tuple[tuple[float, float], tuple[float, float]]
MOST_ADDED = 256
"""Walls added since the set was built beyond which it is built again."""


class EditedBarriers:
    """``base`` less its fixed walls where ``gone``, plus the walls ``added`` (in order)."""

    def __init__(
        self, base: DoorBarriers, gone: NDArray[np.bool_], added: Sequence[tuple[EntityId, Segment]]
    ) -> None:
        self.base = base
        self.gone = gone
        self.added = list(added)
        self.extra = BarrierSet([s for _, s in self.added], [i for i, _ in self.added])
        self.fixed_units = base.fixed_units
        if gone.any():  # the tables must not hold a wall that is gone
            fixed = base.full.coords[: base.n_fixed][~gone[: base.n_fixed]]
            self.fixed_units = (_grid_units(fixed, axis=0), _grid_units(fixed, axis=1))

    def with_closed(self, closed: NDArray[np.bool_]) -> OverlaidBarriers:
        """The set in which door ``i`` counts when ``closed[i]`` (``DoorBarriers.with_closed``)."""
        active = self.base.with_closed(closed).active & ~self.gone
        return OverlaidBarriers(self, active)

    def edited(
        self,
        removed: Sequence[Segment],
        added: Sequence[tuple[EntityId, Segment]],
        doors: Sequence[Segment],
    ) -> EditedBarriers | None:
        """These walls with ``removed`` (by their ends) taken away and ``added`` added; None
        when a wall removed is not found once, or one removed or added lies where a door
        does (a door repeating a wall is left out of the built set), or one added repeats a
        wall that counts."""
        door_ends = np.asarray(doors, dtype=np.float64).reshape(-1, 2, 2)
        for segment in [*removed, *(s for _, s in added)]:
            if same_ends(door_ends, np.asarray(segment, dtype=np.float64)).any():
                return None
        gone = self.gone.copy()
        kept = list(self.added)
        fixed = self.base.full.coords[: self.base.n_fixed]
        for segment in removed:
            ends = np.asarray(segment, dtype=np.float64)
            mine = [k for k, (_, s) in enumerate(kept) if _same(np.asarray(s), ends)]
            if len(mine) == 1:
                kept.pop(mine[0])
                continue
            found = np.flatnonzero(same_ends(fixed, ends) & ~gone[: self.base.n_fixed])
            if len(found) != 1 or mine:
                return None
            gone[found[0]] = True
        active_fixed = fixed[~gone[: self.base.n_fixed]]
        for _, segment in added:
            ends = np.asarray(segment, dtype=np.float64)
            if same_ends(active_fixed, ends).any() or any(
                _same(np.asarray(s), ends) for _, s in kept
            ):
                return None
            kept.append((_, segment))
        if len(kept) > MOST_ADDED:
            return None
        return EditedBarriers(self.base, gone, kept)


def edit_barriers(
    barriers: DoorBarriers | EditedBarriers,
    removed: Sequence[Segment],
    added: Sequence[tuple[EntityId, Segment]],
    doors: Sequence[Segment],
) -> EditedBarriers | None:
    """``barriers`` with ``removed`` taken away and ``added`` added (see ``EditedBarriers``);
    ``doors`` are the doors' ends."""
    if isinstance(barriers, DoorBarriers):
        barriers = EditedBarriers(barriers, np.zeros(len(barriers.full), dtype=bool), [])
    return barriers.edited(removed, added, doors)


def _same(a: NDArray[np.float64], b: NDArray[np.float64]) -> bool:
    return bool(np.array_equal(a, b) or np.array_equal(a[::-1], b))


def same_ends(segments: NDArray[np.float64], ends: NDArray[np.float64]) -> NDArray[np.bool_]:
    """Which ``segments`` (n, 2, 2) have exactly the ends ``ends`` (2, 2), either way round."""
    same: NDArray[np.bool_] = np.all(segments == ends, axis=(1, 2)) | np.all(
        segments == ends[::-1], axis=(1, 2)
    )
    return same


class OverlaidBarriers(BarrierSet):
    """``EditedBarriers`` with the doors open or closed: the built set's ``active`` walls and
    the added ones, numbered in that order."""

    def __init__(self, edited: EditedBarriers, active: NDArray[np.bool_]) -> None:
        self.full = edited.base.full
        self.extra = edited.extra
        self.first_extra = len(self.full.coords)
        self.active = active
        self.ids = [*self.full.ids, *self.extra.ids]
        self.coords = np.concatenate([self.full.coords, self.extra.coords.reshape(-1, 2, 2)])
        self.geoms = np.concatenate([self.full.geoms, self.extra.geoms])
        self._grid_units = edited.fixed_units
        self._inactive = self.full.coords[~active]
        self._inactive_geoms = self.full.geoms[~active]
        self._count = int(active.sum()) + len(self.extra.ids)

    def __len__(self) -> int:
        return self._count

    def _candidates(
        self, lines: Lines, length: NDArray[np.float64]
    ) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
        line, wall = self.full._candidates(lines, length)
        keep = self.active[wall]
        line, wall = line[keep], wall[keep]
        if len(self.extra.ids):
            more_line, more_wall = self.extra._candidates(lines, length)
            line = np.concatenate([line, more_line])
            wall = np.concatenate([wall, more_wall + self.first_extra])
        total = len(self.ids)
        keys = sorted_unique(line.astype(np.int64) * total + wall)
        return (keys // total).astype(np.intp), (keys % total).astype(np.intp)

    def inside_walls(self, points: NDArray[np.float64]) -> NDArray[np.bool_]:
        on = self.full.inside_walls(points)
        if not len(points):
            return on
        # Only points touching a wall gone, an open door or a new wall can differ.
        again = np.zeros(len(points), dtype=bool)
        if len(self._inactive):
            again |= _touches_any(points, self._inactive, self._inactive_geoms)
        if len(self.extra.ids):
            near, _ = self.extra.tree.query(
                shapely.points(points), predicate="dwithin", distance=END_SNAP
            )
            again[near] = True
        which = np.flatnonzero(again)
        if len(which):
            on[which] = self._inside_counting(points[which])
        return on

    def _inside_counting(self, points: NDArray[np.float64]) -> NDArray[np.bool_]:
        """``inside_walls`` by the spatial indexes, counting the walls that count only."""
        shapes = shapely.points(points)
        point_idx, wall_idx = self.full.tree.query(shapes, predicate="dwithin", distance=END_SNAP)
        keep = self.active[wall_idx]
        point_idx, wall_idx = point_idx[keep], wall_idx[keep]
        if len(self.extra.ids):
            more_point, more_wall = self.extra.tree.query(
                shapes, predicate="dwithin", distance=END_SNAP
            )
            point_idx = np.concatenate([point_idx, more_point])
            wall_idx = np.concatenate([wall_idx, more_wall + self.first_extra])
        if len(point_idx) == 0:
            return np.zeros(len(points), dtype=bool)
        is_end = _at_an_end(points[point_idx], self.coords[wall_idx])
        touching = np.bincount(point_idx, minlength=len(points))
        middle = np.bincount(point_idx, weights=~is_end, minlength=len(points)) > 0
        return np.asarray((touching >= 2) | middle, dtype=bool)
