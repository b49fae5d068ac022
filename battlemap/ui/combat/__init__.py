"""The DM's combat interface: Initiative, Actions and Log docks, the attack dialog, the
Combat menu with its shortcuts, and the turn facts the players' window shows.

``install(window)`` adds all of it to the main window (one line in ``_install_features``).
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMainWindow

from battlemap.model.statblock import StatBlock
from battlemap.ui.combat.actions_dock import ActionsDock
from battlemap.ui.combat.attack_dialog import AttackDialog
from battlemap.ui.combat.initiative_dock import InitiativeDock
from battlemap.ui.combat.log_dock import LogDock
from battlemap.ui.combat.session import CombatSession, combat_facts

STATUS_MS = 8000

__all__ = ["CombatUi", "combat_facts", "install"]


@dataclass
class CombatUi:
    """The combat parts of the main window, for other features and tests to reach."""

    session: CombatSession
    initiative: InitiativeDock
    actions: ActionsDock
    log: LogDock
    attack_dialog: AttackDialog

    def open_attack(self, action_id: str = "attack") -> None:
        self.attack_dialog.open_for(action_id)


def install(window: QMainWindow) -> CombatUi:
    """Add the combat docks (left: Initiative over Actions; bottom: Log) and the Combat menu."""
    session = CombatSession(window.document, window.undo_stack, parent=window)  # type: ignore[attr-defined]
    status = window.statusBar()
    session.refused.connect(lambda text: status.showMessage(f"Not allowed: {text}", STATUS_MS))
    session.reported.connect(lambda text: status.showMessage(text, STATUS_MS))
    scene = window.scene  # type: ignore[attr-defined]
    library_dock = getattr(window, "library_dock", None)
    library: dict[str, StatBlock] = library_dock.monsters if library_dock is not None else {}
    initiative = InitiativeDock(session, scene)
    dialog = AttackDialog(session, scene, library, window)
    actions = ActionsDock(session, scene, initiative.next_action, dialog.open_for)
    log = LogDock(session)
    left, bottom = Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.BottomDockWidgetArea
    window.addDockWidget(left, initiative)
    window.addDockWidget(left, actions)
    window.splitDockWidget(initiative, actions, Qt.Orientation.Vertical)
    window.addDockWidget(bottom, log)
    ui = CombatUi(session, initiative, actions, log, dialog)

    menu = window.menuBar().addMenu("&Combat")
    help_menu = getattr(window, "help_menu", None)
    if help_menu is not None:  # keep Help last
        window.menuBar().insertMenu(help_menu.menuAction(), menu)
    menu.addAction(initiative.start_action)
    menu.addSeparator()
    menu.addAction(initiative.next_action)
    menu.addAction(initiative.previous_action)
    menu.addAction(actions.attack_action)
    menu.addSeparator()
    menu.addAction(initiative.end_action)
    view_menu = window.view_menu  # type: ignore[attr-defined]
    view_menu.addSeparator()
    for dock in (initiative, actions, log):
        toggle: QAction = dock.toggleViewAction()
        view_menu.addAction(toggle)
    return ui
