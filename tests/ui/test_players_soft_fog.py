"""The players' fog follows the party's visibility polygon (issue 20): a diagonal wall's
shadow edge is straight, the edge is feathered, explored cells stay dimmed, and no pixel of
a cell the party cannot see is ever lighter than the fog. Pixel probes."""

from __future__ import annotations

import math

import numpy as np
import pytest
from numpy.typing import NDArray
from PySide6.QtCore import QRectF
from PySide6.QtGui import QImage
from pytestqt.qtbot import QtBot

from battlemap.model import Creature, Encounter, Grid, Side, Wall
from battlemap.model.document import MoveCreature
from battlemap.model.fog import FogMode, FogOfWar, reveal
from battlemap.model.ids import EntityId
from battlemap.ui.main_window import MainWindow
from battlemap.ui.players.projection import PlayerView
from battlemap.ui.render import render_scene
from battlemap.ui.undo import push
from tests.ui.players_helpers import open_players

PX = 64
"""Pixels per cell of the renders (one per scene unit)."""
SIDE = 12


@pytest.fixture
def encounter() -> Encounter:
    """The hero looks from (2.5, 2.5) past the end (5, 5) of a wall running down and to the
    right: the edge of the wall's shadow is the ray y = x, through cell corners, so each cell
    (k, k) past the wall is seen (its centre on the ray) and cut in two along its diagonal."""
    return Encounter(
        grid=Grid(width=SIDE, height=SIDE),
        creatures=(Creature(id="hero", name="Thorin", side=Side.PARTY, x=2, y=2),),
        walls=(Wall(id="w", a=(5, 5), b=(9, 7)),),
        fog=FogOfWar(mode=FogMode.DYNAMIC),
    )


def rendered(window: MainWindow, px: int = PX) -> NDArray[np.float64]:
    """The players' scene as grey levels, ``px`` pixels a cell: ``levels[y, x]``."""
    scene = window.players.window.scene
    image = render_scene(scene, QRectF(0, 0, SIDE * 64, SIDE * 64), SIDE * px)
    image = image.convertToFormat(QImage.Format.Format_RGB32)
    raw = np.frombuffer(image.constBits(), dtype=np.uint8)
    bgra = raw.reshape(image.height(), image.bytesPerLine())[:, : image.width() * 4]
    bgra = bgra.reshape(image.height(), image.width(), 4).astype(np.float64)
    levels: NDArray[np.float64] = bgra[:, :, :3].mean(axis=2)
    return levels


def level_at(levels: NDArray[np.float64], x: float, y: float) -> float:
    """The level at a point in pixels, bilinear (sub-pixel probes along a line)."""
    x, y = x - 0.5, y - 0.5  # pixel centres
    height, width = levels.shape
    x, y = min(max(x, 0.0), width - 1.001), min(max(y, 0.0), height - 1.001)  # held at edges
    x0, y0 = math.floor(x), math.floor(y)
    fx, fy = x - x0, y - y0
    block = levels[y0 : y0 + 2, x0 : x0 + 2]
    top = block[0, 0] * (1 - fx) + block[0, 1] * fx
    bottom = block[1, 0] * (1 - fx) + block[1, 1] * fx
    return float(top * (1 - fy) + bottom * fy)


def clear_and_dim(levels: NDArray[np.float64]) -> tuple[float, float]:
    """The lit and the shadowed half of cell (6, 6)."""
    return level_at(levels, 6.2 * PX, 6.8 * PX), level_at(levels, 6.8 * PX, 6.2 * PX)


def edge_offsets(levels: NDArray[np.float64], middle: float) -> list[float]:
    """Where the clear floor gives way to the shadow (darker than ``middle``) across the ray
    y = x (pixels from the ray, along its normal into the shadow), sampled at 5 points of
    each cell (k, k) past the wall's end, away from the cells' corners."""
    normal = (1 / math.sqrt(2), -1 / math.sqrt(2))
    offsets = []
    for k in range(6, SIDE):
        for share in (0.3, 0.4, 0.5, 0.6, 0.7):
            on_ray = (k + share) * PX
            steps = [s / 4 for s in range(-40, 193)]  # -10 .. 48 px in quarter pixels
            below = [
                s
                for s in steps
                if level_at(levels, on_ray + s * normal[0], on_ray + s * normal[1]) < middle
            ]
            offsets.append(below[0] if below else math.inf)  # inf: no edge within 48 px
    return offsets


def test_a_diagonal_walls_shadow_edge_is_straight(window: MainWindow, qtbot: QtBot) -> None:
    open_players(window, qtbot)
    view = window.players.last_view
    assert view is not None and view.visible is not None
    assert all((k, k) in view.visible for k in range(6, SIDE))  # cut cells, centres on the ray
    assert (8, 7) not in view.visible  # its centre lies in the shadow
    levels = rendered(window)
    clear, dim = clear_and_dim(levels)
    assert clear - dim > 60, (clear, dim)  # the shadow is dimmed, not clear
    offsets = edge_offsets(levels, (clear + dim) / 2)
    assert len(offsets) == 30  # six cells, five probes each
    assert max(offsets) - min(offsets) <= 2, offsets  # straight: no cell steps
    assert all(abs(offset) <= 2 for offset in offsets), offsets  # on the ray itself


def test_the_cell_edges_would_have_stepped(window: MainWindow, qtbot: QtBot) -> None:
    """The same probes on the fog drawn along cell edges find the steps (what the polygon
    fixes): a whole cell (k, k) clear, so the edge wanders as far as its corner."""
    open_players(window, qtbot)
    middle = sum(clear_and_dim(rendered(window))) / 2
    fog = window.players.window.scene.fog_item
    fog.soft = False
    view = window.players.last_view
    assert view is not None
    fog.show_view(view)
    offsets = edge_offsets(rendered(window), middle)
    assert max(offsets) - min(offsets) > 10


def test_the_edge_is_feathered_over_a_few_pixels(window: MainWindow, qtbot: QtBot) -> None:
    open_players(window, qtbot)
    levels = rendered(window)
    clear = level_at(levels, 6.2 * PX, 6.8 * PX)
    dim = level_at(levels, 6.8 * PX, 6.2 * PX)
    on_ray = 8.5 * PX
    across = [
        level_at(levels, on_ray + s / math.sqrt(2), on_ray - s / math.sqrt(2))
        for s in range(-12, 13)
    ]
    between = [v for v in across if dim + 8 < v < clear - 8]
    assert 2 <= len(between) <= 12, across  # soft over a few pixels, not blurred wide


def unseen_cells(view: PlayerView) -> set[tuple[int, int]]:
    assert view.visible is not None
    every = {(c, r) for c in range(SIDE) for r in range(SIDE)}
    return every - view.visible - view.explored


def test_no_pixel_of_a_cell_the_party_cannot_see_is_lighter_than_the_fog(
    window: MainWindow, qtbot: QtBot
) -> None:
    open_players(window, qtbot)
    window.players.set_fog_mode(FogMode.BOTH)
    window.players.change_fog(reveal, frozenset({(11, 0), (10, 8)}), "Reveal")
    view = window.players.last_view
    assert view is not None
    hidden = unseen_cells(view)
    assert len(hidden) >= 5
    levels = rendered(window, px=16)
    for col, row in hidden:
        block = levels[row * 16 : row * 16 + 16, col * 16 : col * 16 + 16]
        assert block.max() == 0, (col, row)  # every pixel of it black
    for col, row in ((10, 8), (11, 0)):  # revealed by the DM: clear, whatever sight says
        assert levels[row * 16 + 8, col * 16 + 8] > 200


def test_explored_cells_stay_dimmed_with_the_map_visible(window: MainWindow, qtbot: QtBot) -> None:
    open_players(window, qtbot)
    hero = window.document.encounter.creature(EntityId("hero"))
    for start, end in (((2, 2), (2, 3)), ((2, 3), (9, 8))):  # explores, then looks away
        push(window.undo_stack, window.document, MoveCreature(hero.id, start, end))
    view = window.players.last_view
    assert view is not None and view.visible is not None
    assert (1, 1) in view.explored and (1, 1) not in view.visible
    levels = rendered(window)
    floor = level_at(levels, 10.5 * PX, 10.5 * PX)  # beside the hero now
    explored = level_at(levels, 1.5 * PX, 1.5 * PX)
    assert 0.25 * floor < explored < 0.6 * floor  # dimmed, the floor still visible
