"""Area damage: one damage roll for every creature caught, half on a successful save.

The targets are the tokens selected on the map (select them, then **Use selected tokens**);
each row has a "saved" box. The damage is typed as dice and a type from the ruleset, rolled by
the app or typed as the total rolled at the table, and dealt by the engine
(``apply_area_damage``) with each target's own resistances: one undo step for all of them.
The Area template tool (``battlemap.ui.tools.template``) selects the creatures inside a placed
circle, cone, line or cube and opens this dialog for them.

It works outside a combat too (a fireball dropped before initiative is rolled), through the
same ``CombatSession.apply`` path as the Creature dock's damage: only hit points change. The
app's roll then comes from fresh dice seeded by ``session.seed_source`` (there are no combat
dice); it is shown in the outcome and dealt as the one total for every target (or one roll
per target, in target order, under a ruleset whose ``area_damage_rolled_once`` is false).
With such a ruleset a total typed in can serve one target only: the engine says so.
"""

from __future__ import annotations

import html
import re

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from battlemap.model.ids import EntityId
from battlemap.model.statblock import DICE_PATTERN, StatBlock
from battlemap.rules.damage import AreaTarget, DamageResult, DamageRoll, apply_area_damage
from battlemap.rules.dice import DiceExpressionError, new_dice_state, roll
from battlemap.rules.schema import Ruleset
from battlemap.ui.combat.attack_dialog import DEFAULT_DAMAGE_TYPE
from battlemap.ui.combat.creature_panel import creature_defenses
from battlemap.ui.combat.session import CombatSession
from battlemap.ui.combat.widgets import CombatDialog, add_outcome_and_close
from battlemap.ui.map_scene import MapScene
from battlemap.ui.token_item import TokenItem

ID_ROLE = Qt.ItemDataRole.UserRole


class AreaDialog(CombatDialog):
    """Deal one area effect's damage to the selected creatures."""

    def __init__(
        self,
        session: CombatSession,
        scene: MapScene,
        library: dict[str, StatBlock],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(session, scene, "area-dialog", "Area damage", parent)
        self.library = library
        layout = QVBoxLayout(self)
        hint = QLabel("Tick the creatures that made their saving throw.")
        hint.setWordWrap(True)
        layout.addWidget(hint)
        self.targets = QListWidget()
        layout.addWidget(self.targets, 1)
        self.use_selected = QPushButton("Use selected tokens")
        self.use_selected.clicked.connect(self.take_selection)
        layout.addWidget(self.use_selected)
        form = QFormLayout()
        self.dice = QLineEdit("8d6")
        self.dice.setToolTip("Damage dice such as 8d6, 2d10+4 or 12")
        form.addRow("Damage", self.dice)
        self.damage_type = QComboBox()
        form.addRow("Type", self.damage_type)
        self.half = QCheckBox("Half damage on a successful save")
        self.half.setChecked(True)
        form.addRow(self.half)
        self.typed = QSpinBox()
        self.typed.setRange(-1, 100_000)
        self.typed.setValue(-1)
        self.typed.setSpecialValueText("app rolls")
        self.typed.setToolTip("The total rolled at the table, or leave 'app rolls'")
        form.addRow("Rolled", self.typed)
        layout.addLayout(form)
        self.apply_button = QPushButton("Deal damage")
        self.apply_button.setDefault(True)
        self.apply_button.clicked.connect(self.deal)
        layout.addWidget(self.apply_button, 0, Qt.AlignmentFlag.AlignRight)
        self.outcome_label = add_outcome_and_close(self, layout)
        self.resize(360, 460)

    def open_for_selection(self) -> None:
        """Show the dialog with the tokens selected on the map as targets."""
        ruleset = self.session.ruleset()
        if ruleset is None:
            return  # the session has said why
        current = self.damage_type.currentData()
        self.damage_type.clear()
        for key, damage_type in ruleset.damage.types.items():
            self.damage_type.addItem(damage_type.name, key)
        wanted = self.damage_type.findData(current or DEFAULT_DAMAGE_TYPE)
        self.damage_type.setCurrentIndex(max(0, wanted))
        self.take_selection()
        self.outcome_label.clear()
        self.present()

    def take_selection(self) -> None:
        self.targets.clear()
        for item in self.scene.selectedItems():
            if isinstance(item, TokenItem):
                row = QListWidgetItem(self.session.name(item.creature_id))
                row.setData(ID_ROLE, str(item.creature_id))
                row.setFlags(row.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                row.setCheckState(Qt.CheckState.Unchecked)
                row.setToolTip("Checked: this creature saved")
                self.targets.addItem(row)

    def _area_targets(self, ruleset: Ruleset) -> list[AreaTarget]:
        encounter = self.session.encounter
        found = []
        for index in range(self.targets.count()):
            row = self.targets.item(index)
            if row is None:
                continue
            creature_id = EntityId(row.data(ID_ROLE))
            found.append(
                AreaTarget(
                    creature_id=creature_id,
                    saved=row.checkState() == Qt.CheckState.Checked,
                    defenses=creature_defenses(encounter, ruleset, self.library, creature_id),
                )
            )
        return found

    def deal(self) -> None:
        dice = self.dice.text().strip()
        if not re.match(DICE_PATTERN, dice):
            self.outcome_label.setText("<b>Type damage dice such as 8d6 or 2d10+4.</b>")
            return
        ruleset = self.session.ruleset()
        if ruleset is None:
            return
        targets = self._area_targets(ruleset)
        if not targets:
            self.outcome_label.setText("<b>Select the creatures caught, then Use selected.</b>")
            return
        parts = [DamageRoll(dice, str(self.damage_type.currentData()))]
        typed = [self.typed.value()] if self.typed.value() >= 0 else None
        state = self.session.state
        rolled = ""
        typed_each: list[list[int]] | None = None
        if typed is None and state is None:  # no combat dice: roll here, deal those totals
            once = ruleset.damage.area_damage_rolled_once
            try:
                totals, rolled = self._roll_without_combat(dice, 1 if once else len(targets))
            except DiceExpressionError as error:
                self.outcome_label.setText(f"<b>Refused:</b> {html.escape(str(error))}")
                return
            if once:
                typed = totals
            else:
                typed_each = [[total] for total in totals]
        half = self.half.isChecked()
        source = state.current.creature_id if state is not None and state.current else None
        applied = self.session.apply(
            f"Area damage ({dice} {parts[0].type})",
            lambda e, c, r: apply_area_damage(
                e,
                c,
                r,
                parts,
                targets,
                half_on_save=half,
                typed=typed,
                source_id=source,
                typed_each=typed_each,
            ),
        )
        if applied is None:
            refusal = html.escape(self.session.last_refusal)
            self.outcome_label.setText(f"<b>Refused:</b> {refusal}")
            return
        results: tuple[DamageResult, ...] = applied.result
        self.outcome_label.setText(rolled + "<br>".join(self._line(r) for r in results))
        dealt = ", ".join(f"{self.session.name(r.target_id)} -{r.total}" for r in results)
        self.session.reported.emit(f"Area damage: {dealt}")
        self.typed.setValue(-1)

    def _roll_without_combat(self, dice: str, count: int) -> tuple[list[int], str]:
        """Roll ``dice`` ``count`` times (once, or once per target when the ruleset's
        ``area_damage_rolled_once`` is false) from fresh dice seeded by the session: the totals
        and the rolls as outcome text.

        Raises:
            DiceExpressionError: ``dice`` can't be rolled.
        """
        dice_state = new_dice_state(self.session.seed_source())
        totals, lines = [], []
        for _ in range(count):
            dice_state, record = roll(dice_state, dice, "area damage")
            totals.append(record.total)
            lines.append(f"Rolled {html.escape(record.detail)}<br>")
        return totals, "".join(lines)

    def _line(self, result: DamageResult) -> str:
        name = self.session.name(result.target_id)
        text = f"<b>{name}</b>: {result.total} damage, HP {result.hp_before} → {result.hp_after}"
        if result.dropped_to_zero:
            text += " — dead" if result.died else " — down"
        return text
