"""What the attacker declares before rolling: the rules that need a decision up front.

Only the declarations the encounter's ruleset has are shown: knocking a creature out
(every ruleset; gms-den wants it declared before the roll), gms-den's called shot (a
location), legends-of-hyrule's target strike (paid with stamina or with disadvantage), and
whether the weapon is light (two-weapon fighting). The engine checks them and says why not.
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QCheckBox, QComboBox, QFormLayout, QGroupBox, QLineEdit, QSpinBox

from battlemap.rules.attacks import AttackOptions, AttackProfile, TargetStrikePayment
from battlemap.rules.enums import ActionKind, TwoWeaponMode
from battlemap.rules.schema import Ruleset

NO_TARGET_STRIKE = "No target strike"


class DeclarationsBox(QGroupBox):
    """Declarations for one attack; ``changed`` fires when any of them changes.

    Signals:
        changed(): a declaration changed (the dialog recomputes the roll mode and AC).
    """

    changed = Signal()

    def __init__(self) -> None:
        super().__init__("Declared before the roll")
        form = QFormLayout(self)
        self.knockout = QCheckBox("Knock out instead of killing (melee)")
        self.knockout.toggled.connect(self.changed)
        form.addRow(self.knockout)
        self.light = QCheckBox("Light weapon (two-weapon fighting)")
        self.light.toggled.connect(self.changed)
        form.addRow(self.light)
        self.called_shot = QLineEdit()
        self.called_shot.setPlaceholderText("location, e.g. eyes, weapon hand (empty: none)")
        self.called_shot.editingFinished.connect(self.changed)
        form.addRow("Called shot", self.called_shot)
        self.target_strike = QComboBox()
        self.target_strike.addItem(NO_TARGET_STRIKE, None)
        self.target_strike.addItem("Pay with stamina", TargetStrikePayment.STAMINA)
        self.target_strike.addItem("Take disadvantage", TargetStrikePayment.DISADVANTAGE)
        self.target_strike.currentIndexChanged.connect(self.changed)
        form.addRow("Target strike", self.target_strike)
        self.stamina = QSpinBox()
        self.stamina.setRange(0, 100)
        self.stamina.setToolTip("Stamina points the attacker has left")
        self.stamina.valueChanged.connect(self.changed)
        form.addRow("Stamina left", self.stamina)
        self._form = form
        self._offhand = False

    def configure(self, ruleset: Ruleset, kind: ActionKind | None) -> None:
        """Show what this ruleset can declare, preset for the action taken (``kind``)."""
        has_called = ruleset.attacks.called_shot is not None
        has_strike = ruleset.attacks.target_strike is not None
        self._offhand = (
            kind is ActionKind.OFFHAND_ATTACK
            and ruleset.attacks.two_weapon.mode is TwoWeaponMode.BONUS_ATTACK
        )
        self._form.setRowVisible(self.called_shot, has_called)
        self._form.setRowVisible(self.target_strike, has_strike)
        self._form.setRowVisible(self.stamina, has_strike)
        self._form.setRowVisible(self.light, self._offhand)
        self.blockSignals(True)
        self.knockout.setChecked(False)
        self.light.setChecked(self._offhand)
        self.called_shot.clear()
        strike = TargetStrikePayment.STAMINA if kind is ActionKind.TARGET_STRIKE else None
        self.target_strike.setCurrentIndex(max(0, self.target_strike.findData(strike)))
        self.blockSignals(False)

    def apply(
        self, options: AttackOptions, profile: AttackProfile
    ) -> tuple[AttackOptions, AttackProfile]:
        """The options and profile with these declarations."""
        location = self.called_shot.text().strip() or None
        strike = self.target_strike.currentData()  # Qt hands enum data back as a plain string
        options = replace(
            options,
            knockout=self.knockout.isChecked(),
            offhand=self._offhand,
            called_shot=location if self._form.isRowVisible(self.called_shot) else None,
            target_strike=TargetStrikePayment(strike) if strike else None,
            stamina_available=self.stamina.value(),
        )
        if self.light.isChecked():
            profile = replace(profile, light=True)
        return options, profile
