"""bloodied-brink's Brink of Death on the decision card: the three choices.

Shown for the creature on the Brink (``rules.pending``), or breathing its Last Breath, which
ends with its turn (``turn_steps.next_turn``). The engine
(``death.brink_choice``) resolves each choice; the Sentence's Wisdom save takes a d20 typed
from the table or rolled by the app.
"""

from __future__ import annotations

from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QLabel, QPushButton, QSpinBox, QWidget

from battlemap.model.combat import CombatState
from battlemap.model.ids import EntityId
from battlemap.rules.character_checks import level_of, save_bonus_of
from battlemap.rules.enums import Ability, BrinkOption
from battlemap.rules.schema import Ruleset
from battlemap.ui.combat.session import CombatSession
from battlemap.ui.plain_text import plain_tooltip
from battlemap.ui.typed_dice import d20_spin

# The engine and the heavier geometry are imported in the functions that use them, so
# the window is built without them (issue 17; tests/ui/test_start_up_imports.py).

OPTION_LABELS = {
    BrinkOption.ADRENALINE: "Adrenaline",
    BrinkOption.SENTENCE: "Sentence",
    BrinkOption.LAST_BREATH: "Last Breath",
}


def _spin(low: int, high: int, value: int, tip: str) -> QSpinBox:
    spin = QSpinBox()
    spin.setRange(low, high)
    spin.setValue(value)
    spin.setToolTip(tip)
    return spin


class BrinkBox(QWidget):
    """The Brink of Death choices for the current creature."""

    def __init__(self, session: CombatSession) -> None:
        super().__init__()
        self.session = session
        self.creature_id: EntityId | None = None
        self.filled_for: EntityId | None = None
        """The creature whose numbers the boxes were filled with, while it is on the Brink."""
        grid = QGridLayout(self)  # two columns of boxes: the card on the map stays low
        grid.setContentsMargins(0, 4, 0, 0)
        self.level = _spin(1, 30, 1, "The creature's level (Adrenaline's cost and temporary HP)")
        self.points = _spin(0, 100, 0, "Empowering Points the creature has")
        self.wis_bonus = _spin(-10, 20, 0, "Wisdom saving throw bonus (Sentence)")
        self.d20 = d20_spin("The Sentence's d20 as rolled at the table, or leave 'app rolls'")
        for index, (label, spin) in enumerate(
            (
                ("Level", self.level),
                ("Empowering Points", self.points),
                ("Wis save bonus", self.wis_bonus),
                ("Sentence d20", self.d20),
            )
        ):
            row, column = divmod(index, 2)
            grid.addWidget(QLabel(label), row, 2 * column)
            grid.addWidget(spin, row, 2 * column + 1)
        buttons = QHBoxLayout()
        self.buttons: dict[BrinkOption, QPushButton] = {}
        for option, label in OPTION_LABELS.items():
            button = QPushButton(label)
            button.setToolTip(plain_tooltip(option.description))
            button.clicked.connect(lambda _=False, o=option: self.choose(o))
            buttons.addWidget(button)
            self.buttons[option] = button
        grid.addLayout(buttons, 2, 0, 1, 4)
        self.last_breath_note = QLabel(
            "<b>Last Breath</b>: a final full turn with an extra action; the creature dies"
            " when this turn ends."
        )
        self.last_breath_note.setWordWrap(True)
        grid.addWidget(self.last_breath_note, 3, 0, 1, 4)
        self.setVisible(False)

    def show_for(self, state: CombatState, ruleset: Ruleset, creature_id: EntityId) -> None:
        """Visible when ``creature_id`` is on the Brink or in its Last Breath."""
        death = state.combatant(creature_id).death
        rules = ruleset.death_saves.brink_of_death
        self.creature_id = creature_id
        self.setVisible(rules is not None and (death.brink or death.last_breath))
        for option, button in self.buttons.items():
            button.setVisible(death.brink and rules is not None and option in rules.options)
        for spin in (self.level, self.points, self.wis_bonus, self.d20):
            spin.setEnabled(death.brink)
        self.last_breath_note.setVisible(death.last_breath)
        on_brink = rules is not None and death.brink
        if on_brink and self.filled_for != creature_id:  # not again on each refresh
            assert rules is not None
            self.fill_from_creature(creature_id, rules.sentence.ability)
        self.filled_for = creature_id if on_brink else None

    def fill_from_creature(self, creature_id: EntityId, ability: Ability) -> None:
        """The level and save bonus boxes show the creature's own numbers (the DM may change
        them before choosing)."""
        creature = self.session.encounter.creature(creature_id)
        self.level.setValue(level_of(creature) or 1)
        self.wis_bonus.setValue(save_bonus_of(creature, creature.statblock, ability))

    def choose(self, option: BrinkOption) -> None:
        from battlemap.rules.death import brink_choice

        creature_id = self.creature_id
        if creature_id is None:
            return
        level, points = self.level.value(), self.points.value()
        bonus, typed = self.wis_bonus.value(), self.d20.value() or None
        applied = self.session.run(
            f"{self.session.name(creature_id)}: {OPTION_LABELS[option]}",
            lambda e, r: brink_choice(
                e,
                r,
                creature_id,
                option,
                level=level,
                empowering_points=points,
                wis_save_bonus=bonus,
                d20=typed,
            ),
        )
        if applied is not None and applied.events:
            self.session.reported.emit(applied.events[-1].text)
        self.d20.setValue(0)
