"""A token's picture: decoded once per image, scaled once per size, cropped to its footprint.

``TokenImages`` serves one scene's tokens from the document's image bytes: each image is
decoded once (and shrunk to ``DECODED_PX``, all a token ever needs), then scaled and cropped
once per device size, so a zoom level (``ZoomCache``'s bucket) scales it once and every
frame after copies pixels. ``paint_token_image`` is the one function that draws it.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Mapping

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QBrush, QImage, QPainter, QTransform

from battlemap.io.images import MAX_TOKEN_IMAGE_PIXELS
from battlemap.model.traits import TokenShape
from battlemap.ui.background_item import ImageDecodeError, decode_image

DECODED_PX = 512
"""Longest side of the decoded copy kept per image (a token wider on the screen than this
is drawn from it scaled up: few are, and only when zoomed far in)."""
SCALED_KEPT = 96
"""Scaled copies kept per scene (a hundred tokens of a few images at a few zoom levels)."""
DECODED_KEPT = 128
"""Decoded images kept per scene (at most 1 MiB each): a map with more distinct pictures
decodes the ones drawn again."""
LARGEST_SCALED_PX = 2 * DECODED_PX
"""Largest scaled copy: a token drawn wider is drawn from it scaled up by Qt."""


class TokenImages:
    """The decoded token images of one document, shared by a scene's tokens.

    ``images`` gives the document's image bytes by name (looked up each time: opening a file
    replaces them). Names are content hashes, so a name always means the same picture.
    """

    def __init__(self, images: Callable[[], Mapping[str, bytes]]) -> None:
        self.images = images
        self._decoded: OrderedDict[str, QImage | None] = OrderedDict()
        self._scaled: OrderedDict[tuple[str, int, TokenShape], QImage] = OrderedDict()
        self.errors: dict[str, str] = {}
        """Why an image could not be shown, by name (missing or undecodable)."""
        self.failed: list[Callable[[str, str], None]] = []
        """Told ``(name, reason)`` the first time an image can't be shown (the DM's status
        bar); the reason does not repeat the name."""

    def decoded(self, name: str) -> QImage | None:
        """The image ``name`` decoded (once), or None when missing or undecodable."""
        if name in self._decoded:
            self._decoded.move_to_end(name)
            return self._decoded[name]
        image = self._decoded[name] = self._decode(name)
        if len(self._decoded) > DECODED_KEPT:
            self._decoded.popitem(last=False)
        return image

    def _decode(self, name: str) -> QImage | None:
        data = self.images().get(name)
        if data is None:
            self._fail(name, "image missing")
            return None
        try:
            image = decode_token_image(data, name, DECODED_PX)
        except ImageDecodeError as error:
            self._fail(name, str(error).removeprefix(f"{name}: "))
            return None
        return image.convertToFormat(QImage.Format.Format_ARGB32_Premultiplied)

    def _fail(self, name: str, reason: str) -> None:
        first = name not in self.errors
        self.errors[name] = f"{name}: {reason}"
        if first:
            for listener in self.failed:
                listener(name, reason)

    def cropped(self, name: str, pixels: int, shape: TokenShape) -> QImage | None:
        """The picture filling a ``pixels`` square, centred and cut to cover it (no bars),
        masked to a disc for a circle; made once per size and shape."""
        key = (name, pixels, shape)
        found = self._scaled.get(key)
        if found is not None:
            self._scaled.move_to_end(key)
            return found
        image = self.decoded(name)
        if image is None or pixels <= 0:
            return None
        made = cover_crop(image, pixels, shape)
        self._scaled[key] = made
        if len(self._scaled) > SCALED_KEPT:
            self._scaled.popitem(last=False)
        return made


def decode_token_image(data: bytes, name: str, longest: int) -> QImage:
    """A token picture decoded and shrunk to ``longest`` pixels on its longer side at most.

    Raises:
        ImageDecodeError: it can't be decoded, or has more than ``MAX_TOKEN_IMAGE_PIXELS``.
    """
    image = decode_image(data, name)
    if image.width() * image.height() > MAX_TOKEN_IMAGE_PIXELS:
        raise ImageDecodeError(f"{name}: {image.width()}x{image.height()} is too large")
    if max(image.width(), image.height()) > longest:
        image = image.scaled(
            longest,
            longest,
            Qt.AspectRatioMode.KeepAspectRatio,
            Qt.TransformationMode.SmoothTransformation,
        )
    return image


def cover_crop(image: QImage, pixels: int, shape: TokenShape) -> QImage:
    """``image`` scaled to cover a ``pixels`` square, centred; outside a disc transparent
    for ``TokenShape.CIRCLE`` (antialiased edge)."""
    out = QImage(pixels, pixels, QImage.Format.Format_ARGB32_Premultiplied)
    out.fill(Qt.GlobalColor.transparent)
    scale = pixels / min(image.width(), image.height())
    brush = QBrush(image)
    brush.setTransform(
        QTransform(
            scale,
            0,
            0,
            scale,
            (pixels - image.width() * scale) / 2,
            (pixels - image.height() * scale) / 2,
        )
    )
    painter = QPainter(out)
    painter.setRenderHints(
        QPainter.RenderHint.Antialiasing | QPainter.RenderHint.SmoothPixmapTransform
    )
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(brush)
    if shape is TokenShape.CIRCLE:
        painter.drawEllipse(QRectF(0, 0, pixels, pixels))
    else:
        painter.drawRect(QRectF(0, 0, pixels, pixels))
    painter.end()
    return out


def paint_token_image(
    painter: QPainter, rect: QRectF, images: TokenImages, name: str, shape: TokenShape
) -> bool:
    """Draw the picture ``name`` into ``rect`` (local units) cropped to ``shape``, at the
    painter's device resolution; False (nothing drawn) when it cannot be shown."""
    world = painter.worldTransform()
    device = painter.device()
    ratio = device.devicePixelRatioF() if device is not None else 1.0
    pixels = round(rect.width() * abs(world.m11()) * ratio)
    picture = images.cropped(name, max(1, min(pixels, LARGEST_SCALED_PX)), shape)
    if picture is None:
        return False
    painter.drawImage(rect, picture)
    return True
