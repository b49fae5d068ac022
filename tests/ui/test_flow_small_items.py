"""Issue 15 item 13, the smaller items, each through the real widgets (srd-5e)."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from battlemap.model.ids import EntityId
from battlemap.ui.drag.items import InfoCard
from tests.ui.drag_helpers import fighting, move_through, open_window, press_at, release_at, room
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
