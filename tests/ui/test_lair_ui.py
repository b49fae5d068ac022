"""Lair actions through the docks (issue 16): the Initiative dock's row on count 20 (after
the dragon's tie on 20), and the Actions dock's lair buttons, enabled only after count 20
and not for the same effect two rounds in a row."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from battlemap.io.monsters import creature_from_statblock, load_library
from battlemap.model import Creature, Document, Encounter, Grid, Side
from battlemap.model.ids import EntityId
from battlemap.model.statblock_actions import ActionSource, TextAction
from battlemap.resources import asset_path
from battlemap.ui.combat.initiative_dock import ID_ROLE
from battlemap.ui.combat.widgets import rows
from battlemap.ui.main_window import MainWindow
from tests.ui.test_combat_docks import click

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support", extend=True)
SRD = {block.name: block for block in load_library(asset_path("srd-monsters.json")).monsters}
DRAGON = EntityId("c-dragon")
TEXT = "The dragon can't use the same effect two rounds in a row."


def _window(qtbot: QtBot, tmp_path: Path) -> MainWindow:
    lair = tuple(
        TextAction(name=name, source=ActionSource.LAIR, text=f"{name}. {TEXT}")
        for name in ("Magma Eruption", "Tremor")
    )
    block = SRD["Adult Red Dragon"].model_copy(update={"lair_actions": lair})
    made = creature_from_statblock(block, position=(3, 2))
    dragon = made.model_copy(update={"id": DRAGON})
    hero = Creature(id="c-hero", name="Hero", side=Side.PARTY, x=9, y=3, hp=40, max_hp=40)
    encounter = Encounter(grid=Grid(width=20, height=10), creatures=(dragon, hero))
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    window = MainWindow(Document(encounter), settings=settings)
    qtbot.addWidget(window)
    window.resize(1366, 768)
    window.show()
    qtbot.waitExposed(window)
    initiative = window.combat.initiative
    initiative.start()
    initiative.roll(monsters_only=False)
    state = window.document.encounter.combat
    assert state is not None
    for creature_id, value in ((DRAGON, 20), (EntityId("c-hero"), 12)):
        initiative.tree.clearSelection()
        row = next(r for r in rows(initiative.tree) if r.data(0, ID_ROLE) == str(creature_id))
        row.setSelected(True)
        initiative.value.setValue(value)
        click(qtbot, initiative.set_button)
    initiative.begin()
    return window


def test_the_lair_row_and_its_buttons(qtbot: QtBot, tmp_path: Path) -> None:
    window = _window(qtbot, tmp_path)
    ui = window.combat
    names = [r.text(1) for r in rows(ui.initiative.tree)]
    assert names[1] == "Lair: Adult Red Dragon" and len(names) == 3  # between 20 and 12
    lair = ui.actions.monster.lair
    magma = lair.buttons[(DRAGON, "Magma Eruption")]
    assert lair.isVisible() and not magma.isEnabled()
    assert "after Adult Red Dragon's turn" in magma.toolTip()
    ui.initiative.next_action.trigger()  # the hero's turn: count 20 has passed
    magma = lair.buttons[(DRAGON, "Magma Eruption")]
    assert magma.isEnabled()
    qtbot.waitUntil(magma.isVisible)  # new buttons show once the event loop runs
    click(qtbot, magma)
    assert "Lair: Magma Eruption (round 1)" in rows(ui.initiative.tree)[1].text(3)
    assert not lair.buttons[(DRAGON, "Tremor")].isEnabled()  # once a round
    ui.initiative.next_action.trigger()  # the end of the hero's turn: legendary actions
    ui.initiative.next_action.trigger()  # round 2, the dragon
    ui.initiative.next_action.trigger()  # the hero
    magma = lair.buttons[(DRAGON, "Magma Eruption")]
    assert not magma.isEnabled() and "two rounds in a row" in magma.toolTip()
    assert lair.buttons[(DRAGON, "Tremor")].isEnabled()
