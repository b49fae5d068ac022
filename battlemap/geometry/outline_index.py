"""The sight outline's spatial indexes, edited in place when a few walls change.

``OutlineTree`` answers ``STRtree.query`` for the outline as it is now: an STR-tree of the
outline built once, a map from its pieces to their places now (pieces taken away since have
none) and a small tree of the pieces added since. ``buckets_edited`` regroups the sight
buckets the same way: pieces taken away leave their bucket, pieces kept keep theirs (a kept
piece is the same segment or a part of it, so its bucket's box still bounds it), pieces
added form buckets of their own. Neither builds anything over the whole outline.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from shapely import STRtree

from battlemap.geometry.occlusion import SegmentBuckets

MOST_ADDED_PIECES = 4096
"""Pieces added since the tree was built beyond which it is built again."""


@dataclass(frozen=True, slots=True)
class OutlineTree:
    """``base`` (built over an earlier outline) with ``position[k]``: where base piece ``k``
    is in the outline now (-1: gone), and ``extra`` over the pieces from ``first_extra``
    on (None: there are none)."""

    base: STRtree
    position: NDArray[np.intp]
    extra: STRtree | None
    first_extra: int

    @classmethod
    def of(cls, lines: NDArray[np.object_]) -> OutlineTree:
        """The tree of an outline of these LineStrings."""
        return cls(STRtree(lines), np.arange(len(lines), dtype=np.intp), None, len(lines))

    def query(self, geometry: NDArray[np.object_]) -> NDArray[np.intp]:
        """``STRtree.query(geometry)`` over the outline now: (input, piece) pairs whose
        boxes meet (a kept piece is found by its earlier, larger box)."""
        mine, theirs = self.base.query(geometry)
        theirs = self.position[theirs]
        keep = theirs >= 0
        mine, theirs = mine[keep], theirs[keep]
        if self.extra is not None:
            more_mine, more_theirs = self.extra.query(geometry)
            mine = np.concatenate([mine, more_mine])
            theirs = np.concatenate([theirs, more_theirs + self.first_extra])
        return np.stack([mine, theirs]).astype(np.intp)

    def edited(self, kept: NDArray[np.bool_], lines: NDArray[np.object_]) -> OutlineTree:
        """The tree of the outline ``lines``: the pieces of the outline now where ``kept``,
        in order (possibly shortened in place), then the pieces added."""
        now = np.cumsum(kept) - 1
        now[~kept] = -1
        first_extra = int(kept[: self.first_extra].sum())
        if len(lines) - first_extra > MOST_ADDED_PIECES:
            return OutlineTree.of(lines)
        alive = self.position >= 0
        position = np.full(len(self.position), -1, dtype=np.intp)
        position[alive] = now[self.position[alive]]
        extra = STRtree(lines[first_extra:]) if len(lines) > first_extra else None
        return OutlineTree(self.base, position, extra, first_extra)


def buckets_edited(
    buckets: SegmentBuckets, kept: NDArray[np.bool_], added: NDArray[np.float64]
) -> SegmentBuckets:
    """``buckets`` of an outline whose pieces where ``kept`` stay, in order (possibly
    shortened), and ``added`` follow: the kept ones in their buckets, the added ones in
    buckets of their own."""
    now = np.cumsum(kept) - 1
    entry_bucket = np.repeat(np.arange(len(buckets.boxes)), np.diff(buckets.starts))
    stays = kept[buckets.order]
    order = now[buckets.order[stays]]
    counts = np.bincount(entry_bucket[stays], minlength=len(buckets.boxes))
    starts = np.concatenate([[0], np.cumsum(counts)]).astype(np.intp)
    if len(added) == 0:
        return SegmentBuckets(order.astype(np.intp), starts, buckets.boxes)
    more = SegmentBuckets.of(added)
    return SegmentBuckets(
        np.concatenate([order, more.order + int(kept.sum())]).astype(np.intp),
        np.concatenate([starts, more.starts[1:] + starts[-1]]).astype(np.intp),
        np.concatenate([buckets.boxes, more.boxes]),
    )
