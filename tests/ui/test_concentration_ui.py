"""Concentration through the UI (issue 16, "Done when"): the DM marks the cleric
concentrating on Bless from the Creature dock's conditions menu; 8 damage calls for a DC 10
Constitution save in the Saves due box on the map's decision card; a typed 7 fails it and
Bless ends.
One undo step each."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu
from pytestqt.qtbot import QtBot

from battlemap.model.ids import EntityId
from battlemap.ui.combat.widgets import rows
from battlemap.ui.main_window import MainWindow
from tests.ui.test_combat_docks import click, make_window, select, start

CLERIC = EntityId("c-cleric")


def entry(menu: QMenu, text: str) -> QAction:
    """The menu's entry named ``text``, the menu filled as when it opens."""
    menu.aboutToShow.emit()
    (found,) = [a for a in menu.actions() if a.text() == text]
    return found


def token_menu(window: MainWindow, creature_id: EntityId = CLERIC) -> QMenu:
    menu = QMenu(window)
    for build in window.scene.token_menu_builders:
        build(menu, creature_id)
    return menu


def test_a_concentration_save_from_damage_through_the_docks(qtbot: QtBot, tmp_path: Path) -> None:
    window = make_window(qtbot, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    start(window, qtbot)
    effects = window.combat.effects
    assert effects is not None
    select(window, "c-cleric")
    effects.ask_spell = lambda creature_id: "Bless"  # what the DM types in the spell box
    entry(window.combat.panel.conditions_menu, "Concentrate on a spell…").trigger()
    combat = window.document.encounter.combat
    assert combat is not None
    held = combat.combatant(CLERIC).concentration
    assert held is not None and held.spell == "Bless"
    assert "concentrating on Bless" in window.combat.panel.state_label.text()
    marks = window.scene.token_states(window.document.encounter)[CLERIC].marks
    assert [m.label for m in marks] == ["Concentrating"]  # the badge on the DM's token
    cleric_row = next(
        r
        for r in rows(window.combat.initiative.tree)
        if r.data(0, Qt.ItemDataRole.UserRole) == "c-cleric"
    )
    assert "conc. Bless" in cleric_row.text(3)
    assert not effects.pending.isVisible()
    panel = window.combat.panel
    panel.amount.setValue(8)
    click(qtbot, panel.damage_button)
    assert effects.pending.isVisible()
    ((due, die, save_button),) = effects.pending.rows
    assert due.dc == 10 and "keep concentrating on Bless" in due.reason
    die.setValue(7)
    qtbot.waitUntil(lambda: not save_button.visibleRegion().isEmpty())  # laid out in the dock
    steps = window.undo_stack.count()
    click(qtbot, save_button)
    combat = window.document.encounter.combat
    assert combat is not None and combat.combatant(CLERIC).concentration is None
    assert window.undo_stack.count() == steps + 1
    assert "failure" in window.statusBar().currentMessage()
    assert not effects.pending.isVisible()
    assert "concentrating" not in window.combat.panel.state_label.text()
    window.undo_stack.undo()
    combat = window.document.encounter.combat
    assert combat is not None and combat.combatant(CLERIC).concentration is not None
    assert effects.pending.isVisible()


def test_the_token_menu_ends_concentration_outside_a_combat(qtbot: QtBot, tmp_path: Path) -> None:
    window = make_window(qtbot, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    effects = window.combat.effects
    assert effects is not None
    effects.ask_spell = lambda creature_id: "Shield of Faith"
    entry(token_menu(window), "Concentrate on a spell…").trigger()
    lasting = window.document.encounter.creature(CLERIC).lasting
    assert lasting is not None and lasting.concentration is not None
    entry(token_menu(window), "Stop concentrating on Shield of Faith").trigger()
    assert window.document.encounter.creature(CLERIC).lasting is None


def test_outside_a_combat_the_app_rolls_the_save_from_fresh_dice(
    qtbot: QtBot, tmp_path: Path
) -> None:
    window = make_window(qtbot, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    effects = window.combat.effects
    assert effects is not None
    select(window, "c-cleric")
    effects.ask_spell = lambda creature_id: "Bless"
    entry(token_menu(window), "Concentrate on a spell…").trigger()
    panel = window.combat.panel
    panel.amount.setValue(3)
    click(qtbot, panel.damage_button)
    ((due, die, save_button),) = effects.pending.rows
    assert due.dc == 10 and die.value() == 0  # "app rolls"
    qtbot.waitUntil(lambda: not save_button.visibleRegion().isEmpty())
    click(qtbot, save_button)
    assert effects.pending.rows == [] and not effects.pending.isVisible()
    lines = [e.text for e in window.document.encounter.log]
    assert any("Constitution save DC 10" in t and "rolled by the app" in t for t in lines)
    lasting = window.document.encounter.creature(CLERIC).lasting
    kept = lasting is not None and lasting.concentration is not None
    assert any(("keeps concentrating" if kept else "stops concentrating") in t for t in lines)
