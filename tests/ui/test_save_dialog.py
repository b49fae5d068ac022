"""The Saving throw dialog: one save for chosen creatures, outside an area (srd-5e).

Map 10 x 8: Fighter (party, Wis 14: +2) at (1, 1); Goblin (stat block Dex 14: +2) at (5, 3);
Ogre (stat block Dex 8, proficient Wisdom +3) at (5, 6). srd "Paralyzed": "automatically fails
Strength and Dexterity saving throws".
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMenu, QWidget
from pytestqt.qtbot import QtBot

from battlemap.model import Creature, Encounter, Grid, Side
from battlemap.model.creature import CombatStats
from battlemap.model.document import RemoveCreature
from battlemap.model.ids import EntityId
from battlemap.rules import conditions
from battlemap.rules.enums import Ability
from battlemap.rules.saves import saving_throw
from battlemap.ui.combat.save_dialog import SaveDialog
from battlemap.ui.main_window import MainWindow
from battlemap.ui.undo import push
from tests.ui.test_area_saves import GOBLIN, OGRE, log_texts
from tests.ui.test_combat_docks import click, start

GOB, OGRE_ID, FIGHTER = EntityId("c-gob"), EntityId("c-ogre"), EntityId("c-fighter")


@pytest.fixture
def encounter() -> Encounter:
    """Overrides the UI tests' map: conftest's ``window`` opens this one."""
    wise = CombatStats(wisdom=14)
    fighter = Creature(id="c-fighter", name="Fighter", side=Side.PARTY, x=1, y=1, stats=wise)
    goblin = Creature(id="c-gob", name="Goblin", x=5, y=3, hp=7, max_hp=7, statblock=GOBLIN)
    ogre = Creature(id="c-ogre", name="Ogre", x=5, y=6, hp=59, max_hp=59, statblock=OGRE)
    creatures = (fighter, goblin, ogre)
    return Encounter(grid=Grid(width=10, height=8), creatures=creatures)


@pytest.fixture(autouse=True)
def fixed_seed(window: MainWindow) -> None:
    window.combat.session.seed_source = lambda: 11


def open_saves(window: MainWindow, ids: list[str], ability: Ability, dc: int) -> SaveDialog:
    dialog = window.combat.save_dialog
    assert dialog is not None
    dialog.open_for([EntityId(i) for i in ids])
    dialog.ability.setCurrentIndex(dialog.ability.findData(ability))
    dialog.dc.setValue(dc)
    assert dialog.isVisible() and not dialog.isModal() and set(dialog.saves.rows) == set(ids)
    return dialog


def test_a_rolled_save_is_the_engines_own_answer_and_apply_is_one_undo_step(
    qtbot: QtBot, window: MainWindow
) -> None:
    start(window, qtbot)
    before = window.document.encounter
    ruleset = window.combat.session.ruleset()
    assert before.combat is not None and ruleset is not None
    expected = saving_throw(
        before, ruleset, OGRE_ID, Ability.WIS, 14, save_bonus=3
    )  # the Ogre's stat block lists Wisdom +3
    dialog = open_saves(window, ["c-ogre"], Ability.WIS, 14)
    ogre = dialog.saves.rows[OGRE_ID]
    assert "Wisdom save +3 vs DC 14" in ogre.outcome.text()  # before the roll
    click(qtbot, ogre.roll_button)
    result = dialog.saves.results[OGRE_ID]
    assert result == expected.result
    word = "saved" if result.success else "failed"
    shown = ogre.outcome.text()
    assert f"d20 {result.natural} +3 = <b>{result.total}</b> vs DC 14" in shown and word in shown
    assert ogre.is_saved() == result.success
    assert window.document.encounter == before  # rolling records nothing
    steps = window.undo_stack.count()
    click(qtbot, dialog.apply_button)
    assert window.undo_stack.count() == steps + 1
    after = window.document.encounter.combat
    assert expected.combat is not None and after is not None
    assert after.dice == expected.combat.dice  # the combat's dice advanced by this one roll
    assert log_texts(window)[-1] == expected.combat.log[-1].text
    assert "Wisdom save DC 14" in log_texts(window)[-1]
    window.undo_stack.undo()
    assert window.document.encounter == before


def test_a_paralyzed_creature_fails_strength_and_dexterity_saves_with_its_reason(
    qtbot: QtBot, window: MainWindow
) -> None:
    start(window, qtbot)
    window.combat.session.run(
        "Goblin is paralyzed",
        lambda e, r: conditions.apply_condition(e, r, GOB, "paralyzed"),
    )
    dialog = open_saves(window, ["c-gob"], Ability.STR, 5)
    goblin = dialog.saves.rows[GOB]
    assert "fails automatically" in goblin.outcome.text()
    assert "paralyzed: fails Strength saves" in goblin.outcome.text()
    dialog.ability.setCurrentIndex(dialog.ability.findData(Ability.DEX))
    assert "paralyzed: fails Dexterity saves" in goblin.outcome.text()
    dice_before = window.document.encounter.combat.dice  # type: ignore[union-attr]
    click(qtbot, goblin.roll_button)
    result = dialog.saves.results[GOB]
    assert not result.success and result.faces == () and not goblin.is_saved()
    dialog.ability.setCurrentIndex(dialog.ability.findData(Ability.WIS))  # not Str or Dex
    assert "fails automatically" not in goblin.outcome.text()
    assert "Wisdom save +0 vs DC 5" in goblin.outcome.text()
    dialog.ability.setCurrentIndex(dialog.ability.findData(Ability.DEX))
    click(qtbot, goblin.roll_button)
    click(qtbot, dialog.apply_button)
    assert "Goblin's Dexterity save DC 5 fails automatically (paralyzed" in log_texts(window)[-1]
    assert window.document.encounter.combat.dice == dice_before  # type: ignore[union-attr]


def test_a_players_typed_d20_is_the_save_and_spends_no_dice(
    qtbot: QtBot, window: MainWindow
) -> None:
    start(window, qtbot)
    dialog = open_saves(window, ["c-fighter", "c-gob"], Ability.WIS, 14)
    assert list(dialog.saves.rows) == [FIGHTER, GOB]  # the party first
    fighter = dialog.saves.rows[FIGHTER]
    assert fighter.d20 is not None and dialog.saves.rows[GOB].d20 is None  # typed d20: party only
    dice_before = window.document.encounter.combat.dice  # type: ignore[union-attr]
    fighter.d20.spins[0].setValue(11)  # counts at once, no Roll needed
    result = dialog.saves.results[FIGHTER]
    assert (result.natural, result.total, result.success) == (11, 13, False)
    assert "d20 11 +2 = <b>13</b> vs DC 14" in fighter.outcome.text()
    fighter.d20.spins[0].setValue(12)
    assert "d20 12 +2 = <b>14</b> vs DC 14" in fighter.outcome.text()
    assert dialog.saves.results[FIGHTER].success and fighter.is_saved()
    click(qtbot, dialog.apply_button)  # the Goblin's row was not rolled: left out
    log = log_texts(window)
    assert "Fighter's Wisdom save DC 14: 12 +2 = 14, success" in log[-1]
    assert not any("Goblin's Wisdom save" in line for line in log)
    assert window.document.encounter.combat.dice == dice_before  # type: ignore[union-attr]
    assert fighter.d20.faces() is None and not dialog.saves.results  # recorded: rows afresh
    recorded = window.document.encounter
    click(qtbot, dialog.apply_button)  # nothing rolled since: nothing recorded twice
    assert "Roll the saves first" in dialog.outcome_label.text()
    assert window.document.encounter == recorded


def test_outside_a_combat_the_saves_and_the_dms_call_go_to_the_encounter_log(
    qtbot: QtBot, window: MainWindow
) -> None:
    before = window.document.encounter
    dialog = open_saves(window, ["c-gob", "c-ogre"], Ability.DEX, 12)
    assert not dialog.condition.isEnabled()  # conditions need a combat
    dialog.saves.roll_monster_saves()
    gob = dialog.saves.results[GOB]
    dialog.saves.rows[GOB].saved.setChecked(not gob.success)  # the DM rules the other way
    steps = window.undo_stack.count()
    click(qtbot, dialog.apply_button)
    assert window.undo_stack.count() == steps + 1
    after = window.document.encounter
    assert after.combat is None and after.creatures == before.creatures
    texts = [event.text for event in after.log[len(before.log) :]]
    assert any(t.startswith(f"Goblin's Dexterity save DC 12: {gob.natural} +2") for t in texts)
    assert any(t.startswith("Ogre's Dexterity save DC 12:") for t in texts)
    assert any("rolled by the app" in t for t in texts)
    ruled = "saved" if not gob.success else "failed"
    assert f"the DM rules that Goblin {ruled}" in texts
    assert f"Goblin: {ruled} (DM's call)" in dialog.outcome_label.text()
    window.undo_stack.undo()
    assert window.document.encounter == before


def test_a_failure_adds_the_chosen_condition_in_the_same_undo_step(
    qtbot: QtBot, window: MainWindow
) -> None:
    start(window, qtbot)
    before = window.document.encounter
    dialog = open_saves(window, ["c-gob", "c-ogre"], Ability.WIS, 14)
    dialog.condition.setCurrentIndex(dialog.condition.findData("paralyzed"))
    dialog.saves.roll_monster_saves()
    dialog.saves.rows[GOB].saved.setChecked(False)  # failed, by the roll or the DM's call
    dialog.saves.rows[OGRE_ID].saved.setChecked(True)
    steps = window.undo_stack.count()
    click(qtbot, dialog.apply_button)
    assert window.undo_stack.count() == steps + 1
    combat = window.document.encounter.combat
    assert combat is not None
    assert combat.combatant(GOB).has_condition("paralyzed")
    assert not combat.combatant(OGRE_ID).has_condition("paralyzed")
    assert "Goblin is paralyzed" in log_texts(window)
    window.undo_stack.undo()
    assert window.document.encounter == before


def test_the_token_menu_and_the_creature_dock_open_it(qtbot: QtBot, window: MainWindow) -> None:
    menu = QMenu()
    for build in window.scene.token_menu_builders:
        build(menu, OGRE_ID)  # outside a combat too
    entry = next(a for a in menu.actions() if a.text() == "Saving throw…")
    entry.trigger()
    dialog = window.combat.save_dialog
    assert dialog is not None and dialog.isVisible() and list(dialog.saves.rows) == [OGRE_ID]
    dialog.close()
    window.scene.clearSelection()
    window.scene.tokens[EntityId("c-gob")].setSelected(True)
    click(qtbot, window.combat.panel.save_button)
    assert dialog.isVisible() and list(dialog.saves.rows) == [GOB]
    window.scene.tokens[EntityId("c-ogre")].setSelected(True)
    menu = QMenu()
    for build in window.scene.token_menu_builders:
        build(menu, GOB)  # one of the selected: all of them
    next(a for a in menu.actions() if a.text() == "Saving throw for 2 creatures…").trigger()
    assert set(dialog.saves.rows) == {GOB, OGRE_ID}


def test_a_party_row_is_sized_without_its_hidden_second_d20(window: MainWindow) -> None:
    dialog = window.combat.save_dialog
    assert dialog is not None
    dialog.open_for([FIGHTER, EntityId("c-gone")])  # one not on the map: left out
    assert list(dialog.saves.rows) == [FIGHTER]
    dialog.open_for([FIGHTER])  # a normal roll: one d20 box, the second hidden
    fighter = dialog.saves.rows[FIGHTER]
    assert fighter.d20 is not None and fighter.d20.spins[1].isHidden()
    assert fighter.item.sizeHint().width() == fighter.sizeHint().width()
    assert dialog.targets.horizontalScrollBar().maximum() == 0  # no sideways scrolling


def test_a_creature_removed_after_its_roll_is_left_out_of_the_log(
    qtbot: QtBot, window: MainWindow
) -> None:
    """Outside a combat: the Goblin's save rolled, then the Goblin deleted; Apply logs only
    the Ogre's save (a save of a creature no longer on the map would be logged for nobody)."""
    dialog = open_saves(window, ["c-gob", "c-ogre"], Ability.DEX, 12)
    dialog.saves.roll_monster_saves()
    encounter = window.document.encounter
    goblin = encounter.creature(GOB)
    push(
        window.undo_stack,
        window.document,
        RemoveCreature(goblin, encounter.creatures.index(goblin)),
    )
    before = window.document.encounter
    click(qtbot, dialog.apply_button)
    texts = [event.text for event in window.document.encounter.log[len(before.log) :]]
    assert any(t.startswith("Ogre's Dexterity save DC 12:") for t in texts)
    assert not any("Goblin" in t for t in texts), texts
    assert "Goblin" not in dialog.outcome_label.text()


def tab_stops(start: QWidget, count: int) -> list[QWidget]:
    """The next ``count`` widgets Tab would go to after ``start`` (shown, enabled, tabbable)."""
    stops: list[QWidget] = []
    widget = start
    while len(stops) < count:
        following = widget.nextInFocusChain()
        assert following is not None, "the focus chain ends"
        widget = following
        tabbable = widget.focusPolicy() & Qt.FocusPolicy.TabFocus
        if tabbable and widget.isVisible() and widget.isEnabled() and widget.focusProxy() is None:
            stops.append(widget)
    return stops


def test_tab_goes_through_the_rows_before_the_buttons_under_the_list(window: MainWindow) -> None:
    """Rows are made when the dialog opens; Tab still reaches them straight after the list."""
    dialog = open_saves(window, ["c-fighter", "c-gob"], Ability.WIS, 12)
    fighter, goblin = dialog.saves.rows[FIGHTER], dialog.saves.rows[GOB]
    assert fighter.d20 is not None
    expected = [fighter.saved, fighter.d20.spins[0], fighter.roll_button]
    expected += [goblin.saved, goblin.roll_button, dialog.use_selected]
    assert tab_stops(dialog.targets, len(expected)) == expected


@pytest.mark.parametrize("same_creatures", [False, True])
def test_opening_another_encounter_empties_the_rows(
    qtbot: QtBot, window: MainWindow, same_creatures: bool
) -> None:
    """File > New/Open: the rows were the old encounter's (an error until Use selected, or
    another file's creature under the same id); they go, and the dialog says what to do."""
    dialog = open_saves(window, ["c-gob", "c-ogre"], Ability.DEX, 12)
    click(qtbot, dialog.saves.rows[GOB].roll_button)
    opened = window.document.encounter if same_creatures else Encounter()
    window.files.adopt(opened, {}, None)
    assert dialog.saves.rows == {} and dialog.saves.targets.count() == 0
    assert dialog.saves.results == {}
    assert "Use selected" in dialog.outcome_label.text()
    if same_creatures:  # Use selected fills it again
        window.scene.tokens[FIGHTER].setSelected(True)
        click(qtbot, dialog.use_selected)
        assert list(dialog.saves.rows) == [FIGHTER]
