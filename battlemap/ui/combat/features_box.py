"""The Actions dock's class features of the creature whose turn it is: Action Surge and the
bonus actions a feature grants (Cunning Action's Dash, Disengage, Hide).

Shown only when the legal query offers such a choice (``rules.legal``: from the character's
sheet); each button is enabled exactly when the engine would accept it, its tooltip the reason
when not, and each use is one undo step.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QGridLayout, QGroupBox, QPushButton

from battlemap.model.ids import EntityId
from battlemap.rules.character_features import action_surges, action_surges_left
from battlemap.rules.enums import ActionCost, RestType
from battlemap.rules.schema import Ruleset
from battlemap.ui.combat.session import CombatSession
from battlemap.ui.plain_text import literal_mnemonics, plain_tooltip

# The engine and the heavier geometry are imported in the functions that use them, so
# the window is built without them (issue 17; tests/ui/test_start_up_imports.py).
if TYPE_CHECKING:
    from battlemap.rules.legal import Choice, LegalActions

COLUMNS = 2


class FeaturesBox(QGroupBox):
    """Buttons for Action Surge and feature-granted bonus actions of the current creature."""

    def __init__(self, session: CombatSession) -> None:
        super().__init__("Features")
        self.setObjectName("features-box")
        self.session = session
        self.creature_id: EntityId | None = None
        self.grid = QGridLayout(self)
        self.grid.setContentsMargins(4, 4, 4, 4)
        self.surge = QPushButton("Action Surge", self)
        self.surge.clicked.connect(self.use_action_surge)
        self.regain = QPushButton("Regain (rested)", self)
        self.regain.clicked.connect(self.regain_uses)
        self.bonus_buttons: dict[str, QPushButton] = {}
        self._shown: tuple[tuple[str, ...], bool] | None = None
        """The bonus action ids and whether Action Surge is shown: rebuilt only on a change."""
        self.setVisible(False)

    def show_for(self, ruleset: Ruleset, legal: LegalActions) -> None:
        """Show the creature's feature choices from ``legal``; hidden when it has none."""
        from battlemap.rules.action_surge import ACTION_SURGE
        from battlemap.rules.legal import ChoiceKind
        from battlemap.rules.rest_uses import regain_refusal

        self.creature_id = legal.creature_id
        bonus = [
            c
            for c in legal.choices
            if c.kind is ChoiceKind.BONUS_ACTION
            and c.id in ruleset.actions
            and ruleset.actions[c.id].cost is not ActionCost.BONUS_ACTION  # a feature's grant
        ]
        surge = next((c for c in legal.choices if c.id == ACTION_SURGE), None)
        self._layout(bonus, surge is not None)
        for choice in bonus:
            _enable(self.bonus_buttons[choice.id], choice, ruleset.actions[choice.id].description)
        if surge is not None:
            creature = self.session.encounter.creature(legal.creature_id)
            left, total = action_surges_left(creature), action_surges(creature)
            self.surge.setText(f"Action Surge ({left}/{total})")
            _enable(self.surge, surge, "One more action this turn")
            refusal = regain_refusal(ruleset, RestType.SHORT)
            self.regain.setEnabled(left < total and refusal is None)
            self.regain.setToolTip(
                plain_tooltip(
                    "A short or long rest was finished: Action Surge's uses come back"
                    if refusal is None
                    else f"Not here: {refusal}"
                )
            )
        self.setVisible(bool(bonus) or surge is not None)

    def _layout(self, bonus: list[Choice], surge: bool) -> None:
        shown = (tuple(c.id for c in bonus), surge)
        if shown != self._shown:
            self._shown = shown
            for button in self.bonus_buttons.values():
                self.grid.removeWidget(button)
                button.deleteLater()
            self.bonus_buttons.clear()
            for index, choice in enumerate(bonus):
                button = QPushButton(literal_mnemonics(f"{choice.name} (bonus)"))
                button.clicked.connect(lambda _=False, a=choice.id: self.take_bonus(a))
                self.grid.addWidget(button, index // COLUMNS, index % COLUMNS)
                self.bonus_buttons[choice.id] = button
            row = (len(bonus) + COLUMNS - 1) // COLUMNS
            self.grid.addWidget(self.surge, row, 0)
            self.grid.addWidget(self.regain, row, 1)
        self.surge.setVisible(surge)
        self.regain.setVisible(surge)

    # --- widgets -> engine -------------------------------------------------------------

    def take_bonus(self, action_id: str) -> None:
        from battlemap.rules import economy

        creature_id = self.creature_id
        ruleset = self.session.ruleset()
        if creature_id is None or ruleset is None:
            return
        name = ruleset.actions[action_id].name
        self.session.run(
            f"{self.session.name(creature_id)}: {name} (bonus action)",
            lambda e, r: economy.take_action(e, r, creature_id, action_id, as_bonus_action=True),
        )

    def use_action_surge(self) -> None:
        from battlemap.rules.action_surge import action_surge

        creature_id = self.creature_id
        if creature_id is None:
            return
        applied = self.session.run(
            f"{self.session.name(creature_id)}: Action Surge",
            lambda e, r: action_surge(e, r, creature_id),
        )
        if applied is not None and applied.events:
            self.session.reported.emit(applied.events[-1].text)

    def regain_uses(self) -> None:
        from battlemap.rules.rest_uses import regain_after_rest

        creature_id = self.creature_id
        if creature_id is None:
            return
        self.session.run(
            f"{self.session.name(creature_id)} regains Action Surge",
            lambda e, r: regain_after_rest(e, r, creature_id, RestType.SHORT),
        )


def _enable(button: QPushButton, choice: Choice, description: str) -> None:
    button.setEnabled(choice.allowed)
    tip = description if choice.reason is None else f"Not available: {choice.reason}"
    button.setToolTip(plain_tooltip(tip))
