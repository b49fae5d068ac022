"""A QR code of the join address as a Qt image (``segno`` makes the code, Qt paints it)."""

from __future__ import annotations

import segno
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage, QPainter

QUIET_ZONE = 4
"""Light modules around the code, as the standard asks, so phone cameras find it."""


def qr_image(text: str, side_px: int = 280) -> QImage:
    """``text`` as a black-on-white QR code about ``side_px`` pixels square (whole pixels
    per module, so every module is as sharp as the others)."""
    code = segno.make(text, error="m")
    matrix = list(code.matrix_iter(scale=1, border=QUIET_ZONE))
    modules = len(matrix)
    scale = max(1, side_px // modules)
    image = QImage(modules * scale, modules * scale, QImage.Format.Format_RGB32)
    image.fill(Qt.GlobalColor.white)
    painter = QPainter(image)
    for row, line in enumerate(matrix):
        for column, dark in enumerate(line):
            if dark:
                painter.fillRect(column * scale, row * scale, scale, scale, Qt.GlobalColor.black)
    painter.end()
    return image
