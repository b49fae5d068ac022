"""Issue 15 item 4: no control a turn needs is below a fold at 1366 x 768 (and at 1600 x 1000),
mid-combat with a card showing (bloodied-brink): Next turn, End turn, End combat, the death
save's d20 box and the Brink of Death's choices. A control counts as shown when its whole
rectangle lies inside the window and inside every scroll area's viewport around it."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QRect, QSettings
from PySide6.QtWidgets import QApplication, QScrollArea, QWidget
from pytestqt.qtbot import QtBot

from battlemap.model import Creature, Encounter, Grid, Side
from battlemap.model.ids import EntityId
from battlemap.rules.enums import BrinkOption
from battlemap.ui.main_window import MainWindow
from tests.ui.test_combat_docks import click, select, start, turn_before
from tests.ui.test_window_layout import first_start

SCREENS = {
    "laptop": QRect(0, 0, 1366, 768 - 32),
    "desktop": QRect(0, 0, 1600, 1000 - 32),
}


def in_window(widget: QWidget) -> QRect:
    window = widget.window()
    return QRect(widget.mapTo(window, QPoint(0, 0)), widget.size())


def unfolded(widget: QWidget) -> bool:
    """Shown whole: visible, inside the window and every enclosing scroll area's viewport."""
    if not widget.isVisible():
        return False
    rect = in_window(widget)
    if not widget.window().rect().contains(rect):
        return False
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, QScrollArea) and not in_window(parent.viewport()).contains(rect):
            return False
        parent = parent.parentWidget()
    return True


def dying_cleric(qtbot: QtBot, tmp_path: Path, screen: QRect) -> MainWindow:
    """bloodied-brink, round 1: the Cleric at 0 HP, its turn next (a death save due)."""
    creatures = (
        Creature(id="c-cleric", name="Cleric", side=Side.PARTY, x=1, y=1, hp=12, max_hp=12),
        Creature(id="c-sal", name="Salamander 1", side=Side.HOSTILE, x=4, y=1, hp=30, max_hp=30),
        Creature(id="c-rat", name="Rat", side=Side.HOSTILE, x=6, y=6, hp=2, max_hp=2),
    )
    encounter = Encounter(
        grid=Grid(width=20, height=14), creatures=creatures, ruleset="bloodied-brink"
    )
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    window = first_start(qtbot, encounter, settings, screen)
    window.combat.session.seed_source = lambda: 11
    start(window, qtbot)
    select(window, "c-cleric")
    window.combat.panel.amount.setValue(12)
    click(qtbot, window.combat.panel.damage_button)
    turn_before(window, "c-cleric")
    QApplication.processEvents()
    return window


@pytest.mark.parametrize("screen", list(SCREENS))
def test_every_control_a_turn_needs_shows_without_scrolling(
    qtbot: QtBot, tmp_path: Path, screen: str
) -> None:
    window = dying_cleric(qtbot, tmp_path, SCREENS[screen])
    ui = window.combat
    card = ui.card
    turn_controls: dict[str, QWidget] = {
        "Next turn": ui.initiative.next_button,
        "Previous turn": ui.initiative.previous_button,
        "End combat": ui.initiative.end_button,
        "End turn": ui.actions.end_button,
        "death save d20": card.death_d20.spins[0],
        "card's Next turn": card.next_button,
    }
    folded = [name for name, widget in turn_controls.items() if not unfolded(widget)]
    assert not folded, folded
    for _ in range(2):  # two typed failures: on the Brink
        turn_before(window, "c-cleric")
        card.death_d20.spins[0].setValue(5)
        ui.initiative.next_turn()
    state = ui.session.state
    assert state is not None and state.combatant(EntityId("c-cleric")).death.brink
    QApplication.processEvents()
    brink: dict[str, QWidget] = {f"Brink: {o.value}": b for o, b in card.brink.buttons.items()}
    brink["Brink d20"] = card.brink.d20
    for name in ("death save d20", "card's Next turn"):  # on the Brink: no save is due
        assert not turn_controls.pop(name).isVisible()
    folded = [name for name, widget in {**turn_controls, **brink}.items() if not unfolded(widget)]
    assert not folded, folded
    click(qtbot, card.brink.buttons[BrinkOption.SENTENCE])


@pytest.mark.parametrize("screen", list(SCREENS))
def test_starting_a_combat_needs_no_scrolling(qtbot: QtBot, tmp_path: Path, screen: str) -> None:
    """Start combat, then the set-up's rolls and Begin round 1, all above the fold: they sat
    at the foot of the Initiative dock, under the order list, where a laptop scrolled them."""
    creatures = tuple(
        Creature(id=f"c-{n}", name=f"Goblin {n}", side=Side.HOSTILE, x=n, y=1) for n in range(8)
    )
    encounter = Encounter(grid=Grid(width=20, height=14), creatures=creatures)
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    window = first_start(qtbot, encounter, settings, SCREENS[screen])
    initiative = window.combat.initiative
    QApplication.processEvents()
    assert unfolded(initiative.start_button)
    click(qtbot, initiative.start_button)
    QApplication.processEvents()
    set_up = {
        "Roll for all": initiative.roll_all,
        "Roll for monsters": initiative.roll_monsters,
        "Roll surprise": initiative.sneak_button,
        "Begin round 1": initiative.begin_button,
        "End combat": initiative.end_button,
    }
    folded = [name for name, widget in set_up.items() if not unfolded(widget)]
    assert not folded, folded
