"""The Creature dock's Uses and Dying rows (issue 16): limited uses kept on the creature
with **Rest finished** giving them back, and a death save with no combat running."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from battlemap.io.monsters import creature_from_statblock, load_library
from battlemap.model import Creature, Document, Encounter, Grid, Side
from battlemap.model.ids import EntityId
from battlemap.model.statblock_actions import LEGENDARY_RESISTANCE, SpentUse
from battlemap.resources import asset_path
from battlemap.rules.rest_uses import RestType
from battlemap.ui.main_window import MainWindow
from tests.ui.test_combat_docks import click, make_window, select

CLERIC, DRAGON = EntityId("c-cleric"), EntityId("c-dragon")


def _settings(tmp_path: Path) -> QSettings:
    return QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)


def test_a_dying_cleric_makes_death_saves_with_no_combat(qtbot: QtBot, tmp_path: Path) -> None:
    window = make_window(qtbot, _settings(tmp_path))
    window.combat.session.seed_source = lambda: 5
    panel = window.combat.panel
    select(window, "c-cleric")
    assert not panel.death_row.isVisible()
    panel.amount.setValue(12)  # 12 of 12: 0 HP, nothing left over: dying
    click(qtbot, panel.damage_button)
    assert panel.death_row.isVisible()
    panel.death_row.d20.setValue(15)
    click(qtbot, panel.death_row.button)
    lasting = window.document.encounter.creature(CLERIC).lasting
    assert lasting is not None and (lasting.death.successes, lasting.death.failures) == (1, 0)
    assert "death saves 1✓ 0✗" in panel.state_label.text()
    assert panel.death_row.d20.value() == 0  # back to "app rolls"
    click(qtbot, panel.death_row.button)  # the app rolls it from fresh dice
    log = [e.text for e in window.document.encounter.log]
    assert any("death saving throw: 1d20 rolled by the app" in t for t in log), log[-3:]
    window.undo_stack.undo()
    window.undo_stack.undo()
    lasting = window.document.encounter.creature(CLERIC).lasting
    assert lasting is not None and (lasting.death.successes, lasting.death.failures) == (0, 0)


def _dragon_window(qtbot: QtBot, tmp_path: Path, ruleset: str = "srd-5e") -> MainWindow:
    srd = {b.name: b for b in load_library(asset_path("srd-monsters.json")).monsters}
    made = creature_from_statblock(srd["Adult Red Dragon"], position=(2, 2))
    spent = (SpentUse(key=LEGENDARY_RESISTANCE, spent=2), SpentUse(key="Fire Breath"))
    dragon = made.model_copy(update={"id": DRAGON, "spent_uses": spent})
    hero = Creature(id="c-hero", name="Hero", side=Side.PARTY, x=8, y=3, hp=40, max_hp=40)
    encounter = Encounter(grid=Grid(width=20, height=10), creatures=(dragon, hero), ruleset=ruleset)
    window = MainWindow(Document(encounter), settings=_settings(tmp_path))
    qtbot.addWidget(window)
    window.resize(1366, 768)
    window.show()
    qtbot.waitExposed(window)
    return window


def test_rest_finished_gives_the_dragon_s_uses_back_by_kind(qtbot: QtBot, tmp_path: Path) -> None:
    window = _dragon_window(qtbot, tmp_path)
    row = window.combat.panel.uses_row
    select(window, "c-dragon")
    assert row.isVisible()
    assert "Fire Breath spent" in row.label.text()
    assert "Legendary Resistance 1/3" in row.label.text()
    short, long = row.rest_actions[RestType.SHORT], row.rest_actions[RestType.LONG]
    assert short.isEnabled() and "Fire Breath" in short.toolTip()
    short.trigger()
    assert "Fire Breath ready" in row.label.text()
    assert "Legendary Resistance 1/3" in row.label.text()
    assert long.isEnabled() and LEGENDARY_RESISTANCE in long.toolTip()
    long.trigger()
    assert "Legendary Resistance 3/3" in row.label.text()
    assert not short.isEnabled() and not long.isEnabled()  # nothing spent
    assert window.document.encounter.creature(DRAGON).spent_uses == ()
    window.undo_stack.undo()
    assert "Legendary Resistance 1/3" in row.label.text()
    select(window, "c-hero")
    assert not row.isVisible()  # no limited uses


def test_bloodied_brink_sends_the_dm_to_its_own_rests(qtbot: QtBot, tmp_path: Path) -> None:
    window = _dragon_window(qtbot, tmp_path, "bloodied-brink")
    row = window.combat.panel.uses_row
    select(window, "c-dragon")
    short = row.rest_actions[RestType.SHORT]
    assert not short.isEnabled() and "has its own short rest" in short.toolTip()
