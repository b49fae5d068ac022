"""View > Align grid to image: two real clicks on grid corners of an imported image."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QImage
from PySide6.QtTest import QTest
from pytestqt.qtbot import QtBot

from battlemap.ui.main_window import MainWindow

# The painted grid on the test image: 70 px cells, first lines at x=15, y=30.
CELL, OFFSET = 70, (15, 30)


@pytest.fixture
def image_map(tmp_path: Path) -> Path:
    image = QImage(700, 500, QImage.Format.Format_RGB32)
    image.fill(QColor("#c8b48c"))
    path = tmp_path / "painted-grid.png"
    assert image.save(str(path))
    return path


def click_image_pixel(window: MainWindow, x: float, y: float) -> None:
    item = window.scene.background_layer.item
    assert item is not None
    point = window.view.mapFromScene(item.mapToScene(QPointF(x, y)))
    QTest.mouseClick(window.view.viewport(), Qt.MouseButton.LeftButton, pos=point)


def test_two_corner_clicks_set_cell_size_offset_and_grid(
    window: MainWindow, image_map: Path
) -> None:
    assert window.map_importer.import_file(image_map)
    imported = window.document.encounter
    aligner = window.grid_aligner
    aligner.action.trigger()
    assert aligner.active and aligner.panel.isVisible()
    aligner.cells.setValue(3)
    click_image_pixel(window, OFFSET[0] + CELL * 2, OFFSET[1] + CELL * 1)
    assert aligner.first is not None
    click_image_pixel(window, OFFSET[0] + CELL * 5, OFFSET[1] + CELL * 4)
    encounter = window.document.encounter
    background = encounter.background
    assert background is not None
    # A click lands on a whole viewport pixel: within one screen pixel of the corner.
    tolerance = 1 / window.view.current_scale() * background.pixels_per_cell / 64 + 0.5
    assert background.pixels_per_cell == pytest.approx(CELL, abs=tolerance)
    assert background.offset_x == pytest.approx(OFFSET[0], abs=2 * tolerance)
    assert background.offset_y == pytest.approx(OFFSET[1], abs=2 * tolerance)
    assert (encounter.grid.width, encounter.grid.height) == (10, 7)
    assert not aligner.active
    window.undo_stack.undo()
    assert window.document.encounter == imported


def test_escape_cancels_and_no_background_refuses(
    window: MainWindow, image_map: Path, qtbot: QtBot
) -> None:
    aligner = window.grid_aligner
    aligner.action.trigger()
    assert not aligner.active  # nothing to align yet
    window.map_importer.import_file(image_map)
    aligner.action.trigger()
    click_image_pixel(window, 100, 100)
    QTest.keyClick(window.view, Qt.Key.Key_Escape)
    assert not aligner.active and aligner.first is None
    assert window.undo_stack.count() == 1  # only the import
