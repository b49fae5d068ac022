"""Zoomed in past the whole-map pixmap, the grid and the walls come from tiles (issue 17):
they look as painted directly, and a pan paints only the tiles that come into view."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QImage, QPainter, QUndoStack
from pytestqt.qtbot import QtBot

from battlemap.model import Document, Encounter, Grid, TerrainRegion, Wall
from battlemap.model.document import ReplaceEncounterField
from battlemap.ui.map_items import MAP_CACHED_PX, GridItem, WallsItem
from battlemap.ui.map_scene import MapScene
from tests.ui.test_zoom_cache import HINTS, pixels

SIZE = (700, 500)
SCALE = 1.6  # the 40 x 30 map is 4,096 px wide: past the whole-map pixmap


@pytest.fixture
def scene(qtbot: QtBot) -> MapScene:
    walls = tuple(
        Wall(id=f"w{i}", a=(1.0 + i, 2.0), b=(3.0 + i, 9.5 + (i % 3))) for i in range(0, 36, 3)
    )
    stack = QUndoStack()
    made = MapScene(Document(Encounter(grid=Grid(width=40, height=30), walls=walls)), stack)
    made._test_stack = stack  # type: ignore[attr-defined]
    return made


def _render(scene: MapScene, left: float, top: float, whole: bool = False) -> QImage:
    layer = scene.map_layer
    caches = [layer.walls_item._looks]
    assert layer.grid_item is not None
    caches.append(layer.grid_item._looks)
    for cache in caches:
        largest = 10**5 if whole else MAP_CACHED_PX  # the reference: one pixmap of the map
        if cache.largest_px != largest:
            cache.largest_px = largest
            cache.clear()
    image = QImage(*SIZE, QImage.Format.Format_ARGB32)
    image.fill(0)
    painter = QPainter(image)
    painter.setRenderHints(HINTS)
    scene.render(painter, QRectF(0, 0, *SIZE), QRectF(left, top, SIZE[0] / SCALE, SIZE[1] / SCALE))
    painter.end()
    return image


def _tiles(scene: MapScene) -> int:
    layer = scene.map_layer
    assert layer.grid_item is not None
    return layer.grid_item._looks.tile_count() + layer.walls_item._looks.tile_count()


def test_tiles_look_as_the_map_drawn_from_one_pixmap(scene: MapScene) -> None:
    tiled = pixels(_render(scene, 101.3, 77.7))
    assert _tiles(scene) >= 4  # the tiles of the screen (the walls are in the grid's)
    whole = pixels(_render(scene, 101.3, 77.7, whole=True))
    difference = np.abs(tiled - whole).max(axis=2)
    assert difference.mean() < 0.5
    assert np.mean(difference > 40) < 0.002


def test_a_pan_by_whole_pixels_paints_only_the_tiles_coming_into_view(
    scene: MapScene, monkeypatch: pytest.MonkeyPatch
) -> None:
    painted: list[QRectF] = []
    for item_class, name in ((GridItem, "_paint"), (WallsItem, "stroke")):
        original = getattr(item_class, name)

        def counting(
            self: object, into: QPainter, part: QRectF, _original: object = original
        ) -> None:
            painted.append(part)
            _original(self, into, part)  # type: ignore[operator]

        monkeypatch.setattr(item_class, name, counting)
    _render(scene, 0.0, 0.0)
    first = len(painted)
    painted.clear()
    _render(scene, 0.0, 0.0)
    assert painted == []  # the same view: every tile from the cache
    _render(scene, 400 / SCALE, 0.0)  # 400 px to the right: a new column of tiles a layer
    assert 0 < len(painted) < first


def test_the_grid_draws_the_walls_only_while_no_terrain_or_obstacle_lies_between(
    scene: MapScene,
) -> None:
    layer = scene.map_layer
    assert layer.grid_item is not None
    assert layer.grid_item.walls is layer.walls_item and not layer.walls_item.isVisible()
    region = TerrainRegion(id="mud", points=[(2, 2), (6, 2), (6, 6)])
    scene.document.apply(ReplaceEncounterField(field_name="terrain", old=(), new=(region,)))
    assert layer.grid_item.walls is None and layer.walls_item.isVisible()
    scene.document.apply(ReplaceEncounterField(field_name="terrain", old=(region,), new=()))
    assert layer.grid_item.walls is layer.walls_item and not layer.walls_item.isVisible()
