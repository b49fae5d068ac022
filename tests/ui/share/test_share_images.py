"""The map image as phones get it: cut to the part the players may see, downscaled, and
placed on the grid by the state's numbers."""

from __future__ import annotations

import time

from PySide6.QtCore import QBuffer, QIODevice
from PySide6.QtGui import QColor, QImage, QPainter

from battlemap.model.encounter import Background
from battlemap.ui.share.images import MAX_SIDE, prepare_map_image
from battlemap.ui.share.server import MapSource, ShareServer
from tests.ui.share.conftest import TIMEOUT_S, get, small_encounter, snapshot_of

RED, BLUE, GREEN = QColor(220, 30, 30), QColor(30, 30, 220), QColor(30, 200, 30)


def two_halves(width: int, height: int, split_x: int) -> bytes:
    """Red left of ``split_x``, blue right of it, a green band above y = 100."""
    image = QImage(width, height, QImage.Format.Format_RGB32)
    image.fill(RED)
    painter = QPainter(image)
    painter.fillRect(split_x, 0, width - split_x, height, BLUE)
    painter.fillRect(0, 0, width, 100, GREEN)
    painter.end()
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")  # type: ignore[call-overload]  # PySide6 takes str
    return bytes(buffer.data().data())


def colour_at_cell(prepared: object, cell_x: float, cell_y: float) -> QColor:
    """The served image's colour at a grid position, placed as the page places it."""
    image = QImage.fromData(prepared.data)  # type: ignore[attr-defined]
    ppc = prepared.pixels_per_cell  # type: ignore[attr-defined]
    x = prepared.offset_x + cell_x * ppc  # type: ignore[attr-defined]
    y = prepared.offset_y + cell_y * ppc  # type: ignore[attr-defined]
    return image.pixelColor(int(x), int(y))


def close(found: QColor, wanted: QColor) -> bool:
    return max(abs(found.red() - wanted.red()), abs(found.blue() - wanted.blue())) < 40


def test_a_big_map_is_downscaled_and_stays_on_its_cells() -> None:
    # 6000 x 3000 pixels, 100 per cell, the map's left edge 500 pixels into the image.
    background = Background(image="map.png", pixels_per_cell=100, offset_x=500, offset_y=0)
    data = two_halves(6000, 3000, split_x=500 + 20 * 100)  # blue from cell 20 on
    prepared = prepare_map_image(MapSource(data, background, None))
    assert prepared is not None and prepared.content_type == "image/jpeg"
    assert (prepared.width, prepared.height) == (MAX_SIDE, MAX_SIDE // 2)
    assert prepared.pixels_per_cell == 100 * MAX_SIDE / 6000
    assert close(colour_at_cell(prepared, 19.5, 10), RED)
    assert close(colour_at_cell(prepared, 20.5, 10), BLUE)
    assert len(prepared.data) < 1_000_000


def test_a_clip_cuts_the_image_to_the_grid_and_moves_the_offset() -> None:
    background = Background(image="map.png", pixels_per_cell=50, offset_x=300, offset_y=200)
    data = two_halves(1600, 1000, split_x=300 + 10 * 50)
    prepared = prepare_map_image(MapSource(data, background, (0, 0, 20, 12)))
    assert prepared is not None
    assert (prepared.width, prepared.height) == (1000, 600)  # 20 x 12 cells of 50 pixels
    assert (prepared.offset_x, prepared.offset_y) == (0, 0)
    assert close(colour_at_cell(prepared, 9.5, 5), RED)
    assert close(colour_at_cell(prepared, 10.5, 5), BLUE)


def test_an_image_that_cannot_be_decoded_gives_no_map() -> None:
    background = Background(image="map.png", pixels_per_cell=50)
    assert prepare_map_image(MapSource(b"not an image", background, None)) is None


def test_the_map_route_serves_the_prepared_image_with_the_code_only(server: ShareServer) -> None:
    background = Background(image="map.png", pixels_per_cell=40)
    data = two_halves(400, 240, split_x=200)
    snapshot = snapshot_of(small_encounter())
    server.publish(
        type(snapshot)(snapshot.view, snapshot.camera, MapSource(data, background, None))
    )
    deadline = time.monotonic() + TIMEOUT_S
    status, body = get(server.port, f"/map?k={server.join_code}&v=1")
    while status == 404 and time.monotonic() < deadline:  # prepared on a worker thread
        time.sleep(0.02)
        status, body = get(server.port, f"/map?k={server.join_code}&v=1")
    assert status == 200 and body.startswith(b"\xff\xd8")  # a JPEG
    assert QImage.fromData(body).width() == 400
    assert get(server.port, "/map?v=1")[0] == 403
