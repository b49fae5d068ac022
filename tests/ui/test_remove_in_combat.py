"""Removing creatures from the map during a combat (srd-5e): the removed combatants leave the
combat in the same undo step, so nothing is left naming a creature the map no longer has.

``goblin_beside_fighter``: a started combat of the Fighter (acting first), the Goblin and
the Cleric, on the Fighter's turn.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMenu
from pytestqt.qtbot import QtBot

from battlemap.model.document import ReplaceEncounterField
from battlemap.model.ids import EntityId
from battlemap.ui.main_window import MainWindow
from tests.rules.move_builders import goblin_beside_fighter
from tests.ui.drag_helpers import open_window
from tests.ui.test_opportunity_prompt import drag_past_the_goblin

FIGHTER, GOBLIN, CLERIC = EntityId("c-fighter"), EntityId("c-goblin"), EntityId("c-cleric")


@pytest.fixture
def window(qtbot: QtBot, tmp_path: Path) -> MainWindow:
    return open_window(qtbot, tmp_path, goblin_beside_fighter())


def delete_with_the_key(window: MainWindow, *ids: EntityId) -> None:
    window.scene.clearSelection()
    for creature_id in ids:
        window.scene.tokens[EntityId(creature_id)].setSelected(True)
    window.view.setFocus()
    window.tools.delete_action.trigger()


def remove_from_the_token_menu(window: MainWindow, creature_id: EntityId) -> None:
    menu = QMenu()
    for build in window.scene.token_menu_builders:
        build(menu, creature_id)
    name = window.document.encounter.creature(creature_id).name
    (remove,) = [a for a in menu.actions() if a.text() == f"Remove {name}"]
    remove.trigger()


def combatant_ids(window: MainWindow) -> set[EntityId]:
    combat = window.document.encounter.combat
    assert combat is not None
    return {c.creature_id for c in combat.combatants}


@pytest.mark.parametrize("remove", [delete_with_the_key, remove_from_the_token_menu])
def test_the_creature_whose_turn_it_is_leaves_the_combat(
    qtbot: QtBot, window: MainWindow, remove: object
) -> None:
    before = window.document.encounter
    remove(window, FIGHTER)  # type: ignore[operator]
    encounter = window.document.encounter
    assert FIGHTER not in {c.id for c in encounter.creatures}
    assert combatant_ids(window) == {GOBLIN, CLERIC}
    combat = encounter.combat
    assert combat is not None and combat.current is not None
    assert combat.current.creature_id in {GOBLIN, CLERIC}  # the next turn has begun
    assert window.undo_stack.count() == 1
    window.undo_stack.undo()
    assert window.document.encounter == before


def test_removing_every_combatant_ends_the_combat(qtbot: QtBot, window: MainWindow) -> None:
    before = window.document.encounter
    delete_with_the_key(window, FIGHTER, GOBLIN, CLERIC)
    assert window.document.encounter.creatures == ()
    assert window.document.encounter.combat is None
    assert window.undo_stack.count() == 1
    window.undo_stack.undo()
    assert window.document.encounter == before


def test_removing_the_waiting_mover_calls_its_move_off(qtbot: QtBot, window: MainWindow) -> None:
    drag_past_the_goblin(qtbot, window)
    remove_from_the_token_menu(window, FIGHTER)
    assert not window.drag_feedback.prompt.isVisible()
    qtbot.keyClick(window.view, Qt.Key.Key_Return)  # a late Enter does nothing
    assert combatant_ids(window) == {GOBLIN, CLERIC} and window.undo_stack.count() == 1


@pytest.mark.parametrize("remove", [delete_with_the_key, remove_from_the_token_menu])
def test_a_combatant_is_not_removed_when_the_ruleset_cant_be_loaded(
    qtbot: QtBot, window: MainWindow, remove: object
) -> None:
    """The engine can't move the turn on without the ruleset: the removal is refused with the
    reason, so the map and the combat still have the same creatures (it used to go through,
    leaving the combat naming a creature the map no longer had)."""
    encounter = window.document.encounter
    window.document.apply(ReplaceEncounterField("ruleset", encounter.ruleset, "lost-homebrew"))
    before = window.document.encounter
    depth = window.undo_stack.count()
    remove(window, FIGHTER)  # type: ignore[operator]
    assert window.document.encounter == before
    assert FIGHTER in combatant_ids(window)
    assert window.undo_stack.count() == depth
    assert "Fighter can't be removed" in window.statusBar().currentMessage()
    assert "End combat" in window.statusBar().currentMessage()
