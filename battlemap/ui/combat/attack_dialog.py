"""The attack dialog: pick an attack and a target, see the roll mode and AC with every reason,
roll in the app or type the physical dice, then the damage the same way.

Non-blocking: the dialog stays open beside the map so the DM can click the target's token,
and for the next attack of an Extra Attack. Two steps:

1. **Roll to hit**: the d20 (the app's, or one or two faces typed from the table) against the
   AC. A miss is recorded at once (one undo step: the attack is spent and logged).
2. **Apply damage** (on a hit): the damage dice (the app's, or the totals typed per part),
   through the ruleset's pipeline with the target's resistances, vulnerabilities and
   immunities. The whole attack, hit and damage, is ONE undo step.

The rolled d20 shown in step 1 is the one step 2 records: the combat's dice are a counter-based
source, so the same engine call on the same state draws the same numbers.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from html import escape

import shiboken6
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.model.statblock import DICE_PATTERN, StatBlock
from battlemap.rules.attack_log import log_attack_reasons
from battlemap.rules.attack_situation import attack_situation, statblock_profile
from battlemap.rules.attacks import (
    AttackOptions,
    AttackPlan,
    AttackProfile,
    AttackResult,
    AttackSituation,
    Delivery,
    RollMode,
    RollModeReport,
    armor_class,
    knockout_declared_in_time,
    make_attack,
    plan_attack,
    reasons_beyond_the_total,
    roll_mode,
)
from battlemap.rules.attacks_left import attacks_left
from battlemap.rules.damage import DamageRoll, Defenses, check_knockout
from battlemap.rules.errors import IllegalActionError
from battlemap.rules.outcome import EngineCall, Outcome, with_combat
from battlemap.rules.schema import Ruleset
from battlemap.rules.statblocks import (  # re-exported: the creature panel imports them from here
    find_statblock as find_statblock,
)
from battlemap.rules.statblocks import statblock_defenses as statblock_defenses
from battlemap.ui.combat.declarations import DeclarationsBox
from battlemap.ui.combat.placement import place_clear_of
from battlemap.ui.combat.session import CombatSession
from battlemap.ui.combat.widgets import (
    BAD,
    DEFAULT_DAMAGE_TYPE,
    GOOD,
    CombatDialog,
    add_outcome_and_close,
    tone,
)
from battlemap.ui.map_index_cache import IndexCache
from battlemap.ui.map_scene import MapScene
from battlemap.ui.plain_text import plain_tooltip
from battlemap.ui.typed_dice import D20Entry, DamageEntry

CUSTOM = "__custom__"
DEFAULT_RANGE = 80
LONG_RANGE_FACTOR = 4


def _types(text: str) -> tuple[str, ...]:
    return tuple(t.strip().lower() for t in text.split(",") if t.strip())


class AttackDialog(CombatDialog):
    """One attack at a time by the creature whose turn it is (or any attacker chosen)."""

    def __init__(
        self,
        session: CombatSession,
        scene: MapScene,
        library: Mapping[str, StatBlock],
        index: IndexCache,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(session, scene, "attack-dialog", "Attack", parent)
        self.library = library
        self.index = index
        """The window's map index, rebuilt once per map change (shared with the drag)."""
        self.action_id = ""
        """The action being made (set by ``open_for``); "": an attack spending no action."""
        self.preview: Outcome[AttackResult] | None = None
        self._blocks: dict[EntityId, StatBlock | None] = {}
        self._wanted_target: EntityId | None = None
        layout = QVBoxLayout(self)

        who = QFormLayout()
        self.attacker = QComboBox()
        self.attacker.currentIndexChanged.connect(lambda _index: self._attacker_changed())
        who.addRow("Attacker", self.attacker)
        self.attack = QComboBox()
        self.attack.currentIndexChanged.connect(self._attack_changed)
        who.addRow("Attack", self.attack)
        target_row = QHBoxLayout()
        self.target = QComboBox()
        self.target.currentIndexChanged.connect(self._target_changed)
        target_row.addWidget(self.target, 1)
        self.pick = QPushButton("Pick on map")
        self.pick.setCheckable(True)
        self.pick.setToolTip("Then click the target's token on the map")
        target_row.addWidget(self.pick)
        who.addRow("Target", target_row)
        layout.addLayout(who)

        self.custom = QGroupBox("Custom attack")
        custom = QFormLayout(self.custom)
        self.custom_to_hit = QSpinBox()
        self.custom_to_hit.setRange(-10, 40)
        self.custom_to_hit.setPrefix("+")
        self.custom_to_hit.setValue(4)
        self.custom_to_hit.valueChanged.connect(self.update_situation)
        custom.addRow("To hit", self.custom_to_hit)
        self.custom_dice = QLineEdit("1d6+2")
        self.custom_dice.setToolTip("Damage dice such as 1d8+3, 2d6 or 5")
        self.custom_dice.editingFinished.connect(self._parts_changed)
        custom.addRow("Damage", self.custom_dice)
        self.custom_type = QComboBox()
        self.custom_type.currentIndexChanged.connect(self._parts_changed)
        custom.addRow("Type", self.custom_type)
        self.custom_ranged = QCheckBox("Ranged")
        self.custom_ranged.toggled.connect(self.update_situation)
        custom.addRow(self.custom_ranged)
        self.custom_range = QSpinBox()
        self.custom_range.setRange(5, 1000)
        self.custom_range.setSingleStep(5)
        self.custom_range.setValue(DEFAULT_RANGE)
        self.custom_range.setSuffix(" ft")
        self.custom_range.setToolTip("Normal range; long range is four times it")
        self.custom_range.valueChanged.connect(self.update_situation)
        custom.addRow("Range", self.custom_range)
        layout.addWidget(self.custom)

        self.declarations = DeclarationsBox()
        self.declarations.changed.connect(self._parts_changed)
        self.declarations.knockout_changed.connect(self._knockout_changed)
        layout.addWidget(self.declarations)

        self.situation = QLabel()
        self.situation.setWordWrap(True)
        self.situation.setTextFormat(Qt.TextFormat.RichText)
        self.situation.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.situation)

        rolls = QGroupBox("To hit")
        roll_row = QHBoxLayout(rolls)
        roll_row.addWidget(QLabel("d20"))
        self.d20_entry = D20Entry()
        self.d20 = self.d20_entry.spins
        roll_row.addWidget(self.d20_entry)
        roll_row.addStretch(1)
        self.roll_button = QPushButton("Roll to hit")
        self.roll_button.setDefault(True)
        self.roll_button.clicked.connect(self.roll_to_hit)
        roll_row.addWidget(self.roll_button)
        layout.addWidget(rolls)

        self.damage_box = QGroupBox("Damage")
        damage = QVBoxLayout(self.damage_box)
        self.parts_row = QFormLayout()
        damage.addLayout(self.parts_row)
        self.damage_entry = DamageEntry(self.parts_row)
        self.damage_parts: list[DamageRoll] = []
        """The damage rolls of a hit, one typed-total box each (off-hand dice last)."""
        defenses = QFormLayout()
        self.resist = QLineEdit()
        self.vulnerable = QLineEdit()
        self.immune = QLineEdit()
        for box, label in (
            (self.resist, "Resists"),
            (self.vulnerable, "Vulnerable to"),
            (self.immune, "Immune to"),
        ):
            box.setPlaceholderText("damage types, comma-separated")
            defenses.addRow(label, box)
        damage.addLayout(defenses)
        self.defense_notes = QLabel()
        self.defense_notes.setWordWrap(True)
        self.defense_notes.setTextFormat(Qt.TextFormat.RichText)
        self.defense_notes.setToolTip("What the stat block says that the DM judges")
        self.defense_notes.setVisible(False)
        damage.addWidget(self.defense_notes)
        self.apply_button = QPushButton("Apply damage")
        self.apply_button.clicked.connect(self.apply_damage)
        damage.addWidget(self.apply_button, 0, Qt.AlignmentFlag.AlignRight)
        layout.addWidget(self.damage_box)

        self.outcome_label = add_outcome_and_close(self, layout)
        scene.selectionChanged.connect(self._on_map_selection)
        session.changed.connect(self._on_combat_changed)
        self._turn_of: EntityId | None = None
        self.resize(460, 600)

    # --- filling --------------------------------------------------------------------

    def open_for(
        self,
        action_id: str | None = None,
        target: EntityId | None = None,
        attacker: EntityId | None = None,
    ) -> None:
        """Show the dialog for ``attacker`` (default: the creature whose turn it is) against
        ``target`` if given, making ``action_id`` (None: the ruleset's Attack action, by its
        role; "": an attack spending no action). An opportunity attack passes the ruleset's
        opportunity attack, the reacting creature as ``attacker`` and the mover as ``target``."""
        self._wanted_target = target
        self._blocks.clear()  # the party or the library may have changed
        state = self.session.state
        ruleset = self.session.ruleset()
        if state is None or ruleset is None:
            self.session.refused.emit("No combat is running: start one in the Initiative dock.")
            return
        self.action_id = ruleset.roles.actions.attack if action_id is None else action_id
        action = ruleset.actions.get(self.action_id)
        self.setWindowTitle(f"{action.name if action else 'Attack'}")
        self.declarations.configure(ruleset, action.kind if action else None)
        self.custom_type.blockSignals(True)
        self.custom_type.clear()
        for key, damage_type in ruleset.damage.types.items():
            self.custom_type.addItem(damage_type.name, key)
        default_type = self.custom_type.findData(DEFAULT_DAMAGE_TYPE)
        self.custom_type.setCurrentIndex(max(0, default_type))
        self.custom_type.blockSignals(False)
        self.attacker.blockSignals(True)
        self.attacker.clear()
        for combatant in state.combatants:
            self.attacker.addItem(
                self.session.name(combatant.creature_id), str(combatant.creature_id)
            )
        current = state.current
        self._turn_of = current.creature_id if current is not None else None
        chosen = attacker or (current.creature_id if current is not None else None)
        if chosen is not None:
            self.attacker.setCurrentIndex(self.attacker.findData(str(chosen)))
        self.attacker.blockSignals(False)
        self._attacker_changed(keep_target=False)
        self.present(activate=True)
        self.keep_tokens_in_sight()

    def keep_tokens_in_sight(self) -> None:
        """Beside the map, clear of the attacker's and the target's tokens (``placement``)."""
        view = next(iter(self.scene.views()), None)
        ids = [cid for cid in (self.attacker_id(), self.target_id()) if cid is not None]
        tokens = [self.scene.tokens[cid] for cid in ids if cid in self.scene.tokens]
        if view is not None and tokens and self.isVisible():
            place_clear_of(self, view, [token.sceneBoundingRect() for token in tokens])

    def choose_attack(self, name: str) -> None:
        """Pick the attacker's stat-block attack called ``name`` (kept when it has none)."""
        attacker = self.attacker_id()
        block = self._statblock(attacker) if attacker is not None else None
        for index, attack in enumerate(block.attacks if block is not None else ()):
            if attack.name == name:
                self.attack.setCurrentIndex(self.attack.findData(index))
                return

    def _on_combat_changed(self) -> None:
        """Follow the combat: a new turn brings its creature in as attacker; else recompute."""
        if not self.isVisible() or self.preview is not None:
            return  # a hit waiting for its damage keeps the state it was rolled in
        state = self.session.state
        current = state.current if state is not None else None
        if current is None:
            self.close()
            return
        if current.creature_id != self._turn_of:
            self.open_for()  # a new turn: its creature's own Attack action
        else:
            self.update_situation()

    def attacker_id(self) -> EntityId | None:
        data = self.attacker.currentData()
        return EntityId(data) if data else None

    def target_id(self) -> EntityId | None:
        data = self.target.currentData()
        return EntityId(data) if data else None

    def _statblock(self, creature_id: EntityId) -> StatBlock | None:
        if creature_id not in self._blocks:
            creature = self.session.encounter.creature(creature_id)
            self._blocks[creature_id] = find_statblock(
                creature, self.session.encounter, self.library
            )
        return self._blocks[creature_id]

    def _attacker_changed(self, keep_target: bool = True) -> None:
        """Fill the attacker's attacks and the targets; keep the target when the DM switched
        attackers by hand, else take the wanted one, the selected token or the nearest foe."""
        attacker = self.attacker_id()
        state = self.session.state
        self.attack.blockSignals(True)
        self.attack.clear()
        block = self._statblock(attacker) if attacker else None
        for index, attack in enumerate(block.attacks if block else ()):
            self.attack.addItem(f"{attack.name} ({attack.to_hit:+d})", index)
        self.attack.addItem("Custom to-hit and damage…", CUSTOM)
        self.attack.blockSignals(False)
        self.target.blockSignals(True)
        previous = self.target_id() if keep_target else None
        self.target.clear()
        if state is not None:
            for combatant in state.combatants:
                if combatant.creature_id != attacker:
                    self.target.addItem(
                        self.session.name(combatant.creature_id), str(combatant.creature_id)
                    )
        candidates = (
            self._wanted_target,
            previous,
            self._selected_target(),
            self._nearest_foe(attacker),
        )
        self._wanted_target = None
        for candidate in candidates:
            index = self.target.findData(str(candidate)) if candidate is not None else -1
            if index >= 0:
                self.target.setCurrentIndex(index)
                break
        self.target.blockSignals(False)
        self._fill_defenses()
        self._attack_changed()

    def _selected_target(self) -> EntityId | None:
        attacker = self.attacker_id()
        others = [cid for cid in self.scene.selected_creatures() if cid != attacker]
        return others[0] if others else None

    def _nearest_foe(self, attacker_id: EntityId | None) -> EntityId | None:
        """The nearest living combatant hostile to the attacker (the usual target)."""
        state = self.session.state
        if attacker_id is None or state is None:
            return None
        encounter = self.session.encounter
        attacker = encounter.creature(attacker_id)
        foes = [
            encounter.creature(c.creature_id)
            for c in state.combatants
            if not c.death.dead and c.creature_id != attacker_id
        ]
        foes = [f for f in foes if f.side.is_hostile_to(attacker.side) and f.hp > 0]
        if not foes:
            return None
        return min(foes, key=lambda f: (f.x - attacker.x) ** 2 + (f.y - attacker.y) ** 2).id

    def _on_map_selection(self) -> None:
        if not shiboken6.isValid(self.scene) or not shiboken6.isValid(self):
            return  # the window is being torn down
        if not self.isVisible() or not self.pick.isChecked():
            return
        chosen = self._selected_target()
        if chosen is not None and self.target.findData(str(chosen)) >= 0:
            self.target.setCurrentIndex(self.target.findData(str(chosen)))
            self.pick.setChecked(False)

    def _attack_changed(self) -> None:
        self.outcome_label.clear()  # a new attack: the last one's result no longer applies
        self.custom.setVisible(self.attack.currentData() == CUSTOM)
        self._parts_changed()

    @property
    def damage_spins(self) -> list[QSpinBox]:
        """The typed damage totals, one box per part of ``damage_parts``."""
        return self.damage_entry.spins

    def _parts_changed(self) -> None:
        profile = self.profile()
        self.damage_parts = list(profile.damage) if profile else []
        offhand = self.declarations.offhand_roll()
        if profile is not None and offhand is not None:
            self.damage_parts.append(offhand)  # the engine rolls it as the last part
        self.damage_entry.set_parts(self.damage_parts)
        self.update_situation()

    def profile(self) -> AttackProfile | None:
        """The chosen attack as the engine takes it (None: a custom entry that isn't valid)."""
        attacker = self.attacker_id()
        if attacker is None:
            return None
        data = self.attack.currentData()
        if data == CUSTOM or data is None:
            dice = self.custom_dice.text().strip()
            if not re.match(DICE_PATTERN, dice):
                return None
            ranged = self.custom_ranged.isChecked()
            return AttackProfile(
                name="Custom attack",
                to_hit=self.custom_to_hit.value(),
                delivery=Delivery.RANGED if ranged else Delivery.MELEE,
                damage=(DamageRoll(dice, str(self.custom_type.currentData() or "bludgeoning")),),
                reach_feet=self.session.encounter.creature(attacker).reach,
                range_normal=self.custom_range.value() if ranged else None,
                range_long=self.custom_range.value() * LONG_RANGE_FACTOR if ranged else None,
            )
        block = self._statblock(attacker)
        assert block is not None
        attack, target, ruleset = block.attacks[int(data)], self.target_id(), self.session.ruleset()
        if target is None or ruleset is None:
            return AttackProfile.from_statblock(attack)
        return statblock_profile(self.session.encounter, ruleset, attacker, target, attack)

    # --- the situation -----------------------------------------------------------------

    def situation_now(self, ruleset: Ruleset) -> AttackSituation:
        """Distance, range band, cover, flanking and sight from the geometry, with reasons."""
        attacker_id, target_id, profile = self.attacker_id(), self.target_id(), self.profile()
        encounter = self.session.encounter
        if attacker_id is None or target_id is None or profile is None:
            return AttackSituation()
        return attack_situation(
            self.index.get(),
            encounter,
            encounter.combat,
            ruleset,
            attacker_id,
            target_id,
            profile,
        )

    def _fill_defenses(self) -> None:
        """The target's resistances, vulnerabilities and immunities from its stat block."""
        target_id = self.target_id()
        ruleset = self.session.ruleset()
        block = self._statblock(target_id) if target_id is not None else None
        defenses, notes = (
            statblock_defenses(block, ruleset) if ruleset is not None else (Defenses(), ())
        )
        self.resist.setText(", ".join(defenses.resistances))
        self.vulnerable.setText(", ".join(defenses.vulnerabilities))
        self.immune.setText(", ".join(defenses.immunities))
        self.defense_notes.setText("<br>".join(escape(note) for note in notes))
        self.defense_notes.setVisible(bool(notes))

    def _knockout_changed(self) -> None:
        """Before the roll: recheck (a ranged attack can't knock out). After a hit: the choice
        goes with the damage (srd: "the instant the damage is dealt")."""
        if self.preview is None:
            self.update_situation()

    def _target_changed(self) -> None:
        self._fill_defenses()
        self.update_situation()
        self.keep_tokens_in_sight()

    def update_situation(self) -> None:
        """Show the roll mode with every reason and the AC with cover, as the engine sees them.

        The engine's plan of the attack (``plan_attack``: its checks, no dice) gives the final
        roll mode (declarations included) and the AC, or its reason it can't be made.
        """
        self.preview = None
        self.damage_box.setEnabled(False)
        self.declarations.knockout.setEnabled(True)
        state, ruleset = self.session.state, self.session.ruleset()
        attacker_id, target_id, profile = self.attacker_id(), self.target_id(), self.profile()
        if state is None or ruleset is None or attacker_id is None or target_id is None:
            self.situation.setText("Choose an attacker and a target.")
            self.roll_button.setEnabled(False)
            return
        if profile is None:
            self.situation.setText("Type damage dice such as 1d8+3.")
            self.roll_button.setEnabled(False)
            return
        self.declarations.offer_knockout(_knockout_refusal(ruleset, profile))
        situation = self.situation_now(ruleset)
        refusal: str | None = None
        try:
            plan = self._plan(ruleset, situation, profile)
            report, ac = plan.roll_mode, plan.armor_class
        except ValueError as error:
            refusal = str(error)
            options, profile = self.declarations.apply(AttackOptions(), profile)
            target = self.session.encounter.creature(target_id)
            try:
                report = roll_mode(
                    ruleset,
                    state.combatant(attacker_id),
                    state.combatant(target_id),
                    profile,
                    situation,
                    options,
                )
                ac = armor_class(ruleset, target, situation, options)
            except ValueError:
                report, ac = None, None
        lines = [f"<b>{situation.distance_feet:g} ft</b> · {_cover_text(situation)}"]
        lines.extend(f"&nbsp;&nbsp;· {escape(reason)}" for reason in situation.reasons)
        if report is not None and ac is not None:
            lines.extend(_mode_lines(report))
            lines.append(f"<b>Target AC {ac.value}</b> ({escape(', '.join(ac.parts))})")
        left = attacks_left(state.combatant(attacker_id).turn)
        if left.count and self.action_id == ruleset.roles.actions.attack:  # the Attack action
            lines.append(f"<b>{escape(left.text[0].upper() + left.text[1:])}</b>")
        if refusal is not None:
            reason = escape(refusal)
            lines.append(f"<span style='color:{tone(BAD)}'><b>Can't attack:</b> {reason}</span>")
        self.roll_button.setEnabled(refusal is None)
        self.roll_button.setToolTip(
            plain_tooltip(refusal or "Roll the d20 (or use the typed faces) against the AC")
        )
        self.situation.setText("<br>".join(lines))
        self.d20_entry.set_two(report is not None and report.mode is not RollMode.NORMAL)

    # --- rolling ---------------------------------------------------------------------------

    def _options(self, with_damage: bool, d20: tuple[int, ...] | None = None) -> AttackOptions:
        return AttackOptions(
            action_id=self.action_id or None,  # "": a legendary action's attack, no economy
            d20=d20 or self.d20_entry.faces(),
            damage_rolls=self.damage_entry.rolls() if with_damage else None,
            defenses=Defenses(
                resistances=_types(self.resist.text()),
                vulnerabilities=_types(self.vulnerable.text()),
                immunities=_types(self.immune.text()),
            ),
        )

    def _plan(
        self, ruleset: Ruleset, situation: AttackSituation, profile: AttackProfile
    ) -> AttackPlan:
        """The engine's plan of the attack as declared (raises its refusal)."""
        attacker_id, target_id = self.attacker_id(), self.target_id()
        assert attacker_id and target_id
        options, profile = self.declarations.apply(self._options(with_damage=False), profile)
        return plan_attack(
            self.session.encounter, ruleset, attacker_id, target_id, profile, situation, options
        )

    def _call(
        self, with_damage: bool, d20: tuple[int, ...] | None = None
    ) -> EngineCall[AttackResult]:
        attacker_id, target_id, profile = self.attacker_id(), self.target_id(), self.profile()
        situation_ruleset = self.session.ruleset()
        assert attacker_id and target_id and profile and situation_ruleset
        situation = self.situation_now(situation_ruleset)
        options, profile = self.declarations.apply(self._options(with_damage, d20), profile)

        def call(encounter: Encounter, ruleset: Ruleset) -> Outcome[AttackResult]:
            applied = make_attack(
                encounter,
                ruleset,
                attacker_id,
                target_id,
                profile,
                situation,
                options,
            )
            return _with_reasons(applied)

        return call

    def roll_to_hit(self) -> None:
        """Step 1: the d20 against the AC; a miss is recorded now, a hit waits for damage."""
        if self.attacker_id() is None or self.target_id() is None or self.profile() is None:
            self.session.refused.emit("Choose an attacker, an attack and a target")
            return
        state, ruleset = self.session.state, self.session.ruleset()
        if state is None or ruleset is None:
            return
        try:
            preview = self._call(with_damage=False)(self.session.encounter, ruleset)
        except (ValueError, KeyError) as error:
            self.outcome_label.setText(f"<b>Refused:</b> {escape(str(error))}")
            self.session.refused.emit(str(error))
            return
        outcome = preview.result
        self.outcome_label.setText(_hit_text(outcome))
        if not outcome.hit or not outcome.profile.damage:
            self.session.run(_step_text(outcome), self._call(with_damage=False))
            self._reset_dice()
            return
        self.preview = preview
        rolled = outcome.damage_rolled  # the dice the engine rolls: a critical's doubled ones
        self.damage_entry.label_rolled(rolled.expressions if rolled is not None else None)
        self.damage_box.setEnabled(True)
        # gms-den wants a knock-out declared before the roll; elsewhere it can still be ticked.
        offered = self.declarations.knockout_offered
        self.declarations.knockout.setEnabled(offered and not knockout_declared_in_time(ruleset))
        self.apply_button.setFocus()

    def apply_damage(self) -> None:
        """Step 2: record the whole attack with its damage as one undo step.

        Typed totals the engine refuses (more than the dice can show) leave the hit waiting
        for its damage, the engine's reason under it, and nothing recorded.
        """
        if self.preview is None:
            return
        state, ruleset = self.session.state, self.session.ruleset()
        if state is None or ruleset is None:
            return
        call = self._call(with_damage=True)
        try:
            call(self.session.encounter, ruleset)
        except (ValueError, KeyError) as error:
            reason = escape(str(error), quote=False)
            refused = f"<span style='color:{tone(BAD)}'><b>Refused:</b> {reason}</span>"
            self.outcome_label.setText(_hit_text(self.preview.result) + "<br>" + refused)
            self.session.refused.emit(str(error))
            return
        applied = self.session.run(_step_text(self.preview.result), call)
        self.preview = None
        self.damage_box.setEnabled(False)
        self.declarations.knockout.setEnabled(self.declarations.knockout_offered)
        if applied is None:
            return
        outcome: AttackResult = applied.result
        self.outcome_label.setText(_hit_text(outcome) + "<br>" + _damage_text(outcome))
        if outcome.damage is not None:
            self.session.reported.emit(_plain_damage(outcome))
        self._reset_dice()

    def _reset_dice(self) -> None:
        self.d20_entry.reset()
        self.damage_entry.reset()


def _knockout_refusal(ruleset: Ruleset, profile: AttackProfile) -> str | None:
    """Why this attack can't knock out (the damage engine's rule), or None."""
    try:
        check_knockout(ruleset, True, melee=profile.delivery is Delivery.MELEE)
    except IllegalActionError as error:
        return str(error)
    return None


def _with_reasons(applied: Outcome[AttackResult]) -> Outcome[AttackResult]:
    """Add the roll mode with every reason and the AC parts to the combat log."""
    if applied.combat is None:
        return applied
    combat = log_attack_reasons(applied.combat, applied.result)
    return replace(applied, encounter=with_combat(applied.encounter, combat))


def _mode_lines(report: RollModeReport) -> list[str]:
    mode = report.mode.value.capitalize()
    if report.cancelled:
        mode = "Normal (advantage and disadvantage cancel)"
    lines = [f"<b>Roll: {mode}</b>"]
    lines.extend(f"&nbsp;&nbsp;+ advantage: {escape(reason)}" for reason in report.advantages)
    lines.extend(f"&nbsp;&nbsp;− disadvantage: {escape(reason)}" for reason in report.disadvantages)
    return lines


def _cover_text(situation: AttackSituation) -> str:
    if situation.cover.value == "none":
        return "no cover"
    return f"{situation.cover.value} cover"


def _step_text(result: AttackResult) -> str:
    return f"Attack with {result.profile.name}"


def _hit_text(result: AttackResult) -> str:
    verdict = "CRITICAL HIT" if result.critical else "HIT" if result.hit else "MISS"
    colour = tone(GOOD) if result.hit else tone(BAD)
    faces = ", ".join(str(f) for f in result.d20_faces)
    return (
        f"<span style='font-size:large;color:{colour}'><b>{verdict}</b></span> — d20 [{faces}]"
        f" → {result.natural}{result.to_hit:+d} = <b>{result.total}</b> vs AC"
        f" {result.armor_class.value}{_reasons_line(result)}"
    )


def _reasons_line(result: AttackResult) -> str:
    reasons = reasons_beyond_the_total(result)
    return f"<br><small>{escape('; '.join(reasons))}</small>" if reasons else ""


def _damage_text(result: AttackResult) -> str:
    damage = result.damage
    if damage is None:
        return ""
    lines = []
    for instance in damage.instances:
        steps = " → ".join(
            [str(instance.rolled)] + [f"{s.after} ({s.reason})" for s in instance.steps[1:]]
        )
        lines.append(escape(f"{instance.type}: {steps}"))
    lines.append(f"<b>{damage.total} damage</b>: HP {damage.hp_before} → {damage.hp_after}")
    if damage.temp_hp_absorbed:
        lines.append(f"{damage.temp_hp_absorbed} absorbed by temporary HP")
    if damage.dropped_to_zero:
        lines.append("<b>dropped to 0 HP</b>" + (" and died" if damage.died else ""))
    return "<br>".join(lines)


def _plain_damage(result: AttackResult) -> str:
    damage = result.damage
    assert damage is not None
    return (
        f"{result.profile.name}: {damage.total} damage, HP {damage.hp_before} → {damage.hp_after}"
    )
