"""The players' window shows light (issue 20): on a dark map a torch's bright and dim rings
and a darkvision creature's dim-seen area; darkness is fogged; a carried torch's rings move
with its carrier; a baked map is drawn as today. Pixel probes.

A torch (srd-5e "Vision and Light"): bright light in a 20-foot radius and dim light for an
additional 20 feet; darkvision within its range sees darkness as dim light.
"""

from __future__ import annotations

import numpy as np
import pytest
from numpy.typing import NDArray
from PySide6.QtCore import QEvent, QPoint, QRectF, Qt
from PySide6.QtGui import QImage
from pytestqt.qtbot import QtBot

from battlemap.model import Creature, Encounter, Grid, Light, LightLevel, MapLighting, Side
from battlemap.model.document import MoveCreature, ReplaceEncounterField
from battlemap.model.fog import FogMode, FogOfWar
from battlemap.model.ids import EntityId
from battlemap.model.statblock import Senses, StatBlock
from battlemap.ui.main_window import MainWindow
from battlemap.ui.render import render_scene
from battlemap.ui.undo import push
from tests.ui.helpers import _send as send
from tests.ui.helpers import cell_centre_in_view
from tests.ui.players_helpers import open_players

PX = 16
"""Pixels per cell of the renders."""
WIDTH, HEIGHT = 40, 12
HERO = EntityId("creature-hero")
ELF = EntityId("creature-elf")
TORCH = Light(
    id=EntityId("light-torch"), position=(0, 0), bright_cells=4, dim_cells=8, carried_by=HERO
)


@pytest.fixture
def encounter() -> Encounter:
    """A dark 40 x 12 map of bare floor, no walls: the hero carries a torch at (6.5, 6.5);
    the elf, darkvision 60 ft (12 cells), stands at (30.5, 6.5), far from any light."""
    elf_block = StatBlock(name="Elf", senses=Senses(darkvision=60))
    return Encounter(
        grid=Grid(width=WIDTH, height=HEIGHT),
        creatures=(
            Creature(id=HERO, name="Hero", side=Side.PARTY, x=6, y=6),
            Creature(id=ELF, name="Elf", side=Side.PARTY, x=30, y=6, statblock=elf_block),
        ),
        lights=(TORCH,),
        lighting=MapLighting(ambient=LightLevel.DARK),
        fog=FogOfWar(mode=FogMode.DYNAMIC),
    )


def rendered(window: MainWindow) -> NDArray[np.float64]:
    """The players' scene as grey levels, ``PX`` pixels a cell: ``levels[y, x]``."""
    scene = window.players.window.scene
    image = render_scene(scene, QRectF(0, 0, WIDTH * 64, HEIGHT * 64), WIDTH * PX)
    image = image.convertToFormat(QImage.Format.Format_RGB32)
    raw = np.frombuffer(image.constBits(), dtype=np.uint8)
    bgra = raw.reshape(image.height(), image.bytesPerLine())[:, : image.width() * 4]
    levels: NDArray[np.float64] = (
        bgra.reshape(image.height(), image.width(), 4)[:, :, :3].astype(np.float64).mean(axis=2)
    )
    return levels


def at(levels: NDArray[np.float64], x: float, y: float) -> float:
    """The level at a point in cells (a 3 x 3 pixel average: away from grid lines)."""
    px, py = round(x * PX), round(y * PX)
    return float(levels[py - 1 : py + 2, px - 1 : px + 2].mean())


def test_a_dark_map_shows_a_torchs_bright_and_dim_rings(window: MainWindow, qtbot: QtBot) -> None:
    open_players(window, qtbot)
    levels = rendered(window)
    bright = at(levels, 6.5, 9.6)  # 3.1 cells below the torch: bright
    dim = at(levels, 11.7, 6.5)  # 5.2 cells right of it: dim
    dark = at(levels, 16, 6.5)  # 9.5 cells: darkness, never seen
    assert bright > 150, bright
    assert 0.35 * bright < dim < 0.75 * bright, (bright, dim)  # darker, the floor visible
    assert dark == 0, dark
    # The rings are where the torch's radii are: just inside and outside 4 and 8 cells.
    assert at(levels, 6.5 + 3.7, 6.5) > at(levels, 6.5 + 4.3, 6.5) + 20
    assert at(levels, 6.5, 6.5 - 4.3) > 0 and at(levels, 15.6, 6.5) == 0


def test_a_darkvision_creature_sees_darkness_as_dim(window: MainWindow, qtbot: QtBot) -> None:
    open_players(window, qtbot)
    view = window.players.last_view
    assert view is not None and view.visible is not None and view.dim_light is not None
    assert (19, 6) in view.visible and (17, 6) not in view.visible  # 12 cells from (30.5, 6.5)
    levels = rendered(window)
    seen_dim = at(levels, 36.5, 6.5)
    bright = at(levels, 6.5, 7.5)
    assert 0.35 * bright < seen_dim < 0.75 * bright, (bright, seen_dim)
    assert at(levels, 16.0, 6.5) == 0  # neither lit nor within the elf's darkvision


def test_a_carried_torchs_rings_move_with_its_carrier(window: MainWindow, qtbot: QtBot) -> None:
    open_players(window, qtbot)
    push(window.undo_stack, window.document, MoveCreature(HERO, (6, 6), (16, 3)))
    view = window.players.last_view
    assert view is not None and view.visible is not None
    assert (16, 5) in view.visible and (6, 9) not in view.visible  # the old place: explored
    levels = rendered(window)
    assert at(levels, 16.5, 6.4) > 150  # bright, 3 cells below the hero's new place
    assert at(levels, 6.5, 9.6) < 0.75 * at(levels, 16.5, 6.4)  # remembered, not lit


@pytest.mark.parametrize(
    "lighting",
    [MapLighting(ambient=LightLevel.DARK, baked_lighting=True), MapLighting()],
)
def test_a_baked_or_bright_map_is_drawn_as_today(
    window: MainWindow, qtbot: QtBot, lighting: MapLighting
) -> None:
    open_players(window, qtbot)
    old = window.document.encounter.lighting
    push(window.undo_stack, window.document, ReplaceEncounterField("lighting", old, lighting))
    view = window.players.last_view
    assert view is not None and view.visible is not None and view.dim_light is None
    assert (16, 6) in view.visible  # sight as without light
    levels = rendered(window)
    assert abs(at(levels, 11.7, 6.5) - at(levels, 6.5, 9.6)) < 10  # no dim ring


def test_a_drag_rebuilds_the_players_light_on_the_drop_only(
    window: MainWindow, qtbot: QtBot
) -> None:
    """The players' light (the torch's lit area, the seen pieces) is rebuilt once per
    document change: the drag's mouse moves give the DM feedback and leave it alone."""
    open_players(window, qtbot)
    fog = window.players.party_fog
    left, none = Qt.MouseButton.LeftButton, Qt.MouseButton.NoButton

    def on_view(x: float, y: float) -> QPoint:
        return cell_centre_in_view(window.view, x, y)

    lit_before, seen_before = fog.lit_areas.computed, fog.seen_memo.computed
    send(window.view, QEvent.Type.MouseButtonPress, on_view(6.5, 6.5), left, left)
    for step in range(1, 6):
        send(window.view, QEvent.Type.MouseMove, on_view(6.5 + step, 6.5), none, left)
    assert (fog.lit_areas.computed, fog.seen_memo.computed) == (lit_before, seen_before)
    send(window.view, QEvent.Type.MouseButtonRelease, on_view(11.5, 6.5), left, none)
    assert window.document.encounter.creature(HERO).x != 6  # the drop moved the hero
    assert fog.lit_areas.computed == lit_before + 1  # the torch's new lit area, once
    assert fog.seen_memo.computed > seen_before
