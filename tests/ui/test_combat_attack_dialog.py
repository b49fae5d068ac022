"""Attack and contest dialogs, declarations per ruleset, and group initiative (Hyrule)."""

from __future__ import annotations

import html
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from battlemap.model import Creature, Encounter, Grid, Side
from battlemap.model.document import UpdateCreature
from battlemap.model.ids import EntityId
from battlemap.model.statblock import Attack, AttackKind, Damage, StatBlock
from battlemap.ui.combat.attack_dialog import AttackDialog
from battlemap.ui.combat.widgets import rows
from battlemap.ui.main_window import MainWindow
from battlemap.ui.undo import push
from tests.ui.fight_window import begin_fight, shown_window
from tests.ui.tool_input import click as click_map

KNIGHT = StatBlock(
    name="Knight",
    attacks=(
        Attack(
            name="Greatsword",
            kind=AttackKind.MELEE,
            to_hit=5,
            reach=5,
            damage=(Damage(dice="2d6+3", type="slashing"),),
        ),
    ),
)
GARGOYLE = StatBlock(name="Gargoyle", damage_resistances=("slashing", "piercing"))


def window_for(qtbot: QtBot, tmp_path: Path, ruleset: str) -> MainWindow:
    creatures = (
        Creature(id="c-knight", name="Knight", side=Side.PARTY, x=2, y=2, hp=30, max_hp=30),
        Creature(id="c-garg", name="Gargoyle 2", side=Side.HOSTILE, x=3, y=2, hp=20, max_hp=20),
        Creature(id="c-bat", name="Bat", side=Side.HOSTILE, x=2, y=3, hp=1, max_hp=1, ac=12),
    )
    encounter = Encounter(
        grid=Grid(width=10, height=8), creatures=creatures, party=(KNIGHT,), ruleset=ruleset
    )
    window = shown_window(qtbot, tmp_path, encounter, size=(1400, 900))
    window.library_dock.monsters["Gargoyle"] = GARGOYLE
    begin_fight(window, "c-knight")
    return window


def test_pick_target_on_map_fills_its_stat_block_defenses(qtbot: QtBot, tmp_path: Path) -> None:
    window = window_for(qtbot, tmp_path, "srd-5e")
    dialog = window.combat.attack_dialog
    window.combat.open_attack()
    window.view.resetTransform()
    window.view.centerOn(window.map_rect().center())
    qtbot.mouseClick(dialog.pick, Qt.MouseButton.LeftButton)
    click_map(window.view, 3.5, 2.5)  # the Gargoyle's token
    assert dialog.target_id() == "c-garg"
    assert not dialog.pick.isChecked()
    assert dialog.resist.text() == "slashing, piercing"  # "Gargoyle 2" -> the library's Gargoyle
    click_map(window.view, 2.5, 3.5)  # not picking any more: the target stays
    assert dialog.target_id() == "c-garg"
    dialog.d20[0].setValue(20)
    qtbot.mouseClick(dialog.roll_button, Qt.MouseButton.LeftButton)
    assert "CRITICAL HIT" in dialog.outcome_label.text()
    dialog.damage_spins[0].setValue(21)  # 4d6+3 rolled at the table
    qtbot.mouseClick(dialog.apply_button, Qt.MouseButton.LeftButton)
    assert window.document.encounter.creature(EntityId("c-garg")).hp == 10  # 21 halved -> 10 damage


def test_gms_den_called_shot_adds_disadvantage_and_ac(qtbot: QtBot, tmp_path: Path) -> None:
    window = window_for(qtbot, tmp_path, "gms-den")
    dialog = window.combat.attack_dialog
    window.combat.open_attack()
    dialog.target.setCurrentIndex(dialog.target.findData("c-bat"))
    assert "Target AC 12" in dialog.situation.text()
    dialog.declarations.called_shot.setText("wing")
    dialog.declarations.changed.emit()
    text = dialog.situation.text()
    assert "disadvantage: called shot (wing)" in text
    assert "Target AC 14" in text and "called shot +2" in text
    assert dialog.d20[1].isVisible()  # two dice to type at disadvantage


def test_gms_den_grapple_through_the_actions_dock_with_typed_dice(
    qtbot: QtBot, tmp_path: Path
) -> None:
    window = window_for(qtbot, tmp_path, "gms-den")
    ui = window.combat
    grapple = ui.actions.more_entries["grapple"]  # a More entry (Shift+M)
    assert grapple.isEnabled()
    grapple.trigger()
    dialog = ui.contest_dialog
    assert dialog.isVisible() and dialog.windowTitle() == "Grapple"
    dialog.target.setCurrentIndex(dialog.target.findData("c-bat"))
    dialog.bonus.setValue(5)
    dialog.d20.setValue(14)
    dialog.defender_d20.setValue(3)
    before = window.document.encounter
    qtbot.mouseClick(dialog.resolve_button, Qt.MouseButton.LeftButton)
    assert "SUCCESS" in dialog.outcome_label.text() and "19 vs 3" in dialog.outcome_label.text()
    assert window.document.encounter.combat is not None
    bat = window.document.encounter.combat.combatant(EntityId("c-bat"))
    assert [(c.name, c.source_id) for c in bat.conditions] == [("grappled", "c-knight")]
    window.undo_stack.undo()  # the contest is one step
    assert window.document.encounter == before


def test_stabilize_a_dying_ally_with_a_typed_check(qtbot: QtBot, tmp_path: Path) -> None:
    window = window_for(qtbot, tmp_path, "srd-5e")
    ui = window.combat
    session = ui.session
    stabilize = ui.actions.more_entries["stabilize"]
    assert not stabilize.isEnabled()
    assert stabilize.toolTip() == "Not available: no creature in the combat is dying"
    bat = session.encounter.creature(EntityId("c-bat"))
    push(
        window.undo_stack,
        window.document,
        UpdateCreature(bat, bat.model_copy(update={"side": Side.PARTY})),
    )
    window.scene.clearSelection()
    window.scene.tokens[EntityId("c-bat")].setSelected(True)
    ui.panel.amount.setValue(1)
    qtbot.mouseClick(ui.panel.damage_button, Qt.MouseButton.LeftButton)
    assert session.state is not None
    death = session.state.combatant(EntityId("c-bat")).death
    assert (
        session.encounter.creature(EntityId("c-bat")).hp == 0
        and not death.dead
        and not death.stable
    )
    assert "dying" in ui.panel.state_label.text()
    stabilize.trigger()
    dialog = ui.contest_dialog
    assert dialog.isVisible() and dialog.target.currentData() == "c-bat"
    dialog.d20.setValue(12)
    qtbot.mouseClick(dialog.resolve_button, Qt.MouseButton.LeftButton)
    assert "STABLE" in dialog.outcome_label.text() and "12 vs DC 10" in dialog.outcome_label.text()
    assert session.state is not None
    assert session.state.combatant(EntityId("c-bat")).death.stable
    assert not ui.actions.buttons["dodge"].isEnabled()  # Stabilize took the knight's action


def test_opportunity_attack_spends_the_reaction_of_the_attacker(
    qtbot: QtBot, tmp_path: Path
) -> None:
    window = window_for(qtbot, tmp_path, "srd-5e")
    ui = window.combat
    dialog = ui.attack_dialog
    dialog.open_for("opportunity-attack", target=EntityId("c-knight"), attacker=EntityId("c-garg"))
    assert dialog.attacker_id() == "c-garg" and dialog.target_id() == "c-knight"
    assert dialog.attack.currentText() == "Custom to-hit and damage…"  # no Gargoyle attacks
    dialog.d20[0].setValue(1)
    qtbot.mouseClick(dialog.roll_button, Qt.MouseButton.LeftButton)
    assert "MISS" in dialog.outcome_label.text()
    assert window.document.encounter.combat is not None
    gargoyle = window.document.encounter.combat.combatant(EntityId("c-garg"))
    assert gargoyle.reaction_used
    assert not dialog.roll_button.isEnabled()  # a second one is refused, with the reason
    assert dialog.roll_button.toolTip() == "Gargoyle 2 has already used its reaction this round"


def test_ranged_attack_next_to_a_foe_shows_the_geometry_reason(
    qtbot: QtBot, tmp_path: Path
) -> None:
    window = window_for(qtbot, tmp_path, "srd-5e")
    dialog = window.combat.attack_dialog
    window.combat.open_attack()
    dialog.attack.setCurrentIndex(dialog.attack.findData("__custom__"))
    dialog.custom_ranged.setChecked(True)
    dialog.target.setCurrentIndex(dialog.target.findData("c-bat"))
    text = dialog.situation.text()
    reason = next(line for line in text.split("<br>") if "hostile within 5 ft:" in line)
    assert "Gargoyle 2" in reason and "Bat" in reason
    assert "− disadvantage: ranged attack with a hostile creature within 5 ft" in text
    assert dialog.d20[1].isVisible()


def test_hyrule_off_hand_dice_are_added_to_a_light_weapon_hit(qtbot: QtBot, tmp_path: Path) -> None:
    window = window_for(qtbot, tmp_path, "legends-of-hyrule")
    dialog = window.combat.attack_dialog
    window.combat.open_attack()
    dialog.target.setCurrentIndex(dialog.target.findData("c-bat"))
    declarations = dialog.declarations
    assert declarations.offhand_dice.isVisibleTo(dialog) and declarations.light.isVisibleTo(dialog)
    assert not declarations.fumble.isVisibleTo(dialog)  # no fumble table in this ruleset
    declarations.light.setChecked(True)
    declarations.offhand_dice.setText("1d4 piercing")
    declarations.changed.emit()  # what finishing the edit sends
    dialog.d20[0].setValue(15)
    qtbot.mouseClick(dialog.roll_button, Qt.MouseButton.LeftButton)
    parts = [(p.dice, p.type) for p in dialog.damage_parts]
    assert parts == [("2d6+3", "slashing"), ("1d4", "piercing")]
    dialog.damage_spins[0].setValue(9)
    dialog.damage_spins[1].setValue(3)
    qtbot.mouseClick(dialog.apply_button, Qt.MouseButton.LeftButton)
    assert "HP 1 → 0" in dialog.outcome_label.text()
    log = "\n".join(window.combat.log.visible_lines(selected_only=False))
    assert "Bat: piercing 3" in log and "Bat: slashing 9" in log


def test_hyrule_group_member_acts_now(qtbot: QtBot, tmp_path: Path) -> None:
    window = window_for(qtbot, tmp_path, "legends-of-hyrule")
    ui = window.combat
    initiative, session = ui.initiative, ui.session
    assert initiative.go_now_button.isVisible()

    def select_row(creature_id: str) -> None:
        row = next(
            r for r in rows(initiative.tree) if r.data(0, Qt.ItemDataRole.UserRole) == creature_id
        )
        initiative.tree.setCurrentItem(row)

    assert session.state is not None
    assert session.state.current is not None
    assert session.state.current.creature_id == "c-knight"
    select_row("c-bat")
    qtbot.mouseClick(initiative.go_now_button, Qt.MouseButton.LeftButton)
    assert session.state is not None
    assert session.state.current is not None
    assert session.state.current.creature_id == "c-knight"
    assert window.statusBar().currentMessage() == (
        "Not allowed: only a member of the acting group can go now"
    )
    initiative.next_turn()
    assert session.state is not None
    assert session.state.current is not None
    first = session.state.current.creature_id
    other = "c-bat" if first == "c-garg" else "c-garg"
    select_row(other)
    qtbot.mouseClick(initiative.go_now_button, Qt.MouseButton.LeftButton)
    assert session.state is not None
    assert session.state.current is not None
    assert session.state.current.creature_id == other


def test_stat_block_defense_text_is_read_by_the_engine_with_a_note(
    qtbot: QtBot, tmp_path: Path
) -> None:
    window = window_for(qtbot, tmp_path, "srd-5e")
    window.library_dock.monsters["Gargoyle"] = GARGOYLE.model_copy(
        update={
            "damage_resistances": ("bludgeoning, piercing, and slashing from nonmagical attacks",)
        }
    )
    dialog = window.combat.attack_dialog
    dialog.open_for(target=EntityId("c-garg"))
    assert dialog.resist.text() == "bludgeoning, piercing, slashing"
    assert dialog.defense_notes.isVisibleTo(dialog)
    assert "applied to every bludgeoning, piercing, slashing attack" in dialog.defense_notes.text()


def roll_a_hit_on_the_bat(qtbot: QtBot, window: MainWindow) -> AttackDialog:
    """Open the attack dialog on the bat and roll a 15, which hits."""
    dialog = window.combat.attack_dialog
    dialog.open_for(target=EntityId("c-bat"))
    dialog.d20[0].setValue(15)
    qtbot.mouseClick(dialog.roll_button, Qt.MouseButton.LeftButton)
    assert "HIT" in dialog.outcome_label.text()
    return dialog


def test_srd_knock_out_chosen_after_the_hit(qtbot: QtBot, tmp_path: Path) -> None:
    window = window_for(qtbot, tmp_path, "srd-5e")
    dialog = roll_a_hit_on_the_bat(qtbot, window)
    assert dialog.declarations.knockout.isEnabled()
    dialog.declarations.knockout.setChecked(True)  # decided as the damage is dealt
    assert dialog.damage_box.isEnabled()  # the hit still waits for its damage
    dialog.damage_spins[0].setValue(5)
    qtbot.mouseClick(dialog.apply_button, Qt.MouseButton.LeftButton)
    assert window.document.encounter.combat is not None
    bat = window.document.encounter.combat.combatant(EntityId("c-bat"))
    assert window.document.encounter.creature(EntityId("c-bat")).hp == 0
    assert not bat.death.dead and bat.has_condition("unconscious")


def test_gms_den_knock_out_must_be_declared_before_the_roll(qtbot: QtBot, tmp_path: Path) -> None:
    window = window_for(qtbot, tmp_path, "gms-den")
    dialog = roll_a_hit_on_the_bat(qtbot, window)
    assert not dialog.declarations.knockout.isEnabled()


def test_cast_a_spell_cantrip_or_levelled_from_its_menu(qtbot: QtBot, tmp_path: Path) -> None:
    window = window_for(qtbot, tmp_path, "gms-den")
    ui = window.combat
    cast = ui.actions.buttons["cast-a-spell"]
    entries = {a.text(): a for a in cast.menu().actions()}
    entries["A cantrip"].trigger()
    assert ui.session.state is not None
    taken = ui.session.state.combatant(EntityId("c-knight")).turn.actions_taken
    assert taken == ("cast-a-spell:cantrip",)
    assert not ui.actions.buttons["cast-a-spell"].isEnabled()  # the action is spent


def test_typed_damage_the_dice_cant_show_is_refused_inline_and_the_hit_waits(
    qtbot: QtBot, tmp_path: Path
) -> None:
    window = window_for(qtbot, tmp_path, "srd-5e")
    dialog = window.combat.attack_dialog
    dialog.open_for(target=EntityId("c-garg"))
    dialog.d20[0].setValue(15)
    qtbot.mouseClick(dialog.roll_button, Qt.MouseButton.LeftButton)
    assert "HIT" in dialog.outcome_label.text()
    before, steps = window.document.encounter, window.undo_stack.count()
    dialog.damage_spins[0].setValue(10000)  # the box's label: "2d6+3 slashing"
    qtbot.mouseClick(dialog.apply_button, Qt.MouseButton.LeftButton)
    message = "Greatsword damage (slashing): 10000 can't be rolled on 2d6+3 (only 5 to 15)"
    assert message in dialog.outcome_label.text() and "HIT" in dialog.outcome_label.text()
    assert window.document.encounter == before and window.undo_stack.count() == steps
    assert dialog.isVisible() and dialog.damage_box.isEnabled()  # the hit still waits
    dialog.damage_spins[0].setValue(15)
    qtbot.mouseClick(dialog.apply_button, Qt.MouseButton.LeftButton)
    assert (
        window.document.encounter.creature(EntityId("c-garg")).hp == 13
    )  # 15 halved: resists slashing
    assert window.undo_stack.count() == steps + 1


def test_a_critical_hit_labels_the_doubled_dice_and_checks_typed_totals_on_them(
    qtbot: QtBot, tmp_path: Path
) -> None:
    """srd-5e "Critical Hits": the Greatsword's 2d6+3 is rolled as 4d6+3 (7 to 27)."""
    window = window_for(qtbot, tmp_path, "srd-5e")
    dialog = window.combat.attack_dialog
    dialog.open_for(target=EntityId("c-garg"))
    label = dialog.parts_row.labelForField(dialog.damage_spins[0])
    assert isinstance(label, QLabel)
    assert label.text() == "2d6+3 slashing"
    dialog.d20[0].setValue(20)
    qtbot.mouseClick(dialog.roll_button, Qt.MouseButton.LeftButton)
    assert "CRITICAL HIT" in dialog.outcome_label.text()
    assert label.text() == "4d6+3 slashing"  # the dice to roll at the table
    dialog.damage_spins[0].setValue(28)
    qtbot.mouseClick(dialog.apply_button, Qt.MouseButton.LeftButton)
    assert "28 can't be rolled on 4d6+3" in dialog.outcome_label.text()
    assert "(only 7 to 27)" in dialog.outcome_label.text()
    assert dialog.damage_box.isEnabled()
    dialog.d20[0].setValue(15)  # rolled again: a hit without a critical
    qtbot.mouseClick(dialog.roll_button, Qt.MouseButton.LeftButton)
    assert "HIT" in dialog.outcome_label.text() and "CRITICAL" not in dialog.outcome_label.text()
    assert label.text() == "2d6+3 slashing"


def test_an_attack_dealing_a_type_the_ruleset_lacks_shows_why_and_cannot_roll(
    qtbot: QtBot, tmp_path: Path
) -> None:
    """final-fantasy-d20 replaces the standard damage types (its swords deal "slash"): the
    Knight's slashing Greatsword is refused by the engine's plan, before any die."""
    window = window_for(qtbot, tmp_path, "final-fantasy-d20")
    dialog = window.combat.attack_dialog
    window.combat.open_attack()
    dialog.target.setCurrentIndex(dialog.target.findData("c-bat"))
    text = html.unescape(dialog.situation.text())
    assert "Can't attack:</b> Greatsword damage: 'slashing' is not a damage type" in text
    assert not dialog.roll_button.isEnabled()
    assert "'slashing' is not a damage type" in dialog.roll_button.toolTip()
    draws = window.combat.session.state.dice.draws if window.combat.session.state else -1
    dialog.roll_to_hit()  # even asked directly, nothing is rolled
    assert window.combat.session.state is not None
    assert window.combat.session.state.dice.draws == draws
