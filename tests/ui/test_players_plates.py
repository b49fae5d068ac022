"""Name plates on the players' window draw over the fog, and only for tokens the party sees.

Map: Thorin stands at (1, 2) with a wall along y = 3 under the whole west room, so row 3 is
fog (black) for the party while his name plate hangs down into it; an orc waits in the
fogged south part, seen only when it comes north.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRectF
from pytestqt.qtbot import QtBot

from battlemap.model import Creature, Encounter, Grid, MoveCreature, Side, Wall
from battlemap.model.fog import FogMode, FogOfWar
from battlemap.ui.main_window import MainWindow
from battlemap.ui.players.scene import PlayerTokenItem
from battlemap.ui.render import render_scene
from battlemap.ui.style import cell_to_scene
from battlemap.ui.token_look import NamePlate
from battlemap.ui.undo import push
from tests.ui.players_helpers import open_players


@pytest.fixture
def encounter() -> Encounter:
    return Encounter(
        grid=Grid(width=8, height=6),
        creatures=(
            Creature(id="hero", name="Thorin Oakenshield", side=Side.PARTY, x=1, y=2),
            Creature(id="orc", name="Orc", side=Side.HOSTILE, x=5, y=4),
        ),
        walls=(Wall(id="w", a=(0, 3), b=(8, 3)),),
        fog=FogOfWar(mode=FogMode.DYNAMIC),
    )


def plates(window: MainWindow) -> list[NamePlate]:
    return [i for i in window.players.window.scene.items() if isinstance(i, NamePlate)]


def bright_pixels(window: MainWindow, area: QRectF) -> int:
    """Pixels of ``area`` (scene units) brighter than the plate's dark back: its text."""
    image = render_scene(window.players.window.scene, area, round(area.width()))
    return sum(
        1
        for x in range(image.width())
        for y in range(image.height())
        if image.pixelColor(x, y).lightness() > 180
    )


def test_a_visible_tokens_plate_draws_over_the_fog_below_it(
    window: MainWindow, qtbot: QtBot
) -> None:
    open_players(window, qtbot)
    view = window.players.last_view
    assert view is not None and view.visible is not None
    assert (1, 2) in view.visible and (1, 3) not in view.visible  # the plate's row is fog
    (plate,) = plates(window)
    assert plate.text() == "Thorin Oakenshield"
    fog = window.players.window.scene.fog_item
    assert plate.zValue() > fog.zValue()
    row_below = QRectF(0, cell_to_scene(3), cell_to_scene(4), cell_to_scene(1))
    shown = plate.sceneBoundingRect().intersected(row_below)
    assert shown.height() > 5  # the plate reaches into the fogged row...
    assert bright_pixels(window, shown) > 20  # ...and its letters show there


def test_plates_come_and_go_with_their_tokens_and_never_for_unseen_ones(
    window: MainWindow, qtbot: QtBot
) -> None:
    open_players(window, qtbot)
    scene = window.players.window.scene
    assert [p.text() for p in plates(window)] == ["Thorin Oakenshield"]  # no plate for the orc
    orc_cells = QRectF(cell_to_scene(4), cell_to_scene(4), cell_to_scene(3), cell_to_scene(2))
    assert bright_pixels(window, orc_cells) == 0  # where the orc stands: fog only
    push(window.undo_stack, window.document, MoveCreature("orc", (5, 4), (5, 1)))  # type: ignore[arg-type]
    assert sorted(p.text() for p in plates(window)) == ["Orc", "Thorin Oakenshield"]
    orc = scene.tokens["orc"]  # type: ignore[index]
    assert isinstance(orc, PlayerTokenItem)
    assert orc.plate.scene() is scene
    token, plate = orc.sceneBoundingRect(), orc.plate.sceneBoundingRect()
    # under its token in scene coordinates (NamePlate.place centres it to within its 6 px margin)
    assert plate.center().x() == pytest.approx(token.center().x(), abs=7)
    assert token.top() < plate.top() < token.bottom() < plate.bottom()
    window.undo_stack.undo()  # back behind the wall: token and plate both gone
    assert [p.text() for p in plates(window)] == ["Thorin Oakenshield"]
    assert orc.plate.scene() is None
