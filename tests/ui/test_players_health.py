"""What the players see of a creature's health, as the DM chooses per creature (issue 20):
nothing, its state, or a ring of hit points left in eighths; never a number. Undoable,
saved, reopened; pixel probes on the players' window."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QMenu
from pytestqt.qtbot import QtBot

from battlemap.io.encounter_file import load_battlemap, save_battlemap
from battlemap.model import Creature, Encounter, Grid, Side
from battlemap.model.ids import EntityId
from battlemap.model.traits import HealthShown
from battlemap.rules.loader import load_registry
from battlemap.ui.main_window import MainWindow
from battlemap.ui.players.projection import HealthState, health_left, project
from battlemap.ui.players.scene import HEALTH_RING_COLOURS
from battlemap.ui.render import render_scene
from battlemap.ui.token_health import CHOICES, MENU_TEXT
from tests.ui.players_helpers import open_players

ORC = EntityId("orc")


@pytest.fixture
def encounter() -> Encounter:
    return Encounter(
        grid=Grid(width=8, height=4),
        creatures=(
            Creature(id="hero", name="Thorin", side=Side.PARTY, x=1, y=1),
            Creature(id="orc", name="Orc", x=4, y=1, hp=9, max_hp=15),  # 60 %: 5/8
        ),
    )


def orc_token_of(window: MainWindow) -> object:
    view = window.players.last_view
    assert view is not None
    return next(token for token in view.tokens if token.key == ORC)


def test_the_menu_sets_each_choice_as_one_undo_step(window: MainWindow) -> None:
    menu = window.scene.token_menu(ORC)
    sub = next(a.menu() for a in menu.actions() if a.text() == MENU_TEXT)
    assert isinstance(sub, QMenu)
    checked = [a.text() for a in sub.actions() if a.isChecked()]
    assert checked == [CHOICES[HealthShown.STATE]]  # as before: the state
    next(a for a in sub.actions() if a.text() == CHOICES[HealthShown.RING]).trigger()
    assert window.document.encounter.creature(ORC).health_shown is HealthShown.RING
    assert window.undo_stack.count() == 1
    window.undo_stack.undo()
    assert window.document.encounter.creature(ORC).health_shown is HealthShown.STATE


def test_nothing_hides_bloodied_and_the_ring_shows_eighths_without_numbers(
    window: MainWindow,
) -> None:
    # Bloodied is a state of bloodied-brink only (docs/rules-choices.md).
    brink = load_registry().get("bloodied-brink")
    bloodied = window.document.encounter.creature(ORC).model_copy(update={"hp": 5})
    encounter = window.document.encounter.replace_creature(bloodied)
    assert project(encounter, None, None, brink).tokens[1].health is HealthState.BLOODIED
    hidden = encounter.replace_creature(
        bloodied.model_copy(update={"health_shown": HealthShown.NONE})
    )
    orc = project(hidden, None, None, brink).tokens[1]
    assert orc.health is HealthState.UNHURT and orc.health_left is None
    ring = encounter.replace_creature(
        bloodied.model_copy(update={"health_shown": HealthShown.RING})
    )
    orc = project(ring, None, None, brink).tokens[1]
    assert orc.health is HealthState.BLOODIED and orc.health_left == 3 / 8  # 5/15
    assert "15" not in repr(project(ring, None, None, brink)) and "hp" not in repr(orc).lower()


@pytest.mark.parametrize(("hp", "eighths"), [(15, 8), (14, 7), (9, 5), (1, 1), (0, 0), (100, 8)])
def test_the_ring_rounds_to_eighths_never_full_when_hurt_nor_empty_when_up(
    hp: int, eighths: int
) -> None:
    orc = Creature(name="Orc", hp=min(hp, 15), max_hp=15, health_shown=HealthShown.RING)
    assert health_left(orc) == eighths / 8
    assert health_left(orc.model_copy(update={"health_shown": HealthShown.STATE})) is None


def players_pixel(window: MainWindow, x: float, y: float) -> QColor:
    image = render_scene(window.players.window.scene, QRectF(0, 0, 8 * 64, 4 * 64), 8 * 64)
    return image.pixelColor(round(x), round(y))


def test_the_ring_is_drawn_on_the_players_window(window: MainWindow, qtbot: QtBot) -> None:
    open_players(window, qtbot)
    top = (4.5 * 64, 64 + 64 * 0.06 + 6.4)  # the ring's top, where it starts
    before = players_pixel(window, *top)
    window.token_health.set(ORC, HealthShown.RING)
    assert orc_token_of(window).health_left == 5 / 8  # type: ignore[attr-defined]
    drawn = players_pixel(window, *top)
    assert drawn != before
    green = HEALTH_RING_COLOURS[0]
    assert abs(drawn.green() - green.green()) < 40 and drawn.red() < 120, drawn.name()


def test_the_choice_is_saved_and_reopened(window: MainWindow, tmp_path: Path) -> None:
    window.token_health.set(ORC, HealthShown.NONE)
    path = tmp_path / "health.battlemap"
    save_battlemap(path, window.document.encounter, window.document.images)
    reopened = load_battlemap(path).encounter
    assert reopened.creature(ORC).health_shown is HealthShown.NONE
    assert "health_shown" not in reopened.creature(EntityId("hero")).model_dump(mode="json")
