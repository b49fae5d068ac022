"""Class features through the real party form and Actions dock: Cunning Action's bonus Dash,
Action Surge, and Dash stacking per ruleset."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QAbstractButton
from pytestqt.qtbot import QtBot

from battlemap.model import Creature, Document, Encounter, Grid, Side
from battlemap.model.document import AddCreature
from battlemap.model.ids import EntityId
from battlemap.rules.movement import movement_budget
from battlemap.ui.character_form import PlayerCharacterDialog
from battlemap.ui.main_window import MainWindow
from battlemap.ui.undo import push


def window_with(qtbot: QtBot, tmp_path: Path, ruleset: str) -> MainWindow:
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    encounter = Encounter(ruleset=ruleset, grid=Grid(width=12, height=8))
    window = MainWindow(Document(encounter), settings=settings)
    qtbot.addWidget(window)
    window.resize(1366, 768)
    window.show()
    qtbot.waitExposed(window)
    window.combat.session.seed_source = lambda: 3
    return window


def click(qtbot: QtBot, button: QAbstractButton) -> None:
    assert button.isVisible() and button.isEnabled(), button.text()
    qtbot.waitUntil(lambda: button.height() > 0)  # a box just shown is laid out on the next loop
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def make_character(window: MainWindow, fill: object) -> EntityId:
    """Create a character in the party form, place it, start a combat on its turn."""
    dialog = window.party_dock.new_character()
    assert callable(fill)
    fill(dialog)
    dialog.accept()
    window.party_dock.list.setCurrentRow(0)
    window.party_dock.place_selected()
    return window.document.encounter.creatures[-1].id


def start_combat(window: MainWindow, qtbot: QtBot) -> None:
    initiative = window.combat.initiative
    click(qtbot, initiative.start_button)
    click(qtbot, initiative.roll_all)
    click(qtbot, initiative.begin_button)


def rogue(dialog: PlayerCharacterDialog) -> None:
    dialog.name.setText("Vex")
    dialog.level.setValue(2)
    dialog.cunning_action.setChecked(True)


def surging_rogue(dialog: PlayerCharacterDialog) -> None:
    rogue(dialog)
    dialog.action_surges.setValue(1)  # a fighter 2 / rogue 2


def total_movement(window: MainWindow, creature_id: EntityId) -> int:
    session = window.combat.session
    assert session.state is not None
    ruleset = session.ruleset()
    assert ruleset is not None
    return movement_budget(session.state, ruleset, session.encounter, creature_id).total


def test_srd_rogue_bonus_dash_through_the_actions_dock(qtbot: QtBot, tmp_path: Path) -> None:
    # srd-5e "Dash": "The increase equals your speed": the bonus Dash adds 30, the action's 30.
    window = window_with(qtbot, tmp_path, "srd-5e")
    vex = make_character(window, rogue)
    start_combat(window, qtbot)
    features = window.combat.actions.feature_box
    assert features.isVisible() and not features.surge.isVisible()
    assert set(features.bonus_buttons) == {"dash", "disengage", "hide"}
    click(qtbot, features.bonus_buttons["dash"])
    assert total_movement(window, vex) == 60
    assert not features.bonus_buttons["disengage"].isEnabled()  # the bonus action is spent
    assert "already used its bonus action" in features.bonus_buttons["disengage"].toolTip()
    click(qtbot, window.combat.actions.buttons["dash"])
    assert total_movement(window, vex) == 90
    window.undo_stack.undo()  # each use is one undo step
    assert total_movement(window, vex) == 60


def test_legends_of_hyrule_three_dashes_through_the_dock_move_120(
    qtbot: QtBot, tmp_path: Path
) -> None:
    # legends-of-hyrule "Dash": "Dashing thrice would quadruple your movement": 4 x 30 ft.
    window = window_with(qtbot, tmp_path, "legends-of-hyrule")
    vex = make_character(window, surging_rogue)
    start_combat(window, qtbot)
    actions = window.combat.actions
    features = actions.feature_box
    assert features.surge.text() == "Action Surge (1/1)"
    click(qtbot, actions.buttons["dash"])
    click(qtbot, features.bonus_buttons["dash"])
    assert not actions.buttons["dash"].isEnabled()
    click(qtbot, features.surge)
    assert features.surge.text() == "Action Surge (0/1)" and not features.surge.isEnabled()
    click(qtbot, actions.buttons["dash"])
    assert total_movement(window, vex) == 120
    assert window.document.encounter.creature(vex).action_surges_used == 1
    click(qtbot, features.regain)
    assert window.document.encounter.creature(vex).action_surges_used == 0


def fighter(dialog: PlayerCharacterDialog) -> None:
    """A level-5 fighter: Extra Attack (two attacks) and one Action Surge."""
    dialog.name.setText("Brakka")
    dialog.level.setValue(5)
    dialog.attacks_per_action.setValue(2)
    dialog.action_surges.setValue(1)
    dialog.add_attack_row("Longsword", "+6", "5", "", "", "1d8+3", "slashing")


def test_a_level_5_fighter_attacks_twice_then_surges_for_two_more(
    qtbot: QtBot, tmp_path: Path
) -> None:
    window = window_with(qtbot, tmp_path, "srd-5e")
    brakka = make_character(window, fighter)
    ogre = Creature(id="c-ogre", name="Ogre", side=Side.HOSTILE, hp=200, max_hp=200)
    placed = window.document.encounter.creature(brakka)
    ogre = ogre.model_copy(update={"x": placed.x + 1, "y": placed.y})
    push(window.undo_stack, window.document, AddCreature(ogre))
    ui = window.combat
    click(qtbot, ui.initiative.start_button)
    click(qtbot, ui.initiative.roll_all)
    ui.initiative.tree.reordered.emit([str(brakka), "c-ogre"])  # Brakka acts first
    click(qtbot, ui.initiative.begin_button)
    actions, dialog = ui.actions, ui.attack_dialog

    def swing() -> None:
        click(qtbot, actions.buttons["attack"])
        dialog.target.setCurrentIndex(dialog.target.findData("c-ogre"))
        dialog.d20[0].setValue(2)  # a miss: no damage step
        click(qtbot, dialog.roll_button)

    swing()
    assert "1 attack left" in actions.economy.text()
    swing()
    assert not actions.buttons["attack"].isEnabled()  # one Attack action, two attacks
    click(qtbot, actions.feature_box.surge)
    assert actions.buttons["attack"].isEnabled()  # Action Surge: a second Attack action
    swing()
    assert "1 attack left" in actions.economy.text()
    swing()
    assert not actions.buttons["attack"].isEnabled()
    assert "already used its action" in actions.buttons["attack"].toolTip()
    log = [e.text for e in window.document.encounter.session_log()]
    assert sum("attack roll" in line.lower() for line in log) == 4
