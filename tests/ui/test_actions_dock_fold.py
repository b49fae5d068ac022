"""Issue 15: the Actions dock never scrolls for a turn's controls at 1366 x 768, for each of
the 5 shipped rulesets, on the turn of the SRD monster with the most stat-block actions and
on a hero's turn beside it (its legendary actions shown). The rarely used actions are the
More menu's entries, each enabled or explained as a button is."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from battlemap.io.monsters import creature_from_statblock, load_library
from battlemap.model import Creature, Encounter, Grid, Side
from battlemap.model.ids import EntityId
from battlemap.model.statblock import StatBlock
from battlemap.resources import asset_path
from battlemap.rules.enums import ActionCost
from battlemap.rules.loader import load_registry
from battlemap.ui.combat.actions_dock import COMMON_KINDS
from battlemap.ui.main_window import MainWindow
from tests.ui.test_turn_controls_fold import SCREENS, unfolded
from tests.ui.test_window_layout import first_start

RULESETS = load_registry().ids()
SRD = load_library(asset_path("srd-monsters.json")).monsters


def stat_block_actions(block: StatBlock) -> int:
    """The buttons a stat block puts in the Actions dock (save actions, uses, legendary)."""
    limited = sum(1 for text in block.text_actions if text.usage is not None)
    legendary = block.legendary
    shown = len(legendary.actions) + bool(legendary.resistances) if legendary is not None else 0
    return len(block.save_actions) + limited + shown


MOST = max(SRD, key=stat_block_actions)


def fight(qtbot: QtBot, tmp_path: Path, ruleset: str) -> MainWindow:
    foe = creature_from_statblock(MOST, position=(7, 3)).model_copy(
        update={"id": EntityId("c-foe")}
    )
    hero = Creature(id="c-hero", name="Hero", side=Side.PARTY, x=14, y=3, hp=40, max_hp=40)
    encounter = Encounter(grid=Grid(width=30, height=20), creatures=(foe, hero), ruleset=ruleset)
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    window = first_start(qtbot, encounter, settings, SCREENS["laptop"])
    ui = window.combat
    ui.session.seed_source = lambda: 5
    ui.initiative.start()
    ui.initiative.roll(monsters_only=False)
    ui.initiative.tree.reordered.emit(["c-foe", "c-hero"])
    ui.initiative.begin()
    QApplication.processEvents()
    return window


def turn_controls(window: MainWindow) -> dict[str, QWidget]:
    dock = window.combat.actions
    box = dock.monster
    controls: dict[str, QWidget] = {"End turn": dock.end_button, "More": dock.more_button}
    controls.update(dock.buttons)
    controls.update({f"save {k}": b for k, b in box.save_buttons.items()})
    controls.update({f"use {k}": b for k, b in box.use_buttons.items()})
    controls.update({f"legendary {k[1]}": b for k, b in box.legendary_buttons.items()})
    return controls


@pytest.mark.parametrize("ruleset", RULESETS)
def test_no_turn_control_is_below_the_fold(qtbot: QtBot, tmp_path: Path, ruleset: str) -> None:
    window = fight(qtbot, tmp_path, ruleset)
    dock = window.combat.actions
    box = dock.monster
    assert len(box.save_buttons) + len(box.use_buttons) >= 3  # the monster's own turn
    folded = [name for name, widget in turn_controls(window).items() if not unfolded(widget)]
    assert not folded, (MOST.name, folded)
    window.combat.initiative.next_turn()
    QApplication.processEvents()
    assert dock.heading.full_text == "Hero's turn"
    assert len(box.legendary_buttons) >= 3  # the dragon's legendary actions, at its foe's turn
    folded = [name for name, widget in turn_controls(window).items() if not unfolded(widget)]
    assert not folded, folded


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_other_action_is_a_more_entry_that_says_why(
    qtbot: QtBot, tmp_path: Path, ruleset: str
) -> None:
    window = fight(qtbot, tmp_path, ruleset)
    dock = window.combat.actions
    actions = load_registry().get(ruleset).actions
    taken_here = {a for a, d in actions.items() if d.cost is not ActionCost.REACTION}
    assert set(dock.buttons) | set(dock.more_entries) == taken_here
    assert not set(dock.buttons) & set(dock.more_entries)
    attack = load_registry().get(ruleset).roles.actions.attack
    assert all(actions[a].kind in COMMON_KINDS or a == attack for a in dock.buttons)
    assert {"stabilize", "offhand-attack", "ready"} <= set(dock.more_entries)
    stabilize = dock.more_entries["stabilize"]
    assert not stabilize.isEnabled()
    assert stabilize.toolTip() == "Not available: no creature in the combat is dying"
    assert dock.more_action.shortcut().toString() == "Shift+M"
