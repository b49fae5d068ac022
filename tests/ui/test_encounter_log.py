"""The session log in the Log dock (srd-5e): events outside combat, ended combats, undo.

The creatures of tests/ui/test_combat_docks.py: Cleric 12 HP, Salamander 1 30 HP (resists fire
from its stat block), Rat 2 HP. srd-5e: resistance halves rounding down, a successful save
halves rounding down, a monster at 0 HP dies.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtGui import QGuiApplication
from pytestqt.qtbot import QtBot

from battlemap.io.encounter_file import load_battlemap, save_battlemap
from battlemap.model import Creature
from battlemap.model import encounter as encounter_module
from battlemap.model.combat import CombatEvent
from battlemap.model.encounter import COMBAT_ENDED, COMBAT_STARTED
from battlemap.model.ids import EntityId
from battlemap.model.limits import MAX_EVENT_TEXT
from battlemap.ui.combat.rest_dialog import TOTAL
from battlemap.ui.combat.session import combat_facts
from battlemap.ui.main_window import MainWindow
from battlemap.ui.players.projection import project
from tests.rules.move_builders import goblin_beside_fighter
from tests.ui.drag_helpers import open_window
from tests.ui.players_helpers import open_players
from tests.ui.test_area_damage import mark_saved, open_area
from tests.ui.test_combat_docks import click, make_window, select, start
from tests.ui.test_players_window import every_text
from tests.ui.test_remove_in_combat import delete_with_the_key
from tests.ui.test_rest_dialog import dialog_of, menu_action


@pytest.fixture
def window(qtbot: QtBot, tmp_path: Path) -> MainWindow:
    return make_window(qtbot, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))


def lines(window: MainWindow) -> list[str]:
    return window.combat.log.visible_lines(selected_only=False)


def fireball(window: MainWindow, qtbot: QtBot) -> None:
    """A typed 21 fire on all three, the Cleric saving (outside combat unless one runs)."""
    area = open_area(window, ["c-cleric", "c-sal", "c-rat"])
    mark_saved(area, "c-cleric")
    area.dice.setText("8d6")
    area.damage_type.setCurrentIndex(area.damage_type.findData("fire"))
    area.typed.setValue(21)
    click(qtbot, area.apply_button)
    area.close()


def test_area_damage_before_initiative_is_logged_with_its_reasons(
    qtbot: QtBot, window: MainWindow
) -> None:
    assert lines(window) == []
    fireball(window, qtbot)
    assert window.document.encounter.combat is None
    logged = lines(window)
    # outside combat the round column is blank
    assert "\troll\tarea damage (fire): 8d6 typed in: 21" in logged
    assert "\tdamage-step\tCleric: fire 21 -> 10 (successful save: half, rounded down)" in logged
    assert "\tdamage-step\tSalamander 1: fire 21 -> 10 (resistance to fire (x0.5))" in logged
    assert "\tdamage\tRat takes 21 damage: HP 2 -> 0" in logged
    assert any(line.startswith("\tdeath\tRat dies") for line in logged)
    assert [e.text for e in window.document.encounter.log] == [
        line.split("\t")[2] for line in logged
    ]
    rows = [window.combat.log.table.topLevelItem(i) for i in range(len(logged))]
    assert all(row is not None and row.text(0) == "" for row in rows)


def test_saving_throws_before_initiative_are_logged_before_the_damage(
    qtbot: QtBot, window: MainWindow
) -> None:
    area = open_area(window, ["c-cleric", "c-sal", "c-rat"])
    area.dc.setValue(12)
    cleric = area.rows[EntityId("c-cleric")]
    assert cleric.d20 is not None
    cleric.d20.spins[0].setValue(15)  # the Cleric's player rolls 15 at the table
    click(qtbot, area.roll_monsters)  # the app rolls the Salamander's and the Rat's
    salamander = area.results[EntityId("c-sal")]
    rat = area.rows[EntityId("c-rat")]
    rat.saved.click()  # the DM rules the other way for the Rat
    area.dice.setText("2d6")
    area.damage_type.setCurrentIndex(area.damage_type.findData("fire"))
    area.typed.setValue(8)
    click(qtbot, area.apply_button)
    texts = [event.text for event in window.document.encounter.log]
    saves = [t for t in texts if "Dexterity save DC 12" in t]
    assert any(t.startswith("Cleric's Dexterity save DC 12: 15 ") for t in saves), saves
    assert any(
        t.startswith(f"Salamander 1's Dexterity save DC 12: {salamander.natural} ") for t in saves
    ), saves
    # the player's d20 was typed in; the app rolled the Salamander's from fresh dice
    assert "Cleric's Dexterity save DC 12 (normal): 1d20 typed in: 15" in texts
    assert (
        f"Salamander 1's Dexterity save DC 12 (normal): 1d20 rolled by the app: "
        f"{salamander.natural}" in texts
    )
    ruled = f"the DM rules that Rat {'saved' if rat.is_saved() else 'failed'}"
    assert ruled in texts
    first_damage = texts.index("area damage (fire): 2d6 typed in: 8")
    assert max(texts.index(t) for t in [*saves, ruled]) < first_damage  # saves, then damage
    window.undo_stack.undo()
    assert window.document.encounter.log == ()


def test_area_damage_the_app_rolls_outside_combat_is_logged_as_the_apps_roll(
    qtbot: QtBot, window: MainWindow
) -> None:
    area = open_area(window, ["c-cleric"])
    area.dice.setText("2d6")
    area.damage_type.setCurrentIndex(area.damage_type.findData("fire"))
    assert area.typed.value() == -1  # "app rolls"
    click(qtbot, area.apply_button)
    lost = 12 - window.document.encounter.creature("c-cleric").hp  # type: ignore[arg-type]
    assert lines(window)[0] == f"\troll\tarea damage (fire): 2d6 rolled by the app: {lost}"


def test_undo_takes_the_steps_lines_out_and_redo_brings_them_back(
    qtbot: QtBot, window: MainWindow
) -> None:
    before = window.document.encounter
    steps = window.undo_stack.count()
    fireball(window, qtbot)
    assert window.undo_stack.count() == steps + 1  # damage and its lines: one step
    logged = lines(window)
    window.undo_stack.undo()
    assert window.document.encounter == before and lines(window) == []
    window.undo_stack.redo()
    assert lines(window) == logged


def test_creature_dock_damage_and_healing_outside_combat_are_logged(
    qtbot: QtBot, window: MainWindow
) -> None:
    panel = window.combat.panel
    select(window, "c-sal")
    panel.amount.setValue(15)
    panel.damage_type.setCurrentIndex(panel.damage_type.findData("fire"))
    click(qtbot, panel.damage_button)
    panel.amount.setValue(3)
    click(qtbot, panel.heal_button)
    healed = "\theal\tSalamander 1 regains 3 HP (3 healing): 23 -> 26"
    assert lines(window) == [
        "\tdamage-step\tSalamander 1: fire 15 -> 7 (resistance to fire (x0.5))",
        "\tdamage\tSalamander 1 takes 7 damage: HP 30 -> 23",
        healed,
    ]
    table = window.combat.log.table
    first_row = table.topLevelItem(0)
    window.undo_stack.undo()  # the healing's line goes, the damage's stay
    assert len(lines(window)) == 2 and healed not in lines(window)
    assert table.topLevelItem(0) is first_row  # its row taken out, the others kept
    window.undo_stack.undo()
    window.undo_stack.undo()  # back to no lines, then forward again
    assert table.topLevelItemCount() == 0
    window.undo_stack.redo()
    assert len(lines(window)) == 2


def test_a_rest_outside_combat_is_logged(qtbot: QtBot, window: MainWindow) -> None:
    fireball(window, qtbot)  # the Cleric is down to 2 HP
    rested = window.document.encounter.model_copy(update={"ruleset": "bloodied-brink"})
    window.document.replace(rested)  # srd-5e has no rest rules; bloodied-brink: 12 HP + 1d12
    select(window, "c-cleric")
    menu_action(window, "Long rest…")
    dialog = dialog_of(window)
    assert dialog.creature_ids() == ["c-cleric"]
    dialog.spin(0, TOTAL).setValue(5)
    click(qtbot, dialog.apply_button)
    assert window.document.encounter.creature("c-cleric").hp == 12  # type: ignore[arg-type]
    assert lines(window)[-1] == "\trest\tCleric finishes a long rest: HP 2 -> 12"


def test_a_rest_the_app_rolls_is_logged_as_the_apps_roll(qtbot: QtBot, window: MainWindow) -> None:
    fireball(window, qtbot)  # Cleric 2 HP, Salamander 1 20 HP
    rested = window.document.encounter.model_copy(update={"ruleset": "bloodied-brink"})
    window.document.replace(rested)  # bloodied-brink short rest: 8 HP + level d8
    select(window, "c-cleric")
    window.scene.tokens[EntityId("c-sal")].setSelected(True)
    menu_action(window, "Short rest…")
    dialog = dialog_of(window)
    assert dialog.creature_ids() == ["c-cleric", "c-sal"]
    dialog.spin(1, TOTAL).setValue(3)  # the Salamander's typed; the Cleric's the app rolls
    click(qtbot, dialog.apply_button)
    rolls = [e.text for e in window.document.encounter.log if e.kind == "roll"][-2:]
    assert rolls[0].startswith("Cleric's short rest: 1d8 rolled by the app: ")
    assert rolls[1] == "Salamander 1's short rest: 1d8 typed in: 3"


def test_a_combat_keeps_its_lines_when_it_ends_and_undo_brings_it_back(
    qtbot: QtBot, window: MainWindow
) -> None:
    fireball(window, qtbot)
    before_combat = lines(window)
    start(window, qtbot)
    during = lines(window)
    assert during[: len(before_combat)] == before_combat  # time order: earlier lines first
    assert during[len(before_combat)] == (
        f"\t{COMBAT_STARTED}\tCombat started: Cleric, Salamander 1, Rat"
    )
    assert "round 1\tround\tround 1 begins" in during
    click(qtbot, window.combat.initiative.end_button)
    encounter = window.document.encounter
    assert encounter.combat is None
    after = lines(window)
    assert after[:-1] == during, "ending a combat loses none of its lines"
    assert after[-1] == f"round 1\t{COMBAT_ENDED}\tCombat ended in round 1"
    assert encounter.log[-1].kind == COMBAT_ENDED
    window.undo_stack.undo()  # the combat is back, the end line gone
    assert window.document.encounter.combat is not None
    assert lines(window) == during


def test_a_second_combat_follows_the_first_in_the_log(qtbot: QtBot, window: MainWindow) -> None:
    start(window, qtbot)
    click(qtbot, window.combat.initiative.end_button)
    first = lines(window)
    start(window, qtbot)
    second = lines(window)
    assert second[: len(first)] == first
    assert second.count("round 1\tround\tround 1 begins") == 2


def test_the_kind_filter_and_copy_see_lines_outside_combat(
    qtbot: QtBot, window: MainWindow
) -> None:
    fireball(window, qtbot)
    log = window.combat.log
    log.kind.setCurrentText("damage-step")
    shown = lines(window)
    assert len(shown) == 3 and all("\tdamage-step\t" in line for line in shown)
    click(qtbot, log.copy_all)
    assert QGuiApplication.clipboard().text() == "\n".join(shown)
    log.kind.setCurrentIndex(0)
    log.filter.setText("salamander")
    assert lines(window) == [
        "\tdamage-step\tSalamander 1: fire 21 -> 10 (resistance to fire (x0.5))",
        "\tdamage\tSalamander 1 takes 10 damage: HP 30 -> 20",
    ]


def test_the_log_is_saved_and_shown_again_when_the_file_opens(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    fireball(window, qtbot)
    logged = lines(window)
    path = tmp_path / "session.battlemap"
    save_battlemap(path, window.document.encounter, window.document.images)
    window.document.replace(window.document.encounter.model_copy(update={"log": ()}))
    assert lines(window) == []
    window.document.replace(load_battlemap(path).encounter)
    assert lines(window) == logged


def test_nothing_of_the_log_reaches_the_players(qtbot: QtBot, window: MainWindow) -> None:
    fireball(window, qtbot)
    secret = CombatEvent(round=0, kind="note", text="Vexx poisoned the well")
    encounter = window.document.encounter.with_log([secret])
    window.document.replace(encounter)
    bare = encounter.model_copy(update={"log": ()})
    assert project(encounter, None, combat_facts(encounter)) == project(
        bare, None, combat_facts(bare)
    )
    open_players(window, qtbot)
    shown = " ".join(every_text(window))
    assert "Vexx" not in shown and "resistance" not in shown and "typed in" not in shown
    assert "Vexx" not in repr(window.players.last_view)


def test_removing_every_combatant_keeps_the_combats_lines(qtbot: QtBot, tmp_path: Path) -> None:
    window = open_window(qtbot, tmp_path, goblin_beside_fighter())
    fight = window.document.encounter.combat
    assert fight is not None and fight.log
    before = window.document.encounter
    delete_with_the_key(window, *(c.creature_id for c in fight.combatants))
    encounter = window.document.encounter
    assert encounter.combat is None
    assert encounter.log[:-1] == before.log + fight.log  # nothing of the fight is lost
    assert encounter.log[-1].kind == COMBAT_ENDED
    assert window.undo_stack.count() == 1
    window.undo_stack.undo()
    assert window.document.encounter == before


def test_a_crowded_combats_first_line_is_cut_to_the_line_limit(
    qtbot: QtBot, window: MainWindow
) -> None:
    many = tuple(
        Creature(id=f"c-{i}", name=f"Kobold of the Deep Warrens {i}", x=i % 10, y=7)
        for i in range(120)
    )
    crowded = window.document.encounter.model_copy(update={"creatures": many})
    window.document.replace(crowded)
    assert window.combat.session.start()
    combat = window.document.encounter.combat
    assert combat is not None
    first = combat.log[0]
    assert first.kind == COMBAT_STARTED and len(first.text) == MAX_EVENT_TEXT
    assert first.text.startswith("Combat started: Kobold of the Deep Warrens 0, ")
    assert first.text.endswith("…")
    CombatEvent.model_validate(first.model_dump())  # a saved file would open again


def test_a_full_log_drops_its_oldest_rows_with_its_oldest_lines(
    qtbot: QtBot, window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(encounter_module, "MAX_ENCOUNTER_LOG", 8)
    fireball(window, qtbot)  # 8 lines: the log is full
    table = window.combat.log.table
    second_row = table.topLevelItem(1)
    panel = window.combat.panel
    select(window, "c-cleric")
    panel.amount.setValue(1)
    click(qtbot, panel.heal_button)  # one line more: the oldest goes
    log = window.document.encounter.log
    assert len(log) == 8 and log[-1].kind == "heal"
    assert [line.split("\t")[2] for line in lines(window)] == [e.text for e in log]
    assert table.topLevelItem(0) is second_row  # the rows kept, not rebuilt
    window.undo_stack.undo()
    assert [line.split("\t")[2] for line in lines(window)] == [
        e.text for e in window.document.encounter.log
    ]
