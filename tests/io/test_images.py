"""Image sniffing from headers (no decoding) and plain image maps."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

from battlemap.io.errors import FileFormatError
from battlemap.io.images import ImageFormat, ImageFormatError, sniff_image
from battlemap.io.map_import import grid_for_image, import_image_map
from battlemap.model import Document, Encounter, Wall

FIXTURES = Path(__file__).parent / "fixtures"


def jpeg_header(width: int, height: int) -> bytes:
    app0 = b"\xff\xe0" + struct.pack(">H", 16) + b"JFIF\x00" + bytes(9)
    sof2 = b"\xff\xc2" + struct.pack(">HBHHB", 11, 8, height, width, 1) + bytes(3)
    return b"\xff\xd8" + app0 + sof2 + b"\xff\xda"


def webp_header(chunk: bytes, body: bytes) -> bytes:
    return b"RIFF" + struct.pack("<I", 4 + 8 + len(body)) + b"WEBP" + chunk + bytes(4) + body


def test_png_size_from_ihdr() -> None:
    info = sniff_image((FIXTURES / "tiny.png").read_bytes(), "tiny.png")
    assert (info.format, info.width, info.height) == (ImageFormat.PNG, 40, 30)


def test_jpeg_size_from_a_progressive_frame_after_app0() -> None:
    info = sniff_image(jpeg_header(1200, 800), "x.jpg")
    assert (info.format, info.width, info.height) == (ImageFormat.JPEG, 1200, 800)
    assert info.format.suffix == ".jpg"


@pytest.mark.parametrize(
    ("chunk", "body", "size"),
    [
        (b"VP8 ", bytes(3) + b"\x9d\x01\x2a" + struct.pack("<HH", 2048, 1024), (2048, 1024)),
        (b"VP8L", b"\x2f" + ((300 - 1) | ((200 - 1) << 14)).to_bytes(4, "little"), (300, 200)),
        (
            b"VP8X",
            bytes(4) + (5000 - 1).to_bytes(3, "little") + (7 - 1).to_bytes(3, "little"),
            (5000, 7),
        ),
    ],
)
def test_webp_lossy_lossless_and_extended(chunk: bytes, body: bytes, size: tuple[int, int]) -> None:
    info = sniff_image(webp_header(chunk, body), "x.webp")
    assert (info.format, info.width, info.height) == (ImageFormat.WEBP, *size)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"GIF89a" + bytes(30), "not a PNG, JPEG or WEBP image"),
        (b"", "not a PNG, JPEG or WEBP image"),
        (b"\x89PNG\r\n\x1a\n\x00\x00", "damaged PNG header"),
        (b"\xff\xd8\xff\xda", "damaged JPEG header"),
        (jpeg_header(0, 10), "JPEG image of 0x10 pixels"),
        (jpeg_header(65535, 65535), "65535x65535 pixels is larger than"),
        (webp_header(b"VP8X", bytes(4) + b"\xff\xff\x00" * 2), "65536x65536 pixels"),
    ],
)
def test_bad_or_huge_images_are_refused_from_the_header(data: bytes, message: str) -> None:
    with pytest.raises(ImageFormatError, match=message):
        sniff_image(data, "map.png")


def test_grid_for_image_rounds_partial_cells_up_and_clamps() -> None:
    assert (grid_for_image(1000, 750, 100).width, grid_for_image(1000, 750, 100).height) == (10, 8)
    assert grid_for_image(60000, 10, 1).width == 1000
    assert grid_for_image(10, 10, 100).height == 1


def test_image_map_keeps_walls_and_undo_restores_background(tmp_path: Path) -> None:
    result = import_image_map(FIXTURES / "tiny.png", pixels_per_cell=10)
    assert (result.grid.width, result.grid.height) == (4, 3)
    wall = Wall(a=(0, 0), b=(1, 0))
    document = Document(Encounter(walls=(wall,)))
    name = document.add_image(result.image, result.image_info.format.suffix)
    command = result.command(document.encounter, name)
    document.apply(command)
    assert document.encounter.walls == (wall,)
    assert document.encounter.background is not None
    assert document.encounter.background.pixels_per_cell == 10
    document.revert(command)
    assert document.encounter.background is None


def test_image_map_rejects_a_text_file(tmp_path: Path) -> None:
    path = tmp_path / "map.png"
    path.write_text("hello")
    with pytest.raises(FileFormatError, match=r"map\.png: file: not a PNG"):
        import_image_map(path)
