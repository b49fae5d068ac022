"""While the DM zooms, the view shows its last sharp frame scaled; sharp again when idle.

A zoom step to a zoom never drawn before repaints every token, plate, grid and wall pixmap
(~35 ms on the bench map) and even a step inside the same zoom buckets redraws Qt's item
caches (~13 ms). During a wheel or pinch gesture the view instead draws the frame it held,
scaled by the change of transform since (one unsmoothed blit of the viewport, ~3 ms at
1920 x 1080); ``SETTLE_MS`` after the last step it paints sharply again. The frame held is
grabbed in idle time (``IDLE_GRAB_MS`` after the last sharp paint), so the first step of a
gesture rarely has to grab one itself.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt, QTimer
from PySide6.QtGui import QPainter, QPixmap, QTransform
from PySide6.QtWidgets import QGraphicsView

SETTLE_MS = 150
"""How long after the last zoom step the view paints sharply again."""
IDLE_GRAB_MS = 60
"""How long after a sharp paint the view grabs that frame, for the next gesture."""


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

    def step(self) -> None:
        """Call before a zoom step changes the view's transform."""
        if not self.active:
            if self._frame is None:
                self._grab()
            self.active = self._frame is not None
        self._settle.start()

    def end(self) -> None:
        """Back to sharp painting (the settle timer, or the DM pressing a button)."""
        self._settle.stop()
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
