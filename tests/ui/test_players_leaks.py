"""Secrets that reached the players' window (issue 18): each test shows one leak closed.

A hidden party member's sight, the map image outside the grid, a hiding or invisible hostile
and markup in names; the name-markup walk over both windows is in test_plain_text.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QBuffer, QIODevice, QRectF
from PySide6.QtGui import QColor, QImage
from pytestqt.qtbot import QtBot

from battlemap.model import Background, Creature, Encounter, Grid, Side, Wall
from battlemap.model.document import ReplaceEncounterField, UpdateCreature
from battlemap.model.fog import FogMode, FogOfWar, reveal
from battlemap.model.ids import EntityId
from battlemap.ui.main_window import MainWindow
from battlemap.ui.render import render_scene
from battlemap.ui.undo import push
from tests.ui.players_helpers import open_players, player_tokens

GREEN = QColor("#2e8b57")


@pytest.fixture
def encounter() -> Encounter:
    """Two rooms split by a solid wall at x = 6: the hero west, a scout and an orc east."""
    return Encounter(
        grid=Grid(width=12, height=6),
        creatures=(
            Creature(id="hero", name="Thorin", side=Side.PARTY, x=1, y=2),
            Creature(id="scout", name="Scout", side=Side.PARTY, x=8, y=2, hidden=True),
            Creature(id="orc", name="Orc", side=Side.HOSTILE, x=10, y=2),
        ),
        walls=(Wall(id="wall", a=(6, 0), b=(6, 6)),),
        fog=FogOfWar(mode=FogMode.DYNAMIC),
    )


def set_hidden(window: MainWindow, creature_id: str, hidden: bool) -> None:
    creature = window.document.encounter.creature(creature_id)  # type: ignore[arg-type]
    updated = creature.model_copy(update={"hidden": hidden})
    push(window.undo_stack, window.document, UpdateCreature(creature, updated))


# --- a hidden party member gives no sight -----------------------------------------------


def test_a_party_member_hidden_from_the_players_reveals_nothing_around_itself(
    window: MainWindow, qtbot: QtBot
) -> None:
    open_players(window, qtbot)
    view = window.players.last_view
    assert view is not None and view.visible is not None
    east = {(c, r) for c in range(7, 12) for r in range(6)}
    assert view.visible.isdisjoint(east)  # only the hero looks: the wall hides the east room
    assert window.document.encounter.fog.explored.isdisjoint(east)
    assert player_tokens(window) == ["hero"]  # the orc beside the hidden scout stays unseen
    set_hidden(window, "scout", False)  # the DM shows the scout: now its sight counts
    view = window.players.last_view
    assert view is not None and view.visible is not None
    assert (10, 2) in view.visible and player_tokens(window) == ["hero", "orc", "scout"]
    window.undo_stack.undo()
    assert player_tokens(window) == ["hero"]
    view = window.players.last_view
    assert view is not None and view.visible is not None and view.visible.isdisjoint(east)


# --- the map image outside the grid -----------------------------------------------------


def show_big_map(window: MainWindow) -> None:
    """A green map image 16 x 10 cells at 10 pixels a cell: 4 columns and 4 rows more than
    the 12 x 6 grid, laid so the grid starts 2 cells into it."""
    image = QImage(16 * 10, 10 * 10, QImage.Format.Format_RGB32)
    image.fill(GREEN)
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")  # type: ignore[call-overload]  # PySide6 takes str
    name = window.document.add_image(bytes(buffer.data().data()), ".png")
    background = Background(image=name, pixels_per_cell=10, offset_x=20, offset_y=20)
    window.document.apply(ReplaceEncounterField("background", None, background))


def players_colour(window: MainWindow, col: float, row: float) -> QColor:
    """The players' scene's colour at cell (col, row); -2..14 x -2..8 cells are drawn."""
    image = render_scene(window.players.window.scene, QRectF(-128, -128, 16 * 64, 10 * 64), 320)
    return image.pixelColor(int((col + 2) * 20), int((row + 2) * 20))


def test_under_fog_the_map_outside_the_grid_stays_black(window: MainWindow, qtbot: QtBot) -> None:
    show_big_map(window)
    open_players(window, qtbot)
    window.players.set_fog_mode(FogMode.MANUAL)
    window.players.change_fog(reveal, window.players._all_cells(), "Reveal map")
    assert players_colour(window, 5.5, 3.5) == GREEN  # the whole grid is revealed
    for col, row in ((-1.5, 3.5), (12.5, 3.5), (5.5, -1.5), (5.5, 6.5), (13.5, 7.5)):
        assert players_colour(window, col, row) == QColor("black"), (col, row)
    assert window.scene.background_layer.item is not None
    assert window.scene.background_layer.item.clip is None  # the DM sees the whole image
    window.players.set_fog_mode(FogMode.OFF)  # no fog: the players see the map as it is
    assert players_colour(window, -1.5, 3.5) == GREEN
    assert players_colour(window, 13.5, 7.5) == GREEN


def test_dynamic_fog_keeps_the_map_outside_the_grid_black_too(
    window: MainWindow, qtbot: QtBot
) -> None:
    show_big_map(window)
    open_players(window, qtbot)
    assert players_colour(window, 3.5, 4.5) == GREEN  # seen by the hero
    assert players_colour(window, -1.5, 2.5) == QColor("black")  # beside it, off the grid
    assert players_colour(window, 9.5, 4.5) == QColor("black")  # behind the wall


def test_the_dms_veil_covers_the_map_image_outside_the_grid_too(
    window: MainWindow, qtbot: QtBot
) -> None:
    show_big_map(window)
    open_players(window, qtbot)
    window.players.set_fog_mode(FogMode.MANUAL)  # nothing revealed: the players see nothing

    def dm_colour(col: float, row: float) -> QColor:
        image = render_scene(window.scene, QRectF(-128, -128, 16 * 64, 10 * 64), 320)
        return image.pixelColor(int((col + 2) * 20), int((row + 2) * 20))

    veiled = dm_colour(5.5, 3.5)  # a grid cell under the veil
    assert veiled != GREEN
    for col, row in ((-1.5, 3.5), (12.5, 3.5), (5.5, -1.5), (13.5, 7.5)):
        assert dm_colour(col, row) == veiled, (col, row)  # as veiled as an unseen cell
    window.players.set_fog_mode(FogMode.OFF)
    assert dm_colour(-1.5, 3.5) == GREEN and dm_colour(5.5, 3.5) == GREEN


# --- token pictures ---------------------------------------------------------------------


def picture(folder: Path, name: str, colour: str) -> Path:
    image = QImage(16, 16, QImage.Format.Format_RGB32)
    image.fill(QColor(colour))
    path = folder / name
    image.save(str(path))  # PNG, by the suffix
    return path


def test_token_pictures_never_tell_the_players_a_file_name_or_a_hidden_creature(
    window: MainWindow, qtbot: QtBot, tmp_path: Path
) -> None:
    open_players(window, qtbot)
    pictures = window.token_pictures
    assert pictures.set_image_file(
        [EntityId("orc")], picture(tmp_path, "orc-WARLORD-ambush.png", "#aa2222")
    )
    assert pictures.set_image_file(
        [EntityId("scout")], picture(tmp_path, "scout-SPY-plan.png", "#22aa22")
    )
    encounter = window.document.encounter
    orc, scout_image = encounter.creature("orc"), encounter.creature("scout").token_image  # type: ignore[arg-type]
    assert orc.token_image is not None and scout_image is not None
    view = window.players.last_view
    assert view is not None and [token.image for token in view.tokens] == [None]  # the hero's
    push(window.undo_stack, window.document, UpdateCreature(orc, orc.model_copy(update={"x": 3})))
    view = window.players.last_view  # the orc stepped into the hero's room: seen, pictured
    assert view is not None
    assert {token.key: token.image for token in view.tokens} == {
        "hero": None,
        "orc": orc.token_image,
    }
    scene = window.players.window.scene
    drawn = render_scene(scene, QRectF(0, 0, 12 * 64, 6 * 64), 12 * 64)
    assert drawn.pixelColor(3 * 64 + 32, 2 * 64 + 32) == QColor("#aa2222")
    shown = repr(view) + " ".join(scene.token_images.errors.values())
    for secret in ("WARLORD", "ambush", "SPY", "plan.png", str(tmp_path), scout_image):
        assert secret not in shown, secret
    assert set(scene.token_images._decoded) == {orc.token_image}  # never the scout's
