"""``DoorBarriers`` with walls taken away and walls added, without building the set again.

``EditedBarriers`` keeps the built set (``DoorBarriers``), a mask of its fixed walls taken away
and a small ``BarrierSet`` of the walls added since. Lines are tested against the walls that
count in both together, by the exact rule of ``barriers`` (so a joint between an old wall and
a new one is a joint); grid-line settling uses the built set's tables with the units of the
walls gone unmarked (sound: fewer units tabled only settle fewer lines);
a point touching a wall gone, an open door or a new wall is checked again against the walls
that count. A wall added on a wall that counts (a repeat, which a built set drops) cannot be
told from a joint this way: ``edited`` then gives None and the set is built again. At a joint
of several walls ``first_blocker`` names the first in the order a set built afresh would
hold them (the map's order), though new walls are numbered last here.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import shapely
from numpy.typing import NDArray

from battlemap.geometry.barrier_layers import (
    DoorBarriers,
    GridUnitTables,
    MaskedBarriers,
    _touch_counts,
)
from battlemap.geometry.barriers import END_SNAP, BarrierSet, grid_units_without
from battlemap.geometry.wall_buckets import Lines
from battlemap.model import EntityId, Wall, WallKind

Segment = tuple[tuple[float, float], tuple[float, float]]
MOST_ADDED = 256
"""Walls added since the set was built beyond which it is built again."""


class EditedBarriers:
    """``base`` less its fixed walls where ``gone``, plus the walls ``added`` (in order)."""

    def __init__(
        self,
        base: DoorBarriers,
        gone: NDArray[np.bool_],
        added: Sequence[tuple[EntityId, Segment]],
        walls: Sequence[Wall],
        units: GridUnitTables | None = None,
    ) -> None:
        self.base = base
        self.walls = walls
        """The map's walls now, in order (a set built afresh holds its walls in this order)."""
        self.gone = gone
        self.added = list(added)
        self.extra = BarrierSet([s for _, s in self.added], [i for i, _ in self.added])
        self.fixed_units = base.fixed_units if units is None else units
        """Grid-line tables of the fixed walls left (the walls gone unmarked)."""

    def with_closed(self, closed: NDArray[np.bool_]) -> OverlaidBarriers:
        """The set in which door ``i`` counts when ``closed[i]`` (``DoorBarriers.with_closed``)."""
        masked = self.base.with_closed(closed)
        return OverlaidBarriers(self, masked.without(self.gone, self.fixed_units), self.walls)

    def edited(
        self,
        removed: Sequence[Segment],
        added: Sequence[tuple[EntityId, Segment]],
        doors: Sequence[Segment],
        walls: Sequence[Wall],
    ) -> EditedBarriers | None:
        """These walls with ``removed`` (by their ends) taken away and ``added`` added
        (``walls``: the map's walls now); None when a wall removed is not found once, or one
        removed or added lies where a door does (a door repeating a wall is left out of the
        built set), or one added repeats a wall that counts."""
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
        for _, segment in added:
            ends = np.asarray(segment, dtype=np.float64)
            if (same_ends(fixed, ends) & ~gone[: self.base.n_fixed]).any() or any(
                _same(np.asarray(s), ends) for _, s in kept
            ):
                return None
            kept.append((_, segment))
        if len(kept) > MOST_ADDED:
            return None
        newly = fixed[gone[: self.base.n_fixed] & ~self.gone[: self.base.n_fixed]]
        units = (
            grid_units_without(self.fixed_units[0], newly, axis=0),
            grid_units_without(self.fixed_units[1], newly, axis=1),
        )
        return EditedBarriers(self.base, gone, kept, walls, units)


def edit_barriers(
    barriers: DoorBarriers | EditedBarriers,
    removed: Sequence[Segment],
    added: Sequence[tuple[EntityId, Segment]],
    doors: Sequence[Segment],
    walls: Sequence[Wall],
) -> EditedBarriers | None:
    """``barriers`` with ``removed`` taken away and ``added`` added (see ``EditedBarriers``);
    ``doors`` are the doors' ends, ``walls`` the map's walls now."""
    if isinstance(barriers, DoorBarriers):
        barriers = EditedBarriers(barriers, np.zeros(len(barriers.full), dtype=bool), [], walls)
    return barriers.edited(removed, added, doors, walls)


def _same(a: NDArray[np.float64], b: NDArray[np.float64]) -> bool:
    return bool(np.array_equal(a, b) or np.array_equal(a[::-1], b))


def same_ends(segments: NDArray[np.float64], ends: NDArray[np.float64]) -> NDArray[np.bool_]:
    """Which ``segments`` (n, 2, 2) have exactly the ends ``ends`` (2, 2), either way round."""
    x = segments[:, 0, 0]
    maybe = np.flatnonzero((x == ends[0, 0]) | (x == ends[1, 0]))
    few = segments[maybe]
    same = np.zeros(len(segments), dtype=bool)
    same[maybe] = np.all(few == ends, axis=(1, 2)) | np.all(few == ends[::-1], axis=(1, 2))
    return same


class OverlaidBarriers(BarrierSet):
    """``EditedBarriers`` with the doors open or closed: the built set masked
    (``MaskedBarriers``: its fixed walls left and its closed doors) and the walls added,
    numbered in that order."""

    def __init__(
        self, edited: EditedBarriers, masked: MaskedBarriers, walls: Sequence[Wall]
    ) -> None:
        self.masked = masked
        self.extra = edited.extra
        self.first_extra = len(masked.coords)
        self.n_fixed = edited.base.n_fixed
        self.walls = walls
        self.ids = [*masked.ids, *self.extra.ids]
        self.coords = np.concatenate([masked.coords, self.extra.coords.reshape(-1, 2, 2)])
        self._grid_units = edited.fixed_units
        self._rank: NDArray[np.intp] | None = None

    def __len__(self) -> int:
        return len(self.masked) + len(self.extra.ids)

    def _candidates(
        self, lines: Lines, length: NDArray[np.float64]
    ) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
        line, wall = self.masked._candidates(lines, length)
        if not len(self.extra.ids):
            return line, wall
        more_line, more_wall = self.extra._candidates(lines, length)
        total = len(self.ids)
        keys = np.sort(
            np.concatenate([line, more_line]).astype(np.int64) * total
            + np.concatenate([wall, more_wall + self.first_extra])
        )
        return (keys // total).astype(np.intp), (keys % total).astype(np.intp)

    def inside_walls(self, points: NDArray[np.float64]) -> NDArray[np.bool_]:
        on = self.masked.inside_walls(points)
        if not len(self.extra.ids) or not len(points):
            return on
        # Only points touching a new wall can differ: count both sets' walls there.
        near, wall = self.extra.tree.query(
            shapely.points(points), predicate="dwithin", distance=END_SNAP
        )
        which = np.unique(near)
        if len(which):
            touching, middle = self.masked.touching(points[which])
            local = np.searchsorted(which, near)
            more, more_middle = _touch_counts(points[which], local, self.extra.coords[wall])
            on[which] = (touching + more >= 2) | middle | more_middle
        return on

    def _fresh_rank(self) -> NDArray[np.intp]:
        """The order of a set built afresh: the map's walls in its order, then windows or
        pillars' sides, then the doors (made on first use: only ``first_blocker`` needs it)."""
        if self._rank is None:
            place: dict[EntityId, tuple[int, int]] = {}
            for i, w in enumerate(self.walls):
                place.setdefault(w.id, (0 if w.kind is WallKind.WALL else 1, i))
            beyond = (1, len(self.walls))
            doors = range(self.n_fixed, self.first_extra)
            group = np.array([place.get(i, beyond)[0] for i in self.ids], dtype=np.intp)
            where = np.array([place.get(i, beyond)[1] for i in self.ids], dtype=np.intp)
            group[doors] = 2
            order = np.lexsort((np.arange(len(self.ids)), where, group))
            self._rank = np.empty(len(order), dtype=np.intp)
            self._rank[order] = np.arange(len(order))
        return self._rank
