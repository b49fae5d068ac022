"""The saves the fight waits on (``rules.pending.saves_due``), each with a d20 box and a
button: concentration saves after damage, and saves that end a condition at the end of the
creature's turn. Typed from the table's die, or rolled by the app (the combat's dice; outside
a combat fresh dice, logged as rolled by the app). One undo step per save. Hidden when
nothing is owed."""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGridLayout, QGroupBox, QLabel, QPushButton, QSpinBox

from battlemap.model.combat import Combatant
from battlemap.model.encounter import Encounter
from battlemap.rules.dice import new_dice_state
from battlemap.rules.outcome import Outcome
from battlemap.rules.schema import Ruleset
from battlemap.ui.combat.session import CombatSession

# The engine and the heavier geometry are imported in the functions that use them, so
# the window is built without them (issue 17; tests/ui/test_start_up_imports.py).
if TYPE_CHECKING:
    from battlemap.rules.saves_due import SaveDue


class PendingSavesBox(QGroupBox):
    """One row per save owed now: what for, the d20 ("app rolls" at 0) and Save."""

    def __init__(self, session: CombatSession) -> None:
        super().__init__("Saves due")
        self.setObjectName("pending-saves")
        self.session = session
        self.grid = QGridLayout(self)
        self.grid.setContentsMargins(6, 4, 6, 4)
        self.rows: list[tuple[SaveDue, QSpinBox, QPushButton]] = []
        self._shown: tuple[SaveDue, ...] = ()
        session.changed.connect(self.refresh)
        self.refresh()

    def refresh(self) -> None:
        from battlemap.rules.saves_due import saves_due

        due = saves_due(self.session.encounter)
        if due == self._shown:
            self.setVisible(bool(due))
            return
        self._shown = due
        self.setVisible(False)  # shown again below: the new rows show with it
        while self.grid.count():
            item = self.grid.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        self.rows = []
        for index, pending in enumerate(due):
            label = QLabel(escape(pending.reason))
            label.setWordWrap(True)
            label.setTextFormat(Qt.TextFormat.RichText)
            die = QSpinBox()
            die.setRange(0, 20)
            die.setSpecialValueText("app rolls")
            die.setToolTip("The d20 rolled at the table, or 'app rolls'")
            button = QPushButton("Save")
            button.setToolTip(f"Make the save: {pending.reason}")
            button.clicked.connect(lambda _=False, i=index: self.make_save(i))
            self.grid.addWidget(label, index * 2, 0, 1, 2)
            self.grid.addWidget(die, index * 2 + 1, 0)
            self.grid.addWidget(button, index * 2 + 1, 1)
            self.rows.append((pending, die, button))
        self.setVisible(bool(due))

    def make_save(self, index: int) -> None:
        """Make the row's save, typed or rolled, as one undo step, and report the result."""
        if index >= len(self.rows):
            return
        pending, die, _ = self.rows[index]
        ruleset = self.session.ruleset()
        if ruleset is None:
            return
        typed: tuple[int, ...] | None = (die.value(),) if die.value() else None
        if typed is None and self.session.state is None:
            typed = self._fresh_faces(ruleset, pending)
        name = self.session.name(pending.creature_id)
        applied = self.session.run(f"{name}'s save", _save_call(pending, typed))
        if applied is not None:
            self.session.reported.emit(
                f"{pending.reason}: {'success' if applied.result else 'failure'}"
            )

    def _fresh_faces(self, ruleset: Ruleset, pending: SaveDue) -> tuple[int, ...]:
        """Outside a combat: the app's d20s from fresh dice (two with advantage/disadvantage)."""
        from battlemap.rules.loose_dice import fresh_d20s
        from battlemap.rules.saves import save_report

        lasting = self.session.encounter.creature(pending.creature_id).lasting
        stand_in = Combatant(creature_id=pending.creature_id, group="").with_lasting(lasting)
        mode = save_report(ruleset, stand_in, pending.ability).roll.mode
        return fresh_d20s(new_dice_state(self.session.seed_source()), mode, "saving throw")[1]


def _save_call(
    pending: SaveDue, typed: tuple[int, ...] | None
) -> Callable[[Encounter, Ruleset], Outcome[bool]]:
    """The engine operation of the save, its result being whether it succeeded."""
    from battlemap.rules.saves_due import SaveKind

    creature_id = pending.creature_id
    if pending.kind is SaveKind.CONCENTRATION:

        def concentration(encounter: Encounter, ruleset: Ruleset) -> Outcome[bool]:
            from battlemap.rules.concentration import concentration_save

            done = concentration_save(encounter, ruleset, creature_id, typed=typed)
            return Outcome(done.encounter, done.result.kept, done.events)

        return concentration
    condition = pending.condition or ""

    def ends(encounter: Encounter, ruleset: Ruleset) -> Outcome[bool]:
        from battlemap.rules.effects import effect_save

        done = effect_save(encounter, ruleset, creature_id, condition, typed=typed)
        return Outcome(done.encounter, done.result.ended, done.events)

    return ends
