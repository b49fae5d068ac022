"""Image sniffing from headers (no decoding) and plain image maps."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from battlemap.io.errors import FileFormatError
from battlemap.io.images import ImageFormat, ImageFormatError, sniff_image
from battlemap.io.map_import import align_grid, grid_for_image, import_image_map
from battlemap.model import Background, Document, Encounter, Grid, Wall
from battlemap.model.limits import MAX_MAP_CELLS

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
    assert grid_for_image(60000, 10, 1).width == MAX_MAP_CELLS
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


# --- grid alignment from two clicked corners -------------------------------------------------


def background_for(ppc: float = 100) -> Background:
    return Background(image="map.png", pixels_per_cell=ppc)


def test_align_grid_from_two_diagonal_corners() -> None:
    # True grid: 70 px cells, first line at x=15, y=30 on a 1000 x 800 image.
    first, second = (15 + 70 * 2, 30 + 70 * 1), (15 + 70 * 5, 30 + 70 * 4)
    background, grid = align_grid(background_for(), (1000, 800), first, second, 3, Grid())
    assert background.pixels_per_cell == pytest.approx(70)
    assert (background.offset_x, background.offset_y) == pytest.approx((15, 30))
    assert (grid.width, grid.height) == (15, 11)  # 985/70 = 14.07 -> 15; 770/70 = 11
    assert background.image == "map.png"


def test_align_grid_along_one_line_ignores_the_other_axis() -> None:
    background, _ = align_grid(background_for(), (2000, 900), (15, 30), (715, 30.4), 10, Grid())
    assert background.pixels_per_cell == pytest.approx(70)


def test_align_grid_refuses_nonsense() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        align_grid(background_for(), (100, 100), (0, 0), (50, 50), 0, Grid())
    with pytest.raises(ValueError, match="less than 4 pixels per cell"):
        align_grid(background_for(), (100, 100), (0, 0), (3, 3), 1, Grid())


@given(
    ppc=st.floats(min_value=20, max_value=300),
    offset=st.tuples(st.floats(0, 0.99), st.floats(0, 0.99)),
    a=st.tuples(st.integers(0, 10), st.integers(0, 10)),
    steps=st.tuples(st.integers(1, 10), st.integers(0, 10)),
)
def test_align_grid_recovers_any_grid(
    ppc: float, offset: tuple[float, float], a: tuple[int, int], steps: tuple[int, int]
) -> None:
    origin = (offset[0] * ppc, offset[1] * ppc)
    first = (origin[0] + a[0] * ppc, origin[1] + a[1] * ppc)
    second = (first[0] + steps[0] * ppc, first[1] + steps[1] * ppc)
    background, _ = align_grid(background_for(), (5000, 5000), first, second, max(steps), Grid())
    assert background.pixels_per_cell == pytest.approx(ppc)
    for found, true in zip((background.offset_x, background.offset_y), origin, strict=True):
        assert min(abs(found - true), abs(found - true - ppc), abs(found - true + ppc)) < 1e-6
