"""A spell's area dealt on the caster's turn spends its Cast a Spell through the engine, in the
same undo step as the damage (srd-5e "Actions in Combat > Cast a Spell"); refused with the
rules' reason once the action is spent; outside a combat nothing is spent."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from battlemap.model import Creature, Encounter, Grid, Side
from battlemap.model.ids import EntityId
from battlemap.rules.conditions import apply_condition
from battlemap.ui.combat.area_dialog import SPENDS_CANTRIP, SPENDS_LEVELED, SPENDS_NOTHING
from battlemap.ui.main_window import MainWindow
from tests.ui.fight_window import begin_fight, shown_window
from tests.ui.test_combat_docks import click

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support", extend=True)
SELA, GOB = EntityId("c-sela"), EntityId("c-gob")


def _window(qtbot: QtBot, tmp_path: Path, fight: bool = True) -> MainWindow:
    sela = Creature(id=SELA, name="Sela", side=Side.PARTY, x=1, y=1, hp=20, max_hp=20)
    gob = Creature(id=GOB, name="Goblin", x=5, y=3, hp=40, max_hp=40)
    encounter = Encounter(grid=Grid(width=10, height=8), creatures=(sela, gob), ruleset="srd-5e")
    window = shown_window(qtbot, tmp_path, encounter)
    if fight:
        begin_fight(window, SELA)
    return window


def _fireball(window: MainWindow) -> None:
    """The goblin selected, Area damage opened, 8d6 typed as 24, dealt."""
    window.scene.clearSelection()
    window.scene.tokens[GOB].setSelected(True)
    area = window.combat.area_dialog
    area.open_for_selection()
    area.dice.setText("8d6")
    area.typed.setValue(24)


def _turn_of_sela(window: MainWindow) -> tuple[bool, tuple[str, ...]]:
    combat = window.document.encounter.combat
    assert combat is not None and combat.current is not None
    assert combat.current.creature_id == SELA
    turn = combat.combatant(SELA).turn
    return turn.action_used, turn.actions_taken


def test_a_fireball_on_selas_turn_spends_cast_a_spell_in_the_damages_undo_step(
    qtbot: QtBot, tmp_path: Path
) -> None:
    window = _window(qtbot, tmp_path)
    before = window.document.encounter
    _fireball(window)
    area = window.combat.area_dialog
    assert area.spends.isVisible() and area.spends.currentData() == SPENDS_LEVELED
    steps = window.undo_stack.count()
    click(qtbot, area.apply_button)
    assert "Refused" not in area.outcome_label.text(), area.outcome_label.text()
    assert window.document.encounter.creature(GOB).hp == 16
    assert _turn_of_sela(window) == (True, ("cast-a-spell:leveled",))
    combat = window.document.encounter.combat
    assert combat is not None
    assert "Sela takes Cast a Spell (action)" in [e.text for e in combat.log]
    assert window.undo_stack.count() == steps + 1
    assert window.undo_stack.undoText().startswith("Sela: Area damage (8d6 fire)")
    area.typed.setValue(8)
    click(qtbot, area.apply_button)  # a second deal from this opening: the spell is cast
    assert window.document.encounter.creature(GOB).hp == 8, area.outcome_label.text()
    assert area.spends.currentData() == SPENDS_NOTHING
    window.undo_stack.undo()
    window.undo_stack.undo()
    assert window.document.encounter == before  # the damage and the action, one step each deal
    assert _turn_of_sela(window) == (False, ())


def test_a_second_spell_area_is_refused_once_the_action_is_spent(
    qtbot: QtBot, tmp_path: Path
) -> None:
    window = _window(qtbot, tmp_path)
    click(qtbot, window.combat.actions.buttons["dodge"])
    assert _turn_of_sela(window)[0]
    _fireball(window)
    area = window.combat.area_dialog
    spent = window.document.encounter
    click(qtbot, area.apply_button)
    text = area.outcome_label.text()
    assert "Refused" in text and "Sela has already used its action this turn" in text
    assert "set Spends to Nothing" in text  # the way on when the spell was cast by hand
    assert window.document.encounter == spent  # no damage without the cast
    area.spends.setCurrentIndex(area.spends.findData(SPENDS_NOTHING))
    click(qtbot, area.apply_button)
    assert window.document.encounter.creature(GOB).hp == 16


def test_a_refusal_that_is_not_the_casts_offers_no_spends_hint(
    qtbot: QtBot, tmp_path: Path
) -> None:
    window = _window(qtbot, tmp_path)
    _fireball(window)
    area = window.combat.area_dialog
    click(qtbot, area.rows[GOB].roll_button)
    window.combat.session.run(
        "Goblin is prone", lambda e, r: apply_condition(e, r, GOB, "prone")
    )  # the saves are stale now; Sela's action is not spent
    click(qtbot, area.apply_button)
    text = area.outcome_label.text()
    assert "Refused" in text and "roll them again" in text
    assert "Spends" not in text
    assert not _turn_of_sela(window)[0]


def test_a_cantrip_area_is_cast_as_a_cantrip(qtbot: QtBot, tmp_path: Path) -> None:
    window = _window(qtbot, tmp_path)
    _fireball(window)
    area = window.combat.area_dialog
    area.spends.setCurrentIndex(area.spends.findData(SPENDS_CANTRIP))
    area.dice.setText("1d6")
    area.typed.setValue(4)
    click(qtbot, area.apply_button)
    assert _turn_of_sela(window) == (True, ("cast-a-spell:cantrip",))


def test_outside_a_combat_nothing_is_spent_and_spends_is_hidden(
    qtbot: QtBot, tmp_path: Path
) -> None:
    window = _window(qtbot, tmp_path, fight=False)
    _fireball(window)
    area = window.combat.area_dialog
    assert not area.spends.isVisible()
    click(qtbot, area.apply_button)
    assert window.document.encounter.creature(GOB).hp == 16
    assert window.document.encounter.combat is None
