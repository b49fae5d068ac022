"""Area damage outside a combat (srd-5e): a fireball dropped before initiative is rolled.

The same creatures as tests/ui/test_combat_docks.py: Cleric 12 HP, Salamander 1 30 HP
(resists fire, from its stat block), Rat 2 HP. srd-5e: resistance halves, rounding down;
a successful save halves, rounding down; both apply in turn.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

from PySide6.QtCore import QSettings, Qt
from pytestqt.qtbot import QtBot

from battlemap.model import Encounter
from battlemap.model.document import RemoveCreature, UpdateCreature
from battlemap.model.ids import EntityId
from battlemap.ui.combat.area_dialog import AreaDialog
from battlemap.ui.main_window import MainWindow
from battlemap.ui.typed_dice import TOUCH_PX
from battlemap.ui.undo import push
from tests.ui.test_combat_docks import click, make_window


def open_area(window: MainWindow, ids: list[str]) -> AreaDialog:
    window.scene.clearSelection()
    for creature_id in ids:
        window.scene.tokens[EntityId(creature_id)].setSelected(True)
    area = window.combat.area_dialog
    area.open_for_selection()
    assert area.isVisible()
    assert area.targets.count() == len(ids)
    return area


def mark_saved(area: AreaDialog, creature_id: str) -> None:
    for index in range(area.targets.count()):
        row = area.targets.item(index)
        if row.data(Qt.ItemDataRole.UserRole) == creature_id:
            row.setCheckState(Qt.CheckState.Checked)


def hp(window: MainWindow) -> dict[str, int]:
    return {str(c.id): c.hp for c in window.document.encounter.creatures}


def test_typed_fireball_without_combat_saves_resists_and_is_one_undo_step(
    qtbot: QtBot, tmp_path: Path
) -> None:
    window = make_window(qtbot, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    before = window.document.encounter
    assert before.combat is None
    area = open_area(window, ["c-cleric", "c-sal", "c-rat"])
    mark_saved(area, "c-cleric")
    area.dice.setText("8d6")
    area.damage_type.setCurrentIndex(area.damage_type.findData("fire"))
    area.typed.setValue(21)
    steps = window.undo_stack.count()
    click(qtbot, area.apply_button)
    assert hp(window) == {"c-cleric": 2, "c-sal": 20, "c-rat": 0}  # 21 -> 10 saved, 10 resisted
    assert window.document.encounter.combat is None  # still no combat
    # srd-5e: a monster at 0 HP dies outright, in a combat or not
    assert "<b>Rat</b>: 21 damage, HP 2 → 0 — dead" in area.outcome_label.text()
    message = window.statusBar().currentMessage()
    assert message.startswith("Area damage:") and "Cleric -10" in message
    assert window.undo_stack.count() == steps + 1
    window.undo_stack.undo()
    assert window.document.encounter == before


def test_app_rolled_area_damage_without_combat_is_one_roll_for_every_target(
    qtbot: QtBot, tmp_path: Path
) -> None:
    window = make_window(qtbot, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    area = open_area(window, ["c-cleric", "c-sal"])
    area.dice.setText("2d6")
    area.damage_type.setCurrentIndex(area.damage_type.findData("fire"))
    assert area.typed.value() == -1  # "app rolls"
    before = hp(window)
    click(qtbot, area.apply_button)
    text = area.outcome_label.text()
    match = re.search(r"Rolled .*= `?(\d+)`?", text)
    assert match, text
    total = int(match.group(1))
    assert 2 <= total <= 12
    after = hp(window)
    assert before["c-cleric"] - after["c-cleric"] == total  # the same roll for both,
    assert before["c-sal"] - after["c-sal"] == total // 2  # halved by its fire resistance
    window.undo_stack.undo()
    assert hp(window) == before


def test_area_damage_needs_targets_and_dice_without_combat(qtbot: QtBot, tmp_path: Path) -> None:
    window = make_window(qtbot, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    area = open_area(window, [])
    before = window.document.encounter
    click(qtbot, area.apply_button)
    assert "Select the creatures caught" in area.outcome_label.text()
    area = open_area(window, ["c-cleric"])
    area.dice.setText("lots")
    click(qtbot, area.apply_button)
    assert "Type damage dice" in area.outcome_label.text()
    assert window.document.encounter == before


def test_a_ruleset_rolling_per_target_gets_one_roll_each_without_combat(
    qtbot: QtBot, tmp_path: Path
) -> None:
    window = make_window(qtbot, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    rules = tmp_path / "rulesets"
    rules.mkdir()
    (rules / "each.yaml").write_text(
        "schema_version: 1\nextends: srd-5e\nname: Each their own\n"
        "damage:\n  area_damage_rolled_once: false\n",
        encoding="utf-8",
    )
    window.rulesets.user_dir = rules
    window.rulesets.reload()
    window.rulesets.choose("each")
    area = open_area(window, ["c-cleric", "c-sal"])
    area.dice.setText("4d6")
    area.damage_type.setCurrentIndex(area.damage_type.findData("cold"))
    before = hp(window)
    click(qtbot, area.apply_button)
    text = area.outcome_label.text()
    totals = [int(t) for t in re.findall(r"Rolled [^<]*= `?(\d+)`?", text)]
    assert len(totals) == 2, text  # one roll per target, in the dialog's row order
    rows = [area.targets.item(i).data(Qt.ItemDataRole.UserRole) for i in range(2)]
    after = hp(window)
    lost = {cid: before[cid] - after[cid] for cid in rows}
    assert [lost[cid] for cid in rows] == [
        min(total, before[cid]) for cid, total in zip(rows, totals, strict=True)
    ]


def test_a_typed_total_the_dice_cant_show_is_refused_in_the_dialog(
    qtbot: QtBot, tmp_path: Path
) -> None:
    window = make_window(qtbot, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    before, steps = window.document.encounter, window.undo_stack.count()
    area = open_area(window, ["c-cleric", "c-sal"])
    area.dice.setText("8d6")
    area.damage_type.setCurrentIndex(area.damage_type.findData("fire"))
    area.typed.setValue(49)
    click(qtbot, area.apply_button)
    assert area.isVisible() and html.unescape(area.outcome_label.text()) == (
        "<b>Refused:</b> area damage (fire): 49 can't be rolled on 8d6 (only 8 to 48)"
    )
    assert window.document.encounter == before and window.undo_stack.count() == steps
    assert area.typed.value() == 49  # kept, to be corrected
    area.typed.setValue(48)
    click(qtbot, area.apply_button)
    assert hp(window)["c-cleric"] == 0 and window.undo_stack.count() == steps + 1


def test_app_rolled_damage_below_0_without_combat_deals_0(qtbot: QtBot, tmp_path: Path) -> None:
    """srd-5e "Damage Rolls": with a penalty "it's possible to deal 0 damage, but not negative
    damage"; 1d1-3 always rolls -2 (it had been refused as a negative typed total)."""
    window = make_window(qtbot, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    area = open_area(window, ["c-cleric"])
    area.dice.setText("1d1-3")
    before = hp(window)
    click(qtbot, area.apply_button)
    text = area.outcome_label.text()
    assert "Refused" not in text and "<b>Cleric</b>: 0 damage, HP 12 → 12" in text, text
    assert hp(window) == before


def test_a_target_deleted_while_the_dialog_is_open_is_left_out(
    qtbot: QtBot, tmp_path: Path
) -> None:
    """The Rat deleted from the map (or another file opened) after the dialog opened: Deal
    damage hits the others and says the Rat was left out, instead of raising KeyError."""
    window = make_window(qtbot, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    area = open_area(window, ["c-cleric", "c-rat"])
    area.damage_type.setCurrentIndex(area.damage_type.findData("fire"))
    area.dice.setText("2d6")
    area.typed.setValue(5)
    encounter = window.document.encounter
    rat = encounter.creature(EntityId("c-rat"))
    push(window.undo_stack, window.document, RemoveCreature(rat, encounter.creatures.index(rat)))
    click(qtbot, area.apply_button)
    assert hp(window) == {"c-cleric": 7, "c-sal": 30}, area.outcome_label.text()
    assert "Rat: no longer on the map, left out" in area.outcome_label.text()
    window.files.adopt(Encounter(), {}, None)  # File > New: none of them is left
    click(qtbot, area.apply_button)
    assert "Select the creatures caught" in area.outcome_label.text()


def test_the_dc_and_the_rolled_total_have_finger_sized_buttons(
    qtbot: QtBot, tmp_path: Path
) -> None:
    """A touch screen on the table: the DC (shared with the Saving throw dialog) and the
    typed total step with 44 px - and + buttons; - on "app rolls" can't go lower."""
    window = make_window(qtbot, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    area = open_area(window, ["c-cleric"])
    for box in (area.dc, area.typed):
        assert box.plus.width() >= TOUCH_PX and box.height() >= TOUCH_PX
    qtbot.mouseClick(area.dc.plus, Qt.MouseButton.LeftButton)
    assert area.dc.value() == 16
    assert not area.typed.minus.isEnabled()  # "app rolls" is the least
    qtbot.mouseClick(area.typed.plus, Qt.MouseButton.LeftButton)
    assert area.typed.value() == 0


def test_a_name_with_markup_shows_as_text_in_the_outcome(qtbot: QtBot, tmp_path: Path) -> None:
    """Creature names are typed by the DM or read from a file: "<3" is text, not markup."""
    window = make_window(qtbot, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    rat = window.document.encounter.creature(EntityId("c-rat"))
    renamed = rat.model_copy(update={"name": "Rat <i>3</i>"})
    push(window.undo_stack, window.document, UpdateCreature(rat, renamed))
    area = open_area(window, ["c-rat"])
    area.dice.setText("2d6")
    area.typed.setValue(5)
    click(qtbot, area.apply_button)
    assert "<b>Rat &lt;i&gt;3&lt;/i&gt;</b>: 5 damage" in area.outcome_label.text()
