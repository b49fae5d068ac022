"""A save-ends condition through the UI (issue 16, "Done when"): the condition dialog gives
the rat "paralyzed" for 1 minute with a Wisdom save DC 14 at the end of each of its turns;
when its turn ends the Saves due box asks for the save; a typed 18 ends it. srd-5e: 1 minute
is 10 rounds ("Combat Round": about 6 seconds each)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from battlemap.model.ids import EntityId
from tests.ui.test_combat_docks import click, make_window, select, start
from tests.ui.test_concentration_ui import entry, token_menu

RAT = EntityId("c-rat")


def test_a_save_at_the_end_of_the_turn_ends_the_condition(qtbot: QtBot, tmp_path: Path) -> None:
    window = make_window(qtbot, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    start(window, qtbot)
    effects = window.combat.effects
    assert effects is not None
    select(window, "c-rat")
    entry(token_menu(window, RAT), "Condition with a duration or a save…").trigger()
    dialog = effects.condition_dialog(window.combat.session, window.scene, window)
    assert dialog.isVisible()
    dialog.condition.setCurrentIndex(dialog.condition.findData("paralyzed"))
    dialog.lasts.setCurrentIndex(dialog.lasts.findData("minutes"))
    dialog.amount.setValue(1)
    dialog.save_ends.setChecked(True)
    dialog.ability.setCurrentIndex(dialog.ability.findData("wis"))
    dialog.dc.setValue(14)
    dialog.apply()
    assert not dialog.isVisible()
    combat = window.document.encounter.combat
    assert combat is not None
    (paralyzed,) = combat.combatant(RAT).conditions
    assert paralyzed.rounds_left == 10 and paralyzed.save_ends is not None
    for _ in range(len(combat.order)):
        if effects.pending.isVisible():
            break
        click(qtbot, window.combat.actions.end_button)
    assert effects.pending.isVisible(), "the rat's turn ended: its save is due"
    ((due, die, save_button),) = effects.pending.rows
    assert due.reason == "Rat: Wisdom save DC 14 to end paralyzed"
    die.setValue(18)
    qtbot.waitUntil(lambda: not save_button.visibleRegion().isEmpty())  # laid out in the dock
    click(qtbot, save_button)
    combat = window.document.encounter.combat
    assert combat is not None and combat.combatant(RAT).conditions == ()
    assert not effects.pending.isVisible()
    window.undo_stack.undo()
    assert effects.pending.isVisible()  # undone: the save is owed again
