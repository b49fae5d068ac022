"""The DM's combat interface: Initiative, Actions and Log docks, the attack dialog, the
Combat menu with its shortcuts, and the turn facts the players' window shows.

``install(window)`` adds all of it to the main window (one line in ``_install_features``).
The dialogs (attack, contest, area damage, rest, saving throw) are imported and built the
first time they are used, not at start-up.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar, cast

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDockWidget, QFormLayout, QMenu, QScrollArea

from battlemap.model.ids import EntityId
from battlemap.model.statblock import StatBlock
from battlemap.rules.enums import RestType
from battlemap.ui.combat.actions_dock import ActionsDock
from battlemap.ui.combat.concentration_ui import EffectsUi
from battlemap.ui.combat.concentration_ui import install as install_effects
from battlemap.ui.combat.creature_panel import CombatPanel
from battlemap.ui.combat.decision_card import DecisionCard
from battlemap.ui.combat.initiative_dock import InitiativeDock
from battlemap.ui.combat.log_dock import LogDock
from battlemap.ui.combat.monster_flow import MonsterFlow
from battlemap.ui.combat.mount_menu import add_mount_entries
from battlemap.ui.combat.session import CombatSession, combat_facts
from battlemap.ui.combat.turn_follower import TurnFollower
from battlemap.ui.drag import window_index
from battlemap.ui.feature_window import FeatureWindow
from battlemap.ui.token_state import quiet_ruleset, token_states
from battlemap.ui.window_layout import LEFT_MIN_WIDTH

# The engine and the heavier geometry are imported in the functions that use them, so
# the window is built without them (issue 17; tests/ui/test_start_up_imports.py).
if TYPE_CHECKING:
    from battlemap.ui.combat.area_dialog import AreaDialog
    from battlemap.ui.combat.attack_dialog import AttackDialog
    from battlemap.ui.combat.contest_dialog import ContestDialog
    from battlemap.ui.combat.rest_dialog import RestDialog
    from battlemap.ui.combat.save_dialog import SaveDialog

STATUS_MS = 8000
Made = TypeVar("Made")

__all__ = ["CombatUi", "combat_facts", "install"]


@dataclass
class CombatUi:
    """The combat parts of the main window, for other features and tests to reach. The
    dialogs are made on first use (reading one of them makes it)."""

    session: CombatSession
    initiative: InitiativeDock
    actions: ActionsDock
    log: LogDock
    panel: CombatPanel
    card: DecisionCard
    window: FeatureWindow
    library: Mapping[str, StatBlock]
    follower: TurnFollower | None = None
    _dialogs: dict[str, object] = field(default_factory=dict)
    effects: EffectsUi | None = None
    """Concentration and the saves due (``concentration_ui.install``)."""

    def _dialog(self, name: str, make: Callable[[], Made]) -> Made:
        if name not in self._dialogs:
            self._dialogs[name] = make()
        return cast(Made, self._dialogs[name])  # each name has one maker, so one type

    @property
    def attack_dialog(self) -> AttackDialog:
        from battlemap.ui.combat.attack_dialog import AttackDialog

        scene, window = self.panel.scene, self.window
        return self._dialog(
            "attack",
            lambda: AttackDialog(self.session, scene, self.library, window_index(window), window),
        )

    @property
    def contest_dialog(self) -> ContestDialog:
        from battlemap.ui.combat.contest_dialog import ContestDialog

        return self._dialog(
            "contest", lambda: ContestDialog(self.session, self.panel.scene, self.window)
        )

    @property
    def area_dialog(self) -> AreaDialog:
        from battlemap.ui.combat.area_dialog import AreaDialog

        scene = self.panel.scene
        return self._dialog(
            "area", lambda: AreaDialog(self.session, scene, self.library, self.window)
        )

    @property
    def rest_dialog(self) -> RestDialog:
        from battlemap.ui.combat.rest_dialog import RestDialog

        return self._dialog("rest", lambda: RestDialog(self.session, self.panel.scene, self.window))

    @property
    def save_dialog(self) -> SaveDialog:
        from battlemap.ui.combat.save_dialog import SaveDialog

        scene = self.panel.scene
        return self._dialog(
            "save", lambda: SaveDialog(self.session, scene, self.library, self.window)
        )

    def open_attack(self, action_id: str | None = None) -> None:
        """The attack dialog making ``action_id`` (None: the ruleset's Attack action)."""
        self.attack_dialog.open_for(action_id)


def install(window: FeatureWindow) -> CombatUi:
    """Add the combat docks (left: Initiative over Actions; bottom: Log) and the Combat menu."""
    session = CombatSession(
        window.document,
        window.undo_stack,
        registry=lambda: window.rulesets.registry,
        parent=window,
    )
    status = window.statusBar()
    session.refused.connect(lambda text: status.showMessage(f"Not allowed: {text}", STATUS_MS))
    session.reported.connect(lambda text: status.showMessage(text, STATUS_MS))
    scene = window.scene
    scene.ruleset_of = lambda encounter: quiet_ruleset(session.registry, encounter.ruleset)
    scene.token_states = lambda encounter: token_states(encounter, scene.ruleset_of(encounter))
    scene.show_states()
    library: Mapping[str, StatBlock] = window.library_dock.monsters
    initiative = InitiativeDock(session, scene)
    actions = ActionsDock(
        session,
        scene,
        initiative.next_action,
        lambda *args, **kwargs: ui.attack_dialog.open_for(*args, **kwargs),
        lambda *args, **kwargs: ui.contest_dialog.open_for(*args, **kwargs),
    )
    card = DecisionCard(window.view, scene, session, initiative.next_action)
    initiative.death_save_d20 = card.typed_death_save
    initiative.recharge_d6 = actions.monster.typed_recharge
    log = LogDock(session)
    for left_dock in (initiative, actions):
        scroll_when_short(left_dock)  # mid-combat these two need ~800 px together
        left_dock.setMinimumWidth(LEFT_MIN_WIDTH)
    left, bottom = Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.BottomDockWidgetArea
    window.addDockWidget(left, initiative)
    window.addDockWidget(left, actions)
    window.splitDockWidget(initiative, actions, Qt.Orientation.Vertical)
    window.addDockWidget(bottom, log)  # first-run sizes: battlemap.ui.window_layout
    panel = CombatPanel(session, scene, library)
    _add_to_creature_dock(window.creature_dock, panel)
    ui = CombatUi(session, initiative, actions, log, panel, card, window, library)
    ui.follower = TurnFollower(session, scene, window.view)
    actions.monster.flow = MonsterFlow(ui)
    scene.token_menu_builders.append(lambda menu, cid: _token_menu(ui, menu, cid))
    scene.token_menu_builders.append(lambda menu, cid: _rest_entries(ui, menu, cid))
    scene.token_menu_builders.append(
        lambda menu, cid: add_mount_entries(menu, session, cid, library)
    )
    scene.token_menu_builders.append(lambda menu, cid: _save_entry(ui, menu, cid))
    ui.effects = install_effects(ui)
    panel.save_button.clicked.connect(
        lambda: ui.save_dialog.open_for(
            [panel.creature_id] if panel.creature_id is not None else []
        )
    )

    menu = window.menuBar().addMenu("&Combat")
    window.menuBar().insertMenu(window.help_menu.menuAction(), menu)  # keep Help last
    menu.addAction(initiative.start_action)
    menu.addSeparator()
    menu.addAction(initiative.next_action)
    menu.addAction(initiative.previous_action)
    menu.addAction(actions.attack_action)
    area_action = QAction("Area damage…", window)
    area_action.setShortcut("Ctrl+Shift+A")
    area_action.setToolTip("One damage roll for the selected tokens, half on a save")
    area_action.triggered.connect(lambda: ui.area_dialog.open_for_selection())
    menu.addAction(area_action)
    save_action = QAction("Saving throw…", window)
    save_action.setToolTip("One saving throw for each selected token")
    save_action.triggered.connect(lambda: ui.save_dialog.open_for_selection())
    menu.addAction(save_action)
    menu.addSeparator()
    rests = {  # the selected tokens, else the party
        kind: menu.addAction(f"{kind.value.capitalize()} rest…", _rest_opener(ui, kind))
        for kind in (RestType.SHORT, RestType.LONG)
    }
    menu.setToolTipsVisible(True)  # a disabled rest says why
    menu.aboutToShow.connect(lambda: _refresh_rests(ui, rests))
    menu.addSeparator()
    menu.addAction(initiative.end_action)
    view_menu = window.view_menu
    view_menu.addSeparator()
    for dock in (initiative, actions, log):
        toggle: QAction = dock.toggleViewAction()
        view_menu.addAction(toggle)
    return ui


def _add_to_creature_dock(dock: QDockWidget | None, panel: CombatPanel) -> None:
    """Put the combat panel under the Creature dock's HP bar (the most used part), and make
    the dock scroll so a short window still reaches every field."""
    if dock is None:
        return
    body = dock.widget()
    layout = body.layout() if body is not None else None
    if body is None or not isinstance(layout, QFormLayout):
        return
    hp_bar = getattr(dock, "hp_bar", None)
    row: int = -1
    if hp_bar is not None:
        position: tuple[int, object] = layout.getWidgetPosition(hp_bar)  # type: ignore[assignment]
        row = position[0]
    if row >= 0:
        layout.insertRow(row + 1, panel)
    else:
        layout.addRow(panel)
    scroll_when_short(dock)


def scroll_when_short(dock: QDockWidget) -> None:
    """Put the dock's contents in a frameless scroll area: a short window scrolls the dock
    instead of growing taller than the screen to fit every dock's full height."""
    body = dock.widget()
    scroll = QScrollArea()
    scroll.setWidgetResizable(True)
    scroll.setFrameShape(QScrollArea.Shape.NoFrame)
    # Only up and down: as narrow as the contents allow, with room for the scroll bar.
    scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    bar = scroll.verticalScrollBar().sizeHint().width()
    scroll.setMinimumWidth(body.minimumSizeHint().width() + bar)
    dock.setWidget(scroll)
    scroll.setWidget(body)


def _token_menu(ui: CombatUi, menu: QMenu, creature_id: EntityId) -> None:
    """Right-click on a token: attack it, or toggle its conditions (in a combat)."""
    from battlemap.rules import economy
    from battlemap.rules.legal import legal_actions

    state = ui.session.state
    if state is None or not state.has(creature_id):
        return
    menu.addSeparator()
    current = state.current
    if current is not None and current.creature_id != creature_id:
        attacker = ui.session.name(current.creature_id)
        menu.addAction(
            f"{attacker} attacks {ui.session.name(creature_id)}…",
            lambda: ui.attack_dialog.open_for(target=creature_id),  # the Attack action's role
        )
    menu.addAction(
        f"Damage or heal {ui.session.name(creature_id)}…", lambda: _focus_hp(ui, creature_id)
    )
    ruleset = ui.session.ruleset()
    if ruleset is None:
        return
    readied = state.combatant(creature_id).readied
    if readied is not None and "readied-release" in ruleset.actions:
        release = menu.addAction(
            f"Release the readied action ({readied.trigger})",
            lambda: ui.session.run(
                f"{ui.session.name(creature_id)} releases its readied action",
                lambda e, r: economy.take_action(e, r, creature_id, "readied-release"),
            ),
        )
        legal = legal_actions(ui.session.encounter, ruleset, creature_id)
        reason = legal.action("readied-release").reason
        release.setEnabled(reason is None)
        if reason is not None:
            release.setToolTip(f"Not available: {reason}")
            menu.setToolTipsVisible(True)
    submenu = menu.addMenu("Conditions")
    combatant = state.combatant(creature_id)
    ui.panel.creature_id = creature_id
    for name in sorted(ruleset.conditions):
        action = submenu.addAction(name)
        action.setCheckable(True)
        action.setChecked(combatant.has_condition(name))
        action.toggled.connect(lambda on, n=name: _toggle(ui, creature_id, n, on))


def _save_entry(ui: CombatUi, menu: QMenu, creature_id: EntityId) -> None:
    """Right-click on a token: a saving throw for the selected tokens when it is one of them,
    else for it alone (in or out of a combat)."""
    chosen = ui.panel.scene.selected_creatures()
    if creature_id not in chosen:
        chosen = [creature_id]
    label = "Saving throw…" if len(chosen) == 1 else f"Saving throw for {len(chosen)} creatures…"
    menu.addAction(label, lambda: ui.save_dialog.open_for(chosen))


def _rest_entries(ui: CombatUi, menu: QMenu, creature_id: EntityId) -> None:
    from battlemap.ui.combat.rest_dialog import add_rest_entries

    add_rest_entries(menu, ui.rest_dialog, creature_id)


def _rest_opener(ui: CombatUi, kind: RestType) -> Callable[[], object]:
    return lambda: ui.rest_dialog.opener(kind)()


def _refresh_rests(ui: CombatUi, actions: dict[RestType, QAction]) -> None:
    from battlemap.ui.combat.rest_dialog import refresh_rest_actions

    refresh_rest_actions(ui.rest_dialog, actions)


def _focus_hp(ui: CombatUi, creature_id: EntityId) -> None:
    """Select the token and put the cursor in the Creature dock's amount field."""
    token = ui.panel.scene.tokens.get(creature_id)
    if token is not None:
        ui.panel.scene.clearSelection()
        token.setSelected(True)
    dock = ui.panel.parentWidget()
    while dock is not None and not isinstance(dock, QDockWidget):
        dock = dock.parentWidget()
    if dock is not None:
        dock.show()
        dock.raise_()
    ui.panel.amount.setFocus()
    ui.panel.amount.selectAll()


def _toggle(ui: CombatUi, creature_id: EntityId, name: str, on: bool) -> None:
    ui.panel.creature_id = creature_id
    ui.panel.toggle_condition(name, on)
