"""The condition dialog: a condition with how long it lasts (the ruleset's default, until
removed, a number of rounds or minutes: 1 minute = 10 rounds), a save at the end of each of
the creature's turns that ends it (ability and DC), and whose concentration holds it. One
engine call (``effects.apply_effect``), one undo step. Opened from the Creature dock
("Condition…") and the token menu."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QSpinBox,
    QWidget,
)

from battlemap.model.combat import MAX_EFFECT_ROUNDS, Expiry, SaveEnds
from battlemap.model.ids import EntityId
from battlemap.rules.effects import ROUNDS_PER_MINUTE, apply_effect
from battlemap.rules.enums import Ability
from battlemap.ui.combat.concentration_ui import concentration_of
from battlemap.ui.combat.session import CombatSession
from battlemap.ui.combat.widgets import RULESET_DURATION, CombatDialog
from battlemap.ui.map_scene import MapScene
from battlemap.ui.plain_text import plain_tooltip

DEFAULT, UNTIL_REMOVED, ROUNDS, MINUTES = "default", "removed", "rounds", "minutes"
LASTS = {
    DEFAULT: RULESET_DURATION,
    UNTIL_REMOVED: "Until removed",
    ROUNDS: "Rounds",
    MINUTES: "Minutes (10 rounds each)",
}


class ConditionDialog(CombatDialog):
    """Give the creature a condition with a duration, a save that ends it, and a holder."""

    def __init__(
        self, session: CombatSession, scene: MapScene, parent: QWidget | None = None
    ) -> None:
        super().__init__(session, scene, "condition-dialog", "Condition", parent)
        self.creature_id: EntityId | None = None
        form = QFormLayout(self)
        self.condition = QComboBox()
        form.addRow("Condition", self.condition)
        lasts = QHBoxLayout()
        self.lasts = QComboBox()
        for key, label in LASTS.items():
            self.lasts.addItem(label, key)
        self.lasts.currentIndexChanged.connect(self._follow)
        lasts.addWidget(self.lasts, 1)
        self.amount = QSpinBox()
        self.amount.setRange(1, MAX_EFFECT_ROUNDS)
        self.amount.setValue(1)
        lasts.addWidget(self.amount)
        form.addRow("Lasts", lasts)
        save = QHBoxLayout()
        self.save_ends = QCheckBox("Save at the end of each of its turns")
        self.save_ends.toggled.connect(self._follow)
        form.addRow(self.save_ends)
        self.ability = QComboBox()
        for ability in Ability:
            self.ability.addItem(ability.description, ability.value)
        self.ability.setCurrentIndex(self.ability.findData(Ability.WIS.value))
        save.addWidget(self.ability, 1)
        self.dc = QSpinBox()
        self.dc.setRange(1, 40)
        self.dc.setValue(13)
        self.dc.setPrefix("DC ")
        save.addWidget(self.dc)
        form.addRow("Save", save)
        self.held_by = QComboBox()
        self.held_by.setToolTip("It ends when this creature's concentration ends")
        form.addRow("Held by", self.held_by)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.apply)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        self._follow()

    def open_for(self, creature_id: EntityId) -> None:
        """Fill the lists from the ruleset and the concentrating creatures, then show."""
        ruleset = self.session.ruleset()
        if ruleset is None:
            return
        self.creature_id = creature_id
        self.setWindowTitle(f"Condition on {self.session.name(creature_id)}")
        self.condition.clear()
        for name, definition in sorted(ruleset.conditions.items()):
            self.condition.addItem(name, name)
            self.condition.setItemData(
                self.condition.count() - 1,
                plain_tooltip(definition.description),
                Qt.ItemDataRole.ToolTipRole,
            )
        self.held_by.clear()
        self.held_by.addItem("nobody", None)
        for creature in self.session.encounter.creatures:
            held = concentration_of(self.session, creature.id)
            if held is not None:
                self.held_by.addItem(f"{creature.name} ({held.spell})", str(creature.id))
        self.held_by.setEnabled(self.held_by.count() > 1)
        self.present(activate=True)

    def _follow(self) -> None:
        counted = self.lasts.currentData() in (ROUNDS, MINUTES)
        self.amount.setEnabled(counted)
        self.ability.setEnabled(self.save_ends.isChecked())
        self.dc.setEnabled(self.save_ends.isChecked())

    def apply(self) -> None:
        """One engine call with everything chosen; the dialog stays open when it's refused."""
        creature_id = self.creature_id
        name = self.condition.currentData()
        if creature_id is None or not name:
            return
        lasts = self.lasts.currentData()
        rounds = None
        if lasts == ROUNDS:
            rounds = self.amount.value()
        elif lasts == MINUTES:
            rounds = min(MAX_EFFECT_ROUNDS, self.amount.value() * ROUNDS_PER_MINUTE)
        expiry = Expiry.NEVER if lasts == UNTIL_REMOVED else None
        save = (
            SaveEnds(ability=str(self.ability.currentData()), dc=self.dc.value())
            if self.save_ends.isChecked()
            else None
        )
        holder = self.held_by.currentData()
        held_by = EntityId(holder) if holder else None
        applied = self.session.run(
            f"{self.session.name(creature_id)} is {name}",
            lambda e, r: apply_effect(
                e, r, creature_id, name, rounds=rounds, save=save, held_by=held_by, expiry=expiry
            ),
        )
        if applied is not None:
            self.session.reported.emit(applied.events[-1].text)
            self.accept()
