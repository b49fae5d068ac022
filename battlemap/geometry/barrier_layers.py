"""A ``BarrierSet`` whose doors can be switched off: opening a door costs a mask, not a set.

``DoorBarriers`` holds one ``BarrierSet`` of the fixed walls followed by every door (open or
closed), built once while the doors stay in place; ``with_closed`` gives the set in which only
the fixed walls and the closed doors count. Its answers are those of a ``BarrierSet`` of just
those segments: the walls paired with a line are filtered by the mask before the exact rule
(so a joint between a door and a wall is a joint), grid-line settling uses tables of the fixed
walls alone (sound: more walls only block more), and a point touching an open door is
checked again against the walls that count.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import shapely
from numpy.typing import NDArray

from battlemap.geometry.barriers import (
    END_SNAP,
    BarrierSet,
    _at_an_end,
    _grid_units,
    _GridUnits,
    _within_snap,
)
from battlemap.geometry.wall_buckets import Lines
from battlemap.model import EntityId

Segment = tuple[tuple[float, float], tuple[float, float]]
GridUnitTables = tuple[_GridUnits | None, _GridUnits | None]


class DoorBarriers:
    """The fixed walls (``fixed``, named ``fixed_ids``) and the doors, in that order."""

    def __init__(
        self,
        fixed: Sequence[Segment],
        fixed_ids: Sequence[EntityId],
        doors: Sequence[Segment],
        door_ids: Sequence[EntityId],
    ) -> None:
        self.full = BarrierSet([*fixed, *doors], [*fixed_ids, *door_ids])
        kept = self.full.coords
        # Repeats are dropped keeping the first: the kept doors are the entries at the end
        # named by a door (fixed walls and obstacles never are).
        named_door = set(door_ids)
        n_doors = 0
        while n_doors < min(len(doors), len(kept)) and self.full.ids[-1 - n_doors] in named_door:
            n_doors += 1
        self.n_fixed = len(kept) - n_doors
        fixed_coords = kept[: self.n_fixed]
        self.fixed_units = (_grid_units(fixed_coords, axis=0), _grid_units(fixed_coords, axis=1))
        # Where each door went in ``full`` (-1: it repeats a fixed wall, which always counts).
        door_lines = np.asarray(doors, dtype=np.float64).reshape(-1, 2, 2)
        slot = _slots(kept[self.n_fixed :], door_lines)
        self.door_slot = np.where(slot >= 0, slot + self.n_fixed, -1)

    def with_closed(self, closed: NDArray[np.bool_]) -> MaskedBarriers:
        """The set in which door ``i`` counts when ``closed[i]``."""
        active = np.zeros(len(self.full), dtype=bool)
        active[: self.n_fixed] = True
        slots = self.door_slot[closed & (self.door_slot >= 0)]
        active[slots] = True
        return MaskedBarriers(self, active)


def _slots(kept: NDArray[np.float64], doors: NDArray[np.float64]) -> NDArray[np.intp]:
    """For each door, the index among the ``kept`` door segments of its copy (-1: none, it
    repeated a fixed wall). Doors are few: every pair is compared."""
    slot = np.full(len(doors), -1, dtype=np.intp)
    if len(kept) == 0 or len(doors) == 0:
        return slot
    same = np.all(doors[:, None] == kept[None], axis=(2, 3))
    same |= np.all(doors[:, None, ::-1] == kept[None], axis=(2, 3))
    found = same.any(axis=1)
    slot[found] = np.argmax(same[found], axis=1)
    return slot


class MaskedBarriers(BarrierSet):
    """``DoorBarriers.full`` with only the ``active`` segments counting."""

    def __init__(self, doors: DoorBarriers, active: NDArray[np.bool_]) -> None:
        self.doors = doors
        self.full = doors.full
        self.active = active
        self.ids = doors.full.ids
        self.coords = doors.full.coords
        self._grid_units = doors.fixed_units
        self._inactive = self.coords[~active]
        self._inactive_geoms = doors.full.geoms[~active]
        self._count = int(active.sum())

    def __len__(self) -> int:
        return self._count

    def without(self, gone: NDArray[np.bool_], units: GridUnitTables) -> MaskedBarriers:
        """This set with the segments ``gone`` not counting either; ``units`` are the
        grid-line tables of the fixed walls left."""
        less = MaskedBarriers(self.doors, self.active & ~gone)
        less._grid_units = units
        return less

    def _candidates(
        self, lines: Lines, length: NDArray[np.float64]
    ) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
        line, wall = self.full._candidates(lines, length)
        keep = self.active[wall]
        return line[keep], wall[keep]

    def inside_walls(self, points: NDArray[np.float64]) -> NDArray[np.bool_]:
        on = self.full.inside_walls(points)
        if not len(self._inactive) or not len(points):
            return on
        # Only points touching an open door can differ: check them against active walls.
        again = np.flatnonzero(_touches_any(points, self._inactive, self._inactive_geoms))
        if len(again):
            on[again] = self._inside_active(points[again])
        return on

    def _inside_active(self, points: NDArray[np.float64]) -> NDArray[np.bool_]:
        """``inside_walls`` by the spatial index, counting active segments only."""
        touching, middle = self.touching(points)
        return np.asarray((touching >= 2) | middle, dtype=bool)

    def touching(self, points: NDArray[np.float64]) -> tuple[NDArray[np.intp], NDArray[np.bool_]]:
        """Per point, how many active segments lie within ``END_SNAP`` of it, and whether
        one of them has it on its middle (not at an end): what ``inside_walls`` counts."""
        point_idx, wall_idx = self.full.tree.query(
            shapely.points(points), predicate="dwithin", distance=END_SNAP
        )
        keep = self.active[wall_idx]
        return _touch_counts(points, point_idx[keep], self.coords[wall_idx[keep]])


def _touch_counts(
    points: NDArray[np.float64], point_idx: NDArray[np.intp], walls: NDArray[np.float64]
) -> tuple[NDArray[np.intp], NDArray[np.bool_]]:
    """``touching`` from the (point, wall ends) pairs within ``END_SNAP``."""
    if len(point_idx) == 0:
        return np.zeros(len(points), dtype=np.intp), np.zeros(len(points), dtype=bool)
    is_end = _at_an_end(points[point_idx], walls)
    touching = np.bincount(point_idx, minlength=len(points))
    middle = np.bincount(point_idx, weights=~is_end, minlength=len(points)) > 0
    return touching, np.asarray(middle, dtype=bool)


def _touches_any(
    points: NDArray[np.float64], walls: NDArray[np.float64], geoms: NDArray[np.object_]
) -> NDArray[np.bool_]:
    """Whether each point lies within ``END_SNAP`` of one of ``walls`` (n, 2, 2; ``geoms``
    the same as LineStrings). Every pair is tested: the walls are a few open doors."""
    touching = np.zeros(len(points), dtype=bool)
    step = max(1, (1 << 18) // max(1, len(walls)))
    for start in range(0, len(points), step):
        chunk = points[start : start + step]
        point = np.repeat(np.arange(len(chunk)), len(walls))
        wall = np.tile(np.arange(len(walls)), len(chunk))
        near = _within_snap(chunk[point], walls[wall], geoms[wall])
        touching[start : start + step] = near.reshape(len(chunk), len(walls)).any(axis=1)
    return touching
