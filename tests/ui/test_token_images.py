"""Token pictures (issue 20): picked, dropped, cropped to the footprint, drawn on both
windows, undone, saved and reopened. Pixel probes at known scene points."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QBuffer, QIODevice, QMimeData, QPointF, QRectF, Qt, QUrl
from PySide6.QtGui import QColor, QDragEnterEvent, QDropEvent, QImage
from PySide6.QtWidgets import QApplication, QGraphicsScene
from pytestqt.qtbot import QtBot

from battlemap.io.encounter_file import load_battlemap, save_battlemap
from battlemap.model import Creature, Document, Encounter, Grid, Side
from battlemap.model.ids import EntityId
from battlemap.model.statblock import StatBlock
from battlemap.model.traits import TokenShape
from battlemap.ui import style
from battlemap.ui.main_window import MainWindow
from battlemap.ui.render import render_scene
from battlemap.ui.token_image import DECODED_KEPT, TokenImages
from battlemap.ui.token_pictures import EVERY_COPY_TEXT, PICK_TEXT, REMOVE_TEXT, SQUARE_TEXT
from tests.ui.players_helpers import open_players

MAGENTA = QColor("#d633ff")
BLUE = QColor("#1040e0")
CELL = style.SCENE_UNITS_PER_CELL
HERO = EntityId("hero")


@pytest.fixture
def encounter() -> Encounter:
    goblin = StatBlock(name="Goblin")
    return Encounter(
        grid=Grid(width=10, height=6),
        creatures=(
            Creature(id="hero", name="Thorin", side=Side.PARTY, x=2, y=2),
            Creature(id="g1", name="Goblin 1", x=5, y=2, statblock=goblin),
            Creature(id="g2", name="Goblin 2", x=7, y=2, statblock=goblin),
        ),
    )


def picture_file(folder: Path, name: str = "thorin-portrait.png") -> Path:
    """A 2:1 picture: blue quarters left and right, magenta in the middle half, so a
    centred crop to a square holds only magenta."""
    image = QImage(80, 40, QImage.Format.Format_RGB32)
    image.fill(BLUE)
    for x in range(20, 60):
        for y in range(40):
            image.setPixelColor(x, y, MAGENTA)
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")  # type: ignore[call-overload]  # PySide6 takes str
    path = folder / name
    path.write_bytes(bytes(buffer.data().data()))
    return path


def colour(scene: QGraphicsScene, x: float, y: float) -> QColor:
    """The scene's colour at scene point (x, y), rendered at one pixel per scene unit."""
    image = render_scene(scene, QRectF(0, 0, 10 * CELL, 6 * CELL), int(10 * CELL))
    return image.pixelColor(round(x), round(y))


def close(a: QColor, b: QColor, within: int = 12) -> bool:
    pairs = ((a.red(), b.red()), (a.green(), b.green()), (a.blue(), b.blue()))
    return all(abs(p - q) <= within for p, q in pairs)


def inside_points(col: float, row: float) -> list[tuple[float, float]]:
    """Points well inside a Medium token's disc at (col, row): centre, left, right, top."""
    cx, cy = (col + 0.5) * CELL, (row + 0.5) * CELL
    return [(cx, cy), (cx - 18, cy), (cx + 18, cy), (cx, cy - 18)]


def test_a_picked_picture_fills_the_token_on_both_windows(
    window: MainWindow, qtbot: QtBot, tmp_path: Path
) -> None:
    open_players(window, qtbot)
    pictures = window.token_pictures
    assert pictures.set_image_file([HERO], picture_file(tmp_path))
    for scene in (window.scene, window.players.window.scene):
        for x, y in inside_points(2, 2):
            assert close(colour(scene, x, y), MAGENTA), (scene, x, y)  # no blue: cropped
        # the ring is in the party's colour, inside the dark outline
        ring = colour(scene, 2 * CELL + CELL * 0.06 + 4.5, 2.5 * CELL)
        assert close(ring, style.SIDE_COLOURS[Side.PARTY], 30), ring.name()
    window.undo_stack.undo()
    for scene in (window.scene, window.players.window.scene):
        assert not close(colour(scene, 2.5 * CELL - 18, 2.5 * CELL), MAGENTA)
        assert close(colour(scene, 2.5 * CELL - 18, 2.5 * CELL), style.SIDE_COLOURS[Side.PARTY])


def test_square_pictures_fill_the_corners_that_circles_leave(
    window: MainWindow, tmp_path: Path
) -> None:
    window.token_pictures.set_image_file([HERO], picture_file(tmp_path))
    corner = (2 * CELL + 11, 2 * CELL + 11)  # inside the square's rings, outside the disc
    assert not close(colour(window.scene, *corner), MAGENTA)
    window.token_pictures.set_shape(HERO, square=True)
    assert window.document.encounter.creature("hero").token_shape is TokenShape.SQUARE  # type: ignore[arg-type]
    assert close(colour(window.scene, *corner), MAGENTA)
    window.undo_stack.undo()
    assert not close(colour(window.scene, *corner), MAGENTA)


def test_every_size_is_drawn_to_scale(window: MainWindow, tmp_path: Path) -> None:
    hero = window.document.encounter.creature("hero")  # type: ignore[arg-type]
    from battlemap.model.document import UpdateCreature
    from battlemap.model.traits import Size
    from battlemap.ui.undo import push

    push(
        window.undo_stack,
        window.document,
        UpdateCreature(hero, hero.model_copy(update={"size": Size.LARGE, "x": 0, "y": 0})),
    )
    window.token_pictures.set_image_file([HERO], picture_file(tmp_path))
    for x, y in ((CELL, CELL), (CELL * 0.4, CELL), (CELL * 1.6, CELL), (CELL, CELL * 1.6)):
        assert close(colour(window.scene, x, y), MAGENTA), (x, y)
    assert not close(colour(window.scene, CELL * 0.1, CELL * 0.1), MAGENTA)  # a disc's corner


def test_the_menu_offers_one_creature_or_every_copy_of_its_monster(
    window: MainWindow, tmp_path: Path
) -> None:
    path = picture_file(tmp_path, "goblin.png")
    window.token_pictures.ask_path = lambda _parent, _title: path
    menu = window.scene.token_menu("g1")  # type: ignore[arg-type]
    texts = [action.text() for action in menu.actions()]
    assert PICK_TEXT in texts and EVERY_COPY_TEXT.format(name="Goblin") in texts
    assert REMOVE_TEXT not in texts and SQUARE_TEXT not in texts
    next(a for a in menu.actions() if a.text() == EVERY_COPY_TEXT.format(name="Goblin")).trigger()
    images = {str(c.id): c.token_image for c in window.document.encounter.creatures}
    assert images["g1"] is not None and images["g1"] == images["g2"] and images["hero"] is None
    assert window.undo_stack.count() == 1  # both goblins in one step
    for x, y in inside_points(7, 2):
        assert close(colour(window.scene, x, y), MAGENTA)
    hero_menu = window.scene.token_menu("hero")  # type: ignore[arg-type]
    hero_texts = [action.text() for action in hero_menu.actions()]
    assert EVERY_COPY_TEXT.format(name="Goblin") not in hero_texts  # no stat block: one only
    menu = window.scene.token_menu("g2")  # type: ignore[arg-type]
    next(a for a in menu.actions() if a.text() == REMOVE_TEXT).trigger()
    assert window.document.encounter.creature("g2").token_image is None  # type: ignore[arg-type]
    assert window.document.encounter.creature("g1").token_image is not None  # type: ignore[arg-type]


def drop(window: MainWindow, path: Path, scene_point: QPointF) -> bool:
    """Drag ``path`` over the map view to ``scene_point`` and drop it there; True when the
    drop was accepted."""
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path))])
    at = QPointF(window.view.mapFromScene(scene_point))
    viewport = window.view.viewport()
    left, none = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    enter = QDragEnterEvent(at.toPoint(), Qt.DropAction.CopyAction, mime, left, none)
    QApplication.sendEvent(viewport, enter)
    if not enter.isAccepted():
        return False
    dropped = QDropEvent(at, Qt.DropAction.CopyAction, mime, left, none)
    QApplication.sendEvent(viewport, dropped)
    return dropped.isAccepted()


def test_an_image_dropped_on_a_token_becomes_its_picture(
    window: MainWindow, tmp_path: Path
) -> None:
    background_before = window.document.encounter.background
    assert drop(window, picture_file(tmp_path), QPointF(5.5 * CELL, 2.5 * CELL))
    assert window.document.encounter.creature("g1").token_image is not None  # type: ignore[arg-type]
    assert window.document.encounter.creature("g2").token_image is None  # type: ignore[arg-type]
    assert window.document.encounter.background == background_before  # not a map import
    assert close(colour(window.scene, 5.5 * CELL, 2.5 * CELL), MAGENTA)


def test_a_bad_file_changes_nothing_and_says_why(window: MainWindow, tmp_path: Path) -> None:
    said: list[str] = []
    bad = tmp_path / "fake.png"
    bad.write_bytes(b"GIF89a not really a png")
    window.token_pictures.show_error = lambda _parent, _title, text: said.append(text)
    assert not window.token_pictures.set_image_file([HERO], bad)
    assert window.undo_stack.count() == 0
    assert said and "fake.png" in said[0] and "not a PNG, JPEG or WEBP" in said[0]


def test_pictures_are_saved_and_reopened(window: MainWindow, qtbot: QtBot, tmp_path: Path) -> None:
    window.token_pictures.set_image_file([HERO], picture_file(tmp_path))
    window.token_pictures.set_shape(HERO, square=True)
    path = tmp_path / "saved.battlemap"
    save_battlemap(path, window.document.encounter, window.document.images)
    loaded = load_battlemap(path)
    assert loaded.encounter == window.document.encounter
    reopened = MainWindow(Document(loaded.encounter, dict(loaded.images)))
    qtbot.addWidget(reopened)
    for x, y in [*inside_points(2, 2), (2 * CELL + 11, 2 * CELL + 11)]:
        assert close(colour(reopened.scene, x, y), MAGENTA), (x, y)


def test_copies_placed_later_from_the_library_take_their_monsters_picture(
    window: MainWindow, tmp_path: Path
) -> None:
    goblins = [EntityId("g1"), EntityId("g2")]
    window.token_pictures.set_image_file(goblins, picture_file(tmp_path))
    window.token_pictures.set_shape(EntityId("g1"), square=True)
    goblin = window.document.encounter.creature(EntityId("g1"))
    assert goblin.statblock is not None
    added = window.library_dock.add_copies(goblin.statblock, 2)
    assert len(added) == 2
    for creature in added:
        assert creature.token_image == goblin.token_image
        assert creature.token_shape is TokenShape.SQUARE
    other = StatBlock(name="Kobold")
    (kobold,) = window.library_dock.add_copies(other, 1)
    assert kobold.token_image is None  # another monster: its own disc


def png_bytes(colour: QColor) -> bytes:
    image = QImage(4, 4, QImage.Format.Format_RGB32)
    image.fill(colour)
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")  # type: ignore[call-overload]  # PySide6 takes str
    return bytes(buffer.data().data())


def test_decoded_pictures_are_bounded_and_missing_ones_say_so(qtbot: QtBot) -> None:
    images = {f"{i}.png": png_bytes(QColor(i % 256, 0, 0)) for i in range(DECODED_KEPT + 5)}
    pictures = TokenImages(lambda: images)
    for name in images:
        assert pictures.cropped(name, 8, TokenShape.CIRCLE) is not None
    assert len(pictures._decoded) == DECODED_KEPT
    assert pictures.cropped("gone.png", 8, TokenShape.SQUARE) is None
    assert pictures.errors == {"gone.png": "gone.png: image missing"}
    square = pictures.cropped("7.png", 8, TokenShape.SQUARE)
    circle = pictures.cropped("7.png", 8, TokenShape.CIRCLE)
    assert square is not None and circle is not None
    assert square.pixelColor(0, 0).alpha() == 255 and circle.pixelColor(0, 0).alpha() == 0
