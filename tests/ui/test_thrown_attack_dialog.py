"""Issue 15 item 13: "Knock out (melee)" is not offered for a ranged attack, and a thrown
weapon at a target beyond its reach is a ranged attack (srd-5e): a javelin at 20 ft was
refused as "beyond the 5 ft reach", with Knock out offered."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from battlemap.model import Creature, Encounter, Grid, Side
from battlemap.model.statblock import Attack, AttackKind, Damage, StatBlock
from battlemap.ui.main_window import MainWindow
from tests.ui.drag_helpers import open_window

HOBGOBLIN = StatBlock(
    name="Hobgoblin",
    attacks=(
        Attack(
            name="Javelin",
            kind=AttackKind.MELEE_OR_RANGED,
            to_hit=3,
            reach=5,
            range_normal=30,
            range_long=120,
            damage=(Damage(dice="1d6+1", type="piercing"),),
        ),
    ),
)


def hobgoblin_turn(qtbot: QtBot, tmp_path: Path, knight_x: float) -> MainWindow:
    """srd-5e, round 1, the Hobgoblin's turn; the Knight on its row at ``knight_x``."""
    creatures = (
        Creature(
            id="c-hob",
            name="Hobgoblin",
            side=Side.HOSTILE,
            x=1,
            y=1,
            hp=11,
            max_hp=11,
            statblock=HOBGOBLIN,
        ),
        Creature(
            id="c-knight", name="Knight", side=Side.PARTY, x=knight_x, y=1, hp=30, max_hp=30, ac=10
        ),
    )
    encounter = Encounter(grid=Grid(width=10, height=6), creatures=creatures, ruleset="srd-5e")
    window = open_window(qtbot, tmp_path, encounter)
    ui = window.combat
    ui.initiative.start()
    ui.initiative.roll(monsters_only=False)
    state = ui.session.state
    assert state is not None
    if state.order[0].creature_id != "c-hob":
        ui.initiative.tree.reordered.emit(["c-hob", "c-knight"])
    ui.initiative.begin()
    ui.open_attack()
    return window


def test_a_javelin_at_20_ft_is_thrown_and_knock_out_is_not_offered(
    qtbot: QtBot, tmp_path: Path
) -> None:
    window = hobgoblin_turn(qtbot, tmp_path, knight_x=5)  # 20 ft away
    dialog = window.combat.attack_dialog
    assert dialog.attack.currentText() == "Javelin (+3)"
    assert "Can't attack" not in dialog.situation.text()
    assert "20 ft" in dialog.situation.text()
    knockout = dialog.declarations.knockout
    assert not knockout.isEnabled()
    assert knockout.toolTip() == "only a melee attack can knock a creature out"
    assert dialog.roll_button.isEnabled()
    dialog.d20[0].setValue(15)
    qtbot.mouseClick(dialog.roll_button, Qt.MouseButton.LeftButton)
    assert "HIT" in dialog.outcome_label.text()


def test_a_javelin_within_reach_is_a_melee_attack_that_may_knock_out(
    qtbot: QtBot, tmp_path: Path
) -> None:
    window = hobgoblin_turn(qtbot, tmp_path, knight_x=2)  # adjacent
    dialog = window.combat.attack_dialog
    assert dialog.declarations.knockout.isEnabled()
    assert dialog.roll_button.isEnabled()
    assert "5 ft" in dialog.situation.text() and "Can't attack" not in dialog.situation.text()
    dialog.declarations.knockout.setChecked(True)
    dialog.d20[0].setValue(15)
    qtbot.mouseClick(dialog.roll_button, Qt.MouseButton.LeftButton)
    assert "HIT" in dialog.outcome_label.text()
    assert dialog.damage_box.isEnabled()  # the damage, and the knock-out, come next
