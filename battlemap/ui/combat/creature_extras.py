"""Two rows of the Creature dock's combat panel that work in and out of a combat:

- **Uses**: the selected creature's limited uses (``limited_actions.use_statuses``, Action
  Surge), kept on the creature across combats, and **Rest finished** (Short / Long) for a
  ruleset without rules of its own for that rest (``rest_uses.regain_after_rest``; in
  bloodied-brink the Rest dialog's rests give them back, and the menu says so).
- **Death save**: outside a combat, a dying creature's death saving throw
  (``death.death_save`` on its lasting state): the d20 typed in, or rolled by the app from
  fresh dice (the engine logs it as the app's roll). In a combat the turn makes it, so the
  row hides.

Each click is one engine call through ``CombatSession.run``: one undo step.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QHBoxLayout, QLabel, QMenu, QPushButton, QToolButton, QWidget

from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.rules.character_features import action_surges, action_surges_left
from battlemap.rules.dice import AppRoll, new_dice_state, roll
from battlemap.rules.enums import RestType
from battlemap.rules.outcome import Outcome
from battlemap.rules.schema import Ruleset
from battlemap.ui.combat.session import CombatSession
from battlemap.ui.plain_text import plain_tooltip
from battlemap.ui.typed_dice import APP_ROLLS, TouchSpinBox

# The engine and the heavier geometry are imported in the functions that use them, so
# the window is built without them (issue 17; tests/ui/test_start_up_imports.py).
if TYPE_CHECKING:
    from battlemap.rules.death import DeathSaveResult


def uses_text(encounter: Encounter, creature_id: EntityId) -> str:
    """``Fire Breath ready · Legendary Resistance 1/3 · Action Surge 0/1``; "" when it has
    no limited uses."""
    from battlemap.rules.limited_actions import use_statuses
    from battlemap.rules.rest_uses import ACTION_SURGE_NAME

    creature = encounter.creature(creature_id)
    parts = [
        f"{s.key} {'ready' if s.left else 'spent'}"
        if s.usage.times == 1
        else f"{s.key} {s.left}/{s.usage.times}"
        for s in use_statuses(encounter, creature_id)
    ]
    total = action_surges(creature)
    if total:
        parts.append(f"{ACTION_SURGE_NAME} {action_surges_left(creature)}/{total}")
    return " · ".join(parts)


class UsesRow(QWidget):
    """The creature's limited uses, and **Rest finished** to give them back."""

    def __init__(self, session: CombatSession) -> None:
        super().__init__()
        self.session = session
        self.creature_id: EntityId | None = None
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        self.label = QLabel()
        self.label.setWordWrap(True)
        row.addWidget(self.label, 1)
        self.rest_button = QToolButton()
        self.rest_button.setText("Rest finished")
        self.rest_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(self.rest_button)
        self.rest_actions = {}
        for kind in RestType:
            action = menu.addAction(f"{kind.value.capitalize()} rest")
            action.triggered.connect(lambda _=False, k=kind: self.regain(k))
            self.rest_actions[kind] = action
        self.rest_button.setMenu(menu)
        row.addWidget(self.rest_button)

    def show_for(self, ruleset: Ruleset, creature_id: EntityId) -> bool:
        """Fill the row for the creature; False (nothing to show) when it has no uses."""
        from battlemap.rules.rest_uses import regain_refusal, uses_to_regain

        self.creature_id = creature_id
        encounter = self.session.encounter
        text = uses_text(encounter, creature_id)
        self.label.setText(text)
        for kind, action in self.rest_actions.items():
            refusal = regain_refusal(ruleset, kind)
            back = uses_to_regain(encounter, creature_id, kind)
            action.setEnabled(refusal is None and bool(back))
            tip = refusal or (f"Gives back: {', '.join(back)}" if back else "Nothing is spent")
            action.setToolTip(plain_tooltip(tip))
        menu = self.rest_button.menu()
        menu.setToolTipsVisible(True)
        self.rest_button.setEnabled(any(a.isEnabled() for a in self.rest_actions.values()))
        return bool(text)

    def regain(self, kind: RestType) -> None:
        from battlemap.rules.rest_uses import regain_after_rest

        creature_id = self.creature_id
        if creature_id is None:
            return
        applied = self.session.run(
            f"{self.session.name(creature_id)}: {kind.value} rest finished",
            lambda e, r: regain_after_rest(e, r, creature_id, kind),
        )
        if applied is not None and applied.events:
            self.session.reported.emit(applied.events[-1].text)


class DeathSaveRow(QWidget):
    """Outside a combat: a dying creature's death save, the d20 typed or the app's."""

    def __init__(self, session: CombatSession) -> None:
        super().__init__()
        self.session = session
        self.creature_id: EntityId | None = None
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        self.d20 = TouchSpinBox()
        self.d20.setRange(0, 20)
        self.d20.setSpecialValueText(APP_ROLLS)
        self.d20.setToolTip("The d20 rolled at the table; \u201capp rolls\u201d: the app rolls it")
        row.addWidget(self.d20)
        self.button = QPushButton("Death save")
        self.button.setToolTip("Make the dying creature's death saving throw (no combat running)")
        self.button.clicked.connect(self.make_save)
        row.addWidget(self.button)

    def make_save(self) -> None:
        creature_id = self.creature_id
        if creature_id is None:
            return
        typed = self.d20.value() or None
        if typed is None:  # no combat dice outside a combat: fresh ones, seeded by the session
            _dice, record = roll(new_dice_state(self.session.seed_source()), "1d20", "death save")
            typed = AppRoll(record.total)  # the engine logs it as rolled by the app

        def save(e: Encounter, r: Ruleset) -> Outcome[DeathSaveResult]:
            from battlemap.rules.death import death_save

            return death_save(e, r, creature_id, d20=typed)

        applied = self.session.run(f"{self.session.name(creature_id)}: death save", save)
        self.d20.setValue(0)
        if applied is not None and applied.events:
            self.session.reported.emit(applied.events[-1].text)
