"""Issue 15 item 13, the smaller items, each through the real widgets (srd-5e)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtWidgets import QUndoView
from pytestqt.qtbot import QtBot

from battlemap.model import Creature, Encounter, Grid, Side
from battlemap.model.document import ReplaceEncounterField
from battlemap.model.ids import EntityId
from battlemap.ui.combat.widgets import rows
from battlemap.ui.drag.items import InfoCard
from battlemap.ui.undo import push
from tests.rules.move_builders import fighting, room
from tests.ui.drag_helpers import move_through, open_window, press_at, release_at
from tests.ui.players_helpers import open_players
from tests.ui.test_combat_attack_dialog import window_for


def test_knock_out_is_not_offered_for_a_ranged_attack(qtbot: QtBot, tmp_path: Path) -> None:
    """srd-5e "Knocking a Creature Out": only a melee attack can (``knockout.melee_only``)."""
    window = window_for(qtbot, tmp_path, "srd-5e")
    dialog = window.combat.attack_dialog
    window.combat.open_attack()
    knockout = dialog.declarations.knockout
    assert knockout.isEnabled()  # the Greatsword: melee
    knockout.setChecked(True)
    dialog.attack.setCurrentIndex(dialog.attack.findData("__custom__"))
    dialog.custom_ranged.setChecked(True)
    assert not knockout.isEnabled() and not knockout.isChecked()
    assert knockout.toolTip() == "only a melee attack can knock a creature out"
    assert dialog.roll_button.isEnabled()  # the ranged attack itself is fine
    dialog.custom_ranged.setChecked(False)
    assert knockout.isEnabled()


def test_the_drag_readout_calls_a_creature_s_space_by_its_name(
    qtbot: QtBot, tmp_path: Path
) -> None:
    """srd-5e: an ally's space may be moved through and counts as difficult terrain (+5 ft);
    the card says it is a creature's space, not terrain."""
    encounter = room()
    cleric = encounter.creature(EntityId("c-cleric")).model_copy(update={"x": 3, "y": 2})
    encounter = encounter.replace_creature(cleric)
    window = open_window(
        qtbot, tmp_path, encounter.model_copy(update={"combat": fighting(encounter)})
    )
    press_at(window, (2.5, 2.5))
    move_through(window, [(2.5, 2.5), (3.5, 2.5), (4.5, 2.5)])
    cards = [i for i in window.drag_feedback.path_items if isinstance(i, InfoCard)]
    assert len(cards) == 1
    text = cards[0].text()
    assert text.splitlines()[0] == "15 / 30 ft"
    assert "through a creature's space: 1 cell, +5 ft" in text
    assert "difficult terrain" not in text
    release_at(window, (4.5, 2.5))


def test_the_players_window_shows_the_party_above_its_strip(qtbot: QtBot, tmp_path: Path) -> None:
    """The party at the map's foot: the initiative strip appearing under the players' map (as
    the players' window opens on a combat, or as a combat starts under it) must not hide it."""
    creatures = (
        Creature(id="c-a", name="Aria", side=Side.PARTY, x=0, y=9, hp=10, max_hp=10),
        Creature(id="c-b", name="Bram", side=Side.PARTY, x=13, y=9, hp=10, max_hp=10),
        Creature(id="c-g", name="Goblin", side=Side.HOSTILE, x=7, y=0, hp=7, max_hp=7),
    )
    encounter = Encounter(grid=Grid(width=14, height=10), creatures=creatures)
    window = open_window(qtbot, tmp_path, encounter)
    open_players(window, qtbot)
    players = window.players.window
    qtbot.wait(20)
    assert not players.strip.isVisible()
    combat = fighting(encounter, "c-a")
    push(window.undo_stack, window.document, ReplaceEncounterField("combat", None, combat))
    qtbot.waitUntil(players.strip.isVisible)
    qtbot.wait(20)  # the layout gives the strip its room
    seen = players.visible_scene_rect()
    dm_sees = window.view.mapToScene(window.view.viewport().rect()).boundingRect()
    assert seen.adjusted(-2, -2, 2, 2).contains(dm_sees), (seen, dm_sees)  # it follows the DM
    for creature_id in ("c-a", "c-b"):
        token = window.scene.tokens[EntityId(creature_id)].sceneBoundingRect()
        assert seen.contains(token), (creature_id, seen, token)


def test_history_names_its_start_and_whose_turn_each_next_turn_began(
    qtbot: QtBot, tmp_path: Path
) -> None:
    window = window_for(qtbot, tmp_path, "srd-5e")  # round 1, the Knight's turn
    history = window.history_dock.widget()
    assert isinstance(history, QUndoView) and history.emptyLabel() == "As opened"
    initiative = window.combat.initiative
    state = window.combat.session.state
    assert state is not None
    names = [window.combat.session.name(slot.creature_id) for slot in state.order]
    initiative.next_action.trigger()
    assert window.undo_stack.undoText() == f"Next turn: {names[1]}"
    initiative.next_action.trigger()
    assert window.undo_stack.undoText() == f"Next turn: {names[2]}"
    initiative.previous_action.trigger()  # still finds the last turn change
    assert window.undo_stack.undoText() == f"Next turn: {names[1]}"


def test_enter_in_the_initiative_box_presses_set(qtbot: QtBot, tmp_path: Path) -> None:
    window = window_for(qtbot, tmp_path, "srd-5e")
    initiative = window.combat.initiative
    initiative.tree.setCurrentItem(rows(initiative.tree)[-1])
    chosen = initiative.selected_id()
    assert chosen is not None
    initiative.value.setFocus()
    initiative.value.lineEdit().selectAll()
    qtbot.keyClicks(initiative.value.lineEdit(), "23")
    qtbot.keyClick(initiative.value.lineEdit(), Qt.Key.Key_Return)
    state = window.combat.session.state
    assert state is not None and state.combatant(chosen).initiative == 23
    assert window.undo_stack.undoText().startswith("Initiative of")


def test_from_roster_and_add_to_map_say_why_they_did_nothing(qtbot: QtBot, tmp_path: Path) -> None:
    window = window_for(qtbot, tmp_path, "srd-5e")
    steps = window.undo_stack.count()
    party = window.party_dock
    party.buttons["From roster…"].click()  # this test's settings have no roster
    assert "the roster is empty" in window.statusBar().currentMessage()
    library = window.library_dock
    library.list.clearSelection()
    library.list.setCurrentIndex(QModelIndex())
    library.add_button.click()
    assert window.statusBar().currentMessage() == "Add to map: Select a monster in the list first."
    assert window.undo_stack.count() == steps  # nothing done, and it said so


def test_the_area_list_shows_every_target_and_8d6_starts_as_fire(
    qtbot: QtBot, tmp_path: Path
) -> None:
    creatures = tuple(
        Creature(id=f"c-{i}", name=f"Goblin {i}", side=Side.HOSTILE, x=i, y=1, hp=7, max_hp=7)
        for i in range(8)
    )
    encounter = Encounter(grid=Grid(width=14, height=10), creatures=creatures)
    window = open_window(qtbot, tmp_path, encounter)
    window.resize(1366, 768)
    for token in window.scene.tokens.values():
        token.setSelected(True)
    area = window.combat.area_dialog
    area.open_for_selection()
    qtbot.wait(20)
    assert area.dice.text() == "8d6" and area.damage_type.currentData() == "fire"
    assert area.targets.count() == 8
    shown = area.targets.viewport().rect()
    for index in range(8):
        row = area.targets.visualItemRect(area.targets.item(index))
        assert shown.contains(row), (index, row, shown)
    area.damage_type.setCurrentIndex(area.damage_type.findData("cold"))
    area.close()
    area.open_for_selection()
    assert area.damage_type.currentData() == "cold"  # the last type chosen


def test_a_miss_shows_its_verdict_without_a_stray_total_line(qtbot: QtBot, tmp_path: Path) -> None:
    """The verdict line says "MISS — d20 [3] → 3+5 = 8 vs AC 12"; the engine's reason "8 < AC
    12: misses" under it repeated the total as a stray line. A natural 1's reason stays."""
    window = window_for(qtbot, tmp_path, "srd-5e")
    dialog = window.combat.attack_dialog
    window.combat.open_attack()
    dialog.target.setCurrentIndex(dialog.target.findData("c-bat"))  # AC 12
    dialog.d20[0].setValue(3)
    qtbot.mouseClick(dialog.roll_button, Qt.MouseButton.LeftButton)
    text = dialog.outcome_label.text()
    assert "MISS" in text and "= <b>8</b> vs AC 12" in text
    assert "<br>" not in text  # one line: no "8 < AC 12: misses" under it
    state = window.combat.session.state
    assert state is not None
    window.undo_stack.undo()
    dialog.d20[0].setValue(1)
    qtbot.mouseClick(dialog.roll_button, Qt.MouseButton.LeftButton)
    assert "<small>natural 1: misses</small>" in dialog.outcome_label.text()
