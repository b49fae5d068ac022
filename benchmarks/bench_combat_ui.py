"""Combat UI: what a DM waits for on a big fight (40 combatants, a long log).

Every case runs through the real main window offscreen: the engine call, the undo push and
every dock refreshing. Goal: a turn change or an action's dry runs within a frame or two.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from battlemap.ui.main_window import MainWindow

Case = tuple[str, Callable[[], Callable[[], object] | None]]
COMBATANTS = 40
LONG_LOG = 20_000


def _window() -> MainWindow:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from battlemap.model import Creature, Document, Encounter, Grid, Side
    from battlemap.ui.main_window import MainWindow

    QApplication.instance() or QApplication([])
    creatures = tuple(
        Creature(
            id=f"c-{i}",
            name=f"{'Hero' if i % 2 else 'Orc'} {i}",
            side=Side.PARTY if i % 2 else Side.HOSTILE,
            x=(i % 10) * 2,
            y=(i // 10) * 2,
            hp=30,
            max_hp=30,
        )
        for i in range(COMBATANTS)
    )
    encounter = Encounter(grid=Grid(width=30, height=20), creatures=creatures)
    settings = QSettings(tempfile.mktemp(suffix=".ini"), QSettings.Format.IniFormat)
    window = MainWindow(Document(encounter), settings=settings)
    window.show()
    ui = window.combat
    ui.session.seed_source = lambda: 1
    ui.initiative.start()
    ui.initiative.roll(monsters_only=False)
    ui.initiative.begin()
    for _ in range(3 * COMBATANTS):  # three rounds of log
        ui.initiative.next_turn()
    return window


def _next_turn() -> Callable[[], object]:
    return _window().combat.initiative.next_turn


def _next_turn_long_log() -> Callable[[], object]:
    """A long evening: 20 000 lines already in the log; a turn change must not rescan them."""
    from battlemap.model.combat import CombatEvent

    window = _window()
    encounter = window.document.encounter
    combat = encounter.combat
    assert combat is not None
    filler = tuple(CombatEvent(round=1, kind="note", text=f"line {i}") for i in range(LONG_LOG))
    longer = combat.model_copy(update={"log": filler + combat.log})
    window.document.replace(encounter.model_copy(update={"combat": longer}))
    return window.combat.initiative.next_turn


def _actions_refresh() -> Callable[[], object]:
    return _window().combat.actions.refresh


def _attack_situation() -> Callable[[], object]:
    window = _window()
    window.combat.open_attack()
    return window.combat.attack_dialog.update_situation


def goals() -> dict[str, float]:
    return {
        f"combat ui: next turn, {COMBATANTS} combatants, every dock refreshed": 50.0,
        f"combat ui: next turn with {LONG_LOG} log lines": 50.0,
        "combat ui: actions dock, dry run of every action": 16.0,
        "combat ui: attack dialog, roll mode + AC + cover (dry run)": 16.0,
    }


def cases() -> list[Case]:
    return [
        (f"combat ui: next turn, {COMBATANTS} combatants, every dock refreshed", _next_turn),
        (f"combat ui: next turn with {LONG_LOG} log lines", _next_turn_long_log),
        ("combat ui: actions dock, dry run of every action", _actions_refresh),
        ("combat ui: attack dialog, roll mode + AC + cover (dry run)", _attack_situation),
    ]
