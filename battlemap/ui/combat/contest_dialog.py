"""The contest dialog: grapple, shove, escape, disarm, grapple move and stabilising.

Like the attack dialog it stays open beside the map, takes dice rolled in the app or typed
from the table (0 = the app rolls), and records the whole contest as one undo step. The
engine (``battlemap.rules.contests``, ``death.stabilize``) checks size, reach, free hands and
the economy and says why not; the result shows both totals and what happened.
"""

from __future__ import annotations

from html import escape
from typing import Any

from PySide6.QtCore import QSignalBlocker, Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from battlemap.model.character import Skill
from battlemap.model.ids import EntityId
from battlemap.rules import contests
from battlemap.rules.character_checks import check_bonus_of, skill_bonus_of
from battlemap.rules.death import stabilize
from battlemap.rules.enums import ActionKind, StabilizeMethod
from battlemap.rules.outcome import EngineCall
from battlemap.rules.schema import Ruleset
from battlemap.ui.combat.session import CombatSession
from battlemap.ui.combat.widgets import CombatDialog, add_outcome_and_close
from battlemap.ui.map_scene import MapScene
from battlemap.ui.typed_dice import d20_spin

SKILLS = ("Athletics", "Acrobatics")


def _bonus_spin() -> QSpinBox:
    spin = QSpinBox()
    spin.setRange(-10, 30)
    return spin


class ContestDialog(CombatDialog):
    """One contest (or a stabilising check) by the creature whose turn it is."""

    def __init__(self, session: CombatSession, scene: MapScene, parent: QWidget | None = None):
        super().__init__(session, scene, "contest-dialog", "", parent)
        self.action_id = "grapple"
        self.kind = ActionKind.GRAPPLE
        layout = QVBoxLayout(self)
        self.heading = QLabel()
        self.heading.setTextFormat(Qt.TextFormat.RichText)  # its names are escaped
        self.heading.setWordWrap(True)
        layout.addWidget(self.heading)
        form = QFormLayout()
        self.form = form
        self.target = QComboBox()
        self.target.currentIndexChanged.connect(lambda *_: self.fill_bonuses())
        form.addRow("Target", self.target)
        self.shove_effect = QComboBox()
        self.shove_effect.addItem("Knock prone", contests.ShoveEffect.PRONE)
        self.shove_effect.addItem("Push away", contests.ShoveEffect.PUSH)
        form.addRow("Shove to", self.shove_effect)
        self.method = QComboBox()
        form.addRow("Method", self.method)
        self.free_hand = QCheckBox("Has a free hand")
        self.free_hand.setChecked(True)
        form.addRow(self.free_hand)
        self.bonus = _bonus_spin()
        self.bonus.setToolTip("The acting creature's bonus (Athletics, to-hit, Medicine...)")
        form.addRow("Bonus", self.bonus)
        self.d20 = d20_spin("The acting creature's d20 as rolled at the table")
        form.addRow("d20", self.d20)
        self.skill = QComboBox()
        self.skill.addItems(SKILLS)
        self.skill.setToolTip("The defender chooses which skill resists")
        self.skill.currentTextChanged.connect(self._skill_chosen)
        form.addRow("Defender uses", self.skill)
        self.defender_bonus = _bonus_spin()
        form.addRow("Defender bonus", self.defender_bonus)
        self.defender_d20 = d20_spin("The defender's d20 as rolled at the table")
        form.addRow("Defender d20", self.defender_d20)
        layout.addLayout(form)
        self.resolve_button = QPushButton("Resolve")
        self.resolve_button.setDefault(True)
        self.resolve_button.clicked.connect(self.resolve)
        layout.addWidget(self.resolve_button, 0, Qt.AlignmentFlag.AlignRight)
        self.outcome_label = add_outcome_and_close(self, layout)
        self.resize(380, 360)

    # --- filling ----------------------------------------------------------------------

    def actor(self) -> EntityId | None:
        state = self.session.state
        slot = state.current if state is not None else None
        return slot.creature_id if slot is not None else None

    def target_id(self) -> EntityId | None:
        data = self.target.currentData()
        return EntityId(data) if data else None

    def open_for(self, action_id: str) -> None:
        """Show the dialog for ``action_id`` (one of ``CONTEST_KINDS``) of the current creature."""
        ruleset, actor = self.session.ruleset(), self.actor()
        if ruleset is None or actor is None or action_id not in ruleset.actions:
            self.session.refused.emit("No one's turn: begin the combat first")
            return
        action = ruleset.actions[action_id]
        self.action_id, self.kind = action_id, action.kind
        self.setWindowTitle(action.name)
        self.heading.setText(
            f"<b>{escape(self.session.name(actor))}: {escape(action.name)}</b>"
            f"<br>{escape(action.description)}"
        )
        stabilizing = self.kind is ActionKind.STABILIZE
        escaping = self.kind is ActionKind.ESCAPE
        self.method.clear()
        for method in ruleset.stabilizing.methods:
            self.method.addItem(method.value.replace("-", " "), method)
        self.form.setRowVisible(self.target, not escaping)
        self.form.setRowVisible(self.shove_effect, self.kind is ActionKind.SHOVE)
        self.form.setRowVisible(self.free_hand, self.kind is ActionKind.GRAPPLE)
        self.form.setRowVisible(self.method, stabilizing)
        for widget in (self.skill, self.defender_bonus, self.defender_d20):
            self.form.setRowVisible(widget, not stabilizing)
        self._fill_targets(actor, stabilizing)
        self.fill_bonuses()
        self.outcome_label.clear()
        self.present()

    def fill_bonuses(self) -> None:
        """The bonus boxes show the creatures' own skills (``character_checks``): the actor's
        Athletics (Medicine when stabilising; the chosen skill when escaping), the defender's
        better of Athletics and Acrobatics, which it picks. The DM may change them."""
        ruleset, actor = self.session.ruleset(), self.actor()
        if ruleset is None or actor is None:
            return
        encounter = self.session.encounter
        acting = encounter.creature(actor)
        if self.kind is ActionKind.STABILIZE:
            rules = ruleset.stabilizing
            self.bonus.setValue(check_bonus_of(acting, rules.skill, rules.ability.value))
            return
        if self.kind is ActionKind.ESCAPE:
            self.bonus.setValue(skill_bonus_of(acting, Skill(self.skill.currentText())))
            return
        if self.kind is not ActionKind.DISARM:  # a disarm's bonus is the attack roll's
            self.bonus.setValue(skill_bonus_of(acting, Skill.ATHLETICS))
        target = self.target_id()
        if target is None:
            return
        defender = encounter.creature(target)
        best = max(SKILLS, key=lambda name: skill_bonus_of(defender, Skill(name)))
        with QSignalBlocker(self.skill):
            self.skill.setCurrentText(best)
        self.defender_bonus.setValue(skill_bonus_of(defender, Skill(best)))

    def _fill_targets(self, actor: EntityId, stabilizing: bool) -> None:
        state = self.session.state
        self.target.clear()
        if state is None:
            return
        encounter = self.session.encounter
        for combatant in state.combatants:
            creature = encounter.creature(combatant.creature_id)
            if creature.id == actor or combatant.death.dead:
                continue
            if stabilizing and creature.hp > 0:
                continue
            self.target.addItem(creature.name, str(creature.id))
        selected = [cid for cid in self.scene.selected_creatures() if cid != actor]
        if selected and self.target.findData(str(selected[0])) >= 0:
            self.target.setCurrentIndex(self.target.findData(str(selected[0])))

    def _skill_chosen(self, name: str) -> None:
        actor, target = self.actor(), self.target_id()
        if self.kind is ActionKind.ESCAPE and actor is not None:
            self.bonus.setValue(skill_bonus_of(self.session.encounter.creature(actor), Skill(name)))
        elif target is not None:
            defender = self.session.encounter.creature(target)
            self.defender_bonus.setValue(skill_bonus_of(defender, Skill(name)))

    # --- resolving --------------------------------------------------------------------------

    def _call(self, ruleset: Ruleset, actor: EntityId, target: EntityId | None) -> EngineCall[Any]:
        contest = contests.Contest(
            bonus=self.bonus.value(),
            defender_bonus=self.defender_bonus.value(),
            defender_skill=self.skill.currentText(),
            d20=self.d20.value() or None,
            defender_d20=self.defender_d20.value() or None,
        )
        action_id, kind = self.action_id, self.kind
        if kind is ActionKind.ESCAPE:
            return lambda e, r: contests.escape(e, r, actor, contest, action_id=action_id)
        assert target is not None
        if kind is ActionKind.STABILIZE:
            # Qt hands enum data back as plain strings.
            method = StabilizeMethod(self.method.currentData() or StabilizeMethod.MEDICINE_CHECK)
            return lambda e, r: stabilize(
                e, r, actor, target, method=method, check_bonus=contest.bonus, d20=contest.d20
            )
        if kind is ActionKind.SHOVE:
            effect = contests.ShoveEffect(self.shove_effect.currentData())
            return lambda e, r: contests.shove(
                e, r, actor, target, effect, contest, action_id=action_id
            )
        if kind is ActionKind.DISARM:
            return lambda e, r: contests.disarm(e, r, actor, target, contest, action_id=action_id)
        if kind is ActionKind.GRAPPLE_MOVE:
            speed = self.session.encounter.creature(actor).speed
            return lambda e, r: contests.grapple_move(
                e, r, actor, target, contest, speed_feet=speed, action_id=action_id
            )
        hand = self.free_hand.isChecked()
        return lambda e, r: contests.grapple(
            e,
            r,
            actor,
            target,
            contest,
            has_free_hand=hand,
            action_id=action_id,
        )

    def resolve(self) -> None:
        ruleset, actor, target = self.session.ruleset(), self.actor(), self.target_id()
        if ruleset is None or actor is None:
            return
        if target is None and self.kind is not ActionKind.ESCAPE:
            self.outcome_label.setText("<b>Choose a target.</b>")
            return
        call = self._call(ruleset, actor, target)
        applied = self.session.run(
            f"{self.session.name(actor)}: {self.windowTitle()}",
            call,
        )
        if applied is None:
            self.outcome_label.setText(f"<b>Refused:</b> {escape(self.session.last_refusal)}")
            return
        self.outcome_label.setText(_result_text(applied.result))
        for spin in (self.d20, self.defender_d20):
            spin.setValue(0)


def _result_text(result: Any) -> str:
    if isinstance(result, contests.ContestResult):
        verdict = "SUCCESS" if result.success else "FAILURE"
        sides = ""
        if result.attacker_total is not None:
            sides = f" — {result.attacker_total} vs {result.defender_total}"
        reasons = escape("; ".join(result.reasons))
        text = f"<b>{verdict}</b>{sides}: {escape(result.effect)}<br><small>{reasons}</small>"
        if result.push_feet:
            text += f"<br>Move the token {result.push_feet} ft away."
        if result.move_feet:
            text += f"<br>Move both tokens up to {result.move_feet:g} ft."
        return text
    verdict = "STABLE" if result.success else "FAILURE"
    total = f" — {result.total} vs DC {result.dc}" if result.total is not None else ""
    return f"<b>{verdict}</b>{total} ({result.method.value.replace('-', ' ')})"
