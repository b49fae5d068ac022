"""The players' camera at the table (issue 20): Ctrl+Shift+arrows pan the players' view one
cell from the DM's window, and "Follow the active creature" pans to whoever's turn it is when
they are off the players' view, never to a creature hidden from them."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QApplication, QLineEdit
from pytestqt.qtbot import QtBot

from battlemap.model import Creature, Encounter, Grid, Side
from battlemap.model.combat import Combatant
from battlemap.model.ids import EntityId
from battlemap.ui.help_menu import shortcut_rows
from battlemap.ui.main_window import MainWindow
from battlemap.ui.players.controller import CameraMode
from battlemap.ui.players.projection import PlayerToken
from battlemap.ui.players.table_camera import FOLLOW_ACTIVE, PAN_KEYS, token_rect
from tests.ui.players_helpers import open_players
from tests.ui.token_helpers import in_combat

CELL = 64
PAN_MODIFIERS = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
HERO, ORC, SPY = EntityId("hero"), EntityId("orc"), EntityId("spy")


@pytest.fixture
def encounter() -> Encounter:
    """A 40 x 30 map: Thorin near the top-left corner, the orc and a hidden spy far away;
    the turn order Thorin, spy, orc."""
    creatures = (
        Creature(id=HERO, name="Thorin", side=Side.PARTY, x=2, y=2),
        Creature(id=SPY, name="Spy", x=20, y=25, hidden=True),
        Creature(id=ORC, name="Orc", x=34, y=24),
    )
    combatants = tuple(
        Combatant(creature_id=c.id, group=c.id, initiative=20 - i) for i, c in enumerate(creatures)
    )
    return in_combat(creatures, combatants, grid=Grid(width=40, height=30))


def steer_at(window: MainWindow, area: QRectF) -> None:
    window.players.set_camera_mode(CameraMode.STEER)
    window.players.outline.set_area(area)


def shown(window: MainWindow) -> QRectF:
    return window.players.window.visible_scene_rect()


def next_turn(window: MainWindow) -> None:
    window.combat.initiative.next_turn()
    QApplication.processEvents()


def token(window: MainWindow, key: EntityId) -> PlayerToken:
    view = window.players.last_view
    assert view is not None
    return next(t for t in view.tokens if t.key == key)


def test_alt_arrows_pan_the_outline_one_cell_and_stop_at_the_edge(
    window: MainWindow, qtbot: QtBot
) -> None:
    open_players(window, qtbot)
    steer_at(window, QRectF(5 * CELL, 4 * CELL, 8 * CELL, 6 * CELL))
    dm_before = window.view.visible_scene_rect()
    window.activateWindow()
    window.view.setFocus()
    QApplication.processEvents()
    qtbot.keyClick(window.view, Qt.Key.Key_Right, PAN_MODIFIERS)
    assert window.players.outline.area() == QRectF(6 * CELL, 4 * CELL, 8 * CELL, 6 * CELL)
    qtbot.keyClick(window.view, Qt.Key.Key_Down, PAN_MODIFIERS)
    assert window.players.outline.area() == QRectF(6 * CELL, 5 * CELL, 8 * CELL, 6 * CELL)
    assert shown(window).center().x() == pytest.approx(10 * CELL, abs=2)
    assert shown(window).center().y() == pytest.approx(8 * CELL, abs=2)
    for _ in range(7):  # 6 and 5 cells from the corner: the last steps stop at the edge
        window.players.table_camera.pan_actions["up"].trigger()
        window.players.table_camera.pan_actions["left"].trigger()
    assert window.players.outline.area() == QRectF(0, 0, 8 * CELL, 6 * CELL)  # its size kept
    assert window.view.visible_scene_rect() == dm_before  # the DM's own view stays


def test_a_pan_while_following_the_dm_steers_from_where_the_players_look(
    window: MainWindow, qtbot: QtBot
) -> None:
    open_players(window, qtbot)
    window.players.set_camera_mode(CameraMode.FOLLOW)
    window.view.centerOn(20 * CELL, 15 * CELL)
    dm = window.view.visible_scene_rect()
    window.players.table_camera.pan_actions["left"].trigger()
    assert window.players.camera_mode is CameraMode.STEER
    assert window.players.outline.area() == dm.translated(-CELL, 0)
    assert window.view.visible_scene_rect() == dm


def test_tabletop_pans_one_inch_at_the_calibrated_scale(window: MainWindow, qtbot: QtBot) -> None:
    open_players(window, qtbot)
    window.players.set_camera_mode(CameraMode.TABLETOP)
    window.players.set_tabletop_ppi(40)
    window.view.centerOn(20 * CELL, 15 * CELL)
    window.players.update_camera()
    before = shown(window).center()
    window.players.table_camera.pan_actions["right"].trigger()
    after = shown(window).center()
    assert after.x() - before.x() == pytest.approx(CELL, abs=1)
    assert after.y() == pytest.approx(before.y(), abs=1)
    assert window.players.window.view.transform().m11() * CELL == pytest.approx(40)
    window.view.centerOn(5 * CELL, 5 * CELL)  # the DM looks elsewhere: the table stays put
    window.players.update_camera()
    assert shown(window).center() == after


def test_the_pan_keys_clash_with_no_other_shortcut_and_are_listed(window: MainWindow) -> None:
    rows = shortcut_rows(window)
    for name, (keys, _dx, _dy) in PAN_KEYS.items():
        wanted = QKeySequence(keys).toString(QKeySequence.SequenceFormat.NativeText)
        (row,) = [row for row in rows if row.keys == wanted]  # one action on these keys
        assert row.action == f"Pan players' view {name}"
        assert "Players' camera" in row.where


def test_following_pans_to_the_acting_creature_only_when_off_the_view(
    window: MainWindow, qtbot: QtBot
) -> None:
    open_players(window, qtbot)
    steer_at(window, QRectF(0, 0, 10 * CELL, 6 * CELL))
    window.players.table_camera.follow_action.trigger()
    assert window.settings.value(FOLLOW_ACTIVE) in (True, "true")
    area = window.players.outline.area()
    assert shown(window).contains(token_rect(token(window, HERO)))  # Thorin's turn, in view
    assert window.players.outline.area() == area  # so nothing moved
    next_turn(window)  # the hidden spy's turn: the players are told nothing new
    assert window.document.encounter.combat.current.creature_id == SPY  # type: ignore[union-attr]
    assert window.players.outline.area() == area
    spy_space = QRectF(20 * CELL, 25 * CELL, CELL, CELL)
    assert not shown(window).intersects(spy_space)
    next_turn(window)  # the orc's: far off the view, so the view goes to it
    orc = token_rect(token(window, ORC))
    assert shown(window).contains(orc)
    assert window.players.outline.area().size() == area.size()
    assert window.players.outline.area().center().x() == pytest.approx(orc.center().x(), abs=1)


def test_without_the_option_the_view_stays(window: MainWindow, qtbot: QtBot) -> None:
    open_players(window, qtbot)
    steer_at(window, QRectF(0, 0, 10 * CELL, 6 * CELL))
    area = window.players.outline.area()
    next_turn(window)
    next_turn(window)
    assert window.document.encounter.combat.current.creature_id == ORC  # type: ignore[union-attr]
    assert window.players.outline.area() == area


def test_a_text_box_keeps_its_word_selection_keys(window: MainWindow, qtbot: QtBot) -> None:
    open_players(window, qtbot)
    steer_at(window, QRectF(5 * CELL, 4 * CELL, 8 * CELL, 6 * CELL))
    area = window.players.outline.area()
    box = QLineEdit("two words", window)
    box.show()
    window.activateWindow()
    box.setFocus()
    QApplication.processEvents()
    box.setCursorPosition(len(box.text()))
    qtbot.keyClick(box, Qt.Key.Key_Left, PAN_MODIFIERS)
    assert box.selectedText() == "words"  # the box selected a word...
    assert window.players.outline.area() == area  # ...and the players' view stayed
