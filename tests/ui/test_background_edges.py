"""The map image draws only its own pixels: an image that is not a whole number of tiles
wide or high leaves nothing beside it (a tiled image showed a 5-cell black band)."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtWidgets import QGraphicsScene
from pytestqt.qtbot import QtBot

from battlemap.model.encounter import Background
from battlemap.ui.background_item import TILE, BackgroundItem

WIDTH, HEIGHT = TILE + 300, TILE + 77  # the last tiles are 300 and 77 pixels
FLOOR = QColor(200, 120, 40)
WHITE = QColor(255, 255, 255)


def image() -> QImage:
    picture = QImage(WIDTH, HEIGHT, QImage.Format.Format_RGB32)
    picture.fill(FLOOR)
    return picture


def drawn(item: BackgroundItem, scale: float) -> QImage:
    """The item drawn over white, twice its size around it, at ``scale`` screen pixels
    per image pixel."""
    scene = QGraphicsScene()
    scene.addItem(item)
    area = QRectF(0, 0, 2 * WIDTH * item.scale(), 2 * HEIGHT * item.scale())
    out = QImage(round(2 * WIDTH * scale), round(2 * HEIGHT * scale), QImage.Format.Format_RGB32)
    out.fill(WHITE)
    painter = QPainter(out)
    scene.render(painter, QRectF(out.rect()), area, Qt.AspectRatioMode.IgnoreAspectRatio)
    painter.end()
    scene.removeItem(item)
    return out


def test_edge_tiles_stop_at_the_image_edge(qtbot: QtBot) -> None:
    item = BackgroundItem(image(), Background(image="x.png", pixels_per_cell=100))
    sizes = {key[1:]: (p.width(), p.height()) for key, p in item._tiles.items() if key[0] == 0}
    assert sizes == {
        (0, 0): (TILE, TILE),
        (1, 0): (300, TILE),
        (0, 1): (TILE, 77),
        (1, 1): (300, 77),
    }


def test_nothing_is_drawn_past_the_image_at_any_zoom(qtbot: QtBot) -> None:
    checked = 0
    for scale in (1.0, 0.5, 0.2):  # level 0, 1 and 2 copies
        item = BackgroundItem(image(), Background(image="x.png", pixels_per_cell=100))
        out = drawn(item, scale)
        right, bottom = WIDTH * scale, HEIGHT * scale
        inside = out.pixelColor(int(right) - 3, int(bottom) - 3)
        assert inside == FLOOR, scale
        for x, y in [
            (right + 4, 10),
            (right + 40, bottom / 2),
            (10, bottom + 4),
            (right + 4, bottom + 4),
        ]:
            assert out.pixelColor(int(x), int(y)) == WHITE, (scale, x, y)
            checked += 1
    assert checked == 12
