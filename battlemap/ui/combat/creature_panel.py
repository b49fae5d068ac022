"""The combat part of the Creature dock: hit points in and out, the turn's economy,
conditions with durations, exhaustion, death saves, Bloodied and the ruleset's own states.

Damage, healing and temporary HP go through the engine (``apply_damage``, ``heal``,
``grant_temp_hp``) so the ruleset's pipeline applies (resistances from the creature's stat
block, temporary HP first, dropping to 0); they work outside a combat too. In a combat,
conditions (with a duration) and exhaustion change the creature's combatant; outside one they
change its lasting state (``Creature.lasting``: conditions never expire there, and the next
combat starts from it) through ``switch_lasting_condition`` / ``set_lasting_exhaustion``, which
log in the encounter log. Every change is one undo step.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from html import escape
from typing import Any

import shiboken6
from PySide6.QtCore import QSignalBlocker, Qt
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPushButton,
    QSizePolicy,
    QSpinBox,
    QToolButton,
    QWidget,
)

from battlemap.model.combat import Combatant, DeathState, Expiry
from battlemap.model.creature import Creature
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.model.statblock import StatBlock
from battlemap.rules.outcome import Outcome
from battlemap.rules.schema import Ruleset
from battlemap.rules.vitals import effective_max_hp, looks_bloodied
from battlemap.ui.combat.creature_extras import DeathSaveRow, UsesRow
from battlemap.ui.combat.session import CombatSession
from battlemap.ui.combat.widgets import BAD, DEFAULT_DAMAGE_TYPE, RULESET_DURATION, tone
from battlemap.ui.map_scene import MapScene
from battlemap.ui.plain_text import literal_mnemonics, plain_tooltip

# The engine and the heavier geometry are imported in the functions that use them, so
# the window is built without them (issue 17; tests/ui/test_start_up_imports.py).

DURATIONS: dict[str, Expiry | None] = {
    RULESET_DURATION: None,  # beside Exhaustion: says it is a duration
    "Until removed": Expiry.NEVER,
    "Until the start of its next turn": Expiry.START_OF_TURN,
    "Until the end of its turn": Expiry.END_OF_TURN,
}
SPIN_WIDTH = 72
"""Number boxes keep this width instead of stretching across the dock."""
ITS_TURN = "Its turn: "
"""How the "This turn" row starts for the creature whose turn it is (selected as it begins)."""
EXPIRY_TEXT = {
    Expiry.NEVER: "",
    Expiry.START_OF_TURN: "until the start of {who}'s turn",
    Expiry.END_OF_TURN: "until the end of {who}'s turn",
    Expiry.START_OF_GROUP_TURN: "until {who}'s group acts",
}


class CombatPanel(QGroupBox):
    """Shows and changes the selected creature's combat facts."""

    def __init__(
        self, session: CombatSession, scene: MapScene, library: Mapping[str, StatBlock]
    ) -> None:
        super().__init__("Combat")
        self.setObjectName("creature-combat-panel")
        self.session = session
        self.scene = scene
        self.library = library
        self.creature_id: EntityId | None = None
        form = QFormLayout(self)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        form.setVerticalSpacing(4)  # rows close together: the dock shares its column
        self.state_label = QLabel()
        self.state_label.setWordWrap(True)
        self.state_label.setTextFormat(Qt.TextFormat.RichText)
        form.addRow(self.state_label)

        amount_row = QHBoxLayout()
        self.amount = QSpinBox()
        self.amount.setRange(0, 100_000)
        self.amount.setMinimumWidth(SPIN_WIDTH)
        self.amount.setToolTip("Hit points to deal, heal or grant")
        amount_row.addWidget(self.amount)
        self.damage_type = QComboBox()
        self.damage_type.setToolTip("Damage type, from the ruleset")
        amount_row.addWidget(self.damage_type, 1)
        form.addRow("Amount", amount_row)
        buttons = QHBoxLayout()
        self.damage_button = QPushButton("Damage")
        self.damage_button.setToolTip("Deal the amount through the ruleset's damage pipeline")
        self.damage_button.clicked.connect(self.deal_damage)
        self.heal_button = QPushButton("Heal")
        self.heal_button.clicked.connect(self.heal)
        self.temp_button = QPushButton("Temp HP")
        self.temp_button.setToolTip("Grant temporary hit points (the ruleset says how they stack)")
        self.temp_button.clicked.connect(self.grant_temp)
        for button in (self.damage_button, self.heal_button, self.temp_button):
            buttons.addWidget(button)
        form.addRow(buttons)
        self.save_button = QPushButton("Saving throw…")
        self.save_button.setToolTip("Roll a saving throw for this creature against a DC")
        form.addRow(self.save_button)
        # The conditions above "This turn", their names and menu on one row, the duration
        # beside Exhaustion: at 1366 x 768 the conditions' menu and "This turn" sat at or
        # below the Creature dock's fold (found by the scripted session).
        self.economy = QLabel()
        self.economy.setWordWrap(True)
        self.conditions_label = QLabel()
        self.conditions_label.setTextFormat(Qt.TextFormat.PlainText)  # names in durations
        self.conditions_label.setWordWrap(True)
        conditions = QWidget()  # a widget, not a bare layout: the wrapped names' height holds
        condition_row = QHBoxLayout(conditions)
        condition_row.setContentsMargins(0, 0, 0, 0)
        condition_row.addWidget(self.conditions_label, 1)
        self.conditions_button = QToolButton()
        self.conditions_button.setText("Add or remove")
        self.conditions_button.setToolTip("Switch a condition on or off")
        self.conditions_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.conditions_menu = QMenu(self.conditions_button)
        self.conditions_menu.aboutToShow.connect(self._fill_conditions_menu)
        self.conditions_button.setMenu(self.conditions_menu)
        condition_row.addWidget(self.conditions_button)
        form.addRow("Conditions", conditions)
        self.duration = QComboBox()
        for label, expiry in DURATIONS.items():
            self.duration.addItem(label, expiry)
        self.duration.setToolTip("How long a condition switched on now (Add or remove) lasts")
        self.duration.setMinimumContentsLength(10)
        self.duration.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.exhaustion = QSpinBox()
        self.exhaustion.setKeyboardTracking(False)
        self.exhaustion.setMinimumWidth(SPIN_WIDTH)
        self.exhaustion.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self.exhaustion.valueChanged.connect(self.set_exhaustion)
        exhaustion_row = QHBoxLayout()
        exhaustion_row.addWidget(self.exhaustion)
        exhaustion_row.addWidget(self.duration, 1)
        form.addRow("Exhaustion", exhaustion_row)
        form.addRow("This turn", self.economy)
        self.death_row = DeathSaveRow(session)
        form.addRow("Dying", self.death_row)
        self.uses_row = UsesRow(session)
        form.addRow("Uses", self.uses_row)
        self.form = form
        self._combat_widgets: list[QWidget] = [self.conditions_button, self.exhaustion]
        scene.selectionChanged.connect(self._on_selection)
        session.changed.connect(self.refresh)
        self.refresh()

    # --- model -> widgets -----------------------------------------------------------

    def _on_selection(self) -> None:
        if not shiboken6.isValid(self.scene) or not shiboken6.isValid(self):
            return  # the window is being torn down
        ids = self.scene.selected_creatures()
        self.creature_id = ids[0] if len(ids) == 1 else None
        self.refresh()

    def _creature(self) -> Creature | None:
        if self.creature_id is None:
            return None
        try:
            return self.session.encounter.creature(self.creature_id)
        except KeyError:
            return None

    def _combatant(self) -> Combatant | None:
        """The creature's combatant; outside a combat, its lasting state as one (a fresh
        combatant when nothing lasts: what the next combat would start from); None for a
        creature left out of the running combat."""
        state = self.session.state
        if state is None:
            creature = self._creature()
            if creature is None:
                return None
            return Combatant(creature_id=creature.id, group="").with_lasting(creature.lasting)
        if self.creature_id is None or not state.has(self.creature_id):
            return None
        return state.combatant(self.creature_id)

    def refresh(self) -> None:
        creature = self._creature()
        self.setEnabled(creature is not None)
        ruleset = self.session.ruleset() if creature is not None else None
        self._show_extras(ruleset, creature)
        if creature is None or ruleset is None:
            self.state_label.setText("Select one token.")
            self.economy.setText("")
            self.conditions_label.setText("")
            return
        if self.damage_type.count() != len(ruleset.damage.types):
            self.damage_type.clear()
            for key, damage_type in ruleset.damage.types.items():
                self.damage_type.addItem(damage_type.name, key)
            self.damage_type.setCurrentIndex(max(0, self.damage_type.findData(DEFAULT_DAMAGE_TYPE)))
        combatant = self._combatant()
        self.state_label.setText(self._state_text(ruleset, creature, combatant))
        for widget in self._combat_widgets:
            widget.setEnabled(combatant is not None)
        in_combat = self.session.state is not None
        self.duration.setEnabled(in_combat and combatant is not None)
        # Outside a combat conditions last until removed: a greyed duration would show a stale one
        self.duration.setVisible(in_combat)
        blocker = QSignalBlocker(self.exhaustion)
        self.exhaustion.setRange(0, len(ruleset.exhaustion))
        self.exhaustion.setValue(combatant.exhaustion if combatant else 0)
        del blocker
        if combatant is None:
            self.economy.setText("Not in the combat")
            self.conditions_label.setText("–")
            return
        self.conditions_label.setText(self._conditions_text(combatant) or "none")
        if not in_combat:
            self.economy.setText("No combat: conditions and exhaustion last until changed")
            return
        turn = combatant.turn
        used = [
            name
            for name, spent in (
                ("action", turn.action_used),
                ("bonus action", turn.bonus_action_used),
                ("reaction", combatant.reaction_used),
            )
            if spent
        ]
        state = self.session.state
        assert state is not None and self.creature_id is not None
        from battlemap.rules import movement

        budget = movement.movement_budget(state, ruleset, self.session.encounter, self.creature_id)
        current = state.current is not None and state.current.creature_id == self.creature_id
        self.economy.setText(
            f"{ITS_TURN if current else ''}{'used ' + ', '.join(used) if used else 'nothing used'};"
            f" movement {budget.remaining:g} / {budget.total} ft left"
        )

    def _show_extras(self, ruleset: Ruleset | None, creature: Creature | None) -> None:
        """The Uses row when the creature has limited uses; the Dying row when it is dying
        outside a combat (in one, its turn makes the save)."""
        if creature is None or ruleset is None:
            self.form.setRowVisible(self.uses_row, False)
            self.form.setRowVisible(self.death_row, False)
            return
        self.form.setRowVisible(self.uses_row, self.uses_row.show_for(ruleset, creature.id))
        death = creature.lasting.death if creature.lasting is not None else DeathState()
        dying = (  # what death_save accepts outside a combat
            self.session.state is None
            and creature.hp == 0
            and not (death.dead or death.stable or death.brink or death.last_breath)
        )
        self.death_row.creature_id = creature.id
        self.form.setRowVisible(self.death_row, dying)

    def _state_text(self, ruleset: Ruleset, creature: Creature, combatant: Combatant | None) -> str:
        maximum = effective_max_hp(ruleset, creature, combatant)
        parts = [f"<b>{creature.hp} / {maximum} HP</b>"]
        if creature.temp_hp:
            parts.append(f"+{creature.temp_hp} temporary")
        if looks_bloodied(ruleset, creature, combatant):
            parts.append(f"<b style='color:{tone(BAD)}'>Bloodied</b>")
        if combatant is not None:
            death = combatant.death
            if death.dead:
                parts.append("<b>dead</b>")
            elif creature.hp == 0:
                parts.append("stable" if death.stable else "dying")
                parts.append(f"death saves {death.successes}✓ {death.failures}✗")
            for flag, text in (
                (death.brink, "Brink of Death"),
                (death.last_breath, "Last Breath"),
                (death.knocked_out, "knocked out"),
                (combatant.dodging, "Dodging"),
                (combatant.disengaged, "Disengaged"),
                (combatant.readied is not None, "readied"),
                (combatant.hidden_stealth is not None, "hidden"),
            ):
                if flag:
                    parts.append(text)
            if combatant.concentration is not None:
                parts.append(f"concentrating on {escape(combatant.concentration.spell)}")
        return " · ".join(parts)

    def _conditions_text(self, combatant: Combatant) -> str:
        parts = []
        for condition in combatant.conditions:
            text = condition.name + (f" {condition.value}" if condition.value != 1 else "")
            template = EXPIRY_TEXT[condition.expiry]
            if template and condition.expiry_creature is not None:
                text += f" ({template.format(who=self.session.name(condition.expiry_creature))})"
            parts.append(text)
        return ", ".join(parts)

    def _fill_conditions_menu(self) -> None:
        self.conditions_menu.clear()
        combatant, ruleset = self._combatant(), self.session.ruleset()
        if combatant is None or ruleset is None:
            return
        for name, definition in sorted(ruleset.conditions.items()):
            action = self.conditions_menu.addAction(literal_mnemonics(name))  # from a file
            action.setCheckable(True)
            action.setChecked(combatant.has_condition(name))
            action.setToolTip(plain_tooltip(definition.description))
            action.toggled.connect(lambda on, n=name: self.toggle_condition(n, on))

    # --- widgets -> engine -------------------------------------------------------------

    def _target(self) -> EntityId | None:
        if self.creature_id is None:
            self.session.refused.emit("Select one token first")
        return self.creature_id

    def _hp_step(
        self,
        text: str,
        call: Callable[[Encounter, Ruleset, EntityId], Outcome[Any]],
    ) -> None:
        creature_id = self._target()
        if creature_id is None:
            return
        applied = self.session.run(
            f"{text} {self.session.name(creature_id)}",
            lambda e, r: call(e, r, creature_id),
        )
        if applied is not None and applied.events:
            self.session.reported.emit(applied.events[-1].text)

    def deal_damage(self) -> None:
        from battlemap.rules.damage import DamageInstance, Defenses, apply_damage
        from battlemap.rules.statblocks import creature_defenses

        amount, damage_type = self.amount.value(), str(self.damage_type.currentData())
        creature_id = self.creature_id
        ruleset = self.session.ruleset()
        defenses = (
            creature_defenses(self.session.encounter, ruleset, self.library, creature_id)
            if creature_id is not None and ruleset is not None
            else Defenses()
        )
        self._hp_step(
            f"{amount} {damage_type} damage to",
            lambda e, r, cid: apply_damage(
                e, r, cid, [DamageInstance(amount, damage_type)], defenses=defenses
            ),
        )

    def heal(self) -> None:
        from battlemap.rules.healing import heal

        amount = self.amount.value()
        self._hp_step(f"Heal {amount}:", lambda e, r, cid: heal(e, r, cid, amount))

    def grant_temp(self) -> None:
        from battlemap.rules.healing import grant_temp_hp

        amount = self.amount.value()
        self._hp_step(
            f"{amount} temporary HP for", lambda e, r, cid: grant_temp_hp(e, r, cid, amount)
        )

    def _lasting_step(self, text: str, call: Callable[[Encounter, Ruleset], Outcome[None]]) -> None:
        """Outside a combat: change the lasting state through the engine (one undo step,
        logged in the encounter log) and report the last log line."""
        applied = self.session.run(text, call)
        if applied is not None and applied.events:
            self.session.reported.emit(applied.events[-1].text)

    def toggle_condition(self, name: str, on: bool) -> None:
        from battlemap.rules import conditions
        from battlemap.rules.conditions import switch_lasting_condition

        creature_id = self._target()
        if creature_id is None:
            return
        who = self.session.name(creature_id)
        if self.session.state is None:
            self._lasting_step(
                f"{who} is {name}" if on else f"{who}: {name} removed",
                lambda e, r: switch_lasting_condition(e, r, creature_id, name, on),
            )
            return
        if on:
            data = self.duration.currentData()  # Qt hands enum data back as a plain string
            expiry = Expiry(data) if data else None
            self.session.run(
                f"{who} is {name}",
                lambda e, r: conditions.apply_condition(e, r, creature_id, name, expiry=expiry),
            )
        else:
            self.session.run(
                f"{who}: {name} removed",
                lambda e, r: conditions.remove_condition(e, r, creature_id, name),
            )

    def set_exhaustion(self, level: int) -> None:
        from battlemap.rules import conditions
        from battlemap.rules.conditions import set_lasting_exhaustion

        creature_id = self._target()
        if creature_id is None:
            return
        if self.session.state is None:
            self._lasting_step(
                f"{self.session.name(creature_id)}: exhaustion {level}",
                lambda e, r: set_lasting_exhaustion(e, r, creature_id, level),
            )
            return
        self.session.run(
            f"{self.session.name(creature_id)}: exhaustion {level}",
            lambda e, r: conditions.set_exhaustion(e, r, creature_id, level),
        )
