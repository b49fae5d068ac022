"""The Initiative dock's typed value places a player's physical roll as the engine would
(issue 16): gms-den "Initiative": a natural 20 grants one extra turn at the end of the first
turn of combat, and the DM marks it with "nat 20" beside Set."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings, Qt
from pytestqt.qtbot import QtBot

from battlemap.model.ids import EntityId
from battlemap.ui.combat.widgets import rows
from tests.ui.test_combat_docks import click, make_window


def test_a_typed_natural_20_earns_the_extra_turn_in_gms_den(qtbot: QtBot, tmp_path: Path) -> None:
    window = make_window(qtbot, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    window.rulesets.choose("gms-den")
    initiative = window.combat.initiative
    click(qtbot, initiative.start_button)
    click(qtbot, initiative.roll_monsters)
    assert initiative.natural_20.isVisible()  # gms-den: a natural 20 means something
    row = next(
        r for r in rows(initiative.tree) if r.data(0, Qt.ItemDataRole.UserRole) == "c-cleric"
    )
    initiative.tree.setCurrentItem(row)
    initiative.value.setValue(20)
    qtbot.mouseClick(initiative.natural_20, Qt.MouseButton.LeftButton)
    click(qtbot, initiative.set_button)
    combat = window.document.encounter.combat
    assert combat is not None
    assert combat.combatant(EntityId("c-cleric")).initiative == 20
    assert [s.creature_id for s in combat.order if s.extra] == [EntityId("c-cleric")]
    assert not initiative.natural_20.isChecked()  # the mark is for one typed value
    assert any("extra turn" in r.text(3) for r in rows(initiative.tree)), (
        "the extra turn shows in the order"
    )
    window.undo_stack.undo()
    undone = window.document.encounter.combat
    assert undone is not None and not any(s.extra for s in undone.order)


def test_srd_has_no_nat_20_mark(qtbot: QtBot, tmp_path: Path) -> None:
    window = make_window(qtbot, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    click(qtbot, window.combat.initiative.start_button)
    assert not window.combat.initiative.natural_20.isVisible()
