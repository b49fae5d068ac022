"""A few walls added, removed or moved: ``FixedWalls`` brought up to date without a rebuild.

The sight outline loses the pieces of the walls taken away and gains the new walls, each cut
where it crosses the outline (and the outline cut there too, as ``split_at_crossings`` would);
its buckets are regrouped. The movement steps are worked out again only next to the walls
that changed. The barrier sets (cover and sight lines) are built again from the walls: their
lattice tables and trees are not made to be edited. A pillar's outline, the map's edges and
the doors are untouched: a change to those is a rebuild (``MapIndex.updated``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray
from shapely import STRtree
from shapely.geometry.base import BaseGeometry

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
    ring_segments,
)
from battlemap.model import EntityId, Wall, WallKind

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
    wall's pieces from another's (two sight walls overlapping along one line)."""
    staying = np.concatenate(
        [
            _segments_of([w for w in walls if w.blocks_sight]),
            np.asarray(
                [s for _, polygon in sight_obstacles for s in ring_segments(polygon)],
                dtype=np.float64,
            ).reshape(-1, 2, 2),
            _border(width, height),
        ]
    )
    outline = _outline_without(fixed.outline, [w for w in removed if w.blocks_sight], staying)
    if outline is None:
        return None
    new_sight = _segments_of([w for w in added if w.blocks_sight])
    if len(new_sight):
        tree = STRtree(line_array(outline))
        pieces, crossed, crossed_pieces = cut_where_crossed(new_sight, outline, tree)
        outline = outline.copy()
        outline[crossed] = crossed_pieces[: len(crossed)]
        outline = np.concatenate([outline, crossed_pieces[len(crossed) :], pieces])
    cover, cover_and_windows, sight = barrier_sets(walls, doors, sight_obstacles)
    lines = line_array(outline)
    changed = [w for w in (*removed, *added) if w.blocks_movement]
    return dataclasses.replace(
        fixed,
        cover=cover,
        cover_and_windows=cover_and_windows,
        sight=sight,
        outline=outline,
        outline_lines=lines,
        outline_tree=STRtree(lines),
        buckets=SegmentBuckets.of(outline),
        segment_free=_steps_again(
            fixed.segment_free, changed, walls, blocking_obstacles, width, height
        ),
    )


def _border(width: int, height: int) -> NDArray[np.float64]:
    corners = np.array([[0, 0], [width, 0], [width, height], [0, height]], dtype=np.float64)
    return np.stack([corners, np.roll(corners, -1, axis=0)], axis=1)


def _outline_without(
    outline: NDArray[np.float64], removed: Sequence[Wall], staying: NDArray[np.float64]
) -> NDArray[np.float64] | None:
    """``outline`` less the pieces lying on the ``removed`` walls; None when a piece there
    may belong to a segment that stays (``staying``: one on the same line, overlapping)."""
    if not removed:
        return outline
    gone = np.zeros(len(outline), dtype=bool)
    for segment in _segments_of(removed):
        if _on_segment(staying, segment).any():
            return None
        gone |= _on_segment(outline, segment)
    kept: NDArray[np.float64] = outline[~gone]
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


def _steps_again(
    free: list[BoolGrid],
    changed: Sequence[Wall],
    walls: Sequence[Wall],
    obstacles: Sequence[BaseGeometry],
    width: int,
    height: int,
) -> list[BoolGrid]:
    """``free`` (``FixedWalls.segment_free``) with the steps next to the ``changed`` walls
    decided again against the walls and obstacles that block movement now."""
    if not changed:
        return free
    ends = _segments_of(changed)
    blocking = _segments_of([w for w in walls if w.blocks_movement and w.kind is not WallKind.DOOR])
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
    near: NDArray[np.bool_] = np.all(
        (walls.max(axis=1) >= low) & (walls.min(axis=1) <= high), axis=1
    )
    return near
