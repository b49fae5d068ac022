"""The rest dialog (bloodied-brink short and long rests) driven by clicks: typed and app-rolled
totals, the engine's refusals shown inline, interruptions, one undo step for the party."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QAbstractButton, QMenu
from pytestqt.qtbot import QtBot

from battlemap.model import Creature, Encounter, Grid, Side
from battlemap.model.document import RemoveCreature, ReplaceEncounterField, UpdateCreature
from battlemap.model.ids import EntityId
from battlemap.model.statblock import StatBlock
from battlemap.ui.combat.rest_dialog import LEVEL, TOTAL, RestDialog
from battlemap.ui.main_window import MainWindow
from battlemap.ui.undo import push


@pytest.fixture
def encounter() -> Encounter:
    """Two hurt party members and a goblin (the conftest ``window`` uses this encounter)."""
    creatures = (
        Creature(id="c-ana", name="Ana", side=Side.PARTY, x=1, y=1, hp=3, max_hp=40),
        Creature(id="c-bo", name="Bo", side=Side.PARTY, x=3, y=1, hp=10, max_hp=20, temp_hp=4),
        Creature(id="c-gob", name="Goblin", side=Side.HOSTILE, x=6, y=6, hp=2, max_hp=7),
    )
    return Encounter(grid=Grid(width=10, height=8), creatures=creatures, ruleset="bloodied-brink")


def menu_action(window: MainWindow, text: str) -> None:
    """Trigger an entry of the Combat menu by its text."""
    combat = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Combat")
    assert isinstance(combat, QMenu)
    action = next(a for a in combat.actions() if a.text() == text)
    assert action.isEnabled(), text
    action.trigger()


def click(qtbot: QtBot, button: QAbstractButton) -> None:
    assert button.isVisible() and button.isEnabled(), button.text()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def dialog_of(window: MainWindow) -> RestDialog:
    dialog = window.combat.rest_dialog
    assert dialog is not None
    return dialog


def row_of(dialog: RestDialog, creature_id: str) -> int:
    return dialog.creature_ids().index(creature_id)  # type: ignore[arg-type]


def hp(window: MainWindow, creature_id: str) -> int:
    return window.document.encounter.creature(creature_id).hp  # type: ignore[arg-type]


def select(window: MainWindow, *creature_ids: str) -> None:
    window.scene.clearSelection()
    for creature_id in creature_ids:
        window.scene.tokens[EntityId(creature_id)].setSelected(True)


def test_short_rest_with_a_typed_total_heals_8_plus_it(qtbot: QtBot, window: MainWindow) -> None:
    select(window, "c-ana")
    menu_action(window, "Short rest…")
    dialog = dialog_of(window)
    assert dialog.isVisible() and dialog.creature_ids() == ["c-ana"]
    row = row_of(dialog, "c-ana")
    dialog.spin(row, LEVEL).setValue(3)
    assert dialog.table.item(row, 3).text() == "8 + 3d8"  # type: ignore[union-attr]
    dialog.spin(row, TOTAL).setValue(10)
    click(qtbot, dialog.apply_button)
    assert hp(window, "c-ana") == 3 + 8 + 10  # bloodied-brink: 8 HP + level d8
    assert "HP 3 → 21" in dialog.outcome_label.text()
    assert "Short rest: Ana +18 HP" in window.statusBar().currentMessage()


def test_an_impossible_typed_total_shows_the_engine_message_and_changes_nothing(
    qtbot: QtBot, window: MainWindow
) -> None:
    select(window, "c-ana", "c-bo")
    menu_action(window, "Short rest…")
    dialog = dialog_of(window)
    dialog.spin(row_of(dialog, "c-ana"), LEVEL).setValue(3)
    dialog.spin(row_of(dialog, "c-ana"), TOTAL).setValue(7)  # fine
    dialog.spin(row_of(dialog, "c-bo"), TOTAL).setValue(9)  # 1d8 can't show 9
    before, steps = window.document.encounter, window.undo_stack.count()
    click(qtbot, dialog.apply_button)
    text = dialog.outcome_label.text()
    assert "Bo" in text and "9 can't be rolled on 1d8 (only 1 to 8)" in text
    assert "nothing changed" in text
    assert window.document.encounter == before  # Ana's valid rest isn't applied either
    assert window.undo_stack.count() == steps


def test_long_rest_restores_hp_and_ends_temporary_hp(qtbot: QtBot, window: MainWindow) -> None:
    window.scene.clearSelection()  # none selected: the party
    menu_action(window, "Long rest…")
    dialog = dialog_of(window)
    assert dialog.creature_ids() == ["c-ana", "c-bo"]
    assert dialog.hours.value() == 8
    dialog.spin(row_of(dialog, "c-ana"), TOTAL).setValue(12)
    dialog.spin(row_of(dialog, "c-bo"), TOTAL).setValue(1)
    click(qtbot, dialog.apply_button)
    assert hp(window, "c-ana") == 3 + 12 + 12  # 12 HP + 1d12
    assert hp(window, "c-bo") == 20  # 10 + 12 + 1, capped at the maximum
    assert window.document.encounter.creature("c-bo").temp_hp == 0  # type: ignore[arg-type]


def test_a_rest_cut_short_is_refused_with_the_hours_it_takes(
    qtbot: QtBot, window: MainWindow
) -> None:
    select(window, "c-ana")
    menu_action(window, "Long rest…")
    dialog = dialog_of(window)
    dialog.hours.setValue(6)
    dialog.spin(0, TOTAL).setValue(5)
    click(qtbot, dialog.apply_button)
    assert "a long rest takes 8 hours; only 6 rested" in dialog.outcome_label.text()
    assert hp(window, "c-ana") == 3


def test_interrupted_long_rest_after_an_hour_gives_a_short_rests_benefits(
    qtbot: QtBot, window: MainWindow
) -> None:
    select(window, "c-ana")
    menu_action(window, "Long rest…")
    dialog = dialog_of(window)
    assert dialog.interrupted_row.isVisibleTo(dialog)
    dialog.interrupted.setChecked(True)
    dialog.cause.setCurrentText("taking damage")
    dialog.hours.setValue(2)
    dialog.spin(0, LEVEL).setValue(2)
    assert dialog.table.item(0, 3).text() == "8 + 2d8"  # type: ignore[union-attr]
    dialog.spin(0, TOTAL).setValue(16)
    click(qtbot, dialog.apply_button)
    assert hp(window, "c-ana") == 3 + 8 + 16
    assert "a short rest's benefits" in dialog.outcome_label.text()


def test_interrupted_long_rest_within_the_first_hour_gives_nothing(
    qtbot: QtBot, window: MainWindow
) -> None:
    select(window, "c-ana")
    menu_action(window, "Long rest…")
    dialog = dialog_of(window)
    dialog.interrupted.setChecked(True)
    dialog.hours.setValue(0.5)
    assert dialog.table.item(0, 3).text() == "none"  # type: ignore[union-attr]
    assert not dialog.spin(0, TOTAL).isEnabled()
    click(qtbot, dialog.apply_button)
    assert hp(window, "c-ana") == 3
    assert "no benefits" in dialog.outcome_label.text()


def test_a_resumed_long_rest_needs_an_hour_more_per_interruption(
    qtbot: QtBot, window: MainWindow
) -> None:
    select(window, "c-ana")
    menu_action(window, "Long rest…")
    dialog = dialog_of(window)
    dialog.resumed.setValue(2)
    dialog.spin(0, TOTAL).setValue(6)
    click(qtbot, dialog.apply_button)
    assert "takes 10 hours; only 8 rested" in dialog.outcome_label.text()
    dialog.hours.setValue(10)
    click(qtbot, dialog.apply_button)
    assert hp(window, "c-ana") == 3 + 12 + 6


def test_a_resumed_long_rest_interrupted_after_its_eighth_hour(
    qtbot: QtBot, window: MainWindow
) -> None:
    """Resumed after 1 interruption the long rest lasts 9 h: stopped after 8.5 h it still gives
    a short rest's benefits (bloodied-brink), not "longer than the rest lasts"."""
    select(window, "c-ana")
    menu_action(window, "Long rest…")
    dialog = dialog_of(window)
    dialog.resumed.setValue(1)
    dialog.interrupted.setChecked(True)
    dialog.cause.setCurrentText("taking damage")
    dialog.hours.setValue(8.5)
    dialog.spin(0, TOTAL).setValue(5)
    click(qtbot, dialog.apply_button)
    assert hp(window, "c-ana") == 3 + 8 + 5
    assert "a short rest's benefits" in dialog.outcome_label.text()


def test_the_party_rest_is_one_undo_step(qtbot: QtBot, window: MainWindow) -> None:
    window.scene.clearSelection()
    menu_action(window, "Short rest…")
    dialog = dialog_of(window)
    dialog.spin(0, TOTAL).setValue(4)
    dialog.spin(1, TOTAL).setValue(5)
    before, steps = window.document.encounter, window.undo_stack.count()
    click(qtbot, dialog.apply_button)
    assert (hp(window, "c-ana"), hp(window, "c-bo")) == (15, 20)
    assert window.undo_stack.count() == steps + 1
    window.undo_stack.undo()
    assert window.document.encounter == before


def test_app_rolled_totals_outside_combat_are_shown_and_in_range(
    qtbot: QtBot, window: MainWindow
) -> None:
    window.combat.session.seed_source = lambda: 5
    select(window, "c-ana")
    menu_action(window, "Short rest…")
    dialog = dialog_of(window)
    dialog.spin(0, LEVEL).setValue(4)
    click(qtbot, dialog.apply_button)
    assert 3 + 8 + 4 <= hp(window, "c-ana") <= 3 + 8 + 32
    assert "Ana rolled 4d8" in dialog.outcome_label.text()


def test_the_day_limit_counts_the_rests_typed_as_taken(qtbot: QtBot, window: MainWindow) -> None:
    select(window, "c-ana")
    menu_action(window, "Short rest…")
    dialog = dialog_of(window)
    dialog.short_today.setValue(2)
    dialog.spin(0, TOTAL).setValue(3)
    click(qtbot, dialog.apply_button)
    assert "at most 2 short rest(s) a day" in dialog.outcome_label.text()
    assert hp(window, "c-ana") == 3


def test_rests_are_refused_while_a_combat_runs(qtbot: QtBot, window: MainWindow) -> None:
    assert window.combat.session.start()
    menu_action(window, "Short rest…")
    assert not dialog_of(window).isVisible()
    assert "rolling initiative interrupts a short rest" in window.statusBar().currentMessage()
    menu = QMenu()
    for build in window.scene.token_menu_builders:
        build(menu, "c-ana")  # type: ignore[arg-type]
    entry = next(a for a in menu.actions() if a.text() == "Long rest for Ana…")
    assert not entry.isEnabled() and "end the combat first" in entry.toolTip()


def test_token_menu_rests_the_selected_tokens(qtbot: QtBot, window: MainWindow) -> None:
    select(window, "c-ana", "c-bo")
    menu = QMenu()
    for build in window.scene.token_menu_builders:
        build(menu, "c-bo")  # type: ignore[arg-type]
    entry = next(a for a in menu.actions() if a.text() == "Short rest for 2 creatures…")
    entry.trigger()
    assert dialog_of(window).creature_ids() == ["c-ana", "c-bo"]


def test_a_ruleset_without_rests_offers_none(qtbot: QtBot, window: MainWindow) -> None:
    push(
        window.undo_stack,
        window.document,
        ReplaceEncounterField("ruleset", "bloodied-brink", "srd-5e"),
    )
    menu = QMenu()
    for build in window.scene.token_menu_builders:
        build(menu, "c-ana")  # type: ignore[arg-type]
    assert not any("rest" in a.text() for a in menu.actions())
    menu_action(window, "Short rest…")
    assert not dialog_of(window).isVisible()
    assert "has no short rest rules" in window.statusBar().currentMessage()


def test_levels_are_kept_and_a_second_apply_counts_the_first_rest(
    qtbot: QtBot, window: MainWindow
) -> None:
    select(window, "c-ana")
    menu_action(window, "Long rest…")
    dialog = dialog_of(window)
    dialog.spin(0, LEVEL).setValue(5)
    dialog.spin(0, TOTAL).setValue(5)
    click(qtbot, dialog.apply_button)
    assert hp(window, "c-ana") == 3 + 12 + 5
    assert dialog.spin(0, LEVEL).value() == 5  # the row was rebuilt with the new HP
    assert dialog.table.item(0, 1).text() == "20/40"  # type: ignore[union-attr]
    assert dialog.long_today.value() == 1
    click(qtbot, dialog.apply_button)
    assert "at most 1 long rest(s) a day" in dialog.outcome_label.text()
    assert hp(window, "c-ana") == 20


def test_an_unticked_creature_is_listed_but_does_not_rest(qtbot: QtBot, window: MainWindow) -> None:
    window.scene.clearSelection()
    menu_action(window, "Short rest…")
    dialog = dialog_of(window)
    dialog.set_resting("c-bo", False)  # type: ignore[arg-type]
    dialog.spin(row_of(dialog, "c-ana"), TOTAL).setValue(2)
    click(qtbot, dialog.apply_button)
    assert (hp(window, "c-ana"), hp(window, "c-bo")) == (13, 10)
    assert [cid for _row, cid in dialog.resting()] == ["c-ana"]  # still unticked after Apply
    assert dialog.creature_ids() == ["c-ana", "c-bo"]


def test_a_creature_removed_while_the_dialog_is_open_is_refused_not_crashed(
    qtbot: QtBot, window: MainWindow
) -> None:
    select(window, "c-ana")
    menu_action(window, "Short rest…")
    dialog = dialog_of(window)
    ana = window.document.encounter.creature("c-ana")  # type: ignore[arg-type]
    push(window.undo_stack, window.document, RemoveCreature(creature=ana, index=0))
    click(qtbot, dialog.apply_button)
    assert "Ana: no longer on the map" in dialog.outcome_label.text()  # its name, not its id
    assert window.undo_stack.count() == 1  # only the removal: nothing rested


def test_the_hp_column_follows_changes_made_while_the_dialog_is_open(
    qtbot: QtBot, window: MainWindow
) -> None:
    select(window, "c-ana")
    menu_action(window, "Short rest…")
    dialog = dialog_of(window)
    ana = window.document.encounter.creature("c-ana")  # type: ignore[arg-type]
    push(window.undo_stack, window.document, RemoveCreature(creature=ana, index=0))
    assert dialog.table.item(0, 1).text() == "gone"  # type: ignore[union-attr]
    window.undo_stack.undo()
    assert dialog.table.item(0, 1).text() == "3/40"  # type: ignore[union-attr]


def set_level(window: MainWindow, creature_id: str, level: int | None) -> None:
    """What the Creature dock's Level box does: one UpdateCreature."""
    creature = window.document.encounter.creature(creature_id)  # type: ignore[arg-type]
    updated = creature.model_copy(update={"level": level})
    push(window.undo_stack, window.document, UpdateCreature(creature, updated))


def test_the_level_starts_at_the_stored_one(qtbot: QtBot, window: MainWindow) -> None:
    """Ana's own level; Bo's from the party stat block of his name; the Goblin has none: 1."""
    set_level(window, "c-ana", 5)
    bo = StatBlock(name="Bo", type="player character", level=3)
    push(window.undo_stack, window.document, ReplaceEncounterField("party", (), (bo,)))
    select(window, "c-ana", "c-bo", "c-gob")
    menu_action(window, "Short rest…")
    dialog = dialog_of(window)
    levels = {cid: dialog.spin(row_of(dialog, cid), LEVEL).value() for cid in ("c-ana", "c-bo")}
    assert levels == {"c-ana": 5, "c-bo": 3}
    assert dialog.spin(row_of(dialog, "c-gob"), LEVEL).value() == 1
    assert dialog.table.item(row_of(dialog, "c-ana"), 3).text() == "8 + 5d8"  # type: ignore[union-attr]
    dialog.spin(row_of(dialog, "c-ana"), TOTAL).setValue(20)
    click(qtbot, dialog.apply_button)
    assert hp(window, "c-ana") == 3 + 8 + 20  # 5d8 can show 20: the level reached the engine


def test_a_typed_level_wins_until_the_stored_one_changes(qtbot: QtBot, window: MainWindow) -> None:
    set_level(window, "c-ana", 5)
    select(window, "c-ana")
    menu_action(window, "Long rest…")
    dialog = dialog_of(window)
    dialog.spin(0, LEVEL).setValue(7)  # this rest only: the stored level stays 5
    assert window.document.encounter.creature("c-ana").level == 5  # type: ignore[arg-type]
    dialog.close()
    menu_action(window, "Long rest…")
    assert dialog_of(window).spin(0, LEVEL).value() == 7
    dialog_of(window).close()
    set_level(window, "c-ana", 6)  # the DM records the new level: it counts again
    menu_action(window, "Long rest…")
    assert dialog_of(window).spin(0, LEVEL).value() == 6


def combat_menu_rests(window: MainWindow) -> dict[str, QAction]:
    """The Combat menu's rest entries as they are when the menu opens."""
    combat = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Combat")
    assert isinstance(combat, QMenu)
    combat.aboutToShow.emit()
    return {a.text(): a for a in combat.actions() if a.text().endswith("rest…")}


def test_the_combat_menus_rests_are_disabled_with_the_reason_when_refused(
    qtbot: QtBot, window: MainWindow
) -> None:
    """As on a token's menu: enabled outside a combat; disabled with the ruleset's reason
    while a combat runs (rolling initiative interrupts them) or under a ruleset without rests."""
    rests = combat_menu_rests(window)
    assert all(action.isEnabled() for action in rests.values()) and len(rests) == 2
    assert window.combat.session.start()
    short = combat_menu_rests(window)["Short rest…"]
    assert not short.isEnabled() and "end the combat first" in short.toolTip()
    window.combat.session.end()
    push(
        window.undo_stack,
        window.document,
        ReplaceEncounterField("ruleset", "bloodied-brink", "srd-5e"),
    )
    long = combat_menu_rests(window)["Long rest…"]
    assert not long.isEnabled() and "has no long rest rules" in long.toolTip()


def test_a_rulesets_name_with_markup_heads_the_dialog_as_text(
    qtbot: QtBot, window: MainWindow
) -> None:
    """A ruleset from the DM's rulesets folder names itself: "<i>" in it is text."""
    session = window.combat.session
    ruleset = session.ruleset()
    assert ruleset is not None
    renamed = ruleset.model_copy(update={"name": "Brink <i>house</i>"})
    session.ruleset = lambda: renamed  # type: ignore[method-assign]
    menu_action(window, "Short rest…")
    assert (
        "<b>Brink &lt;i&gt;house&lt;/i&gt;</b>, short rest" in dialog_of(window).rules_label.text()
    )
