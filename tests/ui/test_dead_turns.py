"""Issue 15 item 3 (srd-5e): the dead in the turn order. The players' initiative strip drops
dead monsters (the DM may keep them shown: a setting, saved); a fallen party member stays."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from battlemap.model import Document
from battlemap.model.ids import EntityId
from battlemap.ui.main_window import MainWindow
from tests.ui.players_helpers import open_players
from tests.ui.test_combat_docks import click, make_window, select, start


def kill(qtbot: QtBot, window: MainWindow, creature_id: str, amount: int) -> None:
    select(window, creature_id)
    window.combat.panel.amount.setValue(amount)
    click(qtbot, window.combat.panel.damage_button)


def test_the_players_strip_drops_dead_monsters_unless_the_dm_keeps_them(
    qtbot: QtBot, tmp_path: Path
) -> None:
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    window = make_window(qtbot, settings)
    start(window, qtbot)
    open_players(window, qtbot)
    strip = window.players.window.strip
    assert "Rat" in strip.text() and "Cleric" in strip.text()
    kill(qtbot, window, "c-rat", 5)  # srd-5e: a monster at 0 HP dies
    combat = window.document.encounter.combat
    assert combat is not None and combat.combatant(EntityId("c-rat")).death.dead
    assert "Rat" not in strip.text() and "Salamander 1" in strip.text()
    kill(qtbot, window, "c-cleric", 12)  # a PC at 0 HP is dying, and stays in the strip
    assert "Cleric" in strip.text()
    window.players.dead_in_strip_action.trigger()  # the DM keeps the dead shown
    assert "Rat" in strip.text()
    again = MainWindow(Document(window.document.encounter), settings=settings)
    qtbot.addWidget(again)
    assert again.players.strip_shows_dead  # remembered
    assert again.players.dead_in_strip_action.isChecked()


def test_next_turn_skips_the_dead_rat_and_says_so_in_the_log(qtbot: QtBot, tmp_path: Path) -> None:
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    window = make_window(qtbot, settings)
    start(window, qtbot)
    kill(qtbot, window, "c-rat", 5)
    session = window.combat.session
    seen: list[EntityId] = []
    for _ in range(4):  # more than a round of three
        window.combat.initiative.next_action.trigger()
        state = session.state
        assert state is not None and state.current is not None
        seen.append(state.current.creature_id)
    assert EntityId("c-rat") not in seen
    assert {EntityId("c-cleric"), EntityId("c-sal")} <= set(seen)
    state = session.state
    assert state is not None
    assert any(e.text == "Rat's turn is skipped: dead" for e in state.log)
