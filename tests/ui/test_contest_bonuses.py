"""The contest dialog fills each side's bonus from the creatures' own skills."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from battlemap.model.character import CharacterSheet, Skill
from battlemap.model.document import UpdateCreature
from battlemap.model.ids import EntityId
from battlemap.model.statblock import AbilityScores, StatBlock
from battlemap.ui.main_window import MainWindow
from battlemap.ui.undo import push
from tests.ui.test_combat_attack_dialog import window_for


def give_sheet(window: MainWindow, creature_id: str, block: StatBlock) -> None:
    creature = window.document.encounter.creature(EntityId(creature_id))
    new = creature.model_copy(update={"statblock": block})
    push(window.undo_stack, window.document, UpdateCreature(creature, new))


def test_a_grapple_shows_the_grapplers_athletics_and_the_defenders_better_skill(
    qtbot: QtBot, tmp_path: Path
) -> None:
    window = window_for(qtbot, tmp_path, "gms-den")
    fighter = StatBlock(
        name="Knight",
        level=5,
        abilities=AbilityScores(strength=16),
        character=CharacterSheet(skill_proficiencies=frozenset({Skill.ATHLETICS})),
    )
    acrobat = StatBlock(
        name="Bat",
        level=1,
        abilities=AbilityScores(dexterity=14),
        character=CharacterSheet(expertise=frozenset({Skill.ACROBATICS})),
    )
    give_sheet(window, "c-knight", fighter)
    give_sheet(window, "c-bat", acrobat)
    ui = window.combat
    ui.actions.more_entries["grapple"].trigger()  # the More menu's entry
    dialog = ui.contest_dialog
    dialog.target.setCurrentIndex(dialog.target.findData("c-bat"))
    assert dialog.bonus.value() == 3 + 3  # Str 16, proficiency +3 at level 5
    assert dialog.skill.currentText() == "Acrobatics"  # +2 Dex, twice +2: beats Athletics +0
    assert dialog.defender_bonus.value() == 6
    dialog.skill.setCurrentText("Athletics")
    assert dialog.defender_bonus.value() == 0
