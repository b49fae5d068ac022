"""Issue 15 item 12 and issue 20: the DM sets a token's colour (undoable, on both windows);
the outline reads on any floor; the players' icons are >= 24 px at the tabletop scale."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRectF, QSettings
from PySide6.QtGui import QBrush, QColor, QUndoStack
from PySide6.QtWidgets import QGraphicsRectItem, QWidget
from pytestqt.qtbot import QtBot

from battlemap.model import Creature, Document, Encounter, Grid, Side
from battlemap.model.combat import ActiveCondition, Combatant
from battlemap.model.ids import EntityId
from battlemap.ui.main_window import MainWindow
from battlemap.ui.map_items import Z_TOKEN
from battlemap.ui.map_scene import MapScene
from battlemap.ui.players.controller import DEFAULT_TABLETOP_PPI, CameraMode
from battlemap.ui.token_colour import PICK_TEXT, RESET_TEXT
from tests.ui.players_helpers import open_players
from tests.ui.token_helpers import contrast, in_combat, pixel, render_cells

FIGHTER = EntityId("c-medium")  # the conftest encounter's Fighter, party, at (2, 2)
GREEN = "#208040"


def pick(colour: str | None):  # type: ignore[no-untyped-def]
    def picker(start: QColor, parent: QWidget, title: str) -> QColor | None:
        return QColor(colour) if colour else None

    return picker


def menu_texts(window: MainWindow, creature_id: EntityId) -> list[str]:
    menu = window.scene.token_menu(creature_id)
    return [a.text() for a in menu.actions() if a.text()]


def test_the_dm_sets_a_tokens_colour_from_its_menu_and_undoes_it(
    window: MainWindow, qtbot: QtBot
) -> None:
    open_players(window, qtbot)
    window.token_colours.pick = pick(GREEN)
    assert PICK_TEXT in menu_texts(window, FIGHTER) and RESET_TEXT not in menu_texts(
        window, FIGHTER
    )
    menu = window.scene.token_menu(FIGHTER)
    (entry,) = [a for a in menu.actions() if a.text() == PICK_TEXT]
    entry.trigger()
    assert window.document.encounter.creature(FIGHTER).colour == GREEN
    assert window.undo_stack.undoText() == "Colour of Fighter"
    image = render_cells(window.scene, 12, 10)
    assert pixel(image, 2.5 * 64, 2 * 64 + 14).name() == GREEN  # above the initials
    players = window.players.window.scene.tokens[FIGHTER]
    assert players.token.colour == GREEN and players.look.fill == GREEN
    assert RESET_TEXT in menu_texts(window, FIGHTER)
    window.undo_stack.undo()
    assert window.document.encounter.creature(FIGHTER).colour is None
    assert window.players.window.scene.tokens[FIGHTER].look.fill == "#2f6fdf"  # the party's


def test_cancelling_the_colour_dialog_records_nothing(window: MainWindow) -> None:
    window.token_colours.pick = pick(None)
    window.token_colours.choose(FIGHTER)
    assert window.undo_stack.count() == 0


def test_side_colour_goes_back_to_the_sides(window: MainWindow) -> None:
    window.token_colours.set(FIGHTER, GREEN)
    window.token_colours.set(FIGHTER, None)
    assert window.document.encounter.creature(FIGHTER).colour is None
    assert window.undo_stack.count() == 2
    window.token_colours.set(FIGHTER, None)  # no change: no step
    assert window.undo_stack.count() == 2


@pytest.mark.parametrize("floor", ["#d03a2f", "#b01818", "#101010", "#f4f4f4", "#2f6fdf"])
def test_the_outline_contrasts_with_any_floor(qtbot: QtBot, floor: str) -> None:
    """A token the colour of its floor (a red disc on a red floor) still has a ring of at
    least 3:1 contrast with the floor (WCAG's bar for graphics) all around it (below it, the
    name plate's dark back covers the ring)."""
    token_colour = floor if floor != "#f4f4f4" else "#eeeeee"
    encounter = Encounter(
        grid=Grid(width=6, height=4),
        creatures=(Creature(id=EntityId("t"), name="Tok", x=2, y=1, colour=token_colour),),
    )
    stack = QUndoStack()
    scene = MapScene(Document(encounter), stack)
    ground = QGraphicsRectItem(QRectF(0, 0, 6 * 64, 4 * 64))
    ground.setBrush(QBrush(QColor(floor)))
    ground.setZValue(Z_TOKEN - 1)
    scene.addItem(ground)
    image = render_cells(scene, 6, 4)
    cx, cy = 2.5 * 64, 1.5 * 64
    around = ((0, -1), (1, 0), (-1, 0), (0.7, 0.7), (-0.7, 0.7), (0.7, -0.7), (-0.7, -0.7))
    for dx, dy in around:
        ray = [pixel(image, cx + dx * r, cy + dy * r) for r in range(20, 31)]
        best = max(contrast(c, QColor(floor)) for c in ray)
        assert best >= 3.0, (floor, dx, dy, best)


def test_condition_icons_are_at_least_24_px_on_the_players_tabletop(
    qtbot: QtBot, settings: QSettings
) -> None:
    hero = Creature(id=EntityId("hero"), name="Ana", side=Side.PARTY, x=3, y=3)
    combatant = Combatant(
        creature_id=hero.id,
        group="hero",
        initiative=12,
        conditions=(ActiveCondition(name="poisoned"),),
        exhaustion=2,
    )
    encounter = in_combat((hero,), (combatant,), grid=Grid(width=12, height=10))
    window = MainWindow(Document(encounter), settings=settings)
    qtbot.addWidget(window)
    window.resize(1000, 800)
    window.show()
    qtbot.waitExposed(window)
    open_players(window, qtbot)
    window.players.window.resize(1280, 720)
    window.players.set_tabletop_ppi(DEFAULT_TABLETOP_PPI)
    window.players.set_camera_mode(CameraMode.TABLETOP)
    strip = window.players.window.scene.tokens[hero.id].conditions
    assert [m.label for m in strip.marks] == ["Poisoned", "Exhaustion 2"]
    view = window.players.window.view
    for index in range(2):
        on_screen = view.mapFromScene(strip.mapRectToScene(strip.icon_rect(index))).boundingRect()
        assert on_screen.width() >= 24 and on_screen.height() >= 24, on_screen
    # and it is drawn there: the poison drop's green in the players' window
    icon = view.mapFromScene(strip.mapRectToScene(strip.icon_rect(0))).boundingRect()
    shot = view.viewport().grab().toImage()
    greens = sum(
        1
        for x in range(icon.left(), icon.right())
        for y in range(icon.top(), icon.bottom())
        if shot.pixelColor(x, y).green() > 180 and shot.pixelColor(x, y).red() < 140
    )
    assert greens > 40
