"""WallsItem draws dense walls without antialiasing (thousands of crossing walls took 6-19 s a
frame antialiased) and everything else antialiased, as before."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtWidgets import QGraphicsScene
from pytestqt.qtbot import QtBot

from battlemap.model import Wall
from battlemap.ui import map_items
from battlemap.ui.map_items import WallsItem
from battlemap.ui.style import cell_to_scene

DIAGONALS = [Wall(a=(0.5, 0.5 + i), b=(9.5, 3.5 + i)) for i in range(5)]
# 100 walls 0.1 cell apart: 6.4 scene units, more than a wall's 6, so none overlap.
STRIPES = [Wall(a=(0.0, 0.05 + i / 10), b=(10.0, 0.05 + i / 10)) for i in range(100)]


def colours_drawn(walls: list[Wall], width: int) -> int:
    """How many distinct colours a ``width`` px render of 10 x 10 cells of ``walls`` has."""
    scene = QGraphicsScene()
    item = WallsItem()
    item.set_walls(walls)
    scene.addItem(item)
    image = QImage(width, width, QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    side = cell_to_scene(10)
    scene.render(painter, QRectF(0, 0, width, width), QRectF(0, 0, side, side))
    painter.end()
    pixels = np.frombuffer(image.constBits(), dtype=np.uint32, count=width * width)
    return len(np.unique(pixels))


@pytest.mark.parametrize("width", [100, 600], ids=["thin lines", "stroked paths"])
def test_few_walls_are_antialiased_dense_ones_not(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch, width: int
) -> None:
    del qtbot  # for its QApplication
    assert colours_drawn(DIAGONALS, width) > 2  # blended edge pixels
    monkeypatch.setattr(map_items, "DENSE_WALL_PIXELS", 10)
    assert colours_drawn(DIAGONALS, width) == 2  # the wall's colour and white


def test_the_budget_tells_a_dense_frame_from_an_ordinary_one(qtbot: QtBot) -> None:
    del qtbot
    # At 2000 px for 10 cells a wall is 18.75 px wide and 2000 px long: 100 of them stroke
    # 3.75 million pixels, over the budget; 50 stroke 1.9 million, under it.
    assert colours_drawn(STRIPES, 2000) == 2
    assert colours_drawn(STRIPES[::2], 2000) > 2
