"""Tabletop mode (issue 20): with the TV laid flat, the players' name plates and banners face
the seats: each the edge nearest to it, or one side the DM chooses. Pixel probes compare a
turned plate (and banner) with the upright one turned by hand."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest
from PySide6.QtCore import QPointF, QRectF, QSettings
from PySide6.QtGui import QImage, QTransform
from pytestqt.qtbot import QtBot

from battlemap.model import Creature, Document, Encounter, Grid, Side
from battlemap.model.combat import ActiveCondition, Combatant
from battlemap.model.document import ReplaceEncounterField
from battlemap.model.ids import EntityId
from battlemap.ui.main_window import MainWindow
from battlemap.ui.players.controller import CameraMode
from battlemap.ui.players.facing import FACING_KEY, Facing, nearest_edge
from battlemap.ui.players.scene import PlayerTokenItem
from battlemap.ui.render import render_scene
from tests.ui.players_helpers import open_players
from tests.ui.token_helpers import in_combat

NORTH, SOUTH = EntityId("north"), EntityId("south")
PIXELS_PER_UNIT = 4
"""The scene rendered this fine: a plate's letters are strokes several pixels wide."""


@pytest.fixture
def encounter() -> Encounter:
    """Two creatures of one name: one by the top edge of the map, one by the bottom."""
    return Encounter(
        grid=Grid(width=12, height=8),
        creatures=(
            Creature(id=NORTH, name="Kestrel", side=Side.PARTY, x=3, y=0),
            Creature(id=SOUTH, name="Kestrel", side=Side.PARTY, x=8, y=7),
        ),
    )


def show_whole_map(window: MainWindow, qtbot: QtBot, facing: Facing) -> None:
    open_players(window, qtbot)
    window.players.set_camera_mode(CameraMode.STEER)
    window.players.outline.set_area(window.map_rect())
    window.players.facing_menu.set_facing(facing)


def token(window: MainWindow, key: EntityId) -> PlayerTokenItem:
    return window.players.window.scene.tokens[key]


def text_mask(image: QImage) -> npt.NDArray[np.bool_]:
    """Where ``image`` is as bright as a plate's white letters."""
    rgb = image.convertToFormat(QImage.Format.Format_RGB32)
    words = np.frombuffer(rgb.constBits(), dtype=np.uint32, count=rgb.sizeInBytes() // 4)
    pixels = words.reshape(rgb.height(), rgb.bytesPerLine() // 4)[:, : rgb.width()]
    red, green, blue = ((pixels >> shift) & 0xFF for shift in (16, 8, 0))
    return (red > 200) & (green > 200) & (blue > 200)


def plate_image(window: MainWindow, key: EntityId, size: tuple[int, int]) -> QImage:
    """The players' scene where ``key``'s plate is, rendered finely, ``size`` pixels."""
    rect = token(window, key).plate.sceneBoundingRect().adjusted(3, 3, -3, -3)  # off the corners
    image = render_scene(window.players.window.scene, rect, round(rect.width() * PIXELS_PER_UNIT))
    return image.scaled(*size)


def grown(mask: npt.NDArray[np.bool_], by: int = 2) -> npt.NDArray[np.bool_]:
    """``mask`` with every pixel within ``by`` of a set one set (a square's reach)."""
    padded = np.pad(mask, by)
    out = np.zeros_like(mask)
    rows, cols = mask.shape
    for dy in range(2 * by + 1):
        for dx in range(2 * by + 1):
            out |= padded[dy : dy + rows, dx : dx + cols]
    return out


def mismatch(a: npt.NDArray[np.bool_], b: npt.NDArray[np.bool_]) -> float:
    """The share of letter pixels of either with none of the other's within two pixels
    (the two renderings may lie a pixel or so apart)."""
    missed = (a & ~grown(b)).sum() + (b & ~grown(a)).sum()
    return float(missed / max(1, a.sum() + b.sum()))


def test_plates_by_the_top_edge_read_from_the_top(window: MainWindow, qtbot: QtBot) -> None:
    show_whole_map(window, qtbot, Facing.NEAREST)
    north, south = token(window, NORTH), token(window, SOUTH)
    assert north.plate.rotation() == 180 and south.plate.rotation() == 0
    # each hangs on its seat's side of its token: the north one above, the south one below
    assert north.plate.sceneBoundingRect().bottom() < north.sceneBoundingRect().center().y()
    assert south.plate.sceneBoundingRect().top() > south.sceneBoundingRect().center().y()
    upright_rect = south.plate.sceneBoundingRect()
    size = (round(upright_rect.width() * 4), round(upright_rect.height() * 4))
    upright = plate_image(window, SOUTH, size)
    turned = text_mask(plate_image(window, NORTH, size))
    as_if_turned = text_mask(upright.transformed(QTransform().rotate(180)))
    assert turned.sum() > 200  # letters were found
    # the north plate is the upright one turned half round: not the upright one itself
    assert mismatch(turned, as_if_turned) < 0.1
    assert mismatch(turned, text_mask(upright)) > 0.2


def test_a_side_the_dm_chooses_turns_every_plate(window: MainWindow, qtbot: QtBot) -> None:
    show_whole_map(window, qtbot, Facing.LEFT)
    for key in (NORTH, SOUTH):
        item = token(window, key)
        plate = item.plate.sceneBoundingRect()
        assert item.plate.rotation() == 90
        assert plate.height() > plate.width()  # along the left edge's readers' lines
        assert plate.right() < item.sceneBoundingRect().center().x()  # the seats' side
    window.players.facing_menu.set_facing(Facing.BOTTOM)
    assert [token(window, key).plate.rotation() for key in (NORTH, SOUTH)] == [0, 0]
    south = token(window, SOUTH)
    assert south.plate.pos() == south.plate.home  # upright, at home, as before the mode


def test_the_banners_face_the_chosen_side(window: MainWindow, qtbot: QtBot) -> None:
    encounter = window.document.encounter
    combatants = tuple(
        Combatant(creature_id=c.id, group=c.id, initiative=20 - i)
        for i, c in enumerate(encounter.creatures)
    )
    fighting = in_combat(encounter.creatures, combatants, grid=encounter.grid).combat
    window.document.apply(ReplaceEncounterField("combat", None, fighting))
    show_whole_map(window, qtbot, Facing.BOTTOM)
    players = window.players.window
    qtbot.waitUntil(players.banner.isVisible)
    upright = players.banner.grab().toImage()
    banner_top = players.banner.geometry().top()
    window.players.facing_menu.set_facing(Facing.TOP)
    qtbot.wait(10)
    assert players.banner.geometry().top() > players.view.geometry().top() > banner_top
    assert players.strip.geometry().bottom() < players.view.geometry().top() + 1
    turned = players.banner.grab().toImage().scaled(upright.size())
    as_if_turned = text_mask(upright.transformed(QTransform().rotate(180)))
    assert text_mask(turned).sum() > 200
    assert mismatch(text_mask(turned), as_if_turned) < 0.1
    assert mismatch(text_mask(turned), text_mask(upright)) > 0.2
    window.players.facing_menu.set_facing(Facing.RIGHT)
    qtbot.wait(10)
    banner, view = players.banner.geometry(), players.view.geometry()
    assert banner.right() < view.left() + 1 and banner.height() > banner.width()


def test_the_choice_is_kept_for_the_next_session(
    window: MainWindow, qtbot: QtBot, settings: QSettings
) -> None:
    window.players.facing_menu.actions[Facing.NEAREST].trigger()
    assert settings.value(FACING_KEY) == "nearest"
    again = MainWindow(Document(window.document.encounter), settings=settings)
    qtbot.addWidget(again)
    assert again.players.facing_menu.facing is Facing.NEAREST
    assert again.players.facing_menu.actions[Facing.NEAREST].isChecked()
    assert again.players.window.facing is Facing.NEAREST


@pytest.mark.parametrize(
    ("x", "y", "edge"),
    [
        (50, 5, Facing.TOP),
        (50, 95, Facing.BOTTOM),
        (3, 50, Facing.LEFT),
        (198, 50, Facing.RIGHT),
        (100, 50, Facing.BOTTOM),
    ],
)
def test_the_nearest_edge(x: float, y: float, edge: Facing) -> None:
    # a 200 x 100 screen; its centre is as near the top as the bottom: upright wins the tie
    assert nearest_edge(QPointF(x, y), QRectF(0, 0, 200, 100)) is edge


def token_image(window: MainWindow, key: EntityId) -> QImage:
    """The players' scene over the middle of ``key``'s disc (its letters; no plate, icon or
    ring), rendered finely."""
    space = token(window, key).sceneBoundingRect()
    inset = space.width() * 0.22
    rect = space.adjusted(inset, inset, -inset, -inset)
    return render_scene(window.players.window.scene, rect, round(rect.width() * PIXELS_PER_UNIT))


def test_a_tokens_letters_and_icons_face_its_seat_too(window: MainWindow, qtbot: QtBot) -> None:
    prone = (ActiveCondition(name="prone"),)  # an icon over each token
    combatants = tuple(
        Combatant(creature_id=key, group=key, initiative=10 - i, conditions=prone)
        for i, key in enumerate((NORTH, SOUTH))
    )
    encounter = window.document.encounter
    fighting = in_combat(encounter.creatures, combatants, grid=encounter.grid).combat
    window.document.apply(ReplaceEncounterField("combat", None, fighting))
    show_whole_map(window, qtbot, Facing.NEAREST)
    top, bottom = token(window, NORTH), token(window, SOUTH)
    assert top.conditions.marks and bottom.conditions.marks
    assert top.conditions.rotation() == 180 and bottom.conditions.rotation() == 0
    # above its token as its readers see it: below it on the screen for the top edge's seats
    assert top.conditions.sceneBoundingRect().top() > top.sceneBoundingRect().center().y()
    assert bottom.conditions.sceneBoundingRect().bottom() < bottom.sceneBoundingRect().center().y()
    upright = token_image(window, SOUTH)
    turned = text_mask(token_image(window, NORTH).scaled(upright.size()))
    assert turned.sum() > 100  # the initial's strokes were found
    assert mismatch(turned, text_mask(upright.transformed(QTransform().rotate(180)))) < 0.1
    assert mismatch(turned, text_mask(upright)) > 0.2
    window.players.facing_menu.set_facing(Facing.BOTTOM)
    assert top.conditions.rotation() == 0
    assert mismatch(text_mask(token_image(window, NORTH)), text_mask(upright)) < 0.1
