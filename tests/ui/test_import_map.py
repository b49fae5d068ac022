"""File > Import map… and dropping map files: the encounter, the drawn background, errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QColor, QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication, QMessageBox
from pytestqt.qtbot import QtBot

from battlemap.model import WallKind
from battlemap.ui.background_item import TILE, BackgroundItem
from battlemap.ui.main_window import MainWindow
from battlemap.ui.render import render_scene
from battlemap.ui.style import MAP_BACKGROUND, cell_to_scene
from tests.shared_data import shared_file

FIXTURES = Path(__file__).resolve().parents[1] / "io" / "fixtures"
TINY_UVTT = FIXTURES / "tiny-format-0.2.uvtt"
TINY_PNG = FIXTURES / "tiny.png"


def error_box(window: MainWindow) -> QMessageBox | None:
    return window.findChild(QMessageBox, "import-error")


def pixel_at_cell(window: MainWindow, x: float, y: float) -> QColor:
    """The rendered colour at cell coordinates (x, y), rendering the map at 8 px per cell."""
    rect = window.map_rect()
    image = render_scene(window.scene, rect, width=round(rect.width() / 8))
    return image.pixelColor(round(x * 8), round(y * 8))


def test_file_menu_has_import_map(window: MainWindow) -> None:
    texts = [action.text() for action in window.file_menu.actions()]
    assert "Import &map…" in texts


def test_import_uvtt_sets_map_draws_image_and_undoes(window: MainWindow) -> None:
    before = window.document.encounter
    assert pixel_at_cell(window, 1.5, 1.5) == MAP_BACKGROUND
    assert window.map_importer.import_file(TINY_UVTT)
    encounter = window.document.encounter
    assert (encounter.grid.width, encounter.grid.height) == (4, 3)
    assert sum(w.kind is WallKind.DOOR for w in encounter.walls) == 1
    item = window.scene.background_layer.item
    assert isinstance(item, BackgroundItem)
    assert (item.image_width, item.image_height) == (40, 30)
    # 10 image pixels per cell: the 40 px image spans the 4 cells.
    assert item.mapToScene(QPointF(40, 30)) == QPointF(cell_to_scene(4), cell_to_scene(3))
    colour = pixel_at_cell(window, 0.5, 2.5)  # the fixture image is (200, 180, 140)
    assert abs(colour.red() - 200) <= 3 and abs(colour.blue() - 140) <= 3
    assert window.undo_stack.count() == 1
    window.undo_stack.undo()
    assert window.document.encounter == before
    assert window.scene.background_layer.item is None
    assert pixel_at_cell(window, 1.5, 1.5) == MAP_BACKGROUND


def test_import_png_image_sizes_grid_and_keeps_walls(window: MainWindow) -> None:
    walls = window.document.encounter.walls
    assert window.map_importer.import_file(TINY_PNG)
    encounter = window.document.encounter
    assert encounter.walls == walls
    assert encounter.background is not None and encounter.background.image.endswith(".png")
    assert (encounter.grid.width, encounter.grid.height) == (1, 1)  # 40x30 px at 100 px/cell


def test_bad_file_shows_the_message_and_changes_nothing(
    window: MainWindow, tmp_path: Path, qtbot: QtBot
) -> None:
    data = json.loads(TINY_UVTT.read_text())
    data["line_of_sight"][0][0]["x"] = 1e9
    bad = tmp_path / "broken.dd2vtt"
    bad.write_text(json.dumps(data))
    before = window.document.encounter
    assert not window.map_importer.import_file(bad)
    box = error_box(window)
    assert box is not None and box.isVisible()
    assert "broken.dd2vtt" in box.text() and "line_of_sight.0.0.x" in box.text()
    assert window.document.encounter == before and window.undo_stack.count() == 0
    box.close()


def test_image_with_a_good_header_but_broken_pixels_is_refused(
    window: MainWindow, tmp_path: Path
) -> None:
    png = TINY_PNG.read_bytes()
    broken = tmp_path / "broken.png"
    broken.write_bytes(png[:40])  # header says 40x30, the pixel data is cut off
    assert not window.map_importer.import_file(broken)
    box = error_box(window)
    assert box is not None and str(broken) in box.text() and "could not be decoded" in box.text()
    box.close()
    assert window.undo_stack.count() == 0 and window.document.images == {}


def drop(window: MainWindow, path: Path) -> bool:
    """Drag ``path`` over the map view and drop it; True when the drop was accepted."""
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path))])
    viewport = window.view.viewport()
    pos = QPointF(viewport.rect().center())
    enter = QDragEnterEvent(
        pos.toPoint(),
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    QApplication.sendEvent(viewport, enter)
    if not enter.isAccepted():
        return False
    dropped = QDropEvent(
        pos,
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    QApplication.sendEvent(viewport, dropped)
    return dropped.isAccepted()


def test_dropping_a_map_file_imports_it(window: MainWindow) -> None:
    assert drop(window, TINY_UVTT)
    assert window.document.encounter.grid.width == 4
    assert window.undo_stack.count() == 1


def test_dropping_another_file_is_not_accepted(window: MainWindow, tmp_path: Path) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("hello")
    before = window.document.encounter
    drop(window, text)  # the view may take the drag, but nothing is imported
    assert window.document.encounter == before and window.undo_stack.count() == 0
    assert error_box(window) is None


def test_real_webp_map_is_decoded_and_drawn(window: MainWindow) -> None:
    path = shared_file("vtt-maps_azheim-meeting.dd2vtt")
    assert window.map_importer.import_file(path)
    item = window.scene.background_layer.item
    assert item is not None and (item.image_width, item.image_height) == (2048, 2048)
    assert item.tile(0, 1, 1).width() == TILE  # 2048 px = two tiles across
    assert item.tile(3, 0, 0).width() == TILE // 8  # a level-of-detail copy
    assert pixel_at_cell(window, 4, 4) != MAP_BACKGROUND


def test_moving_the_background_does_not_decode_again(window: MainWindow) -> None:
    from battlemap.io.map_import import ReplaceMap
    from battlemap.ui.undo import push

    window.map_importer.import_file(TINY_UVTT)
    item = window.scene.background_layer.item
    background = window.document.encounter.background
    assert item is not None and background is not None
    moved = background.model_copy(update={"offset_x": 10.0, "pixels_per_cell": 20.0})
    push(window.undo_stack, window.document, ReplaceMap((("background", background, moved),)))
    assert window.scene.background_layer.item is item
    # Image pixel 10 (the offset) lies on the map's left edge; 20 px per cell.
    assert item.mapToScene(QPointF(10, 0)).x() == pytest.approx(0)
    assert item.mapToScene(QPointF(30, 0)).x() == pytest.approx(cell_to_scene(1))


# --- Universal VTT 1.0 whose image is a file that is not beside the map ----------------------


def format_1_map(folder: Path, image: str = "tavern.png") -> Path:
    data = json.loads(TINY_UVTT.read_text()) | {"format": 1.0, "image": image}
    path = folder / "tavern.uvtt"
    path.write_text(json.dumps(data))
    return path


def test_a_missing_map_image_is_asked_for_on_import_and_on_open(
    window: MainWindow, tmp_path: Path
) -> None:
    path = format_1_map(tmp_path)
    asked: list[tuple[object, Path, str]] = []

    def ask(parent: object, map_path: Path, name: str) -> Path:
        asked.append((parent, map_path, name))
        return TINY_PNG

    window.map_importer.ask_image = ask
    assert window.map_importer.import_file(path)
    assert asked == [(window, path, "tavern.png")]
    background = window.document.encounter.background
    assert background is not None
    assert window.document.images[background.image] == TINY_PNG.read_bytes()
    assert window.scene.background_layer.item is not None
    window.undo_stack.setClean()  # so File > Open does not ask to save first
    assert window.files.open_path(path)
    assert len(asked) == 2 and window.document.encounter.grid.width == 4


def test_no_image_chosen_shows_why_and_changes_nothing(window: MainWindow, tmp_path: Path) -> None:
    window.map_importer.ask_image = lambda _parent, _map, _name: None
    before = window.document.encounter
    assert not window.map_importer.import_file(format_1_map(tmp_path))
    box = error_box(window)
    assert box is not None and "'tavern.png' is not in" in box.text()
    assert window.document.encounter == before and window.undo_stack.count() == 0
    box.close()


def test_a_universal_vtt_map_named_json_is_imported(window: MainWindow, tmp_path: Path) -> None:
    named_json = tmp_path / "exported.json"
    named_json.write_bytes(TINY_UVTT.read_bytes())
    assert window.map_importer.import_file(named_json)
    encounter = window.document.encounter
    assert (encounter.grid.width, encounter.grid.height) == (4, 3)
    assert sum(w.kind is WallKind.DOOR for w in encounter.walls) == 1
    assert window.undo_stack.count() == 1


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ({"name": "Goblin ambush", "creatures": []}, "an encounter saved as .json opens with"),
        (
            [
                {
                    "name": "Rat",
                    "armor_class": 10,
                    "hit_points": 1,
                    "challenge_rating": 0,
                    "strength": 2,
                }
            ],
            "this is a 5e-database monster file",
        ),
    ],
)
def test_a_json_file_that_is_no_map_is_refused_saying_what_it_is(
    window: MainWindow, tmp_path: Path, content: object, expected: str
) -> None:
    path = tmp_path / "not-a-map.json"
    path.write_text(json.dumps(content))
    before = window.document.encounter
    assert not window.map_importer.import_file(path)
    box = error_box(window)
    assert box is not None
    assert "not-a-map.json" in box.text() and "no Universal VTT map" in box.text()
    assert expected in box.text()
    assert window.document.encounter == before and window.undo_stack.count() == 0
    box.close()


def test_a_dropped_json_map_is_accepted(window: MainWindow, tmp_path: Path) -> None:
    named_json = tmp_path / "dropped.json"
    named_json.write_bytes(TINY_UVTT.read_bytes())
    assert drop(window, named_json)
    assert (window.document.encounter.grid.width, window.document.encounter.grid.height) == (4, 3)
