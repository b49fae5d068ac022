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

Saving throws: the DM sets the ability and the DC; the rows (``battlemap.ui.combat.save_rows``,
shared with the Saving throw dialog) show each creature's bonus and roll mode with their reasons,
roll or take the d20 typed at the table, and tick the "saved" box by the roll (the DM may flip
it; the log says so). **Roll saves for monsters** rolls every non-party row not rolled yet. Dex
saves get the cover bonus from the template's point of origin when the ruleset says cover
applies to them: the origin is the Area template tool's placed template when the creatures are
exactly the ones it caught, else there is none (no cover from an origin).

**Deal damage** records the saves (the app's rolls chained on the combat's dice, typed saves,
the DM's overrides; outside a combat their lines go to the encounter log) and the damage as one
undo step. If the combat changed since the saves were rolled, they are cleared and the DM is
asked to roll again.

``open_at(origin)`` opens the dialog for an effect from a known point of origin.

A spell's area placed during a creature's turn spends its Cast a Spell in the same undo step
as the damage (``cast_area_spell``: the rules refuse it with their reason when the action is
spent). The **Spends** box says what is cast; an area opened from a stat block's action (a
breath weapon, which spent its own action) starts at "Nothing", and once dealt the opening's
spell is cast: a second deal spends nothing more.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from dataclasses import replace

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from battlemap.geometry.metrics import PointXY
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.model.statblock import DICE_PATTERN, Damage, StatBlock
from battlemap.model.statblock_actions import SaveAction
from battlemap.rules.area_spells import cast_area_spell, cast_spell
from battlemap.rules.damage import AreaTarget, DamageResult, DamageRoll, apply_area_damage
from battlemap.rules.dice import DiceExpressionError, new_dice_state
from battlemap.rules.enums import Ability
from battlemap.rules.loose_dice import roll_area_damage
from battlemap.rules.outcome import Outcome
from battlemap.rules.saves import (
    SaveResult,
)
from battlemap.rules.schema import Ruleset
from battlemap.rules.statblocks import creature_defenses
from battlemap.rules.vitals import is_dead
from battlemap.ui.combat.damage_parts import MorePart, choose_type
from battlemap.ui.combat.monster_flow import rules_ability
from battlemap.ui.combat.save_rows import (
    ID_ROLE,
    SaveRolls,
    SaveRow,
    StaleSavesError,
    party_first,
)
from battlemap.ui.combat.session import CombatSession
from battlemap.ui.combat.widgets import DEFAULT_DAMAGE_TYPE, CombatDialog, add_outcome_and_close
from battlemap.ui.map_scene import MapScene
from battlemap.ui.tools.template import TemplateTool
from battlemap.ui.typed_dice import TouchSpinBox

DEFAULT_SAVE = Ability.DEX
DEFAULT_DC = 15
SPENDS_LEVELED, SPENDS_CANTRIP, SPENDS_NOTHING = "leveled", "cantrip", "nothing"
AREA_DAMAGE_TYPE = "fire"
"""The type the dialog first opens with: its dice start at 8d6, a fireball's (later openings
keep the type last chosen)."""


class AreaDialog(CombatDialog):
    """Deal one area effect's damage to the selected creatures, with their saving throws."""

    def __init__(
        self,
        session: CombatSession,
        scene: MapScene,
        library: Mapping[str, StatBlock],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(session, scene, "area-dialog", "Area damage", parent)
        self.library = library
        self.origin: PointXY | None = None
        """The effect's point of origin (cells) for cover against it; None: not known."""
        self._given_origin: PointXY | None = None
        self._given_for: frozenset[EntityId] | None = None
        """The targets ``open_at`` was given its origin for (taken when it opens)."""
        self._prefill: SaveAction | None = None
        layout = QVBoxLayout(self)
        save_form = QFormLayout()
        self.saves = SaveRolls(session, library, self.parentWidget, DEFAULT_SAVE, DEFAULT_DC)
        self.ability, self.dc = self.saves.ability, self.saves.dc
        self.saves.add_save_row(save_form)
        layout.addLayout(save_form)
        self.origin_label = QLabel()
        self.origin_label.setWordWrap(True)
        layout.addWidget(self.origin_label)
        self.left_out_label = QLabel()
        self.left_out_label.setWordWrap(True)
        self.left_out_label.setTextFormat(Qt.TextFormat.PlainText)  # creature names
        layout.addWidget(self.left_out_label)
        hint = QLabel("Tick the creatures that saved: a roll ticks or clears the box for you.")
        hint.setWordWrap(True)
        layout.addWidget(hint)
        self.saves.add_to(layout)
        self.targets, self.roll_monsters = self.saves.targets, self.saves.roll_monsters
        self.use_selected = self.saves.use_selected
        self.use_selected.clicked.connect(self.take_selection)
        form = QFormLayout()
        self.dice = QLineEdit("8d6")
        self.dice.setToolTip("Damage dice such as 8d6, 2d10+4 or 12")
        form.addRow("Damage", self.dice)
        self.damage_type = QComboBox()
        form.addRow("Type", self.damage_type)
        self.parts_form = form
        self.more_parts: list[MorePart] = []
        """A save action's damage parts after the first ("plus 7 (2d6) poison damage")."""
        self.half = QCheckBox("Half damage on a successful save")
        self.half.setChecked(True)
        form.addRow(self.half)
        self.typed = TouchSpinBox()
        self.typed.setRange(-1, 100_000)
        self.typed.setValue(-1)
        self.typed.setSpecialValueText("app rolls")
        self.typed.setToolTip("The total rolled at the table, or leave 'app rolls'")
        form.addRow("Rolled", self.typed)
        self.spends = QComboBox()
        self.spends.setObjectName("area-spends")
        self.spends.addItem("Cast a Spell: 1st level or higher", SPENDS_LEVELED)
        self.spends.addItem("Cast a Spell: a cantrip", SPENDS_CANTRIP)
        self.spends.addItem("Nothing (its own action is spent)", SPENDS_NOTHING)
        self.spends.setToolTip("What the creature whose turn it is spends on this area")
        form.addRow("Spends", self.spends)
        layout.addLayout(form)
        self.apply_button = QPushButton("Deal damage")
        self.apply_button.setDefault(True)
        self.apply_button.clicked.connect(self.deal)
        layout.addWidget(self.apply_button, 0, Qt.AlignmentFlag.AlignRight)
        self.outcome_label = add_outcome_and_close(self, layout)
        self.saves.forget_on_new_encounter(self.outcome_label, self._forget_origin)
        self.resize(460, 560)

    # --- opening ---------------------------------------------------------------------------

    def open_for_selection(self) -> None:
        """Show the dialog with the tokens selected on the map as targets; the point of origin
        is the Area template tool's placed template when it caught exactly those creatures."""
        self.open_at(None)

    def open_at(self, origin: PointXY | None) -> None:
        """``open_for_selection`` for an effect from ``origin`` (cells; None: as there). The
        origin holds for the targets the dialog opens with: "Use selected tokens" with others
        goes back to ``open_for_selection``'s rule."""
        ruleset = self.session.ruleset()
        if ruleset is None:
            return  # the session has said why
        current = self.damage_type.currentData()
        self.damage_type.clear()
        for key, damage_type in ruleset.damage.types.items():
            self.damage_type.addItem(damage_type.name, key)
        wanted = self.damage_type.findData(current or AREA_DAMAGE_TYPE)
        if wanted < 0:
            wanted = self.damage_type.findData(DEFAULT_DAMAGE_TYPE)
        self.damage_type.setCurrentIndex(max(0, wanted))
        spell = self._prefill is None  # a stat block's action has spent its own action
        self.spends.setCurrentIndex(
            self.spends.findData(SPENDS_LEVELED if spell else SPENDS_NOTHING)
        )
        self._show_spends()
        note = self._apply_prefill()
        self._given_origin, self._given_for = origin, None
        self.take_selection()
        self.outcome_label.setText(note)
        self.present()

    def prefill(self, save: SaveAction) -> None:
        """Start the next opening from a stat block's save action (a breath weapon): its
        ability, DC, first damage roll and type, and half on a success."""
        self._prefill = save

    def _apply_prefill(self) -> str:
        """Fill the boxes from the save action given to ``prefill`` (if any); the note for
        the outcome line (a damage type the ruleset hasn't), or ""."""
        save, self._prefill = self._prefill, None
        self._set_more_parts(save.damage[1:] if save is not None else ())
        if save is None:
            return ""
        self.ability.setCurrentIndex(self.ability.findData(rules_ability(save)))
        self.dc.setValue(save.dc)
        unknown = []
        if save.damage:
            self.dice.setText(save.damage[0].dice)
            if not choose_type(self.damage_type, save.damage[0].type):
                unknown.append(save.damage[0].type)
        unknown += [m.type_wanted for m in self.more_parts if not m.known]
        self.half.setChecked(save.half_on_success)
        self.setWindowTitle(f"Area damage: {save.name}")
        if not unknown:
            return ""
        missing = ", ".join(unknown)  # the action's type isn't one of the ruleset's: the DM picks
        return html.escape(
            f"{save.name}: no damage type '{missing}' in this ruleset: choose one", quote=False
        )

    def _show_spends(self) -> None:
        """The Spends row only means something on a creature's turn."""
        state = self.session.state
        shown = state is not None and state.current is not None
        self.spends.setVisible(shown)
        label = self.parts_form.labelForField(self.spends)
        if label is not None:
            label.setVisible(shown)

    def _set_more_parts(self, damage: tuple[Damage, ...]) -> None:
        for old in self.more_parts:
            self.parts_form.removeRow(old.row)
        self.more_parts = []
        types = [
            (self.damage_type.itemText(i), self.damage_type.itemData(i))
            for i in range(self.damage_type.count())
        ]
        for index, part in enumerate(damage):
            more = MorePart(part.dice, part.type, types)
            self.parts_form.insertRow(2 + index, f"Plus ({index + 2})", more.row)
            self.more_parts.append(more)

    def _forget_origin(self) -> None:
        """The old encounter's template origin means nothing on a new map."""
        self.origin = self._given_origin = None
        self._given_for = None
        self.origin_label.setText("")

    def take_selection(self) -> None:
        """Make the selected tokens the targets (each unsaved, nothing rolled). The dead among
        them are left out with a note: a corpse in the area neither saves nor takes damage (the
        point of origin still holds for the creatures caught)."""
        ids = party_first(self.session, self.scene.selected_creatures())
        if self._given_for is None:
            self._given_for = frozenset(ids)
        given = self._given_origin if frozenset(ids) == self._given_for else None
        self.origin = given if given is not None else self._placed_template_origin(ids)
        self.saves.origin = self.origin
        if self.origin is None:
            self.origin_label.setText("No template placed: no cover from a point of origin.")
        else:
            x, y = self.origin
            self.origin_label.setText(f"Cover from the template's point of origin ({x:g}, {y:g}).")
        encounter = self.session.encounter
        dead = [cid for cid in ids if is_dead(encounter, cid)]
        self.left_out_label.setText(
            "".join(f"{self.session.name(cid)} is dead: left out.\n" for cid in dead).strip()
        )
        self.left_out_label.setVisible(bool(dead))
        self.saves.set_creatures([cid for cid in ids if cid not in dead])

    def _placed_template_origin(self, ids: list[EntityId]) -> PointXY | None:
        """The Area template tool's placed template's origin, if it caught exactly ``ids``."""
        tools = getattr(self.parentWidget(), "tools", None)
        tool = getattr(tools, "tools", {}).get("template") if tools is not None else None
        if not isinstance(tool, TemplateTool) or tool.template is None or tool.coverage is None:
            return None
        if not ids or set(tool.coverage.creature_ids) != set(ids):
            return None
        return tool.template.origin

    # --- the saves (``SaveRolls``) ------------------------------------------------------------

    @property
    def rows(self) -> dict[EntityId, SaveRow]:
        return self.saves.rows

    @property
    def results(self) -> dict[EntityId, SaveResult]:
        return self.saves.results

    def roll_save(self, creature_id: EntityId) -> None:
        self.saves.roll_save(creature_id)

    def roll_monster_saves(self) -> None:
        self.saves.roll_monster_saves()

    # --- dealing ---------------------------------------------------------------------------

    def _area_targets(self, ruleset: Ruleset) -> tuple[list[AreaTarget], list[str]]:
        """The listed creatures still on the map and alive, each with its "saved" box and
        defenses; and the notes on those left out: no longer on the map (removed, or another
        file opened) or dead since they were listed."""
        encounter = self.session.encounter
        present = {creature.id for creature in encounter.creatures}
        found, gone = [], []
        for index in range(self.targets.count()):
            row = self.targets.item(index)
            if row is None:
                continue
            creature_id = EntityId(row.data(ID_ROLE))
            if creature_id not in present:
                gone.append(f"{row.text()}: no longer on the map, left out")
                continue
            if is_dead(encounter, creature_id):
                gone.append(f"{row.text()}: dead, left out")
                continue
            found.append(
                AreaTarget(
                    creature_id=creature_id,
                    saved=row.checkState() == Qt.CheckState.Checked,
                    defenses=creature_defenses(encounter, ruleset, self.library, creature_id),
                )
            )
        return found, gone

    def deal(self) -> None:
        dice = self.dice.text().strip()
        more = [(m.dice.text().strip(), m.type_key, m.typed.value()) for m in self.more_parts]
        if not all(re.match(DICE_PATTERN, d) for d in (dice, *(d for d, _, _ in more))):
            self.outcome_label.setText("<b>Type damage dice such as 8d6 or 2d10+4.</b>")
            return
        ruleset = self.session.ruleset()
        if ruleset is None:
            return
        targets, gone = self._area_targets(ruleset)
        if not targets:
            self.outcome_label.setText("<b>Select the creatures caught, then Use selected.</b>")
            return
        parts = [DamageRoll(dice, str(self.damage_type.currentData()))]
        parts += [DamageRoll(d, key) for d, key, _ in more]
        totals_typed = [self.typed.value(), *(t for _, _, t in more)]
        if any(t >= 0 for t in totals_typed) and not all(t >= 0 for t in totals_typed):
            self.outcome_label.setText("<b>Type the total of every damage part, or of none.</b>")
            return
        typed: Sequence[int] | None = totals_typed if totals_typed[0] >= 0 else None
        state = self.session.state
        rolled = ""
        typed_each: Sequence[Sequence[int]] | None = None
        if typed is None and state is None:  # no combat dice: roll here, deal those totals
            try:
                loose = roll_area_damage(
                    new_dice_state(self.session.seed_source()),
                    ruleset,
                    [p.dice for p in parts],
                    len(targets),
                )
            except DiceExpressionError as error:
                self.outcome_label.setText(f"<b>Refused:</b> {html.escape(str(error))}")
                return
            typed, typed_each = loose.typed, loose.typed_each
            rolled = "".join(f"Rolled {html.escape(r.detail)}<br>" for r in loose.records)
        half = self.half.isChecked()
        source = state.current.creature_id if state is not None and state.current else None
        notes = list(gone)

        spends = self.spends.currentData()
        caster = source if spends != SPENDS_NOTHING else None  # who casts the area, if anyone
        cantrip = spends == SPENDS_CANTRIP
        area_text = f"Area damage ({' + '.join(f'{p.dice} {p.type}' for p in parts)})"

        def damage(e: Encounter, r: Ruleset) -> Outcome[tuple[DamageResult, ...]]:
            return apply_area_damage(
                e,
                r,
                parts,
                targets,
                half_on_save=half,
                typed=typed,
                source_id=source,
                typed_each=typed_each,
            )

        def saves_then_damage(e: Encounter, r: Ruleset) -> Outcome[tuple[DamageResult, ...]]:
            # The saves first: their rolls chain on the combat as it was when they were rolled.
            saved, found, save_lines = self.saves.record(e, e.combat, r)
            notes.extend(found)
            if caster is None:
                dealt = damage(saved, r)
            else:
                dealt = cast_area_spell(saved, r, caster, lambda c: damage(c, r), cantrip=cantrip)
            return replace(dealt, events=(*save_lines, *dealt.events))

        named = f"{self.session.name(caster)}: " if caster is not None else ""
        applied = self.session.run(named + area_text, saves_then_damage)
        if applied is None:
            refusal = self.session.last_refusal
            if isinstance(self.session.last_error, StaleSavesError):
                self.saves.forget()
                self.saves.refresh()
            hint = ""
            if caster is not None and self.session.why_not(
                lambda e, r: cast_spell(e, r, caster, cantrip=cantrip)
            ):
                hint = " (its spell is already cast? set Spends to Nothing)"
            self.outcome_label.setText(f"<b>Refused:</b> {html.escape(refusal + hint)}")
            return
        self.spends.setCurrentIndex(self.spends.findData(SPENDS_NOTHING))  # cast: once
        results: tuple[DamageResult, ...] = applied.result
        lines = [html.escape(note, quote=False) for note in notes] + [
            self._line(r) for r in results
        ]
        self.outcome_label.setText(rolled + "<br>".join(lines))
        dealt = ", ".join(f"{self.session.name(r.target_id)} -{r.total}" for r in results)
        self.session.reported.emit(f"Area damage: {dealt}")
        self.typed.setValue(-1)
        for part in self.more_parts:
            part.typed.setValue(-1)
        self.saves.forget()  # recorded: a second deal from this opening rolls afresh

    def _line(self, result: DamageResult) -> str:
        name = html.escape(self.session.name(result.target_id), quote=False)
        text = f"<b>{name}</b>: {result.total} damage, HP {result.hp_before} → {result.hp_after}"
        if result.dropped_to_zero:
            text += " — dead" if result.died else " — down"
        return text
