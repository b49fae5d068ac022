"""Recognise map images (PNG, JPEG, WEBP) and read their size from the header alone.

No pixels are decoded here and Qt is not imported: the size is checked against
``MAX_IMAGE_PIXELS`` *before* anything decodes the image, so a small file that declares a
huge canvas (a decompression bomb) is refused with a message instead of eating the memory.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from battlemap.io.bounded import read_bounded
from battlemap.io.errors import FileFormatError

MAX_IMAGE_PIXELS = 64_000_000
"""Largest image accepted, in pixels: 64 MP is 256 MB decoded as 32-bit colour, and more
than a 48 x 27 cell Dungeondraft map exported at 256 pixels per cell (12288 x 6912 = 85 MP)
would need; such maps are exported at 128 or 200 pixels per cell in practice."""
MAX_IMAGE_SIDE = 65_535
"""Qt and most decoders refuse larger sides anyway."""
MAX_IMAGE_FILE_BYTES = 256 * 1024 * 1024
MAX_TOKEN_IMAGE_PIXELS = 4096 * 4096
"""Largest token image, in pixels: a token is drawn a few hundred pixels wide at most, so
more only costs memory (and every creature may have its own)."""
MAX_TOKEN_IMAGE_FILE_BYTES = 16 * 1024 * 1024


class ImageFormat(StrEnum):
    PNG = "png"
    JPEG = "jpeg"
    WEBP = "webp"

    @property
    def suffix(self) -> str:
        """The file suffix images of this format are stored under, with the dot."""
        return ".jpg" if self is ImageFormat.JPEG else f".{self.value}"


@dataclass(frozen=True)
class ImageInfo:
    """What the header of an image says: its format and its size in pixels."""

    format: ImageFormat
    width: int
    height: int

    @property
    def pixels(self) -> int:
        return self.width * self.height


class ImageFormatError(FileFormatError):
    """Bytes that are not a PNG, JPEG or WEBP image, or one too large to open."""


_JPEG_SOF_MARKERS = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}
"""Start-of-frame markers (baseline, progressive, lossless...): not DHT, JPG or DAC."""


def _png_size(data: bytes) -> tuple[int, int] | None:
    # Signature (8), IHDR length (4), "IHDR" (4), width (4), height (4).
    if len(data) < 24 or data[12:16] != b"IHDR":
        return None
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    position = 2
    while position + 4 <= len(data):
        if data[position] != 0xFF:
            return None
        marker = data[position + 1]
        if marker == 0xFF:  # fill byte before a marker
            position += 1
            continue
        if marker in (0x01, *range(0xD0, 0xD8)):  # markers without a length
            position += 2
            continue
        (length,) = struct.unpack(">H", data[position + 2 : position + 4])
        if length < 2:
            return None
        if marker in _JPEG_SOF_MARKERS:
            if position + 9 > len(data):
                return None
            height, width = struct.unpack(">HH", data[position + 5 : position + 9])
            return width, height
        if marker == 0xDA:  # start of scan before any frame header
            return None
        position += 2 + length
    return None


def _webp_size(data: bytes) -> tuple[int, int] | None:
    chunk = data[12:16]
    if chunk == b"VP8 " and len(data) >= 30 and data[23:26] == b"\x9d\x01\x2a":
        width, height = struct.unpack("<HH", data[26:30])
        return width & 0x3FFF, height & 0x3FFF
    if chunk == b"VP8L" and len(data) >= 25 and data[20] == 0x2F:
        bits = int.from_bytes(data[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8X" and len(data) >= 30:
        width = int.from_bytes(data[24:27], "little") + 1
        height = int.from_bytes(data[27:30], "little") + 1
        return width, height
    return None


def sniff_image(
    data: bytes,
    source: Path | str,
    field: str = "image",
    max_pixels: int = MAX_IMAGE_PIXELS,
    max_bytes: int = MAX_IMAGE_FILE_BYTES,
) -> ImageInfo:
    """Identify an image by its magic bytes and read its size from the header.

    Args:
        data: the image file's bytes (only the header is read).
        source: the file the bytes came from, for messages.
        field: where in that file the image was, for messages ("image" for a UVTT file).
        max_pixels, max_bytes: the bounds (a map image's by default; a token's are smaller).

    Returns:
        The format and size, already checked against ``MAX_IMAGE_SIDE`` and
        ``MAX_IMAGE_PIXELS``.

    Raises:
        ImageFormatError: not a PNG, JPEG or WEBP; a header too short or damaged to give a
            size; a zero side; or more pixels than allowed.
    """
    if len(data) > max_bytes:
        raise ImageFormatError(
            source, f"{field}: {len(data)} bytes, more than the {max_bytes} allowed"
        )
    size: tuple[int, int] | None
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        kind, size = ImageFormat.PNG, _png_size(data)
    elif data.startswith(b"\xff\xd8\xff"):
        kind, size = ImageFormat.JPEG, _jpeg_size(data)
    elif data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        kind, size = ImageFormat.WEBP, _webp_size(data)
    else:
        raise ImageFormatError(
            source, f"{field}: not a PNG, JPEG or WEBP image (starts with {data[:8].hex(' ')})"
        )
    if size is None:
        raise ImageFormatError(source, f"{field}: damaged {kind.name} header, no image size")
    width, height = size
    if width == 0 or height == 0:
        raise ImageFormatError(source, f"{field}: {kind.name} image of {width}x{height} pixels")
    if max(width, height) > MAX_IMAGE_SIDE or width * height > max_pixels:
        raise ImageFormatError(
            source,
            f"{field}: {kind.name} image of {width}x{height} pixels is larger than the "
            f"{max_pixels / 1_000_000:g} megapixels Battlemap opens",
        )
    return ImageInfo(kind, width, height)


def read_image_file(path: Path) -> tuple[bytes, ImageInfo]:
    """Read an image file whose size is checked before its bytes are read.

    Raises:
        FileFormatError: missing or unreadable file; ImageFormatError as ``sniff_image``.
    """
    data = read_bounded(path, MAX_IMAGE_FILE_BYTES)
    return data, sniff_image(data, path, field="file")


def read_token_image_file(path: Path) -> tuple[bytes, ImageInfo]:
    """Read an image file for a token, within the token bounds (``MAX_TOKEN_IMAGE_*``).

    Raises:
        FileFormatError: missing or unreadable file; ImageFormatError as ``sniff_image``.
    """
    data = read_bounded(path, MAX_TOKEN_IMAGE_FILE_BYTES)
    return data, sniff_token_image(data, path, "file")


def sniff_token_image(data: bytes, source: Path | str, field: str) -> ImageInfo:
    """``sniff_image`` within the token bounds."""
    return sniff_image(data, source, field, MAX_TOKEN_IMAGE_PIXELS, MAX_TOKEN_IMAGE_FILE_BYTES)
