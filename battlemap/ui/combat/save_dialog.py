"""Saving throw: one save (a Hold Person on the ogre, a trap on Thorin) for chosen creatures.

Opened from the Creature dock's **Saving throw…**, a token's right-click menu or the Combat
menu, for the selected creature(s). The DM sets the ability and the DC; each row
(``battlemap.ui.combat.save_rows``, shared with the Area damage dialog) shows the creature's
save bonus and roll mode with their reasons before anything is rolled (a paralyzed creature
fails Strength and Dexterity saves automatically, and says why), **Roll** rolls it, a player
character's row also takes the d20 rolled at the table, and the result reads
"d20 11 +4 = 15 vs DC 14: saved". The "saved" box follows the roll; the DM may flip it.

**Apply** records the rolled saves as ONE undo step: in a combat in the combat log (the app's
rolls advance the combat's dice), outside one in the encounter log. Rows not rolled are left
out. In a combat, "On a failure" may add a condition from the ruleset (paralyzed for Hold
Person) to every creature whose box is clear, in the same step; conditions need a combat, so
outside one the choice is off.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from battlemap.model.combat import CombatState
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.model.statblock import StatBlock
from battlemap.rules.conditions import apply_condition
from battlemap.rules.enums import Ability
from battlemap.rules.outcome import Outcome, running_combat, with_combat
from battlemap.rules.schema import Ruleset
from battlemap.ui.combat.save_rows import SaveRolls, StaleSavesError, party_first
from battlemap.ui.combat.save_text import result_line
from battlemap.ui.combat.session import CombatSession
from battlemap.ui.combat.widgets import CombatDialog, add_outcome_and_close
from battlemap.ui.map_scene import MapScene

DEFAULT_SAVE = Ability.WIS
DEFAULT_DC = 13
NO_CONDITION = "nothing"


class SaveDialog(CombatDialog):
    """Roll one saving throw for each chosen creature and record them as one undo step."""

    def __init__(
        self,
        session: CombatSession,
        scene: MapScene,
        library: Mapping[str, StatBlock],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(session, scene, "save-dialog", "Saving throw", parent)
        self.resize(460, 520)
        layout = QVBoxLayout(self)
        form = QFormLayout()
        self.saves = SaveRolls(session, library, self.parentWidget, DEFAULT_SAVE, DEFAULT_DC)
        self.ability, self.dc = self.saves.ability, self.saves.dc
        self.saves.add_save_row(form)
        self.condition = QComboBox()
        self.condition.setToolTip(
            "A condition for every creature that fails (its box clear), applied with the saves"
        )
        form.addRow("On a failure", self.condition)
        layout.addLayout(form)
        self.saves.add_to(layout)
        self.targets, self.roll_monsters = self.saves.targets, self.saves.roll_monsters
        self.use_selected = self.saves.use_selected
        self.use_selected.clicked.connect(lambda: self.open_for(self.scene.selected_creatures()))
        self.session.changed.connect(self._on_session_changed)
        self.apply_button = QPushButton("Apply")
        self.apply_button.setToolTip("Record the rolled saves in the log (one undo step)")
        self.apply_button.setDefault(True)
        self.apply_button.clicked.connect(self.apply_saves)
        layout.addWidget(self.apply_button, 0, Qt.AlignmentFlag.AlignRight)
        self.outcome_label = add_outcome_and_close(self, layout)
        self.saves.forget_on_new_encounter(self.outcome_label)

    # --- opening ---------------------------------------------------------------------------

    def open_for(self, creature_ids: Iterable[EntityId]) -> None:
        """Show the dialog with a row per creature (party first), nothing rolled yet; a
        creature no longer on the map is left out."""
        ruleset = self.session.ruleset()
        if ruleset is None:
            return  # the session has said why
        self._fill_conditions(ruleset)
        present = {creature.id for creature in self.session.encounter.creatures}
        chosen = [cid for cid in creature_ids if cid in present]  # one removed meanwhile: gone
        self.saves.set_creatures(party_first(self.session, chosen))
        if not self.saves.rows:
            self.outcome_label.setText("<b>Select the creatures that save, then Use selected.</b>")
        else:
            self.outcome_label.clear()
        self.present(activate=True)

    def open_for_selection(self) -> None:
        """Show the dialog for the tokens selected on the map."""
        self.open_for(self.scene.selected_creatures())

    def _fill_conditions(self, ruleset: Ruleset) -> None:
        """The ruleset's conditions (the last choice kept when it has it); off outside combat."""
        current = self.condition.currentData()
        self.condition.clear()
        self.condition.addItem(NO_CONDITION, None)
        for name in sorted(ruleset.conditions):
            self.condition.addItem(f"add {name}", name)
        self.condition.setCurrentIndex(max(0, self.condition.findData(current)))
        in_combat = self.session.state is not None
        self.condition.setEnabled(in_combat)
        if not in_combat:
            self.condition.setCurrentIndex(0)

    def _on_session_changed(self) -> None:
        """A combat begun or ended turns the condition choice on or off."""
        if self.isVisible():
            ruleset = self.session.ruleset()
            if ruleset is not None:
                self._fill_conditions(ruleset)

    # --- the saves -------------------------------------------------------------------------

    def failure_condition(self) -> str | None:
        """The condition a failed save adds (None: nothing, or outside a combat)."""
        if not self.condition.isEnabled():
            return None
        name = self.condition.currentData()
        return str(name) if name else None

    def apply_saves(self) -> None:
        """Record every rolled save (with the DM's overrides) and, in a combat, the failure's
        condition for each creature whose box is clear: one undo step."""
        present = {creature.id for creature in self.session.encounter.creatures}
        rolled = [cid for cid in self.saves.rows if cid in self.saves.results and cid in present]
        if not rolled:
            self.outcome_label.setText("<b>Roll the saves first (or type the players' d20s).</b>")
            return
        condition = self.failure_condition()
        results = dict(self.saves.results)
        failed = [cid for cid in rolled if not self.saves.rows[cid].is_saved()]
        notes: list[str] = []

        def record(e: Encounter, c: CombatState | None, r: Ruleset) -> Outcome[None]:
            saved, overrides, lines = self.saves.record(e, c, r)
            combat = saved.combat
            notes.extend(overrides)
            if condition is not None and combat is not None:
                for creature_id in failed:
                    if combat.has(creature_id):
                        given = apply_condition(
                            with_combat(saved, combat), r, creature_id, condition
                        )
                        combat = running_combat(given.encounter)
                        notes.append(f"{self.session.name(creature_id)} is {condition}")
                    else:
                        notes.append(
                            f"{self.session.name(creature_id)} isn't fighting: not {condition}"
                        )
            return Outcome(with_combat(saved, combat), None, tuple(lines))

        names = ", ".join(self.session.name(cid) for cid in rolled)
        what = f"{self.saves.save_ability().description} save DC {self.dc.value()}"
        applied = self.session.run(f"{what}: {names}", lambda e, r: record(e, e.combat, r))
        if applied is None:
            refusal = self.session.last_refusal
            if isinstance(self.session.last_error, StaleSavesError):
                self.saves.forget()
                self.saves.refresh()
            self.outcome_label.setText(f"<b>Refused:</b> {html.escape(refusal)}")
            return
        lines = [
            f"<b>{html.escape(self.session.name(cid))}</b>: {result_line(results[cid])}"
            for cid in rolled
        ]
        lines.extend(html.escape(note, quote=False) for note in notes)
        self.outcome_label.setText("Recorded:<br>" + "<br>".join(lines))
        saved = sum(1 for cid in rolled if cid not in failed)
        self.session.reported.emit(f"{what}: {saved} saved, {len(failed)} failed")
        # Recorded: the rows start afresh (typed d20s too), so a second Apply needs new rolls.
        self.saves.forget()
        for row in self.saves.rows.values():
            if row.d20 is not None:
                row.d20.reset()
        self.saves.refresh()
