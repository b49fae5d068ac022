"""The player character form: level, scores and proficiencies drive the numbers it shows, the
party, the token placed from it and the Brink of Death box."""

from __future__ import annotations

from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from battlemap.model.character import Skill
from battlemap.model.document import UpdateCreature
from battlemap.model.ids import EntityId
from battlemap.model.statblock import Ability, StatBlock
from battlemap.ui.character_form import PlayerCharacterDialog
from battlemap.ui.main_window import MainWindow
from battlemap.ui.undo import push
from tests.ui.test_combat_docks import make_window, to_the_brink


def fill_fighter(dialog: PlayerCharacterDialog) -> None:
    """A level-5 fighter: Str 16, Wis 12, Str and Con saves, Athletics, two attacks, a surge."""
    dialog.name.setText("Brakka")
    dialog.level.setValue(5)
    dialog.scores[Ability.STR].setValue(16)
    dialog.scores[Ability.WIS].setValue(12)
    dialog.save_proficient[Ability.STR].setChecked(True)
    dialog.save_proficient[Ability.CON].setChecked(True)
    dialog.skill_proficient[Skill.ATHLETICS].setChecked(True)
    dialog.attacks_per_action.setValue(2)
    dialog.action_surges.setValue(1)
    dialog.add_attack_row("Longsword", "+6", "5", "", "", "1d8+3", "slashing")


def saved_fighter(window: MainWindow) -> StatBlock:
    dialog = window.party_dock.new_character()
    fill_fighter(dialog)
    dialog.accept()
    return window.document.encounter.party[-1]


def test_the_form_shows_the_numbers_the_stat_block_computes(window: MainWindow) -> None:
    dialog = window.party_dock.new_character()
    fill_fighter(dialog)
    assert dialog.proficiency.text() == "proficiency +3"
    assert dialog.save_labels[Ability.STR].text() == "+6"  # +3 Str, +3 proficiency
    assert dialog.save_labels[Ability.WIS].text() == "+1"
    assert dialog.skill_labels[Skill.ATHLETICS].text() == "+6"
    dialog.skill_expertise[Skill.PERCEPTION].setChecked(True)
    assert dialog.passive.text() == "Passive Perception 17"  # 10 + 1 + 2 x 3
    dialog.level.setValue(9)  # +4 from level 9: every number follows
    assert dialog.save_labels[Ability.STR].text() == "+7"
    assert dialog.passive.text() == "Passive Perception 19"
    dialog.reject()


def test_the_saved_character_keeps_its_sheet_and_features(window: MainWindow) -> None:
    brakka = saved_fighter(window)
    assert brakka.level == 5 and brakka.attacks_per_action == 2
    assert brakka.character is not None and brakka.character.action_surge_uses == 1
    assert brakka.saving_throw(Ability.STR) == 6 and brakka.skill_bonus(Skill.ATHLETICS) == 6
    (sword,) = brakka.attacks
    assert (sword.to_hit, sword.damage[0].dice) == (6, "1d8+3")
    window.party_dock.list.setCurrentRow(0)
    edit = window.party_dock.edit_selected()
    assert edit is not None
    assert edit.save_proficient[Ability.CON].isChecked()
    assert edit.attacks_per_action.value() == 2 and edit.action_surges.value() == 1
    edit.reject()
    assert window.party_dock.roster()[0] == brakka  # the roster keeps the same data
    item = window.party_dock.list.item(0)
    assert item is not None and item.text() == "Brakka — level 5, AC 10, HP 10, PP 11"
    window.party_dock.place_selected()
    token = window.document.encounter.creatures[-1]
    assert token.statblock == brakka and token.level == 5


def test_an_older_character_opens_with_its_listed_bonuses_as_proficiencies(
    window: MainWindow,
) -> None:
    old = StatBlock(
        name="Old",
        type="player character",
        saving_throws={Ability.DEX: 4},
        skills={"Stealth": 4},
    )
    dialog = PlayerCharacterDialog(window, old)
    assert dialog.save_proficient[Ability.DEX].isChecked()
    assert dialog.skill_proficient[Skill.STEALTH].isChecked()
    dialog.level.setValue(1)
    built = dialog.build()
    assert built.saving_throws == {} and built.skills == {}
    assert built.saving_throw(Ability.DEX) == 2  # Dex 10 (+0) and proficiency +2
    dialog.reject()


def test_the_brink_box_shows_the_characters_level_and_wisdom_save(
    qtbot: QtBot, settings: QSettings
) -> None:
    # The case: a level-5 character with Wis 12 and Wisdom save proficiency; the box
    # showed level 1 and +0.
    window = make_window(qtbot, settings)
    dialog = window.party_dock.new_character()
    fill_fighter(dialog)
    dialog.save_proficient[Ability.WIS].setChecked(True)
    dialog.accept()
    block = window.document.encounter.party[-1]
    cleric = window.document.encounter.creature(EntityId("c-cleric"))
    made = cleric.model_copy(update={"statblock": block})
    push(window.undo_stack, window.document, UpdateCreature(cleric, made))
    to_the_brink(qtbot, window)
    brink = window.combat.card.brink
    assert brink.isVisible()
    assert (brink.level.value(), brink.wis_bonus.value()) == (5, 4)
    brink.wis_bonus.setValue(2)  # the DM's change stays through a refresh
    window.combat.card.refresh()
    assert brink.wis_bonus.value() == 2
