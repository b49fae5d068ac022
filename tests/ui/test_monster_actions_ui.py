"""Real SRD monsters through the docks and dialogs: the Bandit Captain's Multiattack from the
Attack button's menu, the Adult Red Dragon's Fire Breath from the Actions dock through the
Area template and Area damage, its recharge typed as its turn starts, and its legendary
actions at the end of the hero's turn (and on the Initiative dock)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from battlemap.geometry.templates import TemplateShape
from battlemap.io.monsters import creature_from_statblock, load_library
from battlemap.model import Creature, Encounter, Grid, Side
from battlemap.model.ids import EntityId
from battlemap.resources import asset_path
from battlemap.rules.enums import Ability
from battlemap.ui.combat.area_dialog import SPENDS_NOTHING
from battlemap.ui.combat.widgets import rows
from battlemap.ui.main_window import MainWindow
from battlemap.ui.tools.template import TemplateTool
from tests.ui.fight_window import begin_fight, shown_window
from tests.ui.tool_input import stroke

# The Attack button pops a real menu; the offscreen platform says it cannot raise or grab it.
pytestmark = pytest.mark.qt_log_ignore("This plugin does not support", extend=True)
SRD = {block.name: block for block in load_library(asset_path("srd-monsters.json")).monsters}
HERO = EntityId("c-hero")


def _window(qtbot: QtBot, tmp_path: Path, monster: str, at: tuple[float, float]) -> MainWindow:
    made = creature_from_statblock(SRD[monster], position=at)
    foe = made.model_copy(update={"id": EntityId("c-foe")})
    hero = Creature(id=HERO, name="Hero", side=Side.PARTY, x=8, y=3, hp=150, max_hp=150, ac=12)
    encounter = Encounter(grid=Grid(width=20, height=10), creatures=(foe, hero), ruleset="srd-5e")
    window = shown_window(qtbot, tmp_path, encounter)
    begin_fight(window, "c-foe", seed=3)
    return window


def _attacks_text(window: MainWindow) -> str:
    return window.combat.actions.economy.text().split("Attacks</td>")[1]


def test_bandit_captain_multiattack_through_the_attack_menu(qtbot: QtBot, tmp_path: Path) -> None:
    window = _window(qtbot, tmp_path, "Bandit Captain", (7, 3))
    ui = window.combat
    dock = ui.actions
    qtbot.mouseClick(dock.buttons["attack"], Qt.MouseButton.LeftButton)
    menu = dock.multiattack_menu
    assert menu.isVisible()
    names = [a.text() for a in menu.actions()]
    assert names == [
        "Multiattack: 2 × Scimitar, 1 × Dagger",
        "Multiattack: 2 × Dagger",
        "One attack (Attack action)",
    ]
    menu.close()
    menu.actions()[0].trigger()
    assert "3 attacks left: 2 × Scimitar, 1 × Dagger" in _attacks_text(window)
    dialog = ui.attack_dialog
    assert dialog.isVisible() and dialog.attacker_id() == "c-foe"
    dialog.target.setCurrentIndex(dialog.target.findData(str(HERO)))
    dialog.choose_attack("Scimitar")
    for _ in range(2):
        dialog.d20[0].setValue(2)  # misses
        qtbot.mouseClick(dialog.roll_button, Qt.MouseButton.LeftButton)
    assert "1 attack left: 1 × Dagger" in _attacks_text(window)
    dialog.choose_attack("Scimitar")
    assert not dialog.roll_button.isEnabled()
    assert "allows no Scimitar attack" in dialog.situation.text()
    assert "1 attack left: 1 × Dagger" in dialog.situation.text()
    dialog.choose_attack("Dagger")
    assert dialog.roll_button.isEnabled()
    window.undo_stack.undo()
    window.undo_stack.undo()
    assert "3 attacks left" in _attacks_text(window)
    window.undo_stack.undo()  # the Multiattack itself
    assert "–" in _attacks_text(window)


def test_adult_red_dragon_fire_breath_recharge_and_legendary_actions(
    qtbot: QtBot, tmp_path: Path
) -> None:
    window = _window(qtbot, tmp_path, "Adult Red Dragon", (3, 2))  # Huge: cells 3-5 x 2-4
    ui = window.combat
    box = ui.actions.monster
    breath = box.save_buttons["Fire Breath"]
    assert breath.text() == "Fire Breath · ready" and breath.isEnabled()
    assert "DC 21 Dex save, 60-ft cone, half on a success" in breath.toolTip()
    resist = box.use_buttons["Legendary Resistance"]
    assert resist.text() == "Legendary Resistance · 3/3"
    assert resist.toolTip() == "Spend one use: Legendary Resistance (3/Day): 3 of 3 left"
    qtbot.waitUntil(lambda: resist.height() > 0)  # laid out by the event loop
    qtbot.mouseClick(resist, Qt.MouseButton.LeftButton)  # it fails a save, chooses to succeed
    assert box.use_buttons["Legendary Resistance"].text() == "Legendary Resistance · 2/3"
    window.undo_stack.undo()
    assert box.use_buttons["Legendary Resistance"].text() == "Legendary Resistance · 3/3"
    qtbot.mouseClick(breath, Qt.MouseButton.LeftButton)
    tool = window.tools.tools["template"]
    assert isinstance(tool, TemplateTool) and window.tools.active is tool
    assert (tool.shape, tool.feet[TemplateShape.CONE]) == (TemplateShape.CONE, 60)
    stroke(window.view, [(6, 3.5), (10, 3.5)])  # from the dragon's side toward the hero
    area = ui.area_dialog
    assert area.isVisible()
    assert area.ability.currentData() == Ability.DEX and area.dc.value() == 21
    assert area.dice.text() == "18d6" and area.damage_type.currentData() == "fire"
    assert area.half.isChecked()
    targets = {
        area.targets.item(i).data(Qt.ItemDataRole.UserRole) for i in range(area.targets.count())
    }
    assert targets == {str(HERO)}
    area.targets.item(0).setCheckState(Qt.CheckState.Checked)  # the hero saved
    area.typed.setValue(63)
    assert area.spends.currentData() == SPENDS_NOTHING  # the breath spent its own action
    qtbot.mouseClick(area.apply_button, Qt.MouseButton.LeftButton)
    assert window.document.encounter.creature(HERO).hp == 150 - 31  # half of 63, rounded down
    combat = window.document.encounter.combat
    assert combat is not None and not any("Cast a Spell" in e.text for e in combat.log)
    assert box.save_buttons["Fire Breath"].text() == "Fire Breath · spent"
    assert not box.save_buttons["Fire Breath"].isEnabled()
    assert "already used its action" in box.save_buttons["Fire Breath"].toolTip()

    window.combat.initiative.next_action.trigger()  # the hero's turn
    hero_row, dragon_row = None, None
    for row in rows(ui.initiative.tree):
        if "Adult Red Dragon" in row.text(1):
            dragon_row = row
        else:
            hero_row = row
    assert dragon_row is not None and hero_row is not None
    assert "Legendary 3/3" in dragon_row.text(3)
    tail = box.legendary_buttons[(EntityId("c-foe"), "Tail Attack")]
    assert not tail.isEnabled() and "Hero's turn hasn't ended yet" in tail.toolTip()
    window.combat.initiative.next_action.trigger()  # the end of the hero's turn: it stops
    assert ui.session.state is not None and ui.session.state.turn_ending
    card = ui.card
    assert card.isVisible() and card.legendary.isVisible()
    assert "End of Hero's turn: legendary actions for Adult Red Dragon (3 left)" in (
        card.legendary.label.text()
    )
    tail = box.legendary_buttons[(EntityId("c-foe"), "Tail Attack")]
    assert tail.isEnabled()
    qtbot.mouseClick(tail, Qt.MouseButton.LeftButton)
    dialog = ui.attack_dialog
    assert dialog.isVisible() and dialog.attacker_id() == "c-foe"
    assert dialog.attack.currentText().startswith("Tail")
    dialog.target.setCurrentIndex(dialog.target.findData(str(HERO)))
    dialog.d20[0].setValue(2)
    assert dialog.roll_button.isEnabled(), dialog.situation.text()  # 15 ft: the tail's reach
    qtbot.mouseClick(dialog.roll_button, Qt.MouseButton.LeftButton)  # 2 + 14 = 16: a hit
    assert "HIT" in dialog.outcome_label.text()
    dialog.damage_spins[0].setValue(17)  # 2d8+8 rolled at the table
    qtbot.mouseClick(dialog.apply_button, Qt.MouseButton.LeftButton)
    assert window.document.encounter.creature(HERO).hp == 150 - 31 - 17
    dialog.close()
    wing = box.legendary_buttons[(EntityId("c-foe"), "Wing Attack")]
    assert wing.text() == "Wing Attack (2)"
    qtbot.mouseClick(wing, Qt.MouseButton.LeftButton)
    assert window.tools.active is tool  # within 10 ft of its 15-ft space: a 17-ft circle
    assert (tool.shape, tool.feet[TemplateShape.CIRCLE]) == (TemplateShape.CIRCLE, 17)
    window.scene.tokens[HERO].setSelected(True)
    area.open_for_selection()  # Combat > Area damage, the template placed by hand
    assert area.dc.value() == 22 and area.ability.currentData() == Ability.DEX
    assert area.dice.text() == "2d6+8" and area.damage_type.currentData() == "bludgeoning"
    assert not area.half.isChecked()  # "or take 15 (2d6 + 8) bludgeoning damage": none on a save
    area.close()
    detect = box.legendary_buttons[(EntityId("c-foe"), "Detect")]
    assert not detect.isEnabled() and "0 legendary actions left" in detect.toolTip()
    dragon_row = next(r for r in rows(ui.initiative.tree) if "Adult Red Dragon" in r.text(1))
    assert "Legendary 0/3" in dragon_row.text(3)

    assert box.recharge_die.isVisible()  # the dragon's recharge comes as its turn starts
    box.recharge_die.setValue(5)
    window.combat.initiative.next_action.trigger()
    assert box.save_buttons["Fire Breath"].text() == "Fire Breath · ready"
    assert box.save_buttons["Fire Breath"].isEnabled()
    dragon_row = next(r for r in rows(ui.initiative.tree) if "Adult Red Dragon" in r.text(1))
    assert "Legendary 3/3" in dragon_row.text(3)
    assert not card.legendary.isVisible()  # the moment closed with the dragon's turn
    window.undo_stack.undo()  # the turn change with its recharge: one step
    assert ui.session.state is not None and ui.session.state.current is not None
    assert ui.session.state.current.creature_id == HERO and ui.session.state.turn_ending
    assert box.legendary_buttons[(EntityId("c-foe"), "Detect")].toolTip().count("0 legendary")


def test_frightful_presence_with_the_multiattack_opens_the_saving_throw_dialog(
    qtbot: QtBot, tmp_path: Path
) -> None:
    window = _window(qtbot, tmp_path, "Adult Red Dragon", (3, 2))
    ui = window.combat
    dock, box = ui.actions, ui.actions.monster
    qtbot.mouseClick(dock.buttons["attack"], Qt.MouseButton.LeftButton)
    menu = dock.multiattack_menu
    assert menu.actions()[0].text() == "Multiattack: Frightful Presence; 1 × Bite, 2 × Claw"
    menu.close()
    menu.actions()[0].trigger()
    ui.attack_dialog.close()
    fear = box.save_buttons["Frightful Presence"]
    assert fear.isEnabled() and not box.save_buttons["Fire Breath"].isEnabled()
    window.scene.clearSelection()  # the dragon's token is selected as its turn began
    window.scene.tokens[HERO].setSelected(True)
    qtbot.waitUntil(lambda: fear.height() > 0)
    qtbot.mouseClick(fear, Qt.MouseButton.LeftButton)
    dialog = ui.save_dialog
    assert dialog.isVisible()
    assert dialog.ability.currentData() == Ability.WIS and dialog.dc.value() == 19
    assert dialog.condition.currentData() == "frightened"
    assert list(dialog.saves.rows) == [HERO]
    assert "3 attacks left: 1 × Bite, 2 × Claw" in _attacks_text(window)
