"""The map image as phones get it: cut to what the players may see, and downscaled; token
pictures shrunk to what a phone draws.

Runs on the share server's worker thread: only ``QImage`` is used (Qt allows it off the GUI
thread), never ``QPixmap``.
"""

from __future__ import annotations

from PySide6.QtCore import QBuffer, QIODevice, QRect, Qt
from PySide6.QtGui import QImage, QPainter

from battlemap.ui.background_item import ImageDecodeError, decode_image
from battlemap.ui.share.server import MapSource, PreparedImage
from battlemap.ui.token_image import decode_token_image

TOKEN_SIDE = 256
"""Longest side of a served token picture (a token on a phone is a few dozen pixels)."""
MAX_SIDE = 2048
"""Longest side of the served image: sharp on a phone or tablet, a few hundred KB."""
JPEG_QUALITY = 85


def prepare_map_image(source: MapSource) -> PreparedImage | None:
    """Crop to ``source.clip``, scale to ``MAX_SIDE`` at most, encode as JPEG.

    None when the image cannot be decoded: the page then shows the paper map, as the
    players' window does."""
    try:
        image = decode_image(source.data, source.background.image)
    except ImageDecodeError:
        return None
    background = source.background
    ppc = background.pixels_per_cell
    area = image.rect()
    if source.clip is not None:
        x, y, width, height = source.clip
        area = QRect(
            round(background.offset_x + x * ppc),
            round(background.offset_y + y * ppc),
            round(width * ppc),
            round(height * ppc),
        ).intersected(image.rect())
        if area.isEmpty():
            return None
        image = image.copy(area)
    scale = min(1.0, MAX_SIDE / max(image.width(), image.height()))
    if scale < 1.0:
        image = image.scaled(
            max(1, round(image.width() * scale)),
            max(1, round(image.height() * scale)),
            Qt.AspectRatioMode.IgnoreAspectRatio,
            Qt.TransformationMode.SmoothTransformation,
        )
    data, content_type = _encode(image)
    return PreparedImage(
        data=data,
        content_type=content_type,
        width=image.width(),
        height=image.height(),
        pixels_per_cell=ppc * scale,
        offset_x=(background.offset_x - area.x()) * scale,
        offset_y=(background.offset_y - area.y()) * scale,
    )


def prepare_token_image(data: bytes, name: str) -> PreparedImage | None:
    """A token picture at ``TOKEN_SIDE`` at most, as PNG (its transparency kept); None when
    it cannot be decoded or is too large (the page then draws the disc, as the players'
    window does)."""
    try:
        image = decode_token_image(data, name, TOKEN_SIDE)
    except ImageDecodeError:
        return None
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")  # type: ignore[call-overload]  # PySide6 takes str
    return PreparedImage(
        bytes(buffer.data().data()), "image/png", image.width(), image.height(), 1.0, 0.0, 0.0
    )


def _encode(image: QImage) -> tuple[bytes, str]:
    """JPEG bytes; transparent parts become black, as on the players' window."""
    if image.hasAlphaChannel():
        opaque = QImage(image.size(), QImage.Format.Format_RGB32)
        opaque.fill(Qt.GlobalColor.black)
        painter = QPainter(opaque)
        painter.drawImage(0, 0, image)
        painter.end()
        image = opaque
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "JPEG", JPEG_QUALITY)  # type: ignore[call-overload]  # PySide6 takes str
    return bytes(buffer.data().data()), "image/jpeg"
