"""The Creature dock's Combat box outside a combat (srd-5e): the lasting state a creature keeps
between combats (``Creature.lasting``) is shown and edited there, one undo step per change,
logged in the encounter log; the next combat starts from it."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtGui import QAction
from pytestqt.qtbot import QtBot

from battlemap.model.combat import DeathState, Expiry, LastingState
from battlemap.model.document import ReplaceEncounterField
from battlemap.model.ids import EntityId
from battlemap.ui.combat.creature_panel import CombatPanel
from battlemap.ui.main_window import MainWindow
from battlemap.ui.undo import push
from tests.ui.test_combat_docks import make_window, select, start


@pytest.fixture
def window(qtbot: QtBot, settings: QSettings) -> MainWindow:
    return make_window(qtbot, settings)


def exhausted_and_poisoned_after_a_combat(window: MainWindow, qtbot: QtBot) -> CombatPanel:
    """A combat in which the Cleric is poisoned (until removed) and exhausted 1, then ended."""
    start(window, qtbot)
    panel = window.combat.panel
    select(window, "c-cleric")
    panel.duration.setCurrentIndex(panel.duration.findText("Until removed"))
    panel.toggle_condition("poisoned", True)
    panel.exhaustion.setValue(1)
    window.combat.session.end()
    assert window.document.encounter.combat is None
    return panel


def menu_action(panel: CombatPanel, name: str) -> QAction:
    panel.conditions_menu.aboutToShow.emit()  # what opening the button's menu does
    (action,) = [a for a in panel.conditions_menu.actions() if a.text() == name]
    return action


def lasting_of(window: MainWindow, creature_id: str) -> LastingState:
    """What the creature carries out of combat (the test needs it to carry something)."""
    lasting = window.document.encounter.creature(EntityId(creature_id)).lasting
    assert lasting is not None, f"{creature_id} carries nothing"
    return lasting


def log_texts(window: MainWindow) -> list[str]:
    return [event.text for event in window.document.encounter.log]


def test_the_dock_shows_the_lasting_state_after_a_combat(qtbot: QtBot, window: MainWindow) -> None:
    panel = exhausted_and_poisoned_after_a_combat(window, qtbot)
    select(window, "c-rat")  # a selection change refreshes the dock
    select(window, "c-cleric")
    assert panel.conditions_label.text() == "poisoned"
    assert panel.exhaustion.value() == 1
    assert panel.conditions_button.isEnabled() and panel.exhaustion.isEnabled()
    assert not panel.duration.isVisible()  # outside a combat conditions never expire
    assert menu_action(panel, "poisoned").isChecked()
    assert not menu_action(panel, "prone").isChecked()
    select(window, "c-rat")  # nothing lasts on the rat
    assert (panel.conditions_label.text(), panel.exhaustion.value()) == ("none", 0)


def test_removing_a_condition_outside_combat_is_one_logged_undo_step(
    qtbot: QtBot, window: MainWindow
) -> None:
    panel = exhausted_and_poisoned_after_a_combat(window, qtbot)
    select(window, "c-cleric")
    before, steps = window.document.encounter, window.undo_stack.index()
    menu_action(panel, "poisoned").trigger()  # checked -> unchecked
    lasting = window.document.encounter.creature(EntityId("c-cleric")).lasting
    assert lasting == LastingState(exhaustion=1)
    assert window.undo_stack.index() == steps + 1
    assert log_texts(window)[-1] == "Cleric: poisoned removed"
    assert panel.conditions_label.text() == "none"
    window.undo_stack.undo()
    assert window.document.encounter == before
    assert panel.conditions_label.text() == "poisoned"


def test_exhaustion_set_outside_combat_is_where_the_next_combat_starts(
    qtbot: QtBot, window: MainWindow
) -> None:
    panel = exhausted_and_poisoned_after_a_combat(window, qtbot)
    select(window, "c-cleric")
    before, steps = window.document.encounter, window.undo_stack.index()
    panel.exhaustion.setValue(2)
    assert window.undo_stack.index() == steps + 1
    assert lasting_of(window, "c-cleric").exhaustion == 2
    assert log_texts(window)[-1].startswith("Cleric: exhaustion 2")
    start(window, qtbot)
    assert window.document.encounter.combat is not None
    cleric = window.document.encounter.combat.combatant(EntityId("c-cleric"))
    assert cleric.exhaustion == 2 and cleric.has_condition("poisoned")
    assert panel.exhaustion.value() == 2 and panel.duration.isVisible()
    window.combat.session.end()
    while window.undo_stack.index() > steps:
        window.undo_stack.undo()
    assert window.document.encounter == before
    assert panel.exhaustion.value() == 1


def test_a_condition_added_outside_combat_never_expires(qtbot: QtBot, window: MainWindow) -> None:
    panel = window.combat.panel
    select(window, "c-rat")
    panel.duration.setCurrentIndex(panel.duration.findText("Until the end of its turn"))
    menu_action(panel, "prone").trigger()
    (prone,) = lasting_of(window, "c-rat").conditions
    assert (prone.name, prone.expiry, prone.expiry_creature) == ("prone", Expiry.NEVER, None)
    assert log_texts(window)[-1] == "Rat is prone"
    start(window, qtbot)  # and the next combat starts with it
    assert window.document.encounter.combat is not None
    assert window.document.encounter.combat.combatant(EntityId("c-rat")).has_condition("prone")


def test_exhaustion_that_kills_outside_combat_shows_dead(qtbot: QtBot, window: MainWindow) -> None:
    panel = window.combat.panel
    select(window, "c-cleric")
    panel.exhaustion.setValue(panel.exhaustion.maximum())  # srd-5e level 6: death
    assert lasting_of(window, "c-cleric").death.dead
    assert "<b>dead</b>" in panel.state_label.text()
    assert log_texts(window)[-1] == "Cleric dies of exhaustion"


def replace_cleric(window: MainWindow, **update: object) -> None:
    encounter = window.document.encounter
    cleric = encounter.creature(EntityId("c-cleric")).model_copy(update=update)
    creatures = tuple(cleric if c.id == cleric.id else c for c in encounter.creatures)
    push(
        window.undo_stack,
        window.document,
        ReplaceEncounterField("creatures", encounter.creatures, creatures, text="test"),
    )


def test_the_death_state_shows_outside_combat(window: MainWindow) -> None:
    panel = window.combat.panel
    replace_cleric(window, hp=0, lasting=LastingState(death=DeathState(stable=True)))
    select(window, "c-cleric")
    assert "stable" in panel.state_label.text() and "dying" not in panel.state_label.text()
    replace_cleric(window, lasting=None)  # at 0 HP with nothing kept: dying
    assert "dying" in panel.state_label.text()
