"""A few walls added, removed or moved: ``FixedWalls`` brought up to date without a rebuild.

The sight outline loses the pieces of the walls taken away and gains the new walls, each cut
where it crosses the outline (and the outline cut there too, as ``split_at_crossings`` would);
its buckets are regrouped. The movement steps are worked out again only next to the walls
that changed. In the barrier sets (cover and sight lines) the walls taken away are masked
and the walls added kept in a small set beside them (``barrier_edits``). A pillar's outline,
the map's edges and the doors are untouched: a change to those is a rebuild
(``MapIndex.updated``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray
from shapely import STRtree
from shapely.geometry.base import BaseGeometry

from battlemap.geometry.barrier_edits import EditedBarriers, edit_barriers, same_ends
from battlemap.geometry.barrier_layers import DoorBarriers
from battlemap.geometry.barriers import line_array
from battlemap.geometry.occlusion import SegmentBuckets, cut_where_crossed
from battlemap.geometry.wall_layers import (
    DIRECTIONS,
    BoolGrid,
    FixedWalls,
    _blocked_by_shapes,
    _blocked_by_walls,
    _segments_of,
    _steps_near,
    barrier_sets,
)
from battlemap.model import EntityId, Wall, WallKind

Barriers = DoorBarriers | EditedBarriers
Segment = tuple[tuple[float, float], tuple[float, float]]
_ON_LINE = 1e-9
"""Cells: an outline piece this close to a removed wall's line, within its ends, is its."""


def edited_walls(
    fixed: FixedWalls,
    width: int,
    height: int,
    walls: Sequence[Wall],
    doors: Sequence[Wall],
    sight_obstacles: Sequence[tuple[EntityId, BaseGeometry]],
    blocking_obstacles: Sequence[BaseGeometry],
    removed: Sequence[Wall],
    added: Sequence[Wall],
) -> FixedWalls | None:
    """``FixedWalls.of`` the new ``walls`` (the rest as before), made from ``fixed`` built
    with ``removed`` in place of ``added``; None when the outline cannot tell a removed
    wall's pieces from another's (two sight walls overlapping along one line), or a
    removed wall is not found."""
    sight_removed = _segments_of([w for w in removed if w.blocks_sight])
    sight_added = _segments_of([w for w in added if w.blocks_sight])
    staying = _with_rows(fixed.sight_segments, sight_removed, sight_added)
    blocking = _with_rows(
        fixed.blocking,
        _segments_of([w for w in removed if w.blocks_movement]),
        _segments_of([w for w in added if w.blocks_movement]),
    )
    if staying is None or blocking is None:
        return None
    kept = _outline_kept(fixed.outline, [w for w in removed if w.blocks_sight], staying)
    if kept is None:
        return None
    outline, lines = fixed.outline[kept], fixed.outline_lines[kept]
    tree = fixed.outline_tree if kept.all() else STRtree(lines)
    if len(sight_added):
        pieces, crossed, crossed_pieces = cut_where_crossed(sight_added, outline, tree)
        outline, lines = outline.copy(), lines.copy()
        outline[crossed] = crossed_pieces[: len(crossed)]
        lines[crossed] = line_array(crossed_pieces[: len(crossed)])
        fresh = np.concatenate([crossed_pieces[len(crossed) :], pieces])
        outline = np.concatenate([outline, fresh])
        lines = np.concatenate([lines, line_array(fresh)])
        tree = STRtree(lines)
    sets = _edited_sets(fixed, removed, added, walls)
    cover, cover_and_windows, sight = sets or barrier_sets(walls, doors, sight_obstacles)
    changed = [w for w in (*removed, *added) if w.blocks_movement]
    return dataclasses.replace(
        fixed,
        cover=cover,
        cover_and_windows=cover_and_windows,
        sight=sight,
        outline=outline,
        outline_lines=lines,
        outline_tree=tree,
        buckets=SegmentBuckets.of(outline),
        segment_free=_steps_again(
            fixed.segment_free, changed, blocking, blocking_obstacles, width, height
        ),
        blocking=blocking,
        sight_segments=staying,
    )


def _edited_sets(
    fixed: FixedWalls, removed: Sequence[Wall], added: Sequence[Wall], walls: Sequence[Wall]
) -> tuple[Barriers, Barriers, Barriers] | None:
    """``fixed``'s cover, cover-and-windows and sight sets edited (``barrier_edits``), or
    None when one of them has to be built again."""

    def ends(walls: Sequence[Wall], kinds: tuple[WallKind, ...]) -> list[Segment]:
        return [(w.a, w.b) for w in walls if w.kind in kinds]

    def named(walls: Sequence[Wall], kinds: tuple[WallKind, ...]) -> list[tuple[EntityId, Segment]]:
        return [(w.id, (w.a, w.b)) for w in walls if w.kind in kinds]

    solid = (WallKind.WALL,)
    cover = edit_barriers(
        fixed.cover, ends(removed, solid), named(added, solid), fixed.doors, walls
    )
    windows = any(w.kind is WallKind.WINDOW for w in (*removed, *added))
    cover_and_windows: Barriers | None = cover
    if fixed.cover_and_windows is not fixed.cover or windows:
        both = (WallKind.WALL, WallKind.WINDOW)
        cover_and_windows = edit_barriers(
            fixed.cover_and_windows, ends(removed, both), named(added, both), fixed.doors, walls
        )
    sight: Barriers | None = cover
    if fixed.sight is not fixed.cover:
        sight = edit_barriers(
            fixed.sight, ends(removed, solid), named(added, solid), fixed.doors, walls
        )
    if cover is None or cover_and_windows is None or sight is None:
        return None
    return cover, cover_and_windows, sight


def _outline_kept(
    outline: NDArray[np.float64], removed: Sequence[Wall], staying: NDArray[np.float64]
) -> NDArray[np.bool_] | None:
    """Which pieces of ``outline`` do not lie on the ``removed`` walls; None when a piece
    there may belong to a segment that stays (``staying``: one on the same line, overlapping)."""
    gone = np.zeros(len(outline), dtype=bool)
    for segment in _segments_of(removed):
        if _on_segment(staying, segment).any():
            return None
        gone |= _on_segment(outline, segment)
    kept: NDArray[np.bool_] = ~gone
    return kept


def _on_segment(pieces: NDArray[np.float64], segment: NDArray[np.float64]) -> NDArray[np.bool_]:
    """Which ``pieces`` (n, 2, 2) lie along ``segment`` (2, 2), overlapping it."""
    a, step = segment[0], segment[1] - segment[0]
    length2 = float(step @ step)
    rel = pieces - a
    cross = rel[:, :, 0] * step[1] - rel[:, :, 1] * step[0]
    along = (rel @ step) / length2
    on_line = np.all(np.abs(cross) <= _ON_LINE * (1.0 + length2), axis=1)
    low, high = along.min(axis=1), along.max(axis=1)
    overlap = (high > 1e-12) & (low < 1 - 1e-12) & (high - low > 1e-12)
    result: NDArray[np.bool_] = on_line & overlap
    return result


def _with_rows(
    rows: NDArray[np.float64], removed: NDArray[np.float64], added: NDArray[np.float64]
) -> NDArray[np.float64] | None:
    """``rows`` (n, 2, 2) less one row per ``removed`` segment (either way round), plus
    ``added``; None when a removed one is not there."""
    keep = np.ones(len(rows), dtype=bool)
    for segment in removed:
        found = np.flatnonzero(keep & same_ends(rows, segment))
        if len(found) == 0:
            return None
        keep[found[0]] = False
    return np.concatenate([rows[keep], added])


def _steps_again(
    free: list[BoolGrid],
    changed: Sequence[Wall],
    blocking: NDArray[np.float64],
    obstacles: Sequence[BaseGeometry],
    width: int,
    height: int,
) -> list[BoolGrid]:
    """``free`` (``FixedWalls.segment_free``) with the steps next to the ``changed`` walls
    decided again against the walls and obstacles that block movement now."""
    if not changed:
        return free
    ends = _segments_of(changed)
    out = [grid.copy() for grid in free]
    for d, (dx, dy) in enumerate(DIRECTIONS[:4]):
        back = DIRECTIONS.index((-dx, -dy))
        _, cols, rows = _steps_near(ends.min(axis=1), ends.max(axis=1), width, height, dx, dy)
        out[d][rows, cols] = True
        out[back][rows + dy, cols + dx] = True
        again = np.zeros((height, width), dtype=bool)
        again[rows, cols] = True
        near = _near_boxes(blocking, cols, rows)
        bx, by = _blocked_by_walls(blocking[near], width, height, dx, dy)
        if obstacles:
            ox, oy = _blocked_by_shapes(obstacles, width, height, dx, dy)
            bx, by = np.concatenate([bx, ox]), np.concatenate([by, oy])
        hit = again[by, bx]
        out[d][by[hit], bx[hit]] = False
        out[back][by[hit] + dy, bx[hit] + dx] = False
    return out


def _near_boxes(
    walls: NDArray[np.float64], cols: NDArray[np.intp], rows: NDArray[np.intp]
) -> NDArray[np.bool_]:
    """Which ``walls`` come within two cells of the box of the steps at (cols, rows)."""
    if len(cols) == 0:
        return np.zeros(len(walls), dtype=bool)
    low = np.array([cols.min(), rows.min()]) - 2.0
    high = np.array([cols.max(), rows.max()]) + 3.0
    high_end = np.maximum(walls[:, 0], walls[:, 1])
    low_end = np.minimum(walls[:, 0], walls[:, 1])
    near: NDArray[np.bool_] = np.all((high_end >= low) & (low_end <= high), axis=1)
    return near
