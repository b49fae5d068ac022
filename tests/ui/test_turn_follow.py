"""Issue 15 item 10 (srd-5e): selection and focus follow the turn; and item 4's card takes the
death save typed at the table, with the keyboard (a 1366 x 768 laptop window)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QRect, QSettings, Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from battlemap.model import Creature, Encounter, Grid, Side
from battlemap.model.ids import EntityId
from battlemap.ui.main_window import MainWindow
from battlemap.ui.style import cell_to_scene
from tests.ui.test_combat_docks import click, select, start, turn_before
from tests.ui.test_window_layout import first_start

LAPTOP = QRect(0, 0, 1366, 768 - 32)


def wide_map(qtbot: QtBot, tmp_path: Path) -> MainWindow:
    """A 60-cell-wide map: the Scout far to the east, off screen once zoomed in."""
    creatures = (
        Creature(id="c-cleric", name="Cleric", side=Side.PARTY, x=1, y=1, hp=12, max_hp=12),
        Creature(id="c-scout", name="Scout", side=Side.PARTY, x=55, y=3, hp=9, max_hp=9),
        Creature(id="c-rat", name="Rat", side=Side.HOSTILE, x=3, y=2, hp=2, max_hp=2),
    )
    encounter = Encounter(grid=Grid(width=60, height=12), creatures=creatures)
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    window = first_start(qtbot, encounter, settings, LAPTOP)
    window.combat.session.seed_source = lambda: 11
    start(window, qtbot)
    return window


def current(window: MainWindow) -> EntityId:
    state = window.combat.session.state
    assert state is not None and state.current is not None
    return state.current.creature_id


def shown_whole(window: MainWindow, creature_id: EntityId) -> bool:
    token = window.scene.tokens[creature_id].sceneBoundingRect()
    return window.view.viewport().rect().contains(window.view.mapFromScene(token).boundingRect())


def test_next_turn_selects_the_creature_and_scrolls_only_when_it_is_off_screen(
    qtbot: QtBot, tmp_path: Path
) -> None:
    window = wide_map(qtbot, tmp_path)
    view = window.view
    view.resetTransform()
    view.scale(1.5, 1.5)
    view.centerOn(cell_to_scene(3), cell_to_scene(3))
    QApplication.processEvents()
    assert not shown_whole(window, EntityId("c-scout"))
    seen_scout = False
    for _ in range(3):
        before = (view.horizontalScrollBar().value(), view.verticalScrollBar().value())
        was_shown = {c.id: shown_whole(window, c.id) for c in window.document.encounter.creatures}
        window.combat.initiative.next_action.trigger()
        acting = current(window)
        assert window.scene.selected_creatures() == [acting]
        assert shown_whole(window, acting)
        after = (view.horizontalScrollBar().value(), view.verticalScrollBar().value())
        if was_shown[acting]:
            assert after == before  # on screen already: the map stays put
        else:
            seen_scout = True
            assert after != before
        panel = window.combat.panel
        assert panel.creature_id == acting
        assert panel.economy.text().startswith("Its turn: ")
    assert seen_scout  # the order took the turn to the Scout, off screen


def test_after_typing_a_death_save_on_the_card_n_ends_the_turn(
    qtbot: QtBot, tmp_path: Path
) -> None:
    window = wide_map(qtbot, tmp_path)
    session = window.combat.session
    select(window, "c-cleric")
    window.combat.panel.amount.setValue(12)
    click(qtbot, window.combat.panel.damage_button)
    turn_before(window, "c-cleric")
    card = window.combat.card
    assert card.isVisible() and card.death_label.text().startswith("Cleric is dying")
    spin = card.death_d20.spins[0]
    spin.setFocus()
    qtbot.keyClicks(spin, "20")  # the player's natural 20, typed
    assert spin.value() == 20
    qtbot.keyClick(spin, Qt.Key.Key_N)  # N in the box ends the turn, with the typed save
    assert current(window) == "c-cleric"
    assert session.encounter.creature(EntityId("c-cleric")).hp == 1  # srd-5e: a 20 heals 1
    assert not card.isVisible()  # nothing waits any more
    assert window.view.hasFocus()  # the keyboard is back on the map
    qtbot.keyClick(window.view, Qt.Key.Key_N)
    assert current(window) != "c-cleric"
