"""Legendary Resistance on the save rows (issue 16): the Adult Red Dragon fails a DC 40
Wisdom save in the Saving throw dialog; its row offers "Use Legendary Resistance", which
turns it into a success, and Apply spends one use and logs why, one undo step."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from battlemap.model.ids import EntityId
from battlemap.rules.enums import Ability
from battlemap.rules.limited_actions import legendary_resistance_left
from tests.ui.test_combat_docks import click
from tests.ui.test_creature_extras_ui import DRAGON, _dragon_window

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support", extend=True)


def test_a_failed_save_row_offers_legendary_resistance(qtbot: QtBot, tmp_path: Path) -> None:
    window = _dragon_window(qtbot, tmp_path)  # Legendary Resistance: 1 of 3 left
    window.combat.session.seed_source = lambda: 4
    dialog = window.combat.save_dialog
    dialog.open_for([DRAGON, EntityId("c-hero")])
    dialog.ability.setCurrentIndex(dialog.ability.findData(Ability.WIS))
    dialog.dc.setValue(40)  # +7 can't reach it: a failure
    row = dialog.saves.rows[DRAGON]
    hero_row = dialog.saves.rows[EntityId("c-hero")]
    click(qtbot, row.roll_button)
    assert not row.is_saved()
    assert row.resist.isVisible() and row.resist.text() == "Use Legendary Resistance (1 left)"
    click(qtbot, hero_row.roll_button)
    assert not hero_row.resist.isVisible()  # the hero has none
    click(qtbot, row.resist)
    assert row.is_saved() and not row.resist.isVisible()
    assert "Legendary Resistance: succeeds instead" in row.outcome.text()
    click(qtbot, dialog.apply_button)
    encounter = window.document.encounter
    assert legendary_resistance_left(encounter, DRAGON) == 0
    assert (
        "Adult Red Dragon uses Legendary Resistance (3/Day): 0 of 3 left: the failed Wisdom"
        " save DC 40 succeeds instead"
    ) in [e.text for e in encounter.log]
    assert "Legendary Resistance" in dialog.outcome_label.text()
    window.undo_stack.undo()
    assert legendary_resistance_left(window.document.encounter, DRAGON) == 1
