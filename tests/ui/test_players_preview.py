"""The players' preview dock (issue 20): what the players' window shows, small, on the DM's
window; drawn only after a change and at most four times a second; hidden by default, in the
View menu, remembered with the layout."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from PySide6.QtGui import QColor
from pytestqt.qtbot import QtBot

from battlemap.model import Creature, Encounter, Grid, Side
from battlemap.model.document import MoveCreature
from battlemap.model.ids import EntityId
from battlemap.ui import style
from battlemap.ui.main_window import MainWindow
from battlemap.ui.players.preview_dock import CLOSED_TEXT, MIN_INTERVAL_MS
from battlemap.ui.undo import push
from tests.ui.fight_window import shown_window
from tests.ui.players_helpers import open_players

HERO = EntityId("hero")
pytestmark = pytest.mark.qt_log_ignore("This plugin does not support raise")
"""The preview first shows floating: a top-level window, which offscreen Qt cannot raise."""


def make(qtbot: QtBot, tmp_path: Path, size: tuple[int, int] = (1600, 1000)) -> MainWindow:
    encounter = Encounter(
        grid=Grid(width=8, height=4),
        creatures=(Creature(id=HERO, name="Thorin", side=Side.PARTY, x=1, y=1),),
    )
    window = shown_window(qtbot, tmp_path, encounter, size)
    window.fit_map()
    return window


def preview_colour(window: MainWindow, cell: tuple[float, float]) -> QColor:
    """The preview's colour at a cell, through the players' window's framing."""
    dock = window.players_preview
    image = dock.picture.pixmap().toImage()
    source = window.players.window.visible_scene_rect()
    label = dock.picture.size()
    scale = min(label.width() / source.width(), label.height() / source.height())
    off_x = (label.width() - source.width() * scale) / 2
    off_y = (label.height() - source.height() * scale) / 2
    x = off_x + (style.cell_to_scene(cell[0]) - source.x()) * scale
    y = off_y + (style.cell_to_scene(cell[1]) - source.y()) * scale
    ratio = image.devicePixelRatio()
    return image.pixelColor(round(x * ratio), round(y * ratio))


def party_like(colour: QColor) -> bool:
    party = style.SIDE_COLOURS[Side.PARTY]
    found = (colour.red(), colour.green(), colour.blue())
    wanted = (party.red(), party.green(), party.blue())
    return all(abs(a - b) <= 30 for a, b in zip(found, wanted, strict=True))


def test_hidden_by_default_and_toggled_from_the_view_menu(qtbot: QtBot, tmp_path: Path) -> None:
    window = make(qtbot, tmp_path, (1366, 700))
    dock = window.players_preview
    assert not dock.isVisible() and dock.renders == 0
    toggle = dock.toggleViewAction()
    assert toggle in window.view_menu.actions() and toggle.text() == "Players' pre&view"
    toggle.trigger()
    qtbot.waitUntil(dock.isVisible)
    assert dock.isFloating()  # first time: over the map, not in a column of controls
    qtbot.waitUntil(lambda: dock.picture.text() == CLOSED_TEXT)  # no players' window yet
    toggle.trigger()
    assert not dock.isVisible()


def test_it_shows_what_the_players_window_shows_and_follows_a_move(
    qtbot: QtBot, tmp_path: Path
) -> None:
    window = make(qtbot, tmp_path)
    open_players(window, qtbot)
    dock = window.players_preview
    dock.toggleViewAction().trigger()
    qtbot.waitUntil(lambda: dock.renders > 0 and not dock.picture.pixmap().isNull())
    assert party_like(preview_colour(window, (1.5, 1.8)))  # Thorin's disc below his initials
    assert not party_like(preview_colour(window, (5.5, 1.8)))
    before = dock.renders
    push(window.undo_stack, window.document, MoveCreature(HERO, (1, 1), (5, 1)))
    qtbot.waitUntil(lambda: dock.renders > before)
    qtbot.waitUntil(lambda: party_like(preview_colour(window, (5.5, 1.8))))
    assert not party_like(preview_colour(window, (1.5, 1.8)))


def test_changes_are_drawn_at_most_four_times_a_second(qtbot: QtBot, tmp_path: Path) -> None:
    window = make(qtbot, tmp_path)
    open_players(window, qtbot)
    dock = window.players_preview
    dock.toggleViewAction().trigger()
    qtbot.waitUntil(lambda: dock.renders > 0)
    qtbot.wait(MIN_INTERVAL_MS)
    start, began = dock.renders, time.perf_counter()
    x = 1.0
    for _ in range(20):  # twenty moves, one every 25 ms or so (slower on a loaded machine)
        push(window.undo_stack, window.document, MoveCreature(HERO, (x, 1), (7 - x, 1)))
        x = 7 - x
        qtbot.wait(25)
    qtbot.wait(MIN_INTERVAL_MS + 50)
    elapsed_ms = (time.perf_counter() - began) * 1000
    drawn = dock.renders - start
    # One at once, then one per interval at most: far fewer than the twenty changes.
    assert 1 <= drawn <= 1 + elapsed_ms / MIN_INTERVAL_MS, (drawn, elapsed_ms)
    assert drawn < 20


def test_nothing_is_drawn_while_the_dock_is_hidden(qtbot: QtBot, tmp_path: Path) -> None:
    window = make(qtbot, tmp_path)
    open_players(window, qtbot)
    dock = window.players_preview
    push(window.undo_stack, window.document, MoveCreature(HERO, (1, 1), (4, 1)))
    qtbot.wait(MIN_INTERVAL_MS + 50)
    assert dock.renders == 0


def test_the_layout_remembers_it(qtbot: QtBot, tmp_path: Path) -> None:
    window = make(qtbot, tmp_path)
    window.players_preview.toggleViewAction().trigger()
    qtbot.waitUntil(window.players_preview.isVisible)
    window.close()
    again = make(qtbot, tmp_path)
    qtbot.waitUntil(again.players_preview.isVisible)
    again.players_preview.toggleViewAction().trigger()
    again.close()
    third = make(qtbot, tmp_path)
    qtbot.wait(50)
    assert not third.players_preview.isVisible()
