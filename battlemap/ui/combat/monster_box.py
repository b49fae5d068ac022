"""The Actions dock's stat-block part: the current creature's save actions and limited uses,
every legendary creature's legendary actions and resistances, the lairs' actions
(``lair_box``), and the d6 of the next
creature's recharge.

Buttons are enabled exactly when the engine would accept them (``save_action_refusal``,
``legendary_status``: the same checks, nothing rolled); a disabled one's tooltip is the
engine's reason. Each click is one engine call and one undo step, then the flow that plays
the action (``MonsterFlow``): the area or saving-throw dialog pre-filled, the attack dialog.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QGridLayout,
    QGroupBox,
    QLabel,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from battlemap.model.combat import CombatState
from battlemap.model.ids import EntityId
from battlemap.model.statblock_actions import LEGENDARY_RESISTANCE, LegendaryAction, SaveAction
from battlemap.rules.attacks_left import statblock_in
from battlemap.rules.schema import Ruleset
from battlemap.ui.combat.lair_box import LairBox
from battlemap.ui.combat.monster_flow import MonsterFlow
from battlemap.ui.combat.next_die import NextTurnDie
from battlemap.ui.combat.session import CombatSession
from battlemap.ui.plain_text import literal_mnemonics, plain_tooltip

# The engine and the heavier geometry are imported in the functions that use them, so
# the window is built without them (issue 17; tests/ui/test_start_up_imports.py).
if TYPE_CHECKING:
    from battlemap.rules.limited_actions import (
        UseStatus,
    )


def _clear(layout: QGridLayout | QVBoxLayout) -> None:
    while layout.count():
        item = layout.takeAt(0)
        widget = item.widget() if item is not None else None
        if widget is not None:
            widget.deleteLater()


def save_summary(save: SaveAction) -> str:
    """``DC 21 Dex save, 60-ft cone, half on a success``."""
    area = f", {save.area.text}" if save.area is not None else ""
    half = ", half on a success" if save.half_on_success else ""
    return f"DC {save.dc} {save.ability.value[:3].capitalize()} save{area}{half}"


LEGENDARY_COLUMNS = 2
"""Legendary actions two to a row, Legendary Resistance in the last row's free cell."""


def uses_left(status: UseStatus) -> str:
    """`` · 2/3`` of a limited action's uses; `` · ready`` or `` · spent`` for one use."""
    if status.usage.times > 1:
        return f" · {status.left}/{status.usage.times}"
    return " · ready" if status.available else " · spent"


def _compact(button: QPushButton) -> QPushButton:
    """A button that never widens the dock: a long name is cut rather than the dock grown."""
    button.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
    button.setMinimumWidth(0)
    return button


class MonsterBox(QWidget):
    """Save actions, uses, legendary actions and the recharge die; hidden when none apply."""

    def __init__(self, session: CombatSession) -> None:
        super().__init__()
        self.session = session
        self.flow: MonsterFlow | None = None
        """Set by ``install``: opens the dialogs an action continues in."""
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.limited_widget = QWidget()
        self.limited = QGridLayout(self.limited_widget)
        self.limited.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.limited_widget)
        self.use_buttons: dict[str, QPushButton] = {}
        """Spend a use of a limited action kept as text (Legendary Resistance, 1/Day...)."""
        self.saves_widget = QWidget()
        self.saves = QGridLayout(self.saves_widget)
        self.saves.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.saves_widget)
        self.save_buttons: dict[str, QPushButton] = {}
        self.legendary_box = QGroupBox()  # each creature's line names its legendary actions
        self.legendary_box.setToolTip("Taken at the end of another creature's turn")
        self.legendary = QVBoxLayout(self.legendary_box)
        self.legendary.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.legendary_box)
        self.legendary_buttons: dict[tuple[EntityId, str], QPushButton] = {}
        self.lair = LairBox(session)
        layout.addWidget(self.lair)
        self.recharge = NextTurnDie(
            6,
            "The d6 of the next creature's recharge as rolled at the table, typed before ending"
            " this turn; or leave 'app rolls'",
        )
        self.recharge_label, self.recharge_die = self.recharge.label, self.recharge.die
        layout.addWidget(self.recharge)

    # --- model -> widgets ------------------------------------------------------------

    def refresh(self, state: CombatState | None, ruleset: Ruleset | None) -> None:
        current = state.current.creature_id if state is not None and state.current else None
        if state is None or ruleset is None or current is None:
            self.setVisible(False)
            return
        shown = self._show_current(state, ruleset, current)
        shown = self._show_legendary(state, ruleset) or shown
        shown = self.lair.refresh(state, ruleset) or shown
        shown = self._show_recharge(state) or shown
        self.setVisible(shown)

    def _show_current(self, state: CombatState, ruleset: Ruleset, creature_id: EntityId) -> bool:
        from battlemap.rules.limited_actions import save_action_refusal, use_statuses

        encounter = self.session.encounter
        statuses = {s.key: s for s in use_statuses(encounter, creature_id)}
        block = statblock_in(encounter, state.combatant(creature_id))
        saves = block.save_actions if block is not None else ()
        on_buttons = {save.uses_key for save in saves}
        _clear(self.limited)
        self.use_buttons = {}
        for listed in statuses.values():
            if listed.key in on_buttons:
                continue  # the save action's button says it
            # The uses left on the button itself: a line of text above it cost a row.
            use = _compact(QPushButton(literal_mnemonics(f"{listed.key}{uses_left(listed)}")))
            use.setEnabled(listed.available)
            use.setToolTip(plain_tooltip(f"Spend one use: {listed.text}"))
            use.clicked.connect(lambda _=False, k=listed.key: self.use_limited(creature_id, k))
            self.limited.addWidget(use, len(self.use_buttons) // 2, len(self.use_buttons) % 2)
            self.use_buttons[listed.key] = use
        self.limited_widget.setVisible(bool(self.use_buttons))
        _clear(self.saves)
        self.save_buttons = {}
        for index, save in enumerate(saves):
            status = statuses.get(save.uses_key) if save.usage is not None else None
            state_text = uses_left(status) if status is not None else ""
            button = _compact(QPushButton(literal_mnemonics(f"{save.name}{state_text}")))
            reason = save_action_refusal(encounter, ruleset, creature_id, save.name)
            button.setEnabled(reason is None)
            uses = f" ({status.text})" if status is not None else ""
            tip = f"{save_summary(save)}{uses}. {save.effect}"
            if reason is not None:
                tip = f"Not available: {reason}. {tip}"
            button.setToolTip(plain_tooltip(tip))
            button.clicked.connect(lambda _=False, s=save.name: self.use_save(s))
            self.saves.addWidget(button, index // 2, index % 2)
            self.save_buttons[save.name] = button
        self.saves_widget.setVisible(bool(saves))
        return bool(self.use_buttons) or bool(saves)

    def _show_legendary(self, state: CombatState, ruleset: Ruleset) -> bool:
        from battlemap.rules.legendary import legendary_status
        from battlemap.rules.limited_actions import use_statuses

        _clear(self.legendary)
        self.legendary_buttons = {}
        encounter = self.session.encounter
        any_shown = False
        current = state.current.creature_id if state.current is not None else None
        for combatant in state.combatants:
            status = legendary_status(encounter, ruleset, combatant.creature_id)
            if status is None or combatant.creature_id == current:
                continue  # on its own turn it takes none
            any_shown = True
            cid = combatant.creature_id
            heading = QLabel(f"<b>{escape(self.session.name(cid))}</b>: {status.text}")
            heading.setTextFormat(Qt.TextFormat.RichText)
            heading.setWordWrap(True)
            self.legendary.addWidget(heading)
            row = QWidget()
            grid = QGridLayout(row)
            grid.setContentsMargins(0, 0, 0, 0)
            for index, (action, reason) in enumerate(status.actions):
                cost = f" ({action.cost})" if action.cost > 1 else ""
                button = _compact(QPushButton(literal_mnemonics(f"{action.name}{cost}")))
                button.setEnabled(reason is None)
                tip = action.text if reason is None else f"Not available: {reason}"
                button.setToolTip(plain_tooltip(tip))
                button.clicked.connect(
                    lambda _=False, c=cid, a=action.name: self.take_legendary(c, a)
                )
                grid.addWidget(button, index // LEGENDARY_COLUMNS, index % LEGENDARY_COLUMNS)
                self.legendary_buttons[(cid, action.name)] = button
            resistance = next(
                (s for s in use_statuses(encounter, cid) if s.key == LEGENDARY_RESISTANCE), None
            )
            if resistance is not None:
                at_row, column = divmod(len(status.actions), LEGENDARY_COLUMNS)
                short = column > 0  # in the last row's free cell: one row less in the dock
                word = "Resist" if short else "Legendary Resistance"
                button = _compact(QPushButton(f"{word} ({resistance.left} left)"))
                button.setEnabled(resistance.available)
                button.setToolTip(
                    "Legendary Resistance: it fails a saving throw and chooses to succeed instead"
                )
                button.clicked.connect(
                    lambda _=False, c=cid: self.use_limited(c, LEGENDARY_RESISTANCE)
                )
                grid.addWidget(button, at_row, column, 1, LEGENDARY_COLUMNS - column)
                self.legendary_buttons[(cid, LEGENDARY_RESISTANCE)] = button
            self.legendary.addWidget(row)
        self.legendary_box.setVisible(any_shown)
        return any_shown

    def _show_recharge(self, state: CombatState) -> bool:
        """Offer to type the d6 of the next creature's recharge: the engine rolls it as that
        turn starts (``legendary.next_turn``)."""
        from battlemap.rules.limited_actions import recharges_due
        from battlemap.rules.turns import upcoming_creature

        upcoming = upcoming_creature(state)
        due = recharges_due(self.session.encounter, upcoming) if upcoming is not None else ()
        text = None
        if due and upcoming is not None:
            text = (
                f"<b>{escape(self.session.name(upcoming))}</b> rolls to recharge"
                f" {escape(', '.join(due))} as its turn starts"
            )
        self.recharge.show_for(upcoming, text)
        return bool(due)

    def typed_recharge(self) -> int | None:
        """The d6 typed for the next creature's recharge, or None (the app rolls)."""
        return self.recharge.typed()

    # --- widgets -> engine -------------------------------------------------------------

    def _current(self) -> EntityId | None:
        state = self.session.state
        return state.current.creature_id if state is not None and state.current else None

    def use_save(self, name: str) -> None:
        from battlemap.rules.limited_actions import use_save_action

        creature_id = self._current()
        if creature_id is None:
            return
        applied = self.session.run(
            f"{self.session.name(creature_id)}: {name}",
            lambda e, r: use_save_action(e, r, creature_id, name),
        )
        if applied is not None and self.flow is not None:
            self.flow.open_save(creature_id, applied.result)

    def take_legendary(self, creature_id: EntityId, name: str) -> None:
        from battlemap.rules.legendary import take_legendary_action

        applied = self.session.run(
            f"{self.session.name(creature_id)}: legendary {name}",
            lambda e, r: take_legendary_action(e, r, creature_id, name),
        )
        if applied is None or self.flow is None:
            return
        action: LegendaryAction = applied.result
        if action.attack is not None:
            self.flow.open_attack(creature_id, action.attack)
        elif action.save is not None:
            self.flow.open_save(creature_id, action.save)
        else:
            self.session.reported.emit(f"{self.session.name(creature_id)}: {action.text[:300]}")

    def use_limited(self, creature_id: EntityId, key: str) -> None:
        """Spend one use of ``key`` (Legendary Resistance, a 1/Day action): one undo step."""
        from battlemap.rules.limited_actions import use_limited

        self.session.run(
            f"{self.session.name(creature_id)}: {key}",
            lambda e, r: use_limited(e, r, creature_id, key),
        )
