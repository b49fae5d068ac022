"""Player characters: the form, the party saved with the encounter, the roster, placing."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from battlemap.model import Document, Encounter, Side
from battlemap.model.character import Skill
from battlemap.model.document import ReplaceEncounterField
from battlemap.model.limits import MAX_PARTY
from battlemap.model.statblock import Ability, AttackKind, StatBlock
from battlemap.ui.character_form import PlayerCharacterDialog
from battlemap.ui.main_window import MainWindow


def fill_ranger(dialog: PlayerCharacterDialog) -> None:
    dialog.name.setText("Mira")
    dialog.ac.setValue(16)
    dialog.hp.setValue(27)
    dialog.scores[Ability.DEX].setValue(16)
    dialog.scores[Ability.WIS].setValue(14)
    dialog.skill_proficient[Skill.PERCEPTION].setChecked(True)  # level 1: 10 + 2 + 2 = 14
    dialog.speeds["walk"].setValue(35)
    dialog.add_attack_row("Longbow", "+7", "", "150", "600", "1d8+3", "piercing")
    dialog.add_attack_row("Shortsword", "7", "5", "", "", "1d6+3", "piercing")


def saved_ranger(window: MainWindow) -> None:
    dialog = window.party_dock.new_character()
    fill_ranger(dialog)
    dialog.accept()


def test_new_character_joins_the_party_as_one_undo_step(window: MainWindow) -> None:
    dock = window.party_dock
    dialog = dock.new_character()
    fill_ranger(dialog)
    dialog.accept()
    (mira,) = window.document.encounter.party
    assert (mira.name, mira.armor_class, mira.hit_points, mira.speeds.walk) == ("Mira", 16, 27, 35)
    assert mira.abilities.modifier(Ability.DEX) == 3 and mira.abilities.modifier(Ability.WIS) == 2
    assert mira.passive_perception == 14
    bow, sword = mira.attacks
    assert (bow.kind, bow.to_hit, bow.range_normal, bow.range_long) == (
        AttackKind.RANGED, 7, 150, 600,
    )  # fmt: skip
    assert (sword.kind, sword.reach, sword.damage[0].dice) == (AttackKind.MELEE, 5, "1d6+3")
    assert dock.list.count() == 1
    window.undo_stack.undo()
    assert window.document.encounter.party == () and dock.list.count() == 0


def test_bad_form_keeps_the_dialog_open_with_the_reason(window: MainWindow) -> None:
    dialog = window.party_dock.new_character()
    dialog.name.setText("")
    dialog.accept()
    assert dialog.isVisible() and "name" in dialog.error.text()
    assert window.document.encounter.party == ()
    dialog.reject()


def test_editing_replaces_the_character(window: MainWindow) -> None:
    dock = window.party_dock
    saved_ranger(window)
    dock.list.setCurrentRow(0)
    edit = dock.edit_selected()
    assert edit is not None and edit.name.text() == "Mira" and edit.attacks.rowCount() == 2
    edit.hp.setValue(31)
    edit.accept()
    (mira,) = window.document.encounter.party
    assert mira.hit_points == 31 and len(mira.attacks) == 2


def test_place_on_map_adds_a_party_creature(window: MainWindow) -> None:
    dock = window.party_dock
    saved_ranger(window)
    dock.list.setCurrentRow(0)
    dock.place_selected()
    creature = window.document.encounter.creatures[-1]
    assert (creature.name, creature.side, creature.hp, creature.ac) == ("Mira", Side.PARTY, 27, 16)


def test_party_is_saved_with_the_encounter_and_roster_carries_to_the_next(
    window: MainWindow, settings: QSettings, qtbot: QtBot
) -> None:
    saved_ranger(window)
    saved = window.document.encounter
    assert Encounter.model_validate_json(saved.model_dump_json()).party == saved.party
    other = MainWindow(Document(Encounter(name="Next fight")), settings=settings)
    qtbot.addWidget(other)
    assert [b.name for b in other.party_dock.roster()] == ["Mira"]
    other.party_dock.add_from_roster("Mira")
    assert other.document.encounter.party == saved.party


def test_list_is_rebuilt_only_when_the_party_changes(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    dock = window.party_dock
    saved_ranger(window)
    rebuilt: list[int] = []
    original = dock.refresh

    def counted_refresh() -> None:
        rebuilt.append(1)
        original()

    monkeypatch.setattr(dock, "refresh", counted_refresh)
    document = window.document
    document.apply(ReplaceEncounterField("name", document.encounter.name, "Crypt"))
    assert rebuilt == []  # another encounter field changed: the list stays as it is
    document.apply(ReplaceEncounterField("party", document.encounter.party, ()))
    assert rebuilt == [1]
    assert dock.list.count() == 0


def test_the_level_is_saved_edited_and_given_to_the_placed_token(window: MainWindow) -> None:
    dock = window.party_dock
    dialog = dock.new_character()
    assert dialog.level.value() == 1  # a new character starts at level 1
    fill_ranger(dialog)
    dialog.level.setValue(5)
    dialog.accept()
    assert window.document.encounter.party[0].level == 5
    dock.list.setCurrentRow(0)
    edit = dock.edit_selected()
    assert edit is not None and edit.level.value() == 5
    edit.level.setValue(6)
    edit.accept()
    assert window.document.encounter.party[0].level == 6
    dock.place_selected()
    assert window.document.encounter.creatures[-1].level == 6
    assert dock.roster()[0].level == 6  # the roster carries it to the next encounter


def test_a_character_without_a_level_shows_none_and_keeps_none(window: MainWindow) -> None:
    dock = window.party_dock
    saved_ranger(window)
    old = window.document.encounter.party[0].model_copy(update={"level": None})
    dock.set_party((old,), "A character saved before levels")
    dock.list.setCurrentRow(0)
    edit = dock.edit_selected()
    assert edit is not None and edit.level.text() == "—"
    edit.accept()
    assert window.document.encounter.party[0].level is None


def test_roster_export_then_import_in_another_app(
    window: MainWindow, qtbot: QtBot, tmp_path: Path
) -> None:
    saved_ranger(window)
    path = tmp_path / "party.json"
    assert window.party_dock.export_roster(path)
    other_settings = QSettings(str(tmp_path / "other.ini"), QSettings.Format.IniFormat)
    other = MainWindow(Document(Encounter(name="Elsewhere")), settings=other_settings)
    qtbot.addWidget(other)
    assert other.party_dock.roster() == []
    assert other.party_dock.import_roster(path)
    assert other.document.encounter.party == window.document.encounter.party
    assert [b.name for b in other.party_dock.roster()] == ["Mira"]
    other.undo_stack.undo()  # the import is one undo step
    assert other.document.encounter.party == ()


def test_a_bad_roster_file_changes_nothing_and_says_why(window: MainWindow, tmp_path: Path) -> None:
    path = tmp_path / "party.json"
    path.write_text('{"format": "battlemap-roster", "format_version": 1, "characters": [{}]}')
    assert not window.party_dock.import_roster(path)
    message = window.statusBar().currentMessage()
    assert str(path) in message and "characters.0.name" in message
    assert window.document.encounter.party == () and window.party_dock.roster() == []


def test_the_party_and_the_roster_stop_at_the_models_limit(
    window: MainWindow, tmp_path: Path
) -> None:
    dock = window.party_dock
    full = tuple(StatBlock(name=f"Pc {i}") for i in range(MAX_PARTY))
    assert dock.set_party(full, "A full party")
    dialog = dock.new_character()
    dialog.name.setText("One too many")
    dialog.accept()
    assert window.document.encounter.party == full  # refused, and said why
    assert "more than 100" in window.statusBar().currentMessage()
    for block in (*full, StatBlock(name="Extra")):
        dock.remember(block)
    roster = dock.roster()
    assert len(roster) == MAX_PARTY and (roster[0].name, roster[-1].name) == ("Pc 1", "Extra")
    assert dock.export_roster(tmp_path / "party.json")
    assert "1 older roster characters left out" in window.statusBar().currentMessage()
