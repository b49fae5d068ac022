"""Miniatures mode per creature (issue 20): a physical miniature stands on the flat TV, so the
players' window draws no token there, yet the creature stays in the initiative strip and its
sight still clears the fog. A token-menu toggle, one undo step, saved and reopened."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor
from pytestqt.qtbot import QtBot

from battlemap.io.encounter_file import load_battlemap, save_battlemap
from battlemap.model import Creature, Encounter, Grid, Side, Wall
from battlemap.model.combat import Combatant
from battlemap.model.fog import FogMode, FogOfWar
from battlemap.model.ids import EntityId
from battlemap.ui.main_window import MainWindow
from battlemap.ui.render import render_scene
from battlemap.ui.token_miniature import MENU_TEXT
from tests.ui.players_helpers import open_players
from tests.ui.token_helpers import in_combat

HERO, ORC = EntityId("hero"), EntityId("orc")
HERO_COLOUR = QColor("#10c020")


@pytest.fixture
def encounter() -> Encounter:
    """Thorin alone in the east room (a wall along x = 4 shuts the west from his sight),
    the orc in it with him; both fight, Thorin first."""
    creatures = (
        Creature(id=HERO, name="Thorin", side=Side.PARTY, x=6, y=2, colour=HERO_COLOUR.name()),
        Creature(id=ORC, name="Orc", x=8, y=2, colour="#d01010"),
    )
    combatants = tuple(
        Combatant(creature_id=c.id, group=c.id, initiative=20 - i) for i, c in enumerate(creatures)
    )
    fighting = in_combat(creatures, combatants, grid=Grid(width=10, height=6))
    return fighting.model_copy(
        update={
            "walls": (Wall(id="w", a=(4, 0), b=(4, 6)),),
            "fog": FogOfWar(mode=FogMode.DYNAMIC),
        }
    )


def players_pixel(window: MainWindow, cell_x: float, cell_y: float) -> QColor:
    """The players' window's colour at a point given in cells."""
    image = render_scene(window.players.window.scene, QRectF(0, 0, 10 * 64, 6 * 64), 10 * 64)
    return image.pixelColor(round(cell_x * 64), round(cell_y * 64))


def near(colour: QColor, wanted: QColor) -> bool:
    have = (colour.red(), colour.green(), colour.blue())
    want = (wanted.red(), wanted.green(), wanted.blue())
    pairs = zip(have, want, strict=True)
    return all(abs(a - b) < 40 for a, b in pairs)


def test_the_menu_toggles_a_miniature_as_one_undo_step(window: MainWindow) -> None:
    menu = window.scene.token_menu(HERO)
    toggle = next(a for a in menu.actions() if a.text() == MENU_TEXT)
    assert toggle.isCheckable() and not toggle.isChecked()
    toggle.trigger()
    assert window.document.encounter.creature(HERO).miniature
    assert window.undo_stack.count() == 1
    menu = window.scene.token_menu(HERO)
    assert next(a for a in menu.actions() if a.text() == MENU_TEXT).isChecked()
    window.undo_stack.undo()
    assert not window.document.encounter.creature(HERO).miniature


def test_no_token_is_drawn_but_strip_plate_and_sight_stay(window: MainWindow, qtbot: QtBot) -> None:
    open_players(window, qtbot)
    centre = (6.5, 2.5)
    assert near(players_pixel(window, *centre), HERO_COLOUR)  # a token, before
    visible_before = window.players.last_view.visible  # type: ignore[union-attr]
    window.token_miniature.set(HERO, True)
    shown = players_pixel(window, *centre)
    assert not near(shown, HERO_COLOUR), shown.name()  # the map under the miniature
    view = window.players.last_view
    assert view is not None and view.turn is not None and view.visible is not None
    assert view.turn.order == ("Thorin", "Orc") and view.turn.acting_label == "Thorin"
    assert window.players.window.strip.text().startswith("Thorin")
    assert view.visible == visible_before and (8, 2) in view.visible  # his sight still counts
    assert (2, 2) not in view.visible  # behind the wall: his sight, not a lifted fog
    item = window.players.window.scene.tokens[HERO]
    assert item.plate.isVisible() and item.plate.text() == "Thorin"
    # his turn: a ring round the miniature's base, where a token's turn ring is
    ring = players_pixel(window, 6.5, 2 + 0.06 + 0.02)
    assert ring.red() > 200 and ring.green() > 140 and ring.blue() < 80, ring.name()
    window.undo_stack.undo()
    assert near(players_pixel(window, *centre), HERO_COLOUR)


def test_the_dm_still_sees_the_token(window: MainWindow) -> None:
    window.token_miniature.set(HERO, True)
    token = window.scene.tokens[HERO]
    assert token.isVisible()


def test_a_miniature_is_saved_and_reopened(window: MainWindow, tmp_path: Path) -> None:
    window.token_miniature.set(HERO, True)
    path = tmp_path / "minis.battlemap"
    save_battlemap(path, window.document.encounter, window.document.images)
    reopened = load_battlemap(path).encounter
    assert reopened.creature(HERO).miniature and not reopened.creature(ORC).miniature
    # left out when False: a file without it reads and writes as before
    assert "miniature" not in reopened.creature(ORC).model_dump(mode="json")
    assert reopened.creature(HERO).model_dump(mode="json")["miniature"] is True
