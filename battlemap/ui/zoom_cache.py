"""Pixmaps of an item's look, one per zoom bucket, drawn 1:1 on the screen's pixels.

Qt's ``DeviceCoordinateCache`` throws its pixmap away on any change of scale, so every zoom
step (and every frame of a pinch) repaints every token in Python. ``ZoomCache`` keeps a few
pixmaps per item, keyed by the item's look and its zoom bucket: the item's size on the device
in half pixels (the device pixel ratio included). Within a bucket the pixmap is drawn
unscaled at the nearest device pixel, so it stays as crisp as painting directly; its size is
off by at most a quarter of a pixel and its place by at most half a pixel (as Qt's own cache
after a move).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QPainter, QPixmap, QTransform

BUCKETS_KEPT = 3
"""Pixmaps kept per item: the zoom levels last drawn (a zoom step in and back out hits)."""
LARGEST_CACHED_PX = 256
"""Tokens and plates wider or taller than this on the device are painted directly: few fit
on the screen, and a hundred tokens' pixmaps stay under ~80 MB at any zoom."""
_PAD_PX = 1
"""Device pixels of room around the item's bounds for antialiasing."""

Paint = Callable[[QPainter], None]


class ZoomCache:
    """One item's pixmaps: ``draw`` paints from them, ``clear`` forgets them (a new look)."""

    def __init__(self, largest_px: int = LARGEST_CACHED_PX, kept: int = BUCKETS_KEPT) -> None:
        self.largest_px = largest_px
        self.kept = kept
        self._pixmaps: dict[Hashable, tuple[QPixmap, float, float]] = {}

    def clear(self) -> None:
        self._pixmaps.clear()

    def __len__(self) -> int:
        return len(self._pixmaps)

    def draw(self, painter: QPainter, bounds: QRectF, look: Hashable, paint: Paint) -> None:
        """Draw the item whose local ``bounds`` ``paint`` fills, from the pixmap of ``look``
        at this zoom (painted into one first if there is none).

        Painted directly, not cached: a see-through painter (the pixmap faded as one would
        blend differently from its parts faded one by one), a rotated or mirrored view, and
        an item larger than ``largest_px`` on the device.

        Runs for every item on every frame: it makes as few calls into Qt as it can.
        """
        world = painter.worldTransform()
        scale = world.m11()
        if world.m12() or world.m21() or scale <= 0 or world.m22() != scale:
            paint(painter)
            return
        if painter.opacity() < 1.0:
            paint(painter)
            return
        ratio = painter.device().devicePixelRatioF()
        pixels = scale * ratio  # device pixels per scene unit
        extent = max(bounds.width(), bounds.height()) * pixels
        if extent > self.largest_px:
            paint(painter)
            return
        key = (look, round(2 * extent))
        entry = self._pixmaps.get(key)
        origin_x, origin_y = world.dx() * ratio, world.dy() * ratio
        if entry is None:
            entry = self._paint_into_pixmap(painter, bounds, pixels, origin_x, origin_y, paint)
            if len(self._pixmaps) >= self.kept:
                del self._pixmaps[next(iter(self._pixmaps))]  # the oldest
            self._pixmaps[key] = entry
        pixmap, dx, dy = entry
        if ratio == 1.0:
            painter.resetTransform()
        else:  # device pixels
            painter.setWorldTransform(QTransform.fromScale(1 / ratio, 1 / ratio))
        painter.drawPixmap(round(origin_x + dx), round(origin_y + dy), pixmap)
        painter.setWorldTransform(world)

    @staticmethod
    def _paint_into_pixmap(
        painter: QPainter,
        bounds: QRectF,
        pixels: float,
        origin_x: float,
        origin_y: float,
        paint: Paint,
    ) -> tuple[QPixmap, float, float]:
        """The item painted as it would be on the device now, and where the pixmap's top-left
        corner lies from the item's origin (device pixels)."""
        left = math.floor(origin_x + bounds.left() * pixels) - _PAD_PX
        top = math.floor(origin_y + bounds.top() * pixels) - _PAD_PX
        right = math.ceil(origin_x + bounds.right() * pixels) + _PAD_PX
        bottom = math.ceil(origin_y + bounds.bottom() * pixels) + _PAD_PX
        pixmap = QPixmap(right - left, bottom - top)
        pixmap.fill(Qt.GlobalColor.transparent)
        into = QPainter(pixmap)
        into.setRenderHints(painter.renderHints())
        into.setWorldTransform(QTransform(pixels, 0, 0, pixels, origin_x - left, origin_y - top))
        paint(into)
        into.end()
        return pixmap, left - origin_x, top - origin_y
