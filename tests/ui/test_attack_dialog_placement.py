"""Issue 15 item 5: the Attack dialog opens beside the map, never over the attacker or the
target (srd-5e), at 1366 x 768 with the first-run dock layout, wherever the two tokens are
on screen: at the viewport's left, its right, its middle (then the map scrolls)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QRect
from pytestqt.qtbot import QtBot

from battlemap.model import Creature, Encounter, Grid, Side
from battlemap.model.ids import EntityId
from battlemap.ui.main_window import MainWindow
from battlemap.ui.style import cell_to_scene
from tests.ui.fight_window import begin_fight, shown_window
from tests.ui.test_combat_attack_dialog import KNIGHT

KNIGHT_ID, WOLF_ID = EntityId("c-knight"), EntityId("c-wolf")


def laptop_window(qtbot: QtBot, tmp_path: Path) -> MainWindow:
    creatures = (
        Creature(id="c-knight", name="Knight", side=Side.PARTY, x=9, y=6, hp=30, max_hp=30),
        Creature(id="c-wolf", name="Wolf", side=Side.HOSTILE, x=10, y=6, hp=11, max_hp=11),
    )
    encounter = Encounter(grid=Grid(width=40, height=30), creatures=creatures, party=(KNIGHT,))
    window = shown_window(qtbot, tmp_path, encounter)
    begin_fight(window, KNIGHT_ID, seed=None)
    return window


def dialog_in_view(window: MainWindow) -> QRect:
    dialog = window.combat.attack_dialog
    viewport = window.view.viewport()
    return QRect(viewport.mapFromGlobal(dialog.geometry().topLeft()), dialog.size())


def token_in_view(window: MainWindow, creature_id: EntityId) -> QRect:
    token = window.scene.tokens[creature_id]
    return window.view.mapFromScene(token.sceneBoundingRect()).boundingRect()


@pytest.mark.parametrize("where", [0.15, 0.5, 0.85])
def test_the_attack_dialog_never_covers_the_attacker_or_the_target(
    qtbot: QtBot, tmp_path: Path, where: float
) -> None:
    window = laptop_window(qtbot, tmp_path)
    view = window.view
    width = view.viewport().width()
    assert 500 < width < 900  # the map between the two dock columns of a laptop
    # Put the two tokens at ``where`` of the viewport's width.
    view.resetTransform()
    view.centerOn(cell_to_scene(10), cell_to_scene(6.5))
    shift = round((0.5 - where) * width)
    view.horizontalScrollBar().setValue(view.horizontalScrollBar().value() + shift)
    knight_before = token_in_view(window, KNIGHT_ID)
    assert abs(knight_before.center().x() - where * width) < 60
    window.combat.open_attack()
    dialog = window.combat.attack_dialog
    assert dialog.isVisible() and dialog.target_id() == WOLF_ID
    placed = dialog_in_view(window)
    for creature_id in (KNIGHT_ID, WOLF_ID):
        token = token_in_view(window, creature_id)
        assert view.viewport().rect().contains(token), (where, token)  # still on screen
        assert not placed.intersects(token), (where, placed, token)
    # Inside the main window (beside the map, over a dock column).
    assert window.geometry().contains(dialog.geometry())
