"""What the attacker declares before rolling: the rules that need a decision up front.

Only the declarations the encounter's ruleset has are shown: knocking a creature out
(every ruleset; gms-den wants it declared before the roll), gms-den's called shot (a
location) and what a fumbler does, legends-of-hyrule's target strike (paid with stamina or with
disadvantage) and off-hand dice, and whether the weapon is light (two-weapon fighting). The
engine checks them and says why not.
"""

from __future__ import annotations

import re
from dataclasses import replace

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QCheckBox, QComboBox, QFormLayout, QGroupBox, QLineEdit, QSpinBox

from battlemap.rules.attacks import (
    AttackOptions,
    AttackProfile,
    FumbleChoice,
    TargetStrikePayment,
)
from battlemap.rules.damage import DamageRoll
from battlemap.rules.enums import ActionKind, TwoWeaponMode
from battlemap.rules.schema import Ruleset

NO_TARGET_STRIKE = "No target strike"
OFFHAND = re.compile(r"^(\d{1,3}d\d{1,3}(?:[+-]\d{1,4})?)\s+([a-z][a-z -]*)$")
"""``1d4 piercing``: dice, then the damage type."""


class DeclarationsBox(QGroupBox):
    """Declarations for one attack; ``changed`` fires when any of them changes.

    Signals:
        changed(): a declaration changed (the dialog recomputes the roll mode and AC).
        knockout_changed(): knocking out was ticked or cleared (allowed after the roll where
            the ruleset decides it when the damage is dealt).
    """

    changed = Signal()
    knockout_changed = Signal()

    def __init__(self) -> None:
        super().__init__("Declared before the roll")
        form = QFormLayout(self)
        self.knockout = QCheckBox("Knock out instead of killing (melee)")
        self.knockout.toggled.connect(self.knockout_changed)
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
        self.offhand_dice = QLineEdit()
        self.offhand_dice.setPlaceholderText("e.g. 1d4 piercing (empty: none)")
        self.offhand_dice.setToolTip("The light weapon in the other hand adds its dice to a hit")
        self.offhand_dice.editingFinished.connect(self.changed)
        form.addRow("Off-hand dice", self.offhand_dice)
        self.fumble = QComboBox()
        self.fumble.addItem("fall prone", FumbleChoice.PRONE)
        self.fumble.addItem("hit itself (the DM resolves it)", FumbleChoice.HIT_SELF)
        self.fumble.setToolTip(
            "What the attacker does if the fumble table says 'prone or hit self'"
        )
        form.addRow("On a fumble", self.fumble)
        self._form = form
        self._offhand = False
        self.knockout_offered = True
        """False for an attack that can't knock out (ranged, where knocking out is melee only)."""

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
        adds_dice = ruleset.attacks.two_weapon.mode is TwoWeaponMode.ADD_OFFHAND_DICE
        self._form.setRowVisible(self.light, self._offhand or adds_dice)
        self._form.setRowVisible(self.offhand_dice, adds_dice)
        self._form.setRowVisible(self.fumble, ruleset.attacks.fumble_table is not None)
        self.blockSignals(True)
        self.knockout.setChecked(False)
        self.light.setChecked(self._offhand)
        self.called_shot.clear()
        self.offhand_dice.clear()
        strike = TargetStrikePayment.STAMINA if kind is ActionKind.TARGET_STRIKE else None
        self.target_strike.setCurrentIndex(max(0, self.target_strike.findData(strike)))
        self.blockSignals(False)

    def offer_knockout(self, refusal: str | None) -> None:
        """Offer knocking out, or (``refusal``: why not, e.g. a ranged attack) untick it and
        grey it out with the reason as its tooltip."""
        self.knockout_offered = refusal is None
        if refusal is not None and self.knockout.isChecked():
            blocked = self.knockout.blockSignals(True)
            self.knockout.setChecked(False)
            self.knockout.blockSignals(blocked)
        self.knockout.setEnabled(refusal is None)
        self.knockout.setToolTip(refusal or "")

    def offhand_roll(self) -> DamageRoll | None:
        """The typed off-hand dice and type ("1d4 piercing"), or None when empty or unreadable
        (the dialog shows what is wrong through the engine's refusal of a bad type)."""
        if not self._form.isRowVisible(self.offhand_dice):
            return None
        match = OFFHAND.match(self.offhand_dice.text().strip().lower())
        return DamageRoll(match.group(1), match.group(2)) if match else None

    def apply(
        self, options: AttackOptions, profile: AttackProfile
    ) -> tuple[AttackOptions, AttackProfile]:
        """The options and profile with these declarations."""
        location = self.called_shot.text().strip() or None
        fumble = self.fumble.currentData()
        strike = self.target_strike.currentData()  # Qt hands enum data back as a plain string
        options = replace(
            options,
            knockout=self.knockout.isChecked(),
            offhand=self._offhand,
            called_shot=location if self._form.isRowVisible(self.called_shot) else None,
            target_strike=TargetStrikePayment(strike) if strike else None,
            stamina_available=self.stamina.value(),
            offhand_dice=self.offhand_roll(),
            fumble_choice=FumbleChoice(fumble) if self._form.isRowVisible(self.fumble) else None,
        )
        if self.light.isChecked():
            profile = replace(profile, light=True)
        return options, profile
