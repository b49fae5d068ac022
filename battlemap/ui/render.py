"""Render a scene to an image without a window (smoke checks, thumbnails, pixel probes)."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QGraphicsScene


def render_scene(scene: QGraphicsScene, source: QRectF, width: int) -> QImage:
    """Draw ``source`` (scene coordinates) into a new image ``width`` pixels wide."""
    height = max(1, round(width * source.height() / source.width()))
    image = QImage(width, height, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    scene.render(painter, QRectF(0, 0, width, height), source)
    painter.end()
    return image
