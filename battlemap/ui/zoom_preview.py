"""While the DM zooms, the view shows its last sharp frame scaled; sharp again when idle.

A zoom step to a zoom never drawn before repaints every token, plate, grid and wall pixmap
(~35 ms on the bench map) and even a step inside the same zoom buckets redraws Qt's item
caches (~13 ms). During a wheel or pinch gesture the view instead draws the frame it held,
scaled by the change of transform since (one unsmoothed blit of the viewport, ~3 ms at
1920 x 1080); ``SETTLE_MS`` after the last step it paints sharply again. The frame held is
grabbed in idle time (``IDLE_GRAB_MS`` after the last sharp paint), so the first step of a
gesture rarely has to grab one itself.

While the scaled frame shows, the view's caches are filled for the zoom it is at, one piece
of the viewport per idle moment (``PIECES``): each piece is rendered sharp into a scratch
image, which paints the token, plate and map tile pixmaps it meets at this zoom. When the
steps settle, the sharp frame finds them made and only copies them (a step during the
pre-render starts it again at the new zoom; the caches key on the look, so a token whose
state changed meanwhile is painted anew).
"""

from __future__ import annotations

import math

from PySide6.QtCore import QRect, QRectF, Qt, QTimer
from PySide6.QtGui import QImage, QPainter, QPixmap, QTransform
from PySide6.QtWidgets import QGraphicsView

SETTLE_MS = 150
"""How long after the last zoom step the view paints sharply again."""
IDLE_GRAB_MS = 60
"""How long after a sharp paint the view grabs that frame, for the next gesture."""
PIECES = 3
"""The viewport is pre-rendered in PIECES x PIECES parts, one per idle moment: a part paints
a tile or two of the map layer and a ninth of the tokens (a few ms on the bench map)."""


class ZoomPreview:
    """The frame a view shows scaled during a zoom gesture (see the module docstring)."""

    def __init__(self, view: QGraphicsView) -> None:
        self._view = view
        self._frame: QPixmap | None = None
        self._frame_transform = QTransform()
        """The view's scene-to-viewport transform when ``_frame`` was grabbed."""
        self._grabbing = False
        self.active = False
        """A gesture is under way: paint the frame held, scaled."""
        self._settle = QTimer(view)
        self._settle.setSingleShot(True)
        self._settle.setInterval(SETTLE_MS)
        self._settle.timeout.connect(self.end)
        self._idle = QTimer(view)
        self._idle.setSingleShot(True)
        self._idle.setInterval(IDLE_GRAB_MS)
        self._idle.timeout.connect(self._grab)
        self._pieces_done = PIECES * PIECES
        """Pieces of the viewport pre-rendered at the current zoom (all: nothing to do)."""
        self._prerender = QTimer(view)
        self._prerender.setSingleShot(True)
        self._prerender.setInterval(0)  # when the events waiting are handled
        self._prerender.timeout.connect(self._prerender_next)
        self._scratch: QImage | None = None

    def step(self) -> None:
        """Call before a zoom step changes the view's transform."""
        if not self.active:
            if self._frame is None:
                self._grab()
            self.active = self._frame is not None
        self._settle.start()
        if self.active:
            self._pieces_done = 0  # the zoom changes: its pixmaps are made anew
            self._prerender.start()

    def end(self) -> None:
        """Back to sharp painting (the settle timer, or the DM pressing a button)."""
        self._settle.stop()
        self._prerender.stop()
        self._scratch = None
        if self.active:
            self.active = False
            self._frame = None
            self._view.viewport().update()

    def sharp_frame_painted(self) -> None:
        """The view painted itself: the frame held is out of date; grab anew when idle."""
        if self._grabbing:
            return
        self._frame = None
        self._idle.start()

    def paint(self, painter: QPainter) -> None:
        """The frame held, moved and scaled from where it was grabbed to the view's now."""
        assert self._frame is not None
        grabbed, invertible = self._frame_transform.inverted()
        moved = grabbed * self._view.viewportTransform()  # its pixels -> the scene -> now
        view_rect = QRectF(self._view.viewport().rect())
        if not invertible or not moved.mapRect(QRectF(self._frame.rect())).contains(view_rect):
            brush = self._view.backgroundBrush()  # the edges uncovered when zooming out
            scene = self._view.scene()
            if brush.style() == Qt.BrushStyle.NoBrush and scene is not None:
                brush = scene.backgroundBrush()
            painter.fillRect(view_rect, brush)
        if invertible:
            painter.setTransform(moved)
            painter.drawPixmap(0, 0, self._frame)

    def _grab(self) -> None:
        viewport = self._view.viewport()
        if not viewport.isVisible() or viewport.width() <= 0 or viewport.height() <= 0:
            return
        self._grabbing = True
        try:
            self._frame = viewport.grab()
        finally:
            self._grabbing = False
        self._frame_transform = self._view.viewportTransform()

    def prerender_pending(self) -> bool:
        """Pieces of the viewport wait to be pre-rendered at the current zoom."""
        return self.active and self._pieces_done < PIECES * PIECES

    def prerender_piece(self) -> None:
        """Render the next piece of the viewport sharp into a scratch image (see the module
        docstring); the idle timer calls it, a benchmark may too."""
        if not self.prerender_pending():
            return
        viewport = self._view.viewport()
        w, h = viewport.width(), viewport.height()
        if w <= 0 or h <= 0:
            return
        row, column = divmod(self._pieces_done, PIECES)
        self._pieces_done += 1
        left, right = w * column // PIECES, w * (column + 1) // PIECES
        top, bottom = h * row // PIECES, h * (row + 1) // PIECES
        ratio = viewport.devicePixelRatioF()
        scratch = self._scratch
        size_px = (math.ceil((w // PIECES + 1) * ratio), math.ceil((h // PIECES + 1) * ratio))
        if scratch is None or (scratch.width(), scratch.height()) != size_px:
            scratch = QImage(*size_px, QImage.Format.Format_ARGB32_Premultiplied)
            scratch.setDevicePixelRatio(ratio)  # the same device pixels: the same cache keys
            self._scratch = scratch
        painter = QPainter(scratch)
        painter.setRenderHints(self._view.renderHints())
        source = QRect(left, top, right - left, bottom - top)
        # Source and target of one size: the piece is drawn by the view's own transform,
        # moved by whole pixels, so the map's tiles are the ones the sharp frame will use.
        self._view.render(painter, QRectF(0, 0, source.width(), source.height()), source)
        painter.end()

    def _prerender_next(self) -> None:
        self.prerender_piece()
        if self.prerender_pending():
            self._prerender.start()
