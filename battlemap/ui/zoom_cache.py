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


TILE_PX = 512
"""Side of a map layer's tiles on the device, zoomed in past its whole-map pixmap."""
TILES_KEPT = 40
"""Tiles kept per layer (1 MB each): two screens' worth at 1920 x 1080."""

PaintPart = Callable[[QPainter, QRectF], None]
"""Paints the part of an item inside a rect of its own coordinates (the rest may be left out)."""


class TiledZoomCache(ZoomCache):
    """A map layer's ``ZoomCache`` that, zoomed in past ``largest_px``, draws the layer from
    square tiles of ``TILE_PX`` device pixels instead of painting it directly: a frame
    copies the tiles it shows, a pan paints only the tiles that come into view.

    Tiles are keyed by the exact scale and the item's sub-pixel phase on the device (a pan
    moves it by whole pixels, keeping both), so neighbouring tiles always abut exactly; a
    zoom to a new scale paints the tiles it shows again (the zoom preview covers the steps).
    """

    def __init__(
        self,
        largest_px: int = LARGEST_CACHED_PX,
        kept: int = BUCKETS_KEPT,
        tile_px: int = TILE_PX,
        tiles_kept: int = TILES_KEPT,
    ) -> None:
        super().__init__(largest_px, kept)
        self.tile_px = tile_px
        self.tiles_kept = tiles_kept
        self._tiles: dict[Hashable, tuple[QPixmap, int, int]] = {}

    def clear(self) -> None:
        super().clear()
        self._tiles.clear()

    def tile_count(self) -> int:
        return len(self._tiles)

    def draw_parts(
        self,
        painter: QPainter,
        bounds: QRectF,
        look: Hashable,
        paint_part: PaintPart,
        exposed: QRectF,
    ) -> None:
        """As ``draw``, but zoomed in past ``largest_px`` from the tiles over ``exposed``
        (local coordinates), each painted by ``paint_part`` once for its own rect."""
        world = painter.worldTransform()
        scale = world.m11()
        ratio = painter.device().devicePixelRatioF()
        pixels = scale * ratio
        extent = max(bounds.width(), bounds.height()) * pixels
        plain = not (world.m12() or world.m21() or scale <= 0 or world.m22() != scale)
        if extent <= self.largest_px or not plain or painter.opacity() < 1.0:
            self.draw(
                painter,
                bounds,
                look,
                lambda into: paint_part(into, exposed if into is painter else bounds),
            )
            return
        origin_x, origin_y = world.dx() * ratio, world.dy() * ratio
        base_x, base_y = math.floor(origin_x), math.floor(origin_y)
        phase = (round(pixels, 9), round(origin_x - base_x, 4), round(origin_y - base_y, 4))
        tile = self.tile_px
        # The item's device rect and the exposed part, from the item's whole-pixel origin.
        item = QRectF(bounds.topLeft() * pixels, bounds.bottomRight() * pixels)
        shown = QRectF(exposed.topLeft() * pixels, exposed.bottomRight() * pixels)
        device = painter.device()
        on_device = QRectF(-origin_x, -origin_y, device.width() * 1.0, device.height() * 1.0)
        if painter.hasClipping():  # (logical units: the world transform maps them)
            clip = painter.clipBoundingRect()
            on_device = on_device.intersected(
                QRectF(
                    (clip.left() * scale + world.dx()) * ratio - origin_x,
                    (clip.top() * scale + world.dy()) * ratio - origin_y,
                    clip.width() * pixels,
                    clip.height() * pixels,
                )
            )
        shown = shown.intersected(item).intersected(on_device)  # only what can show
        if shown.isEmpty():
            return
        first_i, last_i = math.floor(shown.left() / tile), math.floor(shown.right() / tile)
        first_j, last_j = math.floor(shown.top() / tile), math.floor(shown.bottom() / tile)
        if ratio == 1.0:
            painter.resetTransform()
        else:
            painter.setWorldTransform(QTransform.fromScale(1 / ratio, 1 / ratio))
        for j in range(first_j, last_j + 1):
            for i in range(first_i, last_i + 1):
                key = (look, phase, i, j)
                entry = self._tiles.pop(key, None)  # re-inserted last: the newest
                if entry is None:
                    entry = self._paint_tile(
                        painter, pixels, origin_x - base_x, origin_y - base_y, i, j, paint_part
                    )
                    if len(self._tiles) >= self.tiles_kept:
                        del self._tiles[next(iter(self._tiles))]  # the least recently drawn
                self._tiles[key] = entry
                pixmap, left, top = entry
                painter.drawPixmap(base_x + left, base_y + top, pixmap)
        painter.setWorldTransform(world)

    def _paint_tile(
        self,
        painter: QPainter,
        pixels: float,
        phase_x: float,
        phase_y: float,
        i: int,
        j: int,
        paint_part: PaintPart,
    ) -> tuple[QPixmap, int, int]:
        """Tile ``(i, j)``: device pixels ``[i * tile, (i + 1) * tile)`` across (and so down)
        from the item's whole-pixel origin, whose fraction is ``phase``."""
        tile = self.tile_px
        left, top = i * tile, j * tile
        pixmap = QPixmap(tile, tile)
        pixmap.fill(Qt.GlobalColor.transparent)
        into = QPainter(pixmap)
        into.setRenderHints(painter.renderHints())
        to_tile = QTransform(pixels, 0, 0, pixels, phase_x - left, phase_y - top)
        into.setWorldTransform(to_tile)
        part = QRectF(
            (left - phase_x) / pixels, (top - phase_y) / pixels, tile / pixels, tile / pixels
        )
        paint_part(into, part)
        into.end()
        return pixmap, left, top
