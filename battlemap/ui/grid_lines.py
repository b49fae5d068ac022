"""The grid's cell lines, drawn as two tiled strips instead of two hundred lines.

An antialiased line is rasterised pixel by pixel, so the ~200 lines of a fitted 100 x 100
grid cost ~5 ms a frame. Every row of the vertical lines looks the same (and every column of
the horizontal ones), so each set is drawn once, with the same pen and hints, into a strip
one device pixel thick (the horizontal lines' a little wider), and the strip fills the
lines' area as a tiled brush: the same pixels at a fraction of the cost. Only for views that
don't rotate; others get the lines themselves. Filling costs per pixel of the area, so it
pays where lines are dense on the screen (the grid's zoom cache uses it).
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QImage, QPainter, QPen, QTransform

_SCALE_ONLY = QTransform.TransformationType.TxScale.value
_OVERHANG = 4.0
"""Device pixels the lines drawn into a strip run past it, so their caps stay outside."""
_DOWN_WIDTH = 64
"""Width of the horizontal lines' strip: a brush tiles across in steps of its width (a
one-pixel strip costs ~50x more to fill than this)."""


def draw_grid_lines(
    painter: QPainter, pen: QPen, xs: Sequence[float], ys: Sequence[float], area: QRectF
) -> None:
    """Vertical lines at ``xs`` and horizontal lines at ``ys`` (item coordinates), each
    spanning ``area``, as ``painter.drawLines`` would draw them with ``pen``."""
    world = painter.worldTransform()
    device = painter.device()
    if world.type().value > _SCALE_ONLY or device is None or area.isEmpty():
        painter.setPen(pen)
        painter.drawLines(
            [QLineF(x, area.top(), x, area.bottom()) for x in xs]
            + [QLineF(area.left(), y, area.right(), y) for y in ys]
        )
        return
    ratio = device.devicePixelRatioF()
    on_device = world * QTransform.fromScale(ratio, ratio)
    # The lines' area on the device, a pixel wider all round for the antialiased edges.
    box = on_device.mapRect(area).toAlignedRect().adjusted(-1, -1, 1, 1)
    left, top, width, height = box.left(), box.top(), box.width(), box.height()
    columns = [on_device.map(QPointF(x, 0)).x() - left for x in xs]
    rows = [on_device.map(QPointF(0, y)).y() - top for y in ys]
    hints = painter.renderHints()
    vertical = [QLineF(x, -_OVERHANG, x, 1 + _OVERHANG) for x in columns]
    horizontal = [QLineF(-_OVERHANG, y, _DOWN_WIDTH + _OVERHANG, y) for y in rows]
    across = _strip(width, 1, hints, pen, ratio, vertical)
    down = _strip(_DOWN_WIDTH, height, hints, pen, ratio, horizontal)
    painter.setWorldTransform(QTransform.fromScale(1 / ratio, 1 / ratio))
    # Pixel-aligned and unscaled: no smoothing or antialiasing, which would only slow it.
    painter.setRenderHints(
        QPainter.RenderHint.Antialiasing | QPainter.RenderHint.SmoothPixmapTransform, False
    )
    for strip in (across, down):
        brush = QBrush(strip)
        brush.setTransform(QTransform.fromTranslate(left, top))
        painter.fillRect(box, brush)
    painter.setRenderHints(hints)
    painter.setWorldTransform(world)


def _strip(
    width: int,
    height: int,
    hints: QPainter.RenderHint,
    pen: QPen,
    ratio: float,
    lines: list[QLineF],
) -> QImage:
    """``lines`` (device pixels from the strip's corner) drawn into a transparent strip, by a
    painter that behaves as the one on the device (the same hints and pixel ratio)."""
    strip = QImage(max(1, width), max(1, height), QImage.Format.Format_ARGB32_Premultiplied)
    strip.fill(Qt.GlobalColor.transparent)
    strip.setDevicePixelRatio(ratio)
    into = QPainter(strip)
    into.setRenderHints(hints)
    into.setPen(pen)
    into.setWorldTransform(QTransform.fromScale(1 / ratio, 1 / ratio))
    into.drawLines(lines)
    into.end()
    strip.setDevicePixelRatio(1.0)  # filled in device pixels
    return strip
