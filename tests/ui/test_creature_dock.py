"""The Creature dock shows the selected creature and turns edits into undo steps."""

from __future__ import annotations

from PySide6.QtWidgets import QMenu

from battlemap.model import Side
from battlemap.model.ids import EntityId
from battlemap.ui.main_window import MainWindow


def select(window: MainWindow, creature_id: str) -> None:
    window.scene.clearSelection()
    window.scene.tokens[EntityId(creature_id)].setSelected(True)


def test_selecting_a_token_shows_its_creature(window: MainWindow) -> None:
    dock = window.creature_dock
    assert dock.empty.isVisible() or not dock.name.isEnabled()
    select(window, "c-large")
    assert dock.name.text() == "Ogre"
    assert Side(dock.side_box.currentData()) is Side.HOSTILE
    assert not dock.empty.isVisibleTo(dock)


def test_editing_hit_points_is_one_undo_step(window: MainWindow) -> None:
    select(window, "c-medium")
    dock = window.creature_dock
    dock.numbers["max_hp"].setValue(30)
    dock.numbers["hp"].setValue(12)
    fighter = window.document.encounter.creature("c-medium")  # type: ignore[arg-type]
    assert (fighter.hp, fighter.max_hp) == (12, 30)
    assert dock.hp_bar.value() == 12
    window.undo_stack.undo()
    assert window.document.encounter.creature(fighter.id).hp == 10
    assert dock.numbers["hp"].value() == 10  # the dock follows the model back


def test_hit_points_never_exceed_the_maximum(window: MainWindow) -> None:
    select(window, "c-medium")
    window.creature_dock.numbers["hp"].setValue(99)
    assert window.document.encounter.creature("c-medium").hp == 10  # type: ignore[arg-type]


def test_an_empty_name_is_refused(window: MainWindow) -> None:
    select(window, "c-medium")
    dock = window.creature_dock
    dock.name.setText("   ")
    dock.name.editingFinished.emit()
    assert window.document.encounter.creature("c-medium").name == "Fighter"  # type: ignore[arg-type]
    assert dock.name.text() == "Fighter"
    assert window.undo_stack.count() == 0


def test_token_menu_hides_and_removes(window: MainWindow) -> None:
    menu = QMenu()
    for build in window.scene.token_menu_builders:
        build(menu, "c-large")  # type: ignore[arg-type]
    actions = {action.text(): action for action in menu.actions() if action.text()}
    actions["Hide from the players"].trigger()
    assert window.document.encounter.creature("c-large").hidden  # type: ignore[arg-type]
    assert "c-large" not in window.players.last_view.tokens.__repr__()  # type: ignore[union-attr]
    actions["Remove Ogre"].trigger()
    assert "c-large" not in window.scene.tokens
    window.undo_stack.undo()
    window.undo_stack.undo()
    assert "c-large" in window.scene.tokens
    assert not window.document.encounter.creature("c-large").hidden  # type: ignore[arg-type]


def test_changing_side_stores_the_enum(window: MainWindow) -> None:
    select(window, "c-large")
    dock = window.creature_dock
    dock.side_box.setCurrentIndex(dock.side_box.findData(Side.PARTY))
    dock.side_box.activated.emit(dock.side_box.currentIndex())
    assert window.document.encounter.creature("c-large").side is Side.PARTY  # type: ignore[arg-type]


def test_the_level_is_edited_in_numbers_as_one_undo_step(window: MainWindow) -> None:
    select(window, "c-medium")
    dock = window.creature_dock
    level = dock.numbers["level"]
    assert level.text() == "—"  # no level: a monster, or not recorded
    steps = window.undo_stack.count()
    level.setValue(4)
    assert window.document.encounter.creature("c-medium").level == 4  # type: ignore[arg-type]
    assert window.undo_stack.count() == steps + 1
    level.setValue(0)  # back to "—": no level
    assert window.document.encounter.creature("c-medium").level is None  # type: ignore[arg-type]
    window.undo_stack.undo()
    assert level.value() == 4  # the dock follows the model back
