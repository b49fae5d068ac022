"""Saves due come to the DM as the decision card over the map, and Next turn waits for them
(issue 16): the cleric concentrating on Bless takes 8 damage in a combat; Next turn is
refused with the reason until her Constitution save is made on the card."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from tests.ui.test_combat_docks import click, make_window, select, start
from tests.ui.test_concentration_ui import entry


def test_next_turn_waits_for_the_concentration_save_on_the_card(
    qtbot: QtBot, tmp_path: Path
) -> None:
    window = make_window(qtbot, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    window.resize(1366, 768)
    start(window, qtbot)
    ui = window.combat
    effects = ui.effects
    assert effects is not None
    select(window, "c-cleric")
    effects.ask_spell = lambda creature_id: "Bless"
    entry(ui.panel.conditions_menu, "Concentrate on a spell…").trigger()
    ui.panel.amount.setValue(8)
    click(qtbot, ui.panel.damage_button)
    card = ui.card
    assert card.isVisible() and card.title.text() == "The fight waits on a choice"
    assert effects.pending.isVisible() and effects.pending.parent() is card
    state = window.document.encounter.combat
    assert state is not None and state.current is not None
    before = (state.round, state.turn_index)
    ui.initiative.next_action.trigger()
    state = window.document.encounter.combat
    assert state is not None and (state.round, state.turn_index) == before
    assert (
        window.statusBar()
        .currentMessage()
        .startswith("Not allowed: make the saves due first: Cleric: Constitution save DC 10")
    )
    ((_due, die, save_button),) = effects.pending.rows
    die.setValue(14)
    qtbot.waitUntil(lambda: not save_button.visibleRegion().isEmpty())  # on the map's card
    window.grab().save(str(tmp_path / "saves-card.png"))
    click(qtbot, save_button)
    assert not card.isVisible()
    ui.initiative.next_action.trigger()
    state = window.document.encounter.combat
    assert state is not None and (state.round, state.turn_index) != before
