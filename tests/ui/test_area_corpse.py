"""Issue 15 item 2 (srd-5e): an area effect with a corpse inside it.

srd-5e: a monster at 0 HP dies outright. The Rat (2 HP) is killed first; a fireball from a
known point of origin then catches the Cleric, the Salamander and the Rat's body. The body is
left out with a note, and the Cleric's typed save and the origin survive to the damage.
"""

from __future__ import annotations

from PySide6.QtWidgets import QSpinBox
from pytestqt.qtbot import QtBot

from battlemap.model.ids import EntityId
from battlemap.ui.combat.save_rows import ID_ROLE, SaveRow
from battlemap.ui.main_window import MainWindow
from tests.ui.test_combat_docks import click, select, start
from tests.ui.test_combat_docks import settings as settings
from tests.ui.test_combat_docks import window as window

ORIGIN = (2.0, 3.0)


def kill_rat(qtbot: QtBot, window: MainWindow) -> None:
    panel = window.combat.panel
    select(window, "c-rat")
    panel.amount.setValue(5)
    click(qtbot, panel.damage_button)
    combat = window.document.encounter.combat
    assert combat is not None and combat.combatant(EntityId("c-rat")).death.dead


def test_a_corpse_in_the_area_is_left_out_and_the_typed_save_and_origin_are_kept(
    qtbot: QtBot, window: MainWindow
) -> None:
    start(window, qtbot)
    kill_rat(qtbot, window)
    for creature_id in ("c-cleric", "c-sal", "c-rat"):
        window.scene.tokens[EntityId(creature_id)].setSelected(True)
    area = window.combat.area_dialog
    area.open_at(ORIGIN)
    listed = {area.targets.item(i).data(ID_ROLE) for i in range(area.targets.count())}
    assert listed == {"c-cleric", "c-sal"}
    assert area.left_out_label.isVisible()
    assert area.left_out_label.text() == "Rat is dead: left out."
    assert area.origin == ORIGIN  # the origin holds for the creatures the template caught
    cleric_row = area.rows[EntityId("c-cleric")]
    assert isinstance(cleric_row, SaveRow) and cleric_row.d20 is not None
    spin = cleric_row.d20.spins[0]
    assert isinstance(spin, QSpinBox)
    spin.setValue(19)  # the player's d20, typed: Dex save +0 vs DC 15 saves
    area.dice.setText("8d6")
    area.damage_type.setCurrentIndex(area.damage_type.findData("fire"))
    area.typed.setValue(20)
    steps = window.undo_stack.count()
    click(qtbot, area.apply_button)
    creatures = {str(c.id): c.hp for c in window.document.encounter.creatures}
    assert creatures == {"c-cleric": 2, "c-sal": 20, "c-rat": 0}  # 20 -> 10 saved; resisted
    text = area.outcome_label.text()
    assert "Refused" not in text
    assert window.undo_stack.count() == steps + 1
    combat = window.document.encounter.combat
    assert combat is not None
    assert any("typed in: 19" in e.text for e in combat.log), [e.text for e in combat.log][-6:]


def test_a_creature_dead_after_it_was_listed_is_left_out_when_the_damage_is_dealt(
    qtbot: QtBot, window: MainWindow
) -> None:
    start(window, qtbot)
    for creature_id in ("c-cleric", "c-rat"):
        window.scene.tokens[EntityId(creature_id)].setSelected(True)
    area = window.combat.area_dialog
    area.open_for_selection()
    assert area.targets.count() == 2 and not area.left_out_label.isVisible()
    kill_rat(qtbot, window)
    area.dice.setText("1d6")
    area.typed.setValue(4)
    click(qtbot, area.apply_button)
    assert "Rat: dead, left out" in area.outcome_label.text()
    assert window.document.encounter.creature(EntityId("c-cleric")).hp == 8
