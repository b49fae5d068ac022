"""The Actions dock: what the creature whose turn it is can do now, as the engine says.

Each of the ruleset's actions is a button, enabled only when the engine would accept it now;
a disabled button's tooltip is the engine's reason (``rules.legal.legal_actions``: the same
checks the engine makes, nothing rolled). Attack-like actions open the attack dialog;
grapple, shove, escape, disarm, grapple move and stabilising the contest dialog; the others are
taken at once, one undo step each. End turn sits beside the heading; the death save due and
the Brink of Death come as a card on the map (``decision_card``).

So that a turn never scrolls (1366 x 768, every ruleset, a dragon's stat block), the actions
most turns use are a compact three-column grid (``COMMON_KINDS`` and the ruleset's Attack);
the rest (Stabilize, Two-Weapon Fighting, Ready, grapples...) are entries of the More menu
(Shift+M), each enabled or explained as the buttons are. Ready's trigger row shows only once
Ready is chosen.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QAction, QFont, QKeySequence
from PySide6.QtWidgets import (
    QComboBox,
    QDockWidget,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from battlemap.model.combat import CombatState
from battlemap.model.ids import EntityId
from battlemap.model.limits import MAX_TRIGGER
from battlemap.rules.attacks_left import attacks_left
from battlemap.rules.enums import ActionCost, ActionKind
from battlemap.rules.schema import ActionDef, Ruleset
from battlemap.rules.schema_roles import ActionRoles
from battlemap.ui.combat.features_box import FeaturesBox
from battlemap.ui.combat.monster_box import MonsterBox
from battlemap.ui.combat.session import CombatSession
from battlemap.ui.combat.widgets import CONTEST_KINDS, GOOD, MUTED, ElidedLabel, tone
from battlemap.ui.map_scene import MapScene
from battlemap.ui.plain_text import literal_mnemonics, plain_tooltip
from battlemap.ui.targeting.overlay import SHOW_RULING_SHORTCUT

# The engine and the heavier geometry are imported in the functions that use them, so
# the window is built without them (issue 17; tests/ui/test_start_up_imports.py).
if TYPE_CHECKING:
    from battlemap.rules.legal import Choice

ATTACK_KINDS = frozenset(
    {
        ActionKind.ATTACK,
        ActionKind.OFFHAND_ATTACK,
        ActionKind.TARGET_STRIKE,
        ActionKind.CALLED_SHOT,
    }
)
"""Actions the attack dialog resolves (pick an attack and a target, roll, damage)."""
COMMON_KINDS = frozenset(
    {
        ActionKind.DASH,
        ActionKind.DISENGAGE,
        ActionKind.DODGE,
        ActionKind.HELP,
        ActionKind.HIDE,
        ActionKind.CAST_SPELL,
    }
)
"""Actions shown as buttons, with the ruleset's Attack; every other one is in the More menu."""
COLUMNS = 3
BUTTON_HEIGHT_PX = 28
MORE_SHORTCUT = "Shift+M"
FALLBACK_TRIGGER = "the trigger happens"


def _compact(button: QPushButton) -> QPushButton:
    """A button of a grid column: a long name is cut rather than the dock widened."""
    button.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
    button.setMinimumWidth(0)
    return button


def _mark(used: bool) -> str:
    colour, word = (tone(MUTED), "used") if used else (tone(GOOD), "ready")
    return f"<b style='color:{colour}'>{word}</b>"


def _cell(label: str, value: str) -> str:
    return f"<td>{label}</td><td style='padding-right:14px'>{value}</td>"


class ActionsDock(QDockWidget):
    """Buttons for the current creature's actions, and End turn."""

    def __init__(
        self,
        session: CombatSession,
        scene: MapScene,
        end_turn: QAction,
        open_attack: Callable[[str], None],
        open_contest: Callable[[str], None],
    ) -> None:
        super().__init__("Actions")
        self.setObjectName("actions-dock")
        self.session = session
        self.scene = scene
        self.open_attack = open_attack
        self.open_contest = open_contest
        self.buttons: dict[str, QPushButton] = {}
        """The common actions' buttons (the others are ``more_entries``)."""
        self._built: list[str] = []
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.setSpacing(4)
        self.heading = ElidedLabel()  # one line: a dragon's name pushed the buttons down
        font = QFont(self.heading.font())
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.2)
        self.heading.setFont(font)
        top = QHBoxLayout()  # End turn beside the heading: never scrolled below the fold
        top.addWidget(self.heading, 1)
        layout.addLayout(top)
        self.economy = QLabel()
        self.economy.setWordWrap(True)
        self.economy.setTextFormat(Qt.TextFormat.RichText)
        layout.addWidget(self.economy)
        self.grid_widget = QWidget()
        self.grid = QGridLayout(self.grid_widget)
        self.grid.setContentsMargins(0, 0, 0, 0)
        self.grid.setSpacing(4)
        layout.addWidget(self.grid_widget)  # the turn's own actions first, then the extras
        self.feature_box = FeaturesBox(session)
        layout.addWidget(self.feature_box)
        self.monster = MonsterBox(session)  # a stat block's actions, in their own section
        layout.addWidget(self.monster)
        self.multiattack_menu = QMenu(self)
        """The Attack button's menu when the creature has Multiattack options."""

        self.ready_id: str = "ready"
        """The ruleset's Ready action, set when the buttons are built."""
        self.more_menu = QMenu(self)
        """The rarely used actions (``more_entries``); disabled ones say why as tooltips."""
        self.more_menu.setToolTipsVisible(True)
        self.more_entries: dict[str, QAction] = {}
        self.more_button = QPushButton("More")
        self.more_button.setToolTip(f"The other actions: Ready, Stabilize… ({MORE_SHORTCUT})")
        self.more_button.setMenu(self.more_menu)
        self.more_button.setMinimumHeight(BUTTON_HEIGHT_PX)
        _compact(self.more_button)
        self.more_action = QAction("More actions…", self)
        self.more_action.setShortcut(QKeySequence(MORE_SHORTCUT))
        self.more_action.triggered.connect(self.more_button.showMenu)
        self.addAction(self.more_action)

        self.ready_row = QWidget()
        ready_row = QHBoxLayout(self.ready_row)
        ready_row.setContentsMargins(0, 0, 0, 0)
        self.trigger = QLineEdit()
        self.trigger.setMaxLength(MAX_TRIGGER)
        self.trigger.setPlaceholderText("Ready trigger: when…")
        self.trigger.setToolTip("What the Ready action waits for; then press Ready (Enter)")
        self.trigger.returnPressed.connect(lambda: self.take(self.ready_id))
        ready_row.addWidget(self.trigger, 1)
        self.readied = QComboBox()
        self.readied.setToolTip("What is readied: a move, or an action")
        ready_row.addWidget(self.readied)
        self.ready_button = QPushButton("Ready")
        self.ready_button.setToolTip("Take the Ready action with this trigger")
        self.ready_button.clicked.connect(lambda: self.take(self.ready_id))
        ready_row.addWidget(self.ready_button)
        layout.insertWidget(layout.indexOf(self.grid_widget) + 1, self.ready_row)
        self.ready_row.setVisible(False)
        self._shown_for: EntityId | None = None

        self.attack_action = QAction("Attack…", self)
        self.attack_action.setShortcut(QKeySequence("A"))
        self.attack_action.setToolTip(
            "Open the attack dialog for the creature whose turn it is (A). Point at a target"
            f" first to see its cover and reach; {SHOW_RULING_SHORTCUT} shows them to the players"
        )
        self.attack_id = ActionRoles().attack
        """The ruleset's Attack action (``roles.actions.attack``), set on each refresh."""
        self.attack_action.triggered.connect(lambda: self.take(self.attack_id))  # Multiattack menu
        self.end_turn = end_turn
        self.end_button = QPushButton(f"End turn ({end_turn.shortcut().toString()})")
        self.end_button.setToolTip("End this turn and start the next creature's")
        self.end_button.clicked.connect(end_turn.trigger)
        self.end_button.setMinimumHeight(34)
        top.addWidget(self.end_button)
        layout.addStretch(1)
        self.setWidget(body)
        session.changed.connect(self.refresh)
        self.refresh()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            self.refresh()  # the colours follow the theme

    # --- model -> widgets ------------------------------------------------------------

    def current(self) -> EntityId | None:
        state = self.session.state
        slot = state.current if state is not None else None
        return slot.creature_id if slot is not None else None

    def refresh(self) -> None:
        state = self.session.state
        creature_id = self.current()
        ruleset = self.session.ruleset() if state is not None else None
        if state is None or creature_id is None or ruleset is None:
            self.heading.set_full_text("No one's turn")
            self.economy.setText("Start a combat and begin round 1 to act.")
            self.ready_row.setVisible(False)
            self.attack_action.setEnabled(False)
            self.more_action.setEnabled(False)
            self.end_button.setEnabled(False)
            self.grid_widget.setVisible(False)
            self.monster.refresh(None, None)
            self.feature_box.setVisible(False)
            return
        name = self.session.name(creature_id)
        if creature_id != self._shown_for:
            self._shown_for = creature_id
            self.ready_row.setVisible(False)  # a new turn: Ready is chosen again
            self.trigger.clear()
        self.heading.set_full_text(f"{name}'s turn")
        self.economy.setText(self._economy_text(state, ruleset, creature_id))
        shown = {
            action_id: action
            for action_id, action in ruleset.actions.items()
            # Reactions are taken on others' turns (the opportunity attack comes with a move).
            if action.cost is not ActionCost.REACTION
        }
        if list(shown) != self._built:
            self._rebuild_buttons(shown, ruleset.roles.actions.attack)
            self.readied.clear()
            self.readied.addItem("a move", "")
            for action_id, action in shown.items():
                if action.cost is ActionCost.ACTION and action.kind is not ActionKind.READY:
                    self.readied.addItem(action.name, action_id)
        self.grid_widget.setVisible(True)  # after adding the buttons, so they show at once
        from battlemap.rules.legal import legal_actions

        legal = legal_actions(self.session.encounter, ruleset, creature_id)
        for action_id, action in shown.items():
            control = self.buttons.get(action_id) or self.more_entries[action_id]
            reason = legal.action(action_id).reason
            control.setEnabled(reason is None)
            tip = action.description if reason is None else f"Not available: {reason}"
            control.setToolTip(plain_tooltip(tip))
        self.more_action.setEnabled(bool(self.more_entries))
        self.attack_id = ruleset.roles.actions.attack
        attack = self.buttons.get(self.attack_id)
        self.attack_action.setEnabled(attack is not None and attack.isEnabled())
        self._offer_multiattack(attack, legal.multiattack, creature_id)
        self.monster.refresh(state, ruleset)
        self.feature_box.show_for(ruleset, legal)
        self.end_button.setEnabled(True)

    def _offer_multiattack(
        self, attack: QPushButton | None, options: tuple[Choice, ...], creature_id: EntityId
    ) -> None:
        """The Attack button offers the Multiattack options while the Attack action may be
        taken (each one undo step, then the attack dialog); else it opens the dialog."""
        allowed = [c for c in options if c.allowed]
        self.multiattack_menu.clear()
        if attack is None or not allowed:
            return
        for choice in allowed:
            index = int(choice.id.split(":")[1])
            entry = self.multiattack_menu.addAction(literal_mnemonics(choice.name))
            entry.triggered.connect(lambda _=False, i=index: self.take_multiattack(i))
        one = self.multiattack_menu.addAction("One attack (Attack action)")
        one.triggered.connect(lambda: self.open_attack(self.attack_id))

    def take_multiattack(self, index: int) -> None:
        """Take the Attack action with the stat block's Multiattack option ``index``."""
        from battlemap.rules.attack_action import take_attack_action

        creature_id = self.current()
        if creature_id is None:
            return
        applied = self.session.run(
            f"{self.session.name(creature_id)}: Multiattack",
            lambda e, r: take_attack_action(e, r, creature_id, multiattack=index),
        )
        if applied is not None:
            self.open_attack(self.attack_id)

    def _rebuild_buttons(self, shown: dict[str, ActionDef], attack_id: str) -> None:
        """The common actions as buttons, three columns, then More; the others as More's
        entries (only when the ruleset's list changes)."""
        for button in self.buttons.values():
            self.grid.removeWidget(button)
            button.deleteLater()
        self.buttons.clear()
        self.more_menu.clear()
        self.more_entries.clear()
        self._built = list(shown)
        for action_id, action in shown.items():
            if action.kind is ActionKind.READY:
                self.ready_id = action_id
            if action_id != attack_id and action.kind not in COMMON_KINDS:
                entry = self.more_menu.addAction(literal_mnemonics(action.name) + "…")
                entry.triggered.connect(lambda _=False, a=action_id: self.choose(a))
                self.more_entries[action_id] = entry
                continue
            button = _compact(QPushButton(literal_mnemonics(action.name)))  # a file's name
            button.setMinimumHeight(BUTTON_HEIGHT_PX)
            if action.kind is ActionKind.CAST_SPELL:
                # What is cast matters: a bonus-action spell leaves only cantrips for the action.
                menu = QMenu(button)
                cantrip = menu.addAction("A cantrip")
                cantrip.triggered.connect(self._caster(action_id, cantrip=True))
                levelled = menu.addAction("A spell of 1st level or higher")
                levelled.triggered.connect(self._caster(action_id, cantrip=False))
                button.setMenu(menu)
            else:
                button.clicked.connect(lambda _=False, a=action_id: self.take(a))
            index = len(self.buttons)
            self.grid.addWidget(button, index // COLUMNS, index % COLUMNS)
            self.buttons[action_id] = button
        self.grid.removeWidget(self.more_button)
        index = len(self.buttons)
        self.grid.addWidget(self.more_button, index // COLUMNS, index % COLUMNS)
        self.more_button.setVisible(bool(self.more_entries))

    def choose(self, action_id: str) -> None:
        """A More entry: Ready shows its trigger row (typed, then Ready or Enter); the others
        are taken as their buttons would be."""
        if action_id == self.ready_id:
            self.ready_row.setVisible(True)
            self.trigger.setFocus()
            return
        self.take(action_id)

    def _caster(self, action_id: str, cantrip: bool) -> Callable[[], None]:
        return lambda: self.take(action_id, cantrip=cantrip)

    def _economy_text(self, state: CombatState, ruleset: Ruleset, creature_id: EntityId) -> str:
        from battlemap.rules import movement

        combatant = state.combatant(creature_id)
        turn = combatant.turn
        budget = movement.movement_budget(state, ruleset, self.session.encounter, creature_id)
        move_colour = tone(GOOD) if budget.remaining > 0 else tone(MUTED)
        move = f"<b style='color:{move_colour}'>{budget.remaining:g} / {budget.total} ft</b>"
        left = attacks_left(turn)
        attacks = f"<b>{escape(left.text)}</b>" if left.count else "–"
        text = (
            "<table cellspacing='2'>"
            f"<tr>{_cell('Action', _mark(turn.action_used and not turn.extra_actions))}"
            f"{_cell('Bonus', _mark(turn.bonus_action_used))}</tr>"
            f"<tr>{_cell('Reaction', _mark(combatant.reaction_used))}{_cell('Move', move)}</tr>"
            f"<tr><td>Attacks</td><td colspan='3'>{attacks}</td></tr></table>"
        )
        if budget.reasons:
            text += "<br><small>" + "; ".join(budget.reasons) + "</small>"
        return text

    # --- widgets -> engine -------------------------------------------------------------

    def take(self, action_id: str, cantrip: bool = False) -> None:
        from battlemap.rules import economy

        creature_id = self.current()
        ruleset = self.session.ruleset()
        if creature_id is None or ruleset is None:
            return
        action = ruleset.actions[action_id]
        attack = self.buttons.get(action_id)
        offered = self.multiattack_menu.actions() and action.cost is ActionCost.ACTION
        if action.kind is ActionKind.ATTACK and offered and attack:
            self.multiattack_menu.popup(attack.mapToGlobal(attack.rect().bottomLeft()))
            return
        if action.kind in ATTACK_KINDS:
            self.open_attack(action_id)
            return
        if action.kind in CONTEST_KINDS:
            self.open_contest(action_id)
            return
        target: EntityId | None = None
        # A Search made with a token selected is made to see that creature (light matters).
        if action.needs_target or action.kind is ActionKind.SEARCH:
            chosen = [cid for cid in self.scene.selected_creatures() if cid != creature_id]
            if not chosen and action.needs_target:
                self.session.refused.emit(
                    f"{action.name}: select the target's token on the map first"
                )
                return
            target = chosen[0] if chosen else None
        trigger: str | None = None
        readied: str | None = None
        if action.kind is ActionKind.READY:
            trigger = self.trigger.text().strip()
            if not trigger:
                self.session.refused.emit("Ready: type the trigger first (when…)")
                self.ready_row.setVisible(True)
                self.trigger.setFocus()
                return
            readied = self.readied.currentData() or None
        name = self.session.name(creature_id)
        applied = self.session.run(
            f"{name}: {action.name}",
            lambda e, r: economy.take_action(
                e,
                r,
                creature_id,
                action_id,
                target_id=target,
                trigger=trigger,
                readied_action=readied,
                cantrip=cantrip,
            ),
        )
        if applied is not None and action.kind is ActionKind.READY:
            self.ready_row.setVisible(False)
