"""The combat docks one by one (srd-5e): creature panel, initiative editing, log, layout."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QAbstractButton, QMenu
from pytestqt.qtbot import QtBot

from battlemap.model import Creature, Document, Encounter, Grid, Side
from battlemap.model.combat import Expiry, Readied
from battlemap.model.document import AddCreature, ReplaceEncounterField
from battlemap.model.ids import EntityId
from battlemap.model.statblock import StatBlock
from battlemap.rules.enums import BrinkOption
from battlemap.ui.combat.widgets import rows
from battlemap.ui.main_window import MainWindow
from battlemap.ui.undo import push

SALAMANDER = StatBlock(name="Salamander", damage_resistances=("fire",), hit_points=30)


def make_window(qtbot: QtBot, settings: QSettings) -> MainWindow:
    creatures = (
        Creature(id="c-cleric", name="Cleric", side=Side.PARTY, x=1, y=1, hp=12, max_hp=12),
        Creature(id="c-sal", name="Salamander 1", side=Side.HOSTILE, x=4, y=1, hp=30, max_hp=30),
        Creature(id="c-rat", name="Rat", side=Side.HOSTILE, x=6, y=6, hp=2, max_hp=2),
    )
    encounter = Encounter(grid=Grid(width=10, height=8), creatures=creatures)
    window = MainWindow(Document(encounter), settings=settings)
    window.library_dock.monsters["Salamander"] = SALAMANDER
    qtbot.addWidget(window)
    window.resize(1400, 900)
    window.show()
    qtbot.waitExposed(window)
    window.combat.session.seed_source = lambda: 11
    return window


@pytest.fixture
def settings(tmp_path: Path) -> QSettings:
    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


@pytest.fixture
def window(qtbot: QtBot, settings: QSettings) -> MainWindow:
    return make_window(qtbot, settings)


def click(qtbot: QtBot, button: QAbstractButton) -> None:
    assert button.isVisible() and button.isEnabled(), button.text()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def select(window: MainWindow, creature_id: str) -> None:
    window.scene.clearSelection()
    window.scene.tokens[EntityId(creature_id)].setSelected(True)


def start(window: MainWindow, qtbot: QtBot) -> None:
    initiative = window.combat.initiative
    click(qtbot, initiative.start_button)
    click(qtbot, initiative.roll_all)
    click(qtbot, initiative.begin_button)


def test_panel_damage_uses_the_stat_block_resistance_outside_combat(
    qtbot: QtBot, window: MainWindow
) -> None:
    panel = window.combat.panel
    original = window.document.encounter
    select(window, "c-sal")
    assert panel.isEnabled() and not panel.duration.isEnabled()  # no combat: never expire
    panel.amount.setValue(15)
    panel.damage_type.setCurrentIndex(panel.damage_type.findData("fire"))
    click(qtbot, panel.damage_button)
    assert window.document.encounter.creature(EntityId("c-sal")).hp == 23  # 15 fire halved -> 7
    panel.amount.setValue(4)
    click(qtbot, panel.temp_button)
    panel.amount.setValue(100)
    click(qtbot, panel.heal_button)
    salamander = window.document.encounter.creature(EntityId("c-sal"))
    assert (salamander.hp, salamander.temp_hp) == (30, 4)  # healing capped at the maximum
    assert "30 / 30 HP" in panel.state_label.text() and "+4 temporary" in panel.state_label.text()
    for _ in range(3):
        window.undo_stack.undo()
    assert window.document.encounter == original


def test_panel_conditions_with_duration_and_exhaustion(qtbot: QtBot, window: MainWindow) -> None:
    start(window, qtbot)
    panel = window.combat.panel
    select(window, "c-rat")
    panel.duration.setCurrentIndex(panel.duration.findText("Until the end of its turn"))
    panel.toggle_condition("prone", True)
    assert window.document.encounter.combat is not None
    rat = window.document.encounter.combat.combatant(EntityId("c-rat"))
    (prone,) = rat.conditions
    assert (prone.name, prone.expiry, prone.expiry_creature) == (
        "prone",
        Expiry.END_OF_TURN,
        "c-rat",
    )
    assert panel.conditions_label.text() == "prone (until the end of Rat's turn)"
    panel.exhaustion.setValue(2)
    assert window.document.encounter.combat is not None
    assert window.document.encounter.combat.combatant(EntityId("c-rat")).exhaustion == 2
    panel.toggle_condition("prone", False)
    assert window.document.encounter.combat is not None
    assert window.document.encounter.combat.combatant(EntityId("c-rat")).conditions == ()


def test_initiative_reorder_add_remove_and_previous_turn(qtbot: QtBot, window: MainWindow) -> None:
    initiative = window.combat.initiative
    select(window, "c-cleric")
    window.scene.tokens[EntityId("c-sal")].setSelected(True)
    click(qtbot, initiative.start_button)  # two selected tokens: only they fight
    assert window.document.encounter.combat is not None
    assert {c.creature_id for c in window.document.encounter.combat.combatants} == {
        "c-cleric",
        "c-sal",
    }
    click(qtbot, initiative.roll_all)
    click(qtbot, initiative.begin_button)
    assert window.document.encounter.combat is not None
    first = window.document.encounter.combat.order[0].creature_id
    other = "c-sal" if first == "c-cleric" else "c-cleric"
    initiative.tree.reordered.emit([other, first])  # what a drag of a row sends
    assert window.document.encounter.combat is not None
    assert [s.creature_id for s in window.document.encounter.combat.order] == [other, first]

    select(window, "c-rat")
    click(qtbot, initiative.add_button)
    assert window.document.encounter.combat is not None
    assert window.document.encounter.combat.has(EntityId("c-rat"))
    assert initiative.tree.topLevelItemCount() == 3

    before = window.document.encounter
    click(qtbot, initiative.next_button)
    click(qtbot, initiative.previous_button)
    assert window.document.encounter == before
    click(qtbot, initiative.next_button)
    select(window, "c-rat")
    rat_row = next(
        row
        for i in range(3)
        if (row := initiative.tree.topLevelItem(i)) is not None
        and row.data(0, Qt.ItemDataRole.UserRole) == "c-rat"
    )
    initiative.tree.setCurrentItem(rat_row)
    click(qtbot, initiative.remove_button)
    assert window.document.encounter.combat is not None
    assert not window.document.encounter.combat.has(EntityId("c-rat"))
    click(qtbot, initiative.previous_button)  # the last step was not a turn change
    assert "Previous turn undoes the last turn change" in window.statusBar().currentMessage()
    click(qtbot, initiative.end_button)
    assert window.document.encounter.combat is None
    assert initiative.heading.text() == "No combat"


def test_log_filters_and_copies(qtbot: QtBot, window: MainWindow) -> None:
    start(window, qtbot)
    log = window.combat.log
    every = log.visible_lines(selected_only=False)
    assert any("round 1 begins" in line for line in every)
    log.filter.setText("initiative:")
    shown = log.visible_lines(selected_only=False)
    assert len(shown) == 3 and all("initiative:" in line for line in shown)
    log.filter.clear()
    log.kind.setCurrentText("round")
    assert log.visible_lines(selected_only=False) == ["round 1\tround\tround 1 begins"]
    click(qtbot, log.copy_all)
    assert QGuiApplication.clipboard().text() == "round 1\tround\tround 1 begins"
    window.undo_stack.undo()  # un-begin: the round line goes
    assert log.visible_lines(selected_only=False) == []


def turn_before(window: MainWindow, creature_id: str) -> None:
    """Pass turns until the creature right before ``creature_id`` in the order acts."""
    session = window.combat.session
    while True:
        state = session.state
        assert state is not None
        upcoming = state.order[(state.turn_index + 1) % len(state.order)].creature_id
        if upcoming == creature_id:
            return
        window.combat.initiative.next_turn()


def test_death_save_typed_before_the_dying_creature_s_turn(
    qtbot: QtBot, window: MainWindow
) -> None:
    start(window, qtbot)
    session = window.combat.session
    panel = window.combat.panel
    select(window, "c-cleric")
    panel.amount.setValue(12)
    click(qtbot, panel.damage_button)
    assert session.encounter.creature(EntityId("c-cleric")).hp == 0
    turn_before(window, "c-cleric")
    card = window.combat.card
    assert card.isVisible() and card.death_d20.isVisible()
    assert card.death_label.text() == "Cleric is dying: death save as its turn starts"
    card.death_d20.spins[0].setValue(20)
    before = session.encounter
    click(qtbot, window.combat.actions.end_button)
    assert session.state is not None
    assert session.state.current is not None
    assert session.state.current.creature_id == "c-cleric"
    assert session.encounter.creature(EntityId("c-cleric")).hp == 1  # a natural 20: 1 hit point
    assert not card.death_d20.isVisible()
    window.undo_stack.undo()  # the turn change and the save are one step
    assert session.encounter == before


def test_layout_is_remembered(qtbot: QtBot, settings: QSettings) -> None:
    window = make_window(qtbot, settings)
    names = {d.objectName() for d in (window.combat.initiative, window.combat.actions)}
    assert names == {"initiative-dock", "actions-dock"}
    window.combat.log.hide()
    window.close()
    again = make_window(qtbot, settings)
    assert again.combat.log.isHidden()
    assert again.combat.initiative.isVisible()


def test_token_menu_offers_attack_damage_and_conditions(qtbot: QtBot, window: MainWindow) -> None:
    start(window, qtbot)
    assert window.combat.session.state is not None
    assert window.combat.session.state.current is not None
    while window.combat.session.state.current.creature_id == "c-rat":
        window.combat.initiative.next_turn()
    assert window.combat.session.state is not None
    assert window.combat.session.state.current is not None
    attacker = window.combat.session.state.current.creature_id
    menu = QMenu()
    for build in window.scene.token_menu_builders:
        build(menu, EntityId("c-rat"))
    texts = [a.text() for a in menu.actions()]
    assert "Damage or heal Rat…" in texts
    attack = f"{window.combat.session.name(attacker)} attacks Rat…"
    next(a for a in menu.actions() if a.text() == attack).trigger()
    dialog = window.combat.attack_dialog
    assert dialog.isVisible() and dialog.attacker_id() == attacker
    assert dialog.target_id() == "c-rat"
    conditions = next(a.menu() for a in menu.actions() if a.text() == "Conditions")
    assert isinstance(conditions, QMenu)
    prone = next(a for a in conditions.actions() if a.text() == "prone")
    prone.trigger()
    assert window.document.encounter.combat is not None
    assert window.document.encounter.combat.combatant(EntityId("c-rat")).has_condition("prone")
    next(a for a in menu.actions() if a.text() == "Damage or heal Rat…").trigger()
    assert window.combat.panel.creature_id == "c-rat"


def test_panel_uses_the_creature_own_stat_block(qtbot: QtBot, window: MainWindow) -> None:
    imp = Creature(
        id="c-imp",
        name="Imp",
        x=8,
        y=6,
        hp=10,
        max_hp=10,
        statblock=StatBlock(name="Imp", damage_immunities=("fire",)),
    )
    push(window.undo_stack, window.document, AddCreature(imp))
    select(window, "c-imp")
    panel = window.combat.panel
    panel.amount.setValue(9)
    panel.damage_type.setCurrentIndex(panel.damage_type.findData("fire"))
    click(qtbot, panel.damage_button)
    assert window.document.encounter.creature(EntityId("c-imp")).hp == 10  # immune
    panel.damage_type.setCurrentIndex(panel.damage_type.findData("cold"))
    click(qtbot, panel.damage_button)
    assert window.document.encounter.creature(EntityId("c-imp")).hp == 1


def test_surprise_marked_by_hand_and_rolled(qtbot: QtBot, window: MainWindow) -> None:
    initiative = window.combat.initiative
    click(qtbot, initiative.start_button)
    row = next(
        r for r in rows(initiative.tree) if r.data(0, Qt.ItemDataRole.UserRole) == "c-cleric"
    )
    initiative.tree.setCurrentItem(row)
    qtbot.mouseClick(initiative.surprised, Qt.MouseButton.LeftButton)
    assert window.document.encounter.combat is not None
    assert window.document.encounter.combat.combatant(EntityId("c-cleric")).surprised
    cleric_row = next(
        r for r in rows(initiative.tree) if r.data(0, Qt.ItemDataRole.UserRole) == "c-cleric"
    )
    assert cleric_row.text(3) == "surprised"
    select(window, "c-rat")
    window.scene.tokens[EntityId("c-sal")].setSelected(True)
    click(qtbot, initiative.sneak_button)
    log = "\n".join(window.combat.log.visible_lines(selected_only=False))
    assert "Rat Stealth: 1d20" in log and "Salamander 1 Stealth: 1d20" in log
    click(qtbot, initiative.roll_all)
    click(qtbot, initiative.begin_button)
    assert not initiative.surprised.isVisible()  # surprise is set before round 1


def to_the_brink(qtbot: QtBot, window: MainWindow) -> None:
    """bloodied-brink: the Cleric drops to 0 and fails two death saves (typed 5s)."""
    push(
        window.undo_stack,
        window.document,
        ReplaceEncounterField("ruleset", "srd-5e", "bloodied-brink"),
    )
    start(window, qtbot)
    session = window.combat.session
    select(window, "c-cleric")
    window.combat.panel.amount.setValue(12)
    click(qtbot, window.combat.panel.damage_button)
    assert session.encounter.creature(EntityId("c-cleric")).hp == 0
    for _ in range(2):  # two turns of the cleric, each starting with a failed save (a typed 5)
        turn_before(window, "c-cleric")
        window.combat.card.death_d20.spins[0].setValue(5)
        window.combat.initiative.next_turn()
    assert session.state is not None
    assert session.state.combatant(EntityId("c-cleric")).death.brink


def test_bloodied_brink_two_failed_saves_then_the_sentence(
    qtbot: QtBot, window: MainWindow
) -> None:
    to_the_brink(qtbot, window)
    session = window.combat.session
    brink = window.combat.card.brink
    assert brink.isVisible()
    window.combat.initiative.next_turn()  # the Brink pauses initiative until the choice
    assert session.state is not None
    assert session.state.current is not None
    assert session.state.current.creature_id == "c-cleric"
    assert window.statusBar().currentMessage() == (
        "Not allowed: initiative is paused: Cleric must choose on the Brink"
    )
    brink.d20.setValue(15)
    brink.wis_bonus.setValue(1)
    click(qtbot, brink.buttons[BrinkOption.SENTENCE])
    assert session.state is not None
    death = session.state.combatant(EntityId("c-cleric")).death
    assert death.stable and not death.brink and not death.dead
    assert session.encounter.creature(EntityId("c-cleric")).temp_hp == 6  # half the maximum of 12
    assert not brink.isVisible()


def test_area_damage_one_roll_half_on_a_save_with_resistance(
    qtbot: QtBot, window: MainWindow
) -> None:
    start(window, qtbot)
    select(window, "c-sal")
    window.scene.tokens[EntityId("c-rat")].setSelected(True)
    window.scene.tokens[EntityId("c-cleric")].setSelected(True)
    qtbot.keyClick(
        window.view,
        Qt.Key.Key_A,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    area = window.combat.area_dialog
    assert area.isVisible() and area.targets.count() == 3
    for index in range(area.targets.count()):
        row = area.targets.item(index)
        if row.data(Qt.ItemDataRole.UserRole) == "c-cleric":
            row.setCheckState(Qt.CheckState.Checked)  # the cleric saved
    area.dice.setText("8d6")
    area.damage_type.setCurrentIndex(area.damage_type.findData("fire"))
    area.typed.setValue(20)
    before = window.document.encounter
    click(qtbot, area.apply_button)
    encounter = window.document.encounter
    assert encounter.creature(EntityId("c-sal")).hp == 20  # 20 fire, resisted -> 10
    assert encounter.creature(EntityId("c-cleric")).hp == 2  # saved: half -> 10
    assert encounter.combat is not None
    assert (
        encounter.creature(EntityId("c-rat")).hp == 0
        and encounter.combat.combatant(EntityId("c-rat")).death.dead
    )
    assert "<b>Rat</b>: 20 damage, HP 2 → 0 — dead" in area.outcome_label.text()
    window.undo_stack.undo()  # all three in one step
    assert window.document.encounter == before


def test_readied_action_released_from_the_token_menu(qtbot: QtBot, window: MainWindow) -> None:
    start(window, qtbot)
    session = window.combat.session
    assert session.state is not None
    assert session.state.current is not None
    current = session.state.current.creature_id
    actions = window.combat.actions
    assert not actions.ready_row.isVisible()
    actions.more_entries["ready"].trigger()  # More > Ready…: the trigger row shows
    assert actions.ready_row.isVisible() and actions.trigger.hasFocus()
    click(qtbot, actions.ready_button)  # refused: no trigger typed yet
    assert session.state is not None
    assert session.state.combatant(current).readied is None
    assert (
        window.statusBar().currentMessage() == "Not allowed: Ready: type the trigger first (when…)"
    )
    actions.trigger.setText("the door opens")
    actions.readied.setCurrentIndex(actions.readied.findText("Dash"))
    qtbot.keyClick(actions.trigger, Qt.Key.Key_Return)  # Enter in the trigger takes it
    assert session.state is not None
    assert session.state.combatant(current).readied == Readied(
        trigger="the door opens", action="dash"
    )
    window.combat.initiative.next_turn()
    menu = QMenu()
    for build in window.scene.token_menu_builders:
        build(menu, current)
    release = next(a for a in menu.actions() if a.text().startswith("Release the readied"))
    assert release.text() == "Release the readied action (the door opens)"
    assert release.isEnabled()  # legal_actions: the reaction is there
    release.trigger()
    assert session.state is not None
    combatant = session.state.combatant(current)
    assert combatant.readied is None and combatant.reaction_used
    select(window, current)
    assert window.combat.panel.economy.text() == "used action, reaction; movement 30 / 30 ft left"


def test_unknown_ruleset_is_reported_once_and_nothing_starts(
    qtbot: QtBot, window: MainWindow
) -> None:
    push(window.undo_stack, window.document, ReplaceEncounterField("ruleset", "srd-5e", "nope"))
    messages: list[str] = []
    window.combat.session.refused.connect(messages.append)
    window.combat.initiative.start()
    window.combat.initiative.start()
    assert window.document.encounter.combat is None
    assert len(messages) == 1 and messages[0].startswith("Ruleset 'nope' can't be used")


def test_single_key_shortcuts_do_not_fire_while_typing(qtbot: QtBot, window: MainWindow) -> None:
    start(window, qtbot)
    before = window.document.encounter.combat
    window.combat.log.filter.setFocus()
    qtbot.keyClicks(window.combat.log.filter, "Nan")
    assert window.combat.log.filter.text() == "Nan"
    assert window.document.encounter.combat == before  # no turn passed, no dialog opened
    assert not window.combat.attack_dialog.isVisible()
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key.Key_N)
    assert window.document.encounter.combat is not None
    assert before is not None
    assert window.document.encounter.combat.turn_index == (before.turn_index + 1) % 3


def test_last_breath_is_a_final_turn(qtbot: QtBot, window: MainWindow) -> None:
    to_the_brink(qtbot, window)
    session, card = window.combat.session, window.combat.card
    click(qtbot, card.brink.buttons[BrinkOption.LAST_BREATH])
    assert card.last_breath_label.isVisible()
    assert card.last_breath_label.text() == (
        "Cleric takes its Last Breath: it dies when this turn ends"
    )
    assert session.state is not None
    assert not session.state.combatant(EntityId("c-cleric")).death.dead
    window.combat.initiative.next_turn()
    assert session.state is not None
    assert session.state.combatant(EntityId("c-cleric")).death.dead
