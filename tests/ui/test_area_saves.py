"""Saving throws in the Area damage dialog (srd-5e).

Map 10 x 8: Fighter (party, Dex 12: +1) at (1, 1); Goblin (stat block Dex 14: +2) at (5, 3);
Ogre (stat block Dex 8: -1, proficient Wisdom +3) at (5, 6); a Rat at (3, 3) stands between
the point of origin (1, 3.5) and the Goblin: srd "Cover": a creature gives half cover, +2 to
Dexterity saves ("applies_to_dex_saves" in srd-5e).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QComboBox, QSpinBox
from pytestqt.qtbot import QtBot

from battlemap.geometry.body import Body
from battlemap.geometry.cover import cover_from_point
from battlemap.geometry.map_index import MapIndex
from battlemap.geometry.templates import TemplateShape
from battlemap.model import Creature, Document, Encounter, Grid, Side
from battlemap.model.creature import CombatStats
from battlemap.model.features import CoverDegree
from battlemap.model.ids import EntityId
from battlemap.model.statblock import Ability as StatAbility
from battlemap.model.statblock import AbilityScores, StatBlock
from battlemap.rules import conditions
from battlemap.rules.enums import Ability
from battlemap.rules.outcome import with_combat
from battlemap.rules.saves import SaveSituation, saving_throw
from battlemap.ui.combat.area_dialog import AreaDialog
from battlemap.ui.combat.save_rows import SaveRow
from battlemap.ui.main_window import MainWindow
from battlemap.ui.tools.template import TemplateTool
from tests.ui.children import child
from tests.ui.test_combat_docks import click, start
from tests.ui.tool_input import stroke

ORIGIN = (1.0, 3.5)
GOBLIN = StatBlock(name="Goblin", abilities=AbilityScores(dexterity=14), hit_points=7)
OGRE = StatBlock(
    name="Ogre",
    abilities=AbilityScores(dexterity=8),
    saving_throws={StatAbility.WIS: 3},
    hit_points=59,
)


@pytest.fixture
def window(qtbot: QtBot, tmp_path: Path) -> MainWindow:
    creatures = (
        Creature(
            id="c-fighter",
            name="Fighter",
            side=Side.PARTY,
            x=1,
            y=1,
            hp=20,
            max_hp=20,
            stats=CombatStats(dexterity=12),
        ),
        Creature(id="c-gob", name="Goblin", x=5, y=3, hp=7, max_hp=7, statblock=GOBLIN),
        Creature(id="c-ogre", name="Ogre", x=5, y=6, hp=59, max_hp=59, statblock=OGRE),
        Creature(id="c-rat", name="Rat", x=3, y=3, hp=2, max_hp=2),
    )
    encounter = Encounter(grid=Grid(width=10, height=8), creatures=creatures)
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    window = MainWindow(Document(encounter), settings=settings)
    qtbot.addWidget(window)
    window.resize(1400, 900)
    window.show()
    qtbot.waitExposed(window)
    window.combat.session.seed_source = lambda: 11
    return window


def open_area(window: MainWindow, ids: list[str], origin: tuple[float, float] | None) -> AreaDialog:
    window.scene.clearSelection()
    for creature_id in ids:
        window.scene.tokens[EntityId(creature_id)].setSelected(True)
    area = window.combat.area_dialog
    area.open_at(origin)
    assert area.isVisible() and set(area.rows) == set(ids)
    return area


def row(area: AreaDialog, creature_id: str) -> SaveRow:
    return area.rows[EntityId(creature_id)]


def log_texts(window: MainWindow) -> list[str]:
    combat = window.document.encounter.combat
    assert combat is not None
    return [event.text for event in combat.log]


def test_a_rolled_goblin_dex_save_is_the_engines_own_answer_and_is_recorded_when_dealt(
    qtbot: QtBot, window: MainWindow
) -> None:
    start(window, qtbot)
    area = open_area(window, ["c-gob"], None)
    area.ability.setCurrentIndex(area.ability.findData(Ability.DEX))
    area.dc.setValue(13)
    before = window.document.encounter
    ruleset = window.combat.session.ruleset()
    assert before.combat is not None and ruleset is not None
    expected = saving_throw(before, ruleset, EntityId("c-gob"), Ability.DEX, 13)
    goblin = row(area, "c-gob")
    assert "Dexterity save +2 vs DC 13" in goblin.outcome.text()  # before the roll
    click(qtbot, goblin.roll_button)
    result = area.results[EntityId("c-gob")]
    # the stat block's Dex 14 gives +2, which saving_throw alone can't know (+0 from all 10s)
    assert result.faces == expected.result.faces and result.natural == expected.result.natural
    assert expected.result.natural is not None  # rolled, not a natural-20-free pass
    assert result.total == expected.result.natural + 2
    assert result.success == (result.total >= 13)
    assert goblin.is_saved() == result.success and goblin.saved.isChecked() == result.success
    assert f"d20 {result.natural} +2 = <b>{result.total}</b> vs DC 13" in goblin.outcome.text()
    assert window.document.encounter == before  # nothing recorded by rolling
    steps = window.undo_stack.count()
    area.dice.setText("1d6")  # 8d6 can't total 4
    area.typed.setValue(4)
    click(qtbot, area.apply_button)
    assert window.undo_stack.count() == steps + 1, area.outcome_label.text()
    assert any(
        text.startswith(f"Goblin's Dexterity save DC 13: {result.natural} +2 = {result.total}")
        for text in log_texts(window)
    ), log_texts(window)
    lost = 2 if result.success else 4
    assert window.document.encounter.creature(EntityId("c-gob")).hp == 7 - lost
    window.undo_stack.undo()  # the save and the damage go in one step
    assert window.document.encounter == before


def test_a_paralyzed_creature_fails_a_dex_save_automatically_with_the_reason(
    qtbot: QtBot, window: MainWindow
) -> None:
    start(window, qtbot)
    session = window.combat.session
    assert session.run(
        "Goblin is paralyzed",
        lambda e, r: conditions.apply_condition(e, r, EntityId("c-gob"), "paralyzed"),
    )
    area = open_area(window, ["c-gob"], None)
    goblin = row(area, "c-gob")
    assert "fails automatically" in goblin.outcome.text()  # shown before rolling
    assert "paralyzed: fails Dexterity saves" in goblin.outcome.text()
    goblin.set_saved(True)
    click(qtbot, goblin.roll_button)
    result = area.results[EntityId("c-gob")]
    assert not result.success and result.natural is None and result.faces == ()
    assert not goblin.is_saved() and not goblin.saved.isChecked()
    assert "paralyzed: fails Dexterity saves" in goblin.outcome.text()
    assert "paralyzed" in goblin.toolTip()
    area.ability.setCurrentIndex(area.ability.findData(Ability.WIS))  # not Str/Dex: rolls
    assert "fails automatically" not in goblin.outcome.text()
    assert EntityId("c-gob") not in area.results  # a new save drops the old roll


def test_half_cover_from_the_point_of_origin_adds_two_to_a_dex_save_only(
    qtbot: QtBot, window: MainWindow
) -> None:
    encounter = window.document.encounter
    bodies = [Body.from_creature(c, encounter.grid) for c in encounter.creatures]
    goblin_body = next(b for b in bodies if b.id == "c-gob")
    index = MapIndex.build(encounter)
    assert cover_from_point(index, ORIGIN, goblin_body, bodies).degree is CoverDegree.HALF
    start(window, qtbot)
    area = open_area(window, ["c-gob", "c-ogre"], ORIGIN)
    area.dc.setValue(15)
    goblin = row(area, "c-gob")
    text = goblin.outcome.text()
    assert "Dexterity save +4 vs DC 15" in text  # +2 Dex, +2 half cover
    assert "half cover +2" in text
    assert "half cover from a creature against the point of origin" in goblin.toolTip()
    state = window.document.encounter.combat
    ruleset = window.combat.session.ruleset()
    assert state is not None and ruleset is not None
    expected = saving_throw(
        with_combat(window.document.encounter, state),
        ruleset,
        EntityId("c-gob"),
        Ability.DEX,
        15,
        SaveSituation(cover=CoverDegree.HALF),
        save_bonus=2,
    ).result
    click(qtbot, goblin.roll_button)
    assert expected.natural is not None
    assert area.results[EntityId("c-gob")].total == expected.total == expected.natural + 4
    area.dice.setText("1d6")  # 8d6 can't total 1
    area.typed.setValue(1)
    click(qtbot, area.apply_button)
    assert any(
        t.startswith("Goblin's Dexterity save DC 15:")
        and t.endswith("(save bonus +2, half cover +2)")
        for t in log_texts(window)
    ), log_texts(window)
    area.open_at(ORIGIN)
    goblin = row(area, "c-gob")
    area.ability.setCurrentIndex(area.ability.findData(Ability.WIS))
    assert "Wisdom save +0 vs DC 15" in goblin.outcome.text()  # no cover bonus
    assert "Wisdom save +3 vs DC 15" in row(area, "c-ogre").outcome.text()  # proficient


def test_without_an_origin_there_is_no_cover_bonus(qtbot: QtBot, window: MainWindow) -> None:
    area = open_area(window, ["c-gob"], None)
    assert "no cover from a point of origin" in area.origin_label.text()
    assert "Dexterity save +2 vs DC" in row(area, "c-gob").outcome.text()


def test_a_players_typed_d20_decides_the_save_and_is_logged_as_typed(
    qtbot: QtBot, window: MainWindow
) -> None:
    start(window, qtbot)
    area = open_area(window, ["c-fighter", "c-gob"], None)
    area.dc.setValue(12)
    fighter = row(area, "c-fighter")
    assert fighter.d20 is not None and row(area, "c-gob").d20 is None  # party rows only
    fighter.d20.spins[0].setValue(11)  # 11 + 1 = 12: saves at once
    result = area.results[EntityId("c-fighter")]
    assert (result.natural, result.total, result.success) == (11, 12, True)
    assert fighter.is_saved()
    fighter.d20.spins[0].setValue(10)  # 11 fails
    assert not area.results[EntityId("c-fighter")].success and not fighter.is_saved()
    area.typed.setValue(8)
    click(qtbot, area.apply_button)
    texts = log_texts(window)
    assert any("Fighter's Dexterity save DC 12" in t and "typed in" in t for t in texts), texts
    assert any(t.startswith("Fighter's Dexterity save DC 12: 10 +1 = 11, failure") for t in texts)
    assert window.document.encounter.creature(EntityId("c-fighter")).hp == 12


def test_roll_saves_for_monsters_leaves_the_party_to_the_players(
    qtbot: QtBot, window: MainWindow
) -> None:
    start(window, qtbot)
    area = open_area(window, ["c-fighter", "c-gob", "c-ogre"], None)
    click(qtbot, area.roll_monsters)
    assert set(area.results) == {"c-gob", "c-ogre"}
    gob = area.results[EntityId("c-gob")]
    click(qtbot, area.roll_monsters)  # rolled ones are not rolled again
    assert area.results[EntityId("c-gob")] is gob


def test_the_dm_overrides_a_rolled_save_and_the_log_says_so(
    qtbot: QtBot, window: MainWindow
) -> None:
    start(window, qtbot)
    area = open_area(window, ["c-gob"], None)
    area.dc.setValue(40)  # no goblin makes DC 40
    goblin = row(area, "c-gob")
    click(qtbot, goblin.roll_button)
    assert not area.results[EntityId("c-gob")].success and not goblin.is_saved()
    goblin.saved.click()  # the DM rules otherwise
    assert goblin.is_saved()
    area.dice.setText("1d6")  # 8d6 can't total 6
    area.typed.setValue(6)
    click(qtbot, area.apply_button)
    assert window.document.encounter.creature(EntityId("c-gob")).hp == 4  # half of 6
    assert "the DM rules that Goblin saved" in log_texts(window)
    assert "Goblin: saved (DM's call)" in area.outcome_label.text()


def test_rolls_go_stale_when_the_combat_changes_before_dealing(
    qtbot: QtBot, window: MainWindow
) -> None:
    start(window, qtbot)
    area = open_area(window, ["c-gob"], None)
    click(qtbot, row(area, "c-gob").roll_button)
    window.combat.session.run(
        "Goblin is prone",
        lambda e, r: conditions.apply_condition(e, r, EntityId("c-gob"), "prone"),
    )
    before = window.document.encounter
    area.typed.setValue(6)
    click(qtbot, area.apply_button)
    assert "roll them again" in area.outcome_label.text()
    assert window.document.encounter == before
    assert not area.results  # cleared: the DM rolls again


def test_saves_roll_from_fresh_dice_outside_a_combat(qtbot: QtBot, window: MainWindow) -> None:
    area = open_area(window, ["c-gob"], None)
    goblin = row(area, "c-gob")
    click(qtbot, goblin.roll_button)
    result = area.results[EntityId("c-gob")]
    assert result.natural is not None and 1 <= result.natural <= 20
    assert re.search(
        rf"d20 {result.natural} \+2 = <b>{result.natural + 2}</b>", goblin.outcome.text()
    )
    area.dice.setText("1d6")  # 8d6 can't total 6
    area.typed.setValue(6)
    steps = window.undo_stack.count()
    click(qtbot, area.apply_button)
    assert window.document.encounter.creature(EntityId("c-gob")).hp == (4 if result.success else 1)
    assert window.undo_stack.count() == steps + 1


def test_the_placed_templates_origin_gives_the_cover(qtbot: QtBot, window: MainWindow) -> None:
    window.view.resetTransform()
    window.view.centerOn(window.map_rect().center())
    window.tools.activate("template")
    combo = window.tools.options_bar.findChild(QComboBox, "template-shape")
    assert combo is not None
    combo.setCurrentIndex(combo.findData(TemplateShape.CIRCLE))
    child(window.tools.options_bar, QSpinBox, "template-size").setValue(5)
    stroke(window.view, [(6.1, 4.1), (6.2, 4.2)])  # a 5 ft circle around (6, 4): the Goblin
    placed = window.tools.tools["template"]
    assert isinstance(placed, TemplateTool) and placed.template is not None
    area = window.combat.area_dialog
    assert area.isVisible() and set(area.rows) == {"c-gob"}
    assert area.origin == placed.template.origin == (6.0, 4.0)
    assert "(6, 4)" in area.origin_label.text()
    window.scene.tokens[EntityId("c-ogre")].setSelected(True)
    click(qtbot, area.use_selected)  # not the creatures the template caught: no origin
    assert area.origin is None and set(area.rows) == {"c-gob", "c-ogre"}


def test_a_typed_d20_replaces_the_apps_roll_until_cleared(qtbot: QtBot, window: MainWindow) -> None:
    start(window, qtbot)
    area = open_area(window, ["c-fighter"], None)
    fighter = row(area, "c-fighter")
    assert fighter.d20 is not None
    click(qtbot, fighter.roll_button)  # nothing typed: the app rolls
    rolled = area.results[EntityId("c-fighter")]
    assert rolled.natural is not None
    typed_face = 20 if rolled.natural != 20 else 19
    fighter.d20.spins[0].setValue(typed_face)
    assert area.results[EntityId("c-fighter")].natural == typed_face
    area.dc.setValue(area.dc.value() + 1)  # a new DC keeps the typed face, drops the roll
    assert area.results[EntityId("c-fighter")].dc == area.dc.value()
    assert area.results[EntityId("c-fighter")].natural == typed_face
    fighter.d20.spins[0].setValue(0)  # cleared: the app rolled nothing at this DC
    assert EntityId("c-fighter") not in area.results
    click(qtbot, fighter.roll_button)
    rolled = area.results[EntityId("c-fighter")]
    fighter.d20.spins[0].setValue(typed_face)
    fighter.d20.spins[0].setValue(0)  # cleared: the app's roll counts again
    assert area.results[EntityId("c-fighter")] is rolled


def test_saves_rolled_before_a_combat_starts_are_stale_in_it(
    qtbot: QtBot, window: MainWindow
) -> None:
    area = open_area(window, ["c-gob"], None)
    click(qtbot, row(area, "c-gob").roll_button)
    start(window, qtbot)
    before = window.document.encounter
    area.typed.setValue(6)
    click(qtbot, area.apply_button)
    assert "a combat started since the saves were rolled" in area.outcome_label.text()
    assert window.document.encounter == before


def test_a_condition_given_while_the_dialog_is_open_shows_in_the_row(
    qtbot: QtBot, window: MainWindow
) -> None:
    start(window, qtbot)
    area = open_area(window, ["c-gob"], None)
    assert "disadvantage" not in row(area, "c-gob").outcome.text()
    window.combat.session.run(
        "Goblin is restrained",
        lambda e, r: conditions.apply_condition(e, r, EntityId("c-gob"), "restrained"),
    )
    assert "disadvantage: restrained: Dexterity saves" in row(area, "c-gob").outcome.text()


def test_opening_another_encounter_forgets_the_rows_and_the_origin(
    qtbot: QtBot, window: MainWindow
) -> None:
    """File > Open of a file with the same creature ids: the rows and the template's origin
    were the old encounter's, so they go; Use selected starts afresh, without cover."""
    area = open_area(window, ["c-gob", "c-rat"], (3.0, 6.0))
    assert area.origin == (3.0, 6.0)
    window.files.adopt(window.document.encounter, {}, None)
    assert area.rows == {} and area.targets.count() == 0
    assert area.origin is None and "Use selected" in area.outcome_label.text()
    window.scene.clearSelection()
    window.scene.tokens["c-gob"].setSelected(True)
    click(qtbot, area.use_selected)
    assert list(area.rows) == [EntityId("c-gob")] and area.origin is None
