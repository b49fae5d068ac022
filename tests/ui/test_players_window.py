"""The players' window: nothing secret in its scene, fog on screen, the camera follows."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QGraphicsSimpleTextItem, QGraphicsTextItem
from pytestqt.qtbot import QtBot

from battlemap.model import Creature, Encounter, Grid, Side, TerrainRegion
from battlemap.model.fog import FogMode, FogOfWar, reveal
from battlemap.ui import style
from battlemap.ui.main_window import MainWindow
from battlemap.ui.map_scene import MapScene
from battlemap.ui.players.controller import CameraMode
from battlemap.ui.players.scene import PlayerScene, PlayerTokenItem
from battlemap.ui.render import render_scene
from tests.ui.players_helpers import open_players

SECRET_NAME = "Assassin Vexx"


@pytest.fixture
def encounter() -> Encounter:
    return Encounter(
        grid=Grid(width=12, height=8),
        creatures=(
            Creature(id="hero", name="Thorin", side=Side.PARTY, x=1, y=1, max_hp=44, hp=44),
            Creature(id="orc", name="Orc", side=Side.HOSTILE, x=4, y=1, max_hp=59, hp=37, ac=13),
            Creature(id="vexx", name=SECRET_NAME, side=Side.HOSTILE, x=6, y=4, hidden=True),
        ),
        terrain=(TerrainRegion(kind="impassable", points=[(8, 5), (9, 5), (9, 6)], secret=True),),
        notes="Vexx waits for the signal",
    )


def every_text(window: MainWindow) -> list[str]:
    """Every string an item of the players' scene could show: text, tooltips, labels."""
    texts = []
    for item in window.players.window.scene.items():
        texts.append(item.toolTip())
        if isinstance(item, QGraphicsSimpleTextItem | QGraphicsTextItem):
            texts.append(
                item.text() if isinstance(item, QGraphicsSimpleTextItem) else item.toPlainText()
            )
        if isinstance(item, PlayerTokenItem):
            texts += [item.token.label, *item.token.conditions, str(item.token.health)]
    texts += [window.players.window.banner.text(), window.players.window.strip.text()]
    return texts


def test_player_scene_holds_nothing_secret(window: MainWindow, qtbot: QtBot) -> None:
    open_players(window, qtbot)
    scene = window.players.window.scene
    assert isinstance(scene, PlayerScene) and not isinstance(scene, MapScene)  # not the DM's
    labels = sorted(item.token.label for item in scene.items() if isinstance(item, PlayerTokenItem))
    assert labels == ["Orc", "Thorin"]
    text = " ".join(every_text(window))
    assert SECRET_NAME not in text
    for number in ("37", "59", "44", "13"):  # HP, max HP and AC of the creatures
        assert number not in text
    assert "signal" not in text and "impassable" not in text


def test_unhiding_a_creature_shows_it_within_the_same_event(
    window: MainWindow, qtbot: QtBot
) -> None:
    from battlemap.model.document import UpdateCreature

    open_players(window, qtbot)
    vexx = window.document.encounter.creature("vexx")  # type: ignore[arg-type]
    window.document.apply(UpdateCreature(vexx, vexx.model_copy(update={"hidden": False})))
    assert "vexx" in window.players.window.scene.tokens
    window.document.revert(UpdateCreature(vexx, vexx.model_copy(update={"hidden": False})))
    assert "vexx" not in window.players.window.scene.tokens


def colour_at(window: MainWindow, col: float, row: float) -> QColor:
    scene = window.players.window.scene
    grid = window.document.encounter.grid
    image = render_scene(scene, QRectF(0, 0, grid.width * 64, grid.height * 64), grid.width * 20)
    return image.pixelColor(int(col * 20), int(row * 20))


def test_manual_fog_blacks_out_unrevealed_cells(window: MainWindow, qtbot: QtBot) -> None:
    open_players(window, qtbot)
    window.players.set_fog_mode(FogMode.MANUAL)
    window.players.change_fog(reveal, frozenset({(1, 1), (2, 1), (10, 6)}), "Reveal")
    assert colour_at(window, 10.5, 6.5) == style.MAP_BACKGROUND
    assert colour_at(window, 8.5, 2.5) == QColor("black")
    assert colour_at(window, 1.5, 1.2) == style.SIDE_COLOURS[Side.PARTY]  # hero is revealed
    assert sorted(window.players.window.scene.tokens) == ["hero"]  # the orc is in the dark
    window.undo_stack.undo()
    window.undo_stack.undo()
    assert window.document.encounter.fog == FogOfWar()
    assert sorted(window.players.window.scene.tokens) == ["hero", "orc"]


def test_the_camera_follows_the_dm_view(window: MainWindow, qtbot: QtBot) -> None:
    open_players(window, qtbot)
    window.players.set_camera_mode(CameraMode.FOLLOW)
    window.view.zoom_by(2.0)
    window.view.centerOn(6 * 64, 4 * 64)
    dm = window.view.visible_scene_rect()
    players = window.players.window.visible_scene_rect()
    # the players' window keeps its own aspect ratio, so it shows at least the DM's area
    assert players.contains(dm.adjusted(2, 2, -2, -2))
    assert players.center().x() == pytest.approx(dm.center().x(), abs=2)
    assert players.center().y() == pytest.approx(dm.center().y(), abs=2)


def test_steering_with_the_outline(window: MainWindow, qtbot: QtBot) -> None:
    open_players(window, qtbot)
    window.players.set_camera_mode(CameraMode.STEER)
    window.players.outline.set_area(QRectF(64, 64, 4 * 64, 3 * 64))
    shown = window.players.window.visible_scene_rect()
    assert shown.center().x() == pytest.approx(3 * 64, abs=2)
    assert shown.center().y() == pytest.approx(2.5 * 64, abs=2)
    assert window.players.outline.isVisible()


def test_tabletop_mode_draws_one_cell_per_calibrated_inch(window: MainWindow, qtbot: QtBot) -> None:
    open_players(window, qtbot)
    window.players.set_tabletop_ppi(96)
    window.players.set_camera_mode(CameraMode.TABLETOP)
    assert window.players.window.view.transform().m11() * 64 == pytest.approx(96)
    assert window.settings.value("players/tabletop_ppi") in (96, 96.0, "96", "96.0")


def test_players_see_the_map_image(window: MainWindow, qtbot: QtBot) -> None:
    from PySide6.QtCore import QBuffer, QIODevice
    from PySide6.QtGui import QImage

    from battlemap.model import Background
    from battlemap.model.document import ReplaceEncounterField

    image = QImage(12 * 10, 8 * 10, QImage.Format.Format_RGB32)
    image.fill(QColor("#2e8b57"))
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")  # type: ignore[call-overload]  # PySide6 takes str
    name = window.document.add_image(bytes(buffer.data().data()), ".png")
    background = Background(image=name, pixels_per_cell=10)
    window.document.apply(ReplaceEncounterField("background", None, background))
    open_players(window, qtbot)
    assert colour_at(window, 10.5, 6.5) == QColor("#2e8b57")


def test_editing_one_feature_keeps_the_other_items(window: MainWindow) -> None:
    from battlemap.model import Obstacle, Wall
    from battlemap.model.document import ReplaceEncounterField

    table = Obstacle(points=[(1, 1), (2, 1), (2, 2)])
    pillar = Obstacle(points=[(5, 5), (6, 5), (6, 6)])
    window.document.apply(ReplaceEncounterField("obstacles", (), (table,)))
    table_item = window.scene.map_layer.item_for(table.id)
    window.document.apply(ReplaceEncounterField("obstacles", (table,), (table, pillar)))
    assert window.scene.map_layer.item_for(table.id) is table_item
    window.document.apply(ReplaceEncounterField("obstacles", (table, pillar), (pillar,)))
    assert window.scene.map_layer.item_for(table.id) is None
    assert table_item is not None and table_item.scene() is None
    wall = Wall(a=(1, 1), b=(1, 4))
    window.document.apply(ReplaceEncounterField("walls", (), (wall,)))
    walls_item = window.scene.map_layer.walls_item
    assert list(walls_item.walls) == [wall.id]
    assert walls_item.boundingRect().contains(64, 2 * 64)
