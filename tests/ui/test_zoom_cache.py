"""Tokens, plates, grid lines and walls drawn from a pixmap per zoom bucket look as painted
directly, and a zoom step back to a bucket drawn before paints nothing again."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.typing import NDArray
from PySide6.QtCore import QLineF, QRectF
from PySide6.QtGui import QColor, QImage, QPainter, QPen, QTransform, QUndoStack
from pytestqt.qtbot import QtBot

from battlemap.model import Creature, Document, Encounter, EntityId, Grid, Side, Size, Wall
from battlemap.ui.grid_lines import draw_grid_lines
from battlemap.ui.map_scene import MapScene
from battlemap.ui.token_item import TokenItem
from battlemap.ui.token_look import NamePlate

SIZE = (600, 400)
HINTS = QPainter.RenderHint.Antialiasing | QPainter.RenderHint.SmoothPixmapTransform


def encounter() -> Encounter:
    creatures = (
        Creature(id="g", name="Goblin 1", x=1, y=1, side=Side.HOSTILE, max_hp=10, hp=3),
        Creature(id="e", name="Elowen", x=3, y=1, side=Side.PARTY),
        Creature(id="h", name="Hill Giant", x=5, y=2, size=Size.LARGE, max_hp=10, hp=7),
        Creature(id="o", name="Owl", x=1, y=4, side=Side.NEUTRAL, hidden=True),
    )
    walls = (Wall(id="w", a=(0.0, 3.0), b=(4.0, 3.0)),)
    return Encounter(grid=Grid(width=8, height=6), creatures=creatures, walls=walls)


@pytest.fixture
def scene(qtbot: QtBot) -> MapScene:
    stack = QUndoStack()
    made = MapScene(Document(encounter()), stack)
    made._test_stack = stack  # type: ignore[attr-defined]  # alive as long as the scene
    made.tokens[EntityId("e")].setSelected(True)
    return made


def caches(scene: MapScene) -> list[object]:
    layer = scene.map_layer
    found: list[object] = [layer.walls_item._looks]
    assert layer.grid_item is not None
    found.append(layer.grid_item._looks)
    for token in scene.tokens.values():
        found += [token._looks, token.plate._looks]
    return found


def render(scene: MapScene, scale: float, ratio: float = 1.0, cached: bool = True) -> QImage:
    """The scene at ``scale`` device pixels per scene unit / ``ratio``, from the caches or
    (``cached=False``) painted directly."""
    for cache in caches(scene):
        cache.clear()  # type: ignore[attr-defined]
        if not cached:
            cache.largest_px = 0  # type: ignore[attr-defined]
    image = QImage(int(SIZE[0] * ratio), int(SIZE[1] * ratio), QImage.Format.Format_ARGB32)
    image.setDevicePixelRatio(ratio)
    image.fill(0)
    painter = QPainter(image)
    painter.setRenderHints(HINTS)
    source = QRectF(-10.3, -7.7, SIZE[0] / scale, SIZE[1] / scale)
    scene.render(painter, QRectF(0, 0, *SIZE), source)
    painter.end()
    return image


def pixels(image: QImage) -> NDArray[np.int64]:
    image = image.convertToFormat(QImage.Format.Format_ARGB32)
    shape = (image.height(), image.width(), 4)
    return np.frombuffer(image.constBits(), np.uint8).reshape(shape).astype(np.int64)


@pytest.mark.parametrize(("scale", "ratio"), [(0.37, 1.0), (1.0, 1.0), (1.73, 1.0), (0.8, 2.0)])
def test_drawn_from_the_caches_the_map_looks_as_painted_directly(
    scene: MapScene, scale: float, ratio: float
) -> None:
    cached = pixels(render(scene, scale, ratio))
    filled = [len(cache) for cache in caches(scene)]  # type: ignore[arg-type]
    # the hidden owl's: painted directly; a plate (a top-level item) less than a pixel
    # inside the image's edge is not drawn at all
    source = QRectF(-10.3, -7.7, SIZE[0] / scale, SIZE[1] / scale)
    shown = [
        token.plate.sceneBoundingRect().intersected(source).width() * scale >= 1
        for token in scene.tokens.values()
    ]
    # the walls: drawn into the grid's pixmap (no terrain or obstacle between them)
    expected = [0, 1] + [n for seen in shown for n in (1, 1 if seen else 0)]
    assert filled == [*expected[:-2], 0, 0]
    direct = pixels(render(scene, scale, ratio, cached=False))
    difference = np.abs(cached - direct).max(axis=2)
    # The same pixels but where an edge moved by under half a pixel (antialiased edges).
    assert difference.mean() < 0.5
    assert np.mean(difference > 40) < 0.005


def test_a_zoom_step_back_into_a_bucket_paints_nothing_again(
    scene: MapScene, monkeypatch: pytest.MonkeyPatch
) -> None:
    painted: list[object] = []
    for item_class in (TokenItem, NamePlate):
        original = item_class._paint

        def counting(self: object, *args: object, _original: object = original) -> None:
            painted.append(self)
            _original(self, *args)  # type: ignore[operator]

        monkeypatch.setattr(item_class, "_paint", counting)

    def step(scale: float) -> int:
        painted.clear()
        image = QImage(*SIZE, QImage.Format.Format_ARGB32_Premultiplied)
        painter = QPainter(image)
        painter.setRenderHints(HINTS)
        scene.render(
            painter, QRectF(0, 0, *SIZE), QRectF(-10, -10, SIZE[0] / scale, SIZE[1] / scale)
        )
        painter.end()
        return len(painted)

    items = 2 * len(scene.tokens)  # tokens and plates; the hidden owl's are painted each time
    assert step(1.0) == items  # first drawn at this zoom
    assert step(1.0005) == 2  # a step too small to see: the same bucket
    assert step(1.15) == items  # a wheel step: drawn again
    assert step(1.0) == 2  # back to the first zoom: from its pixmaps
    scene.tokens[EntityId("g")].update_from(
        scene.document.encounter.creature(EntityId("g")).model_copy(update={"hp": 9}), 5.0
    )
    assert step(1.0) == 2 + 2  # the goblin's new look (and its plate) drawn once


@pytest.mark.parametrize(
    ("scale", "dx", "dy", "ratio"),
    [(0.163, 10.3, 5.7, 1.0), (1.0, 0.0, 0.0, 1.0), (2.37, -11.1, -3.3, 1.0), (0.7, 1.1, 2.2, 2.0)],
)
def test_grid_lines_from_strips_are_the_lines_drawLines_draws(
    scale: float, dx: float, dy: float, ratio: float
) -> None:
    pen = QPen(QColor("#b9ad97"), 0)
    xs = [c * 64.0 for c in range(41)]
    ys = [r * 64.0 for r in range(31)]
    area = QRectF(0, 0, 40 * 64, 30 * 64)
    images = []
    for strips in (True, False):
        image = QImage(int(700 * ratio), int(500 * ratio), QImage.Format.Format_ARGB32)
        image.setDevicePixelRatio(ratio)
        image.fill(QColor("#f4efe4"))
        painter = QPainter(image)
        painter.setRenderHints(HINTS)
        painter.setTransform(QTransform(scale, 0, 0, scale, dx, dy))
        if strips:
            draw_grid_lines(painter, pen, xs, ys, area)
        else:
            painter.setPen(pen)
            painter.drawLines(
                [QLineF(x, area.top(), x, area.bottom()) for x in xs]
                + [QLineF(area.left(), y, area.right(), y) for y in ys]
            )
        painter.end()
        images.append(pixels(image))
    difference = np.abs(images[0] - images[1]).max(axis=2)
    # Inside the area, every pixel; the lines' last pixel at the area's edge may differ.
    edge = QTransform(scale * ratio, 0, 0, scale * ratio, dx * ratio, dy * ratio).mapRect(area)
    top, bottom = int(edge.top()) + 2, min(int(edge.bottom()) - 2, difference.shape[0])
    left, right = int(edge.left()) + 2, min(int(edge.right()) - 2, difference.shape[1])
    assert difference[max(top, 0) : bottom, max(left, 0) : right].max() <= 2
    assert np.mean(difference > 2) < 0.002
