"""A scripted two-round combat (srd-5e) driven only through the UI: the combat docks, the
attack dialog, and token drags with real mouse events (an opportunity attack answered with a
typed d20 on the map's prompt)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QAbstractButton, QApplication
from pytestqt.qtbot import QtBot

from battlemap.model import Creature, Document, Encounter, Grid, Side
from battlemap.model.ids import EntityId
from battlemap.model.statblock import Attack, AttackKind, Damage, StatBlock
from battlemap.ui.main_window import MainWindow
from battlemap.ui.style import cell_to_scene
from tests.ui.drag_helpers import move_through, press_at, release_at

FIGHTER = StatBlock(
    name="Fighter",
    type="humanoid",
    armor_class=16,
    hit_points=20,
    attacks=(
        Attack(
            name="Longsword",
            kind=AttackKind.MELEE,
            to_hit=5,
            reach=5,
            damage=(Damage(dice="1d8+3", type="slashing"),),
        ),
    ),
)


@pytest.fixture
def combat_window(qtbot: QtBot, tmp_path: Path) -> MainWindow:
    creatures = (
        Creature(
            id="c-fighter", name="Fighter", side=Side.PARTY, x=2, y=2, hp=20, max_hp=20, ac=16
        ),
        Creature(id="c-zombie", name="Zombie", side=Side.HOSTILE, x=3, y=2, hp=22, max_hp=22, ac=8),
    )
    encounter = Encounter(grid=Grid(width=12, height=10), creatures=creatures, party=(FIGHTER,))
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(Document(encounter), settings=settings)
    qtbot.addWidget(window)
    window.resize(1400, 900)
    window.show()
    qtbot.waitExposed(window)
    window.combat.session.seed_source = lambda: 7
    window.fit_map()
    return window


def drag_token(window: MainWindow, start: tuple[int, int], end: tuple[int, int]) -> None:
    """Drag the token whose top-left is ``start`` so its top-left lands on ``end`` (cells)."""
    a, b = (start[0] + 0.5, start[1] + 0.5), (end[0] + 0.5, end[1] + 0.5)
    press_at(window, a)
    move_through(window, [a, b])
    release_at(window, b)


def click(qtbot: QtBot, button: QAbstractButton) -> None:
    assert button.isVisible() and button.isEnabled(), button.text()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def test_two_rounds_attack_resistance_drop_and_undo(
    qtbot: QtBot, combat_window: MainWindow
) -> None:
    window = combat_window
    ui = window.combat
    initiative, actions, dialog = ui.initiative, ui.actions, ui.attack_dialog
    document = window.document

    # Start, roll for the monsters, type the player's initiative, begin.
    qtbot.mouseClick(initiative.start_button, Qt.MouseButton.LeftButton)
    assert document.encounter.combat is not None
    click(qtbot, initiative.roll_monsters)
    assert initiative.heading.text() == "Setting up: waiting for Fighter"  # the player's roll
    rolled = "\n".join(ui.log.visible_lines(selected_only=False))
    assert "Zombie initiative: 1d20" in rolled and "Fighter initiative" not in rolled
    click(qtbot, initiative.begin_button)  # refused: the Fighter's value is missing
    assert not document.encounter.combat.started
    assert window.statusBar().currentMessage() == "Not allowed: no initiative yet for Fighter"
    fighter_row = next(
        i
        for i in range(initiative.tree.topLevelItemCount())
        if (row := initiative.tree.topLevelItem(i)) is not None
        and row.data(0, Qt.ItemDataRole.UserRole) == "c-fighter"
    )
    fighter_item = initiative.tree.topLevelItem(fighter_row)
    assert fighter_item is not None
    initiative.tree.setCurrentItem(fighter_item)
    initiative.value.setValue(25)
    click(qtbot, initiative.set_button)
    click(qtbot, initiative.begin_button)
    combat = document.encounter.combat
    assert combat.current is not None
    assert combat.round == 1 and combat.current.creature_id == "c-fighter"
    assert initiative.heading.text() == "Round 1 · Fighter's turn"
    first_row = initiative.tree.topLevelItem(0)
    assert first_row is not None and first_row.text(1) == "▶ Fighter"

    # Round 1, Fighter: a Longsword attack with typed-in dice, damage with resistance.
    qtbot.keyClick(window.view, Qt.Key.Key_A)  # the Attack shortcut
    assert dialog.isVisible()
    assert dialog.target_id() == "c-zombie"
    assert dialog.attack.currentText() == "Longsword (+5)"
    assert "Roll: Normal" in dialog.situation.text() and "AC 8" in dialog.situation.text()
    dialog.d20[0].setValue(12)
    click(qtbot, dialog.roll_button)
    assert (
        "HIT" in dialog.outcome_label.text() and "12+5 = <b>17</b>" in dialog.outcome_label.text()
    )
    assert document.encounter.combat == combat  # nothing recorded before the damage
    dialog.resist.setText("slashing")
    dialog.damage_spins[0].setValue(9)
    click(qtbot, dialog.apply_button)
    zombie = document.encounter.creature(EntityId("c-zombie"))
    assert zombie.hp == 18  # 9 slashing halved (rounded down) by resistance
    assert "9 → 4 (resistance" in dialog.outcome_label.text()
    log_text = "\n".join(ui.log.visible_lines(selected_only=False))
    assert "advantage: none; disadvantage: none -> normal roll" in log_text
    assert "Zombie takes 4 damage: HP 22 -> 18" in log_text

    # The action is spent: Dodge is refused and says why.
    dodge = actions.buttons["dodge"]
    assert not dodge.isEnabled()
    assert dodge.toolTip() == "Not available: Fighter has already used its action this turn"

    click(qtbot, actions.end_button)
    assert document.encounter.combat.current is not None
    assert document.encounter.combat.current.creature_id == "c-zombie"
    assert dialog.attacker_id() == "c-zombie"  # the open dialog follows the turn
    assert dialog.target_id() == "c-fighter"  # the nearest foe

    # Round 1, Zombie: walks away from (3, 2) to (5, 2); the Fighter's opportunity attack
    # waits on the map's prompt and is taken with a d20 and damage typed from the table.
    steps, before_opportunity = window.undo_stack.count(), document.encounter
    drag_token(window, (3, 2), (5, 2))
    prompt = window.drag_feedback.prompt
    token = window.scene.tokens[EntityId("c-zombie")]
    qtbot.waitUntil(lambda: token.pos().x() == cell_to_scene(3))  # waits where it provokes
    assert prompt.isVisible() and QApplication.activeModalWidget() is None
    assert prompt.title.text() == (
        "Fighter can make an opportunity attack as Zombie leaves its reach"
    )
    assert "<b>Longsword</b>: +5 to hit · 1d8+3 slashing" in prompt.attack.text()
    assert "vs <b>AC 8</b>" in prompt.attack.text()
    qtbot.keyClick(prompt.take_button, Qt.Key.Key_1)  # typing goes to the d20 box
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_4)
    assert prompt.d20.faces() == (14,)
    assert "HIT</b></span>: 14+5 = 19 vs AC 8 · roll the 1d8+3 slashing" in prompt.verdict.text()
    damage = prompt.damage.spins[0]
    damage.setFocus()
    damage.selectAll()
    qtbot.keyClicks(damage, "8")
    qtbot.keyClick(damage, Qt.Key.Key_Return)
    assert not prompt.isVisible()
    zombie = document.encounter.creature(EntityId("c-zombie"))
    assert (zombie.x, zombie.y, zombie.hp) == (5, 2, 10)
    assert document.encounter.combat.combatant(EntityId("c-fighter")).reaction_used
    assert document.encounter.combat.combatant(EntityId("c-zombie")).turn.movement_used == 10
    assert window.undo_stack.count() == steps + 1  # the move and the attack: one step
    assert "Fighter's opportunity attack hits (14+5 = 19 vs AC 8): 8 damage" in (
        window.statusBar().currentMessage()
    )
    log_text = "\n".join(ui.log.visible_lines(selected_only=False))
    assert "Fighter attacks Zombie with Longsword: 14+5 = 19 vs AC 8: hit" in log_text
    assert "Longsword: advantage: none; disadvantage: none -> normal roll; AC 8" in log_text
    assert "Zombie takes 8 damage: HP 18 -> 10" in log_text

    # Then takes Dodge; every other action is refused with the reason.
    click(qtbot, actions.buttons["dodge"])
    assert document.encounter.combat.combatant(EntityId("c-zombie")).dodging
    dash = actions.buttons["dash"]
    assert not dash.isEnabled()
    assert dash.toolTip() == "Not available: Zombie has already used its action this turn"

    qtbot.keyClick(window.view, Qt.Key.Key_N)  # next turn: round 2
    assert document.encounter.combat.round == 2
    assert initiative.heading.text() == "Round 2 · Fighter's turn"
    before_last_three = document.encounter

    # Round 2, Fighter: steps up to the Zombie (no attack: it walks into reach) ...
    drag_token(window, (2, 2), (4, 2))
    fighter = document.encounter.creature(EntityId("c-fighter"))
    assert (fighter.x, fighter.y) == (4, 2) and not prompt.isVisible()
    # ... the Zombie dodges (disadvantage, two typed d20) and drops to 0.
    window.combat.open_attack()
    assert "disadvantage: target is Dodging" in dialog.situation.text()
    assert dialog.d20[1].isVisible()
    dialog.d20[0].setValue(19)
    dialog.d20[1].setValue(11)
    click(qtbot, dialog.roll_button)
    assert "d20 [19, 11] → 11+5" in dialog.outcome_label.text()
    dialog.damage_spins[0].setValue(10)
    assert dialog.resist.text() == ""  # the target's defenses come from its stat block (none)
    click(qtbot, dialog.apply_button)
    assert document.encounter.creature(EntityId("c-zombie")).hp == 0
    assert document.encounter.combat.combatant(EntityId("c-zombie")).death.dead  # monsters die at 0
    assert "dropped to 0 HP" in dialog.outcome_label.text()
    zombie_row = initiative.tree.topLevelItem(1)
    assert zombie_row is not None
    assert zombie_row.text(3) == "dead"

    click(qtbot, actions.end_button)  # the dead Zombie's turn is skipped: round 3 begins
    assert document.encounter.combat.current is not None
    assert document.encounter.combat.current.creature_id == "c-fighter"
    assert document.encounter.combat.round == 3
    assert any(e.text == "Zombie's turn is skipped: dead" for e in document.encounter.combat.log)

    # Undo the last three steps (end turn, attack, move): exactly the state before them.
    for _ in range(3):
        window.undo_stack.undo()
    assert document.encounter == before_last_three
    assert initiative.heading.text() == "Round 2 · Fighter's turn"
    assert window.scene.tokens[EntityId("c-fighter")].pos().x() == cell_to_scene(2)
    assert document.encounter.creature(EntityId("c-zombie")).hp == 10
    assert actions.buttons["dash"].isEnabled()

    # The players' window shows the round, whose turn it is and the order.
    facts = window.players.combat(document.encounter, None)  # type: ignore[misc]
    assert facts is not None and facts.round == 2 and facts.acting == "c-fighter"
    assert window.players.last_view is not None
    turn = window.players.last_view.turn
    assert turn is not None and turn.round == 2
    assert (turn.acting_label, turn.order) == ("Fighter", ("Fighter", "Zombie"))

    # Three more (next turn, Dodge, the Zombie's move): the move with its opportunity attack
    # was one step; the Zombie is back in reach with its 18 HP and the reaction is unspent.
    for _ in range(3):
        window.undo_stack.undo()
    assert document.encounter == before_opportunity
    assert window.scene.tokens[EntityId("c-zombie")].pos().x() == cell_to_scene(3)
