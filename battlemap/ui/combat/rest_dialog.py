"""Short and long rests for several creatures at once (bloodied-brink's rest rules).

Combat menu **Short rest…** / **Long rest…** (and a token's right-click menu) opens this
non-modal dialog for the selected tokens, or the party when none is selected. Each row is one
creature, ticked when it rests (untick one at 0 HP, which can't): its HP, its level (the
creature's stored level, set in the Creature dock or the party form, else its stat block's;
1 when neither has one: ``stored_level``) and the rest dice that level gives
(``rests.rest_dice``: level d8 for a short rest), and the total rolled at the table, or "app
rolls". Typed totals are the engine's to check: an impossible one is refused with its message
shown in the dialog, and nothing changes.

Hours rested default to the rest's length; the engine refuses a rest shorter than that. Under
a ruleset with interruptions (``interrupted_by``) the rest may be marked "interrupted after N h"
with its cause (``interrupt_rest``: a long rest after 1 h gives a short rest's benefits, so the
dice shown become the short rest's), and a long rest may be "resumed after N interruptions"
(``long_rest(interruptions=)``: an hour more per interruption). The day's rests taken are not
stored in the encounter either: the dialog asks (0 each time it opens, one more after each
Apply so a second click meets the limit) and the engine refuses a rest past the daily limit.
A level typed in the dialog is remembered for the session (not saved) and wins over the stored
one until that changes (the DM edits it in the Creature dock).

**Apply** runs every creature's rest through ONE ``CombatSession.apply`` call, so the whole
party's rest is one undo step; if any creature's rest is refused, none is applied. Outside a
combat there are no combat dice: "app rolls" totals come from fresh dice seeded by the
session, shown in the outcome. A rest the ruleset forbids during a combat (its
``interrupted_by_combat``: rolling initiative interrupts it) is refused with that reason before
the dialog opens (``rests.rest_refusal``).
"""

from __future__ import annotations

import html
from collections.abc import Callable
from functools import partial

import shiboken6
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMenu,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from battlemap.model.creature import Creature
from battlemap.model.document import Change
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.rules.dice import AppRoll, new_dice_state, roll
from battlemap.rules.group_rest import RestPlan, RestRequest, rest_all
from battlemap.rules.rests import (
    MAX_LEVEL,
    RestResult,
    RestType,
    interrupted_benefits,
    rest_dice,
    rest_refusal,
    rest_rules,
)
from battlemap.rules.schema import RestKind, Ruleset
from battlemap.rules.statblocks import find_statblock
from battlemap.ui.combat.session import CombatSession
from battlemap.ui.combat.widgets import CombatDialog, add_outcome_and_close
from battlemap.ui.map_scene import MapScene
from battlemap.ui.plain_text import plain_tooltip
from battlemap.ui.typed_dice import TouchSpinBox

NAME, HP, LEVEL, DICE, TOTAL = range(5)
APP_ROLLS = 0
"""The Total spin's "app rolls" value: no rest dice total is 0 (every die shows at least 1)."""


class RowSpinBox(TouchSpinBox):
    """A number in a row of the table, touch sized (44 px - and +): Enter takes the typed value
    and stays here, instead of going on to the dialog's default button (it used to apply the
    rest at once). Enter on **Apply rest** itself still applies."""

    def keyPressEvent(self, event: QKeyEvent) -> None:
        super().keyPressEvent(event)  # the spin box takes the typed text (and ignores Enter)
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            event.accept()  # not passed up to QDialog, whose Enter clicks the default button


def stored_level(creature: Creature, encounter: Encounter) -> int | None:
    """The creature's character level as the map stores it: its own ``level``, else the level
    of the stat block it uses (its own, else the party's of its name: ``find_statblock``); None
    for a monster or a character whose level was never recorded."""
    if creature.level is not None:
        return creature.level
    block = find_statblock(creature, encounter, {})
    return block.level if block is not None else None


class RestDialog(CombatDialog):
    """Rest the chosen creatures: dice per creature, hours, interruptions; one undo step."""

    def __init__(self, session: CombatSession, scene: MapScene, parent: QWidget | None = None):
        super().__init__(session, scene, "rest-dialog", "Rest", parent)
        self.kind = RestType.SHORT
        self.levels: dict[EntityId, tuple[int, int | None]] = {}
        """Levels typed so far, by creature, each with the stored level it was typed over: the
        next rest starts from the typed one while the stored one is still that. Forgotten when
        another encounter is opened (its creatures may reuse the ids)."""
        self.shown_ruleset: tuple[str, Ruleset | None] | None = None
        """The encounter's ruleset (its name, and what the session loaded for it: None when it
        can't be used) that the head line, the form and the dice column were set from; None
        before the dialog is first opened."""
        layout = QVBoxLayout(self)
        self.rules_label = QLabel()
        self.rules_label.setTextFormat(Qt.TextFormat.RichText)  # ruleset text is escaped
        self.rules_label.setWordWrap(True)
        layout.addWidget(self.rules_label)
        self.table = QTableWidget(0, 5)
        self.table.setHorizontalHeaderLabels(["Creature", "HP", "Level", "Rest dice", "Total"])
        self.table.verticalHeader().setVisible(False)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.table.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the spin boxes take the focus
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(NAME, QHeaderView.ResizeMode.Stretch)
        for column in (HP, LEVEL, DICE, TOTAL):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        # Rows as tall as their touch-sized boxes.
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        layout.addWidget(self.table, 1)
        self.use_selected = QPushButton("Use selected tokens")
        self.use_selected.setToolTip("Rest the tokens selected on the map (none: the party)")
        self.use_selected.clicked.connect(self.take_selection)
        layout.addWidget(self.use_selected, 0, Qt.AlignmentFlag.AlignLeft)

        form = QFormLayout()
        self.hours = QDoubleSpinBox()
        self.hours.setRange(0, 48)
        self.hours.setDecimals(1)
        self.hours.setSuffix(" h")
        self.hours.setToolTip("How long they rested; the engine refuses a rest cut short")
        form.addRow("Hours rested", self.hours)
        today = QHBoxLayout()
        self.short_today = QSpinBox()
        self.short_today.setRange(0, 24)
        self.short_today.setPrefix("short ")
        self.long_today = QSpinBox()
        self.long_today.setRange(0, 24)
        self.long_today.setPrefix("long ")
        for spin in (self.short_today, self.long_today):
            spin.setToolTip("Rests already taken today (the map doesn't keep count)")
            today.addWidget(spin)
        form.addRow("Taken today", today)
        interrupted = QHBoxLayout()
        self.interrupted = QCheckBox("Interrupted by")
        self.interrupted.setToolTip("The rest was stopped after the hours rested above")
        self.cause = QComboBox()
        interrupted.addWidget(self.interrupted)
        interrupted.addWidget(self.cause, 1)
        self.interrupted_row = QWidget()
        self.interrupted_row.setLayout(interrupted)
        interrupted.setContentsMargins(0, 0, 0, 0)
        form.addRow(self.interrupted_row)
        self.resumed = QSpinBox()
        self.resumed.setRange(0, 24)
        self.resumed.setToolTip("Interruptions after which the long rest was resumed")
        self.resumed_label = QLabel("Resumed after")
        self.resumed.setSuffix(" interruption(s)")
        form.addRow(self.resumed_label, self.resumed)
        layout.addLayout(form)
        self.interrupted.toggled.connect(self._refresh_dice)
        self.hours.valueChanged.connect(self._refresh_dice)
        self.interrupted.toggled.connect(self.cause.setEnabled)

        self.apply_button = QPushButton("Apply rest")
        self.apply_button.setDefault(True)
        self.apply_button.clicked.connect(self.apply)
        layout.addWidget(self.apply_button, 0, Qt.AlignmentFlag.AlignRight)
        self.outcome_label = add_outcome_and_close(self, layout)
        session.changed.connect(self._on_session_changed)
        session.document.subscribe(self._on_document_change)
        self.resize(640, 560)

    # --- opening --------------------------------------------------------------------------

    def open_for(self, kind: RestType, creature_ids: list[EntityId] | None = None) -> bool:
        """Show the dialog for a ``kind`` rest of these creatures (None: the selected tokens,
        else the party). Refused (status bar, False) when the ruleset forbids it now."""
        ruleset = self.session.ruleset()
        if ruleset is None:
            return False  # the session has said why
        refusal = rest_refusal(ruleset, kind, self.session.state is not None)
        if refusal is not None:
            self.session.refused.emit(refusal)
            return False
        self.kind = kind
        self.setWindowTitle(f"{kind.value.capitalize()} rest")
        self._set_rules(ruleset)
        self.short_today.setValue(0)
        self.long_today.setValue(0)
        if creature_ids is None:
            self.take_selection()
        else:
            self._fill(creature_ids)
        self.outcome_label.clear()
        self.present(activate=True)
        return True

    def _set_rules(self, ruleset: Ruleset) -> None:
        """The head line and the ruleset's part of the form (hours, interruptions, resuming)
        for ``self.kind`` under ``ruleset``; a ruleset without this rest says so in the head
        line (Apply is refused with the same reason)."""
        self.shown_ruleset = (self.session.encounter.ruleset, ruleset)
        refusal = rest_refusal(ruleset, self.kind, False)
        if refusal is not None:
            self.rules_label.setText(f"<b>{_escape(ruleset.name)}</b>: {_escape(refusal)}.")
            self.interrupted_row.setVisible(False)
            self.resumed.setVisible(False)
            self.resumed_label.setVisible(False)
            return
        rules = rest_rules(ruleset, self.kind)
        self.rules_label.setText(_describe(ruleset, self.kind, rules))
        self.hours.setValue(rules.hours)
        self.cause.clear()
        self.cause.addItems(list(rules.interrupted_by))
        self.interrupted.setChecked(False)
        self.cause.setEnabled(False)
        self.interrupted_row.setVisible(bool(rules.interrupted_by))
        self.resumed.setValue(0)
        resumable = self.kind is RestType.LONG and rules.resumable
        self.resumed.setVisible(resumable)
        self.resumed_label.setVisible(resumable)

    def _on_session_changed(self) -> None:
        """HP dealt or healed while the dialog is open; another ruleset chosen: the head line,
        the form and the dice column follow it."""
        self._refresh_hp()
        if self.shown_ruleset is None:
            return  # never opened: open_for sets it all
        name, ruleset = self.session.encounter.ruleset, self.session.ruleset()
        if (name, ruleset) == self.shown_ruleset:
            return
        if ruleset is None:  # the session has said why
            self.shown_ruleset = (name, None)
            self.rules_label.setText(f"<b>Ruleset '{_escape(name)}' can't be used.</b>")
        else:
            self._set_rules(ruleset)
        self._refresh_dice()

    def _on_document_change(self, change: Change) -> None:
        """File > New/Open: the rows and the typed levels were the old encounter's."""
        if not change.replaced or not shiboken6.isValid(self):
            return
        self.levels.clear()
        self.table.setRowCount(0)
        self.outcome_label.setText(
            "<b>Another encounter is open: select who rests, then Use selected tokens.</b>"
        )

    def opener(
        self, kind: RestType, creature_ids: list[EntityId] | None = None
    ) -> Callable[[], object]:
        """A menu entry's slot opening the dialog (a menu's ``triggered`` passes a flag that
        ``open_for`` must not take for its creatures)."""
        return lambda: self.open_for(kind, creature_ids)

    def take_selection(self) -> None:
        """The selected tokens, or the party when none is selected."""
        chosen = self.scene.selected_creatures()
        if not chosen:
            chosen = list(self.session.party_ids())
        self._fill(in_map_order(self.session.encounter, chosen))

    def _fill(self, creature_ids: list[EntityId]) -> None:
        encounter = self.session.encounter
        self.table.setRowCount(0)
        for creature_id in creature_ids:
            try:
                creature = encounter.creature(creature_id)
            except KeyError:
                continue
            row = self.table.rowCount()
            self.table.insertRow(row)
            name = QTableWidgetItem(creature.name)
            name.setData(Qt.ItemDataRole.UserRole, str(creature_id))
            name.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsUserCheckable)
            name.setCheckState(Qt.CheckState.Checked)
            name.setToolTip("Unticked: listed, but not resting")
            self.table.setItem(row, NAME, name)
            hp = QTableWidgetItem(f"{creature.hp}/{creature.max_hp}")
            hp.setFlags(Qt.ItemFlag.ItemIsEnabled)
            self.table.setItem(row, HP, hp)
            level = RowSpinBox()
            level.setRange(1, MAX_LEVEL)
            level.setValue(self._start_level(creature))
            level.setToolTip(
                "Character level: the number of rest dice (set it for good in the Creature"
                " dock's Numbers or the party form)"
            )
            level.valueChanged.connect(partial(self._level_changed, creature_id))
            self.table.setCellWidget(row, LEVEL, level)
            dice = QTableWidgetItem()
            dice.setFlags(Qt.ItemFlag.ItemIsEnabled)
            self.table.setItem(row, DICE, dice)
            total = RowSpinBox()
            total.setRange(APP_ROLLS, 100_000)
            total.setSpecialValueText("app rolls")
            total.setToolTip("The total rolled at the table, or leave 'app rolls'")
            self.table.setCellWidget(row, TOTAL, total)
        self._refresh_dice()

    # --- reading the rows -------------------------------------------------------------------

    def creature_ids(self) -> list[EntityId]:
        """Every listed creature, ticked or not, in row order."""
        return [creature_id for _row, creature_id, _ticked in self._rows()]

    def resting(self) -> list[tuple[int, EntityId]]:
        """The ticked rows: (row, creature)."""
        return [(row, creature_id) for row, creature_id, ticked in self._rows() if ticked]

    def set_resting(self, creature_id: EntityId, resting: bool) -> None:
        """Tick or untick a listed creature's row."""
        for row, listed, _ticked in self._rows():
            item = self.table.item(row, NAME)
            if listed == creature_id and item is not None:
                state = Qt.CheckState.Checked if resting else Qt.CheckState.Unchecked
                item.setCheckState(state)

    def _rows(self) -> list[tuple[int, EntityId, bool]]:
        found = []
        for row in range(self.table.rowCount()):
            item = self.table.item(row, NAME)
            if item is not None:
                ticked = item.checkState() == Qt.CheckState.Checked
                found.append((row, EntityId(item.data(Qt.ItemDataRole.UserRole)), ticked))
        return found

    def _row_name(self, row: int) -> str:
        """The creature's name as the row shows it (it may be gone from the map since)."""
        item = self.table.item(row, NAME)
        return item.text() if item is not None else ""

    def spin(self, row: int, column: int) -> QSpinBox:
        widget = self.table.cellWidget(row, column)
        assert isinstance(widget, QSpinBox)
        return widget

    def _dice_rules(self, ruleset: Ruleset) -> RestKind | None:
        """Whose dice this rest rolls: its own, a short rest's when an interrupted long rest
        gives the short rest's benefits, none when an interruption gives nothing."""
        if not self.interrupted.isChecked():
            return rest_rules(ruleset, self.kind)
        return interrupted_benefits(ruleset, self.kind, self.hours.value())

    def _refresh_hp(self) -> None:
        """The HP column from the encounter ("gone" for a creature no longer on the map)."""
        encounter = self.session.encounter
        for row, creature_id, _ticked in self._rows():
            item = self.table.item(row, HP)
            if item is None:
                continue
            try:
                creature = encounter.creature(creature_id)
            except KeyError:
                item.setText("gone")
                continue
            item.setText(f"{creature.hp}/{creature.max_hp}")

    def _start_level(self, creature: Creature) -> int:
        """The level a row starts at: the one typed this session over the same stored level,
        else the stored one (``stored_level``), else 1."""
        stored = stored_level(creature, self.session.encounter)
        typed = self.levels.get(creature.id)
        if typed is not None and typed[1] == stored:
            return typed[0]
        return stored if stored is not None else 1

    def _level_changed(self, creature_id: EntityId, level: int) -> None:
        try:
            creature = self.session.encounter.creature(creature_id)
        except KeyError:  # removed while the dialog is open: Apply says so
            self._refresh_dice()
            return
        self.levels[creature_id] = (level, stored_level(creature, self.session.encounter))
        self._refresh_dice()

    def _refresh_dice(self) -> None:
        """Each row's rest dice at its level (none for a ruleset that can't be used or has no
        such rest: the column never shows another ruleset's dice)."""
        ruleset = self.session.ruleset()
        if ruleset is None or rest_refusal(ruleset, self.kind, False) is not None:
            for row in range(self.table.rowCount()):
                item = self.table.item(row, DICE)
                if item is not None:
                    item.setText("—")
            return
        rules = self._dice_rules(ruleset)
        for row in range(self.table.rowCount()):
            dice = rest_dice(rules, self.spin(row, LEVEL).value()) if rules else None
            text = f"{rules.hp_flat} + {dice[0]}d{dice[1]}" if rules and dice else "none"
            if rules and not dice:
                text = f"{rules.hp_flat}"
            item = self.table.item(row, DICE)
            if item is not None:
                item.setText(text)
            self.spin(row, TOTAL).setEnabled(dice is not None)

    # --- applying ---------------------------------------------------------------------------

    def plan(self) -> RestPlan:
        interrupted = self.interrupted.isChecked() and self.interrupted_row.isVisibleTo(self)
        return RestPlan(
            kind=self.kind,
            hours_rested=self.hours.value(),
            short_rests_today=self.short_today.value(),
            long_rests_today=self.long_today.value(),
            interrupted_by=self.cause.currentText() if interrupted else None,
            interruptions=self.resumed.value() if self.resumed.isVisibleTo(self) else 0,
        )

    def apply(self) -> None:
        """Rest every listed creature as one undo step; the outcome (or refusal) shown here,
        in the status bar, and (in a combat) in the log."""
        ruleset = self.session.ruleset()
        if ruleset is None:
            return
        refusal = rest_refusal(ruleset, self.kind, self.session.state is not None)
        if refusal is not None:
            self.session.refused.emit(refusal)
            self.outcome_label.setText(f"<b>Refused:</b> {_escape(refusal)}")
            return
        rows = self.resting()
        ids = [creature_id for _row, creature_id in rows]
        if not ids:
            self.outcome_label.setText("<b>Tick the creatures resting.</b>")
            return
        present = {creature.id for creature in self.session.encounter.creatures}
        gone = [self._row_name(row) for row, creature_id in rows if creature_id not in present]
        if gone:  # deleted, or another file opened, since the rows were filled
            names = _escape(", ".join(gone))
            self.outcome_label.setText(
                f"<b>Refused:</b> {names}: no longer on the map (untick, or Use selected"
                " tokens) — nothing changed."
            )
            return
        plan = self.plan()
        requests, rolled = self._requests(ruleset, rows)
        applied = self.session.run(
            f"{self.kind.value.capitalize()} rest ({len(ids)} creature(s))",
            lambda e, r: rest_all(e, r, plan, requests),
        )
        if applied is None:
            refusal = _escape(self.session.last_refusal)
            self.outcome_label.setText(f"<b>Refused:</b> {refusal} — nothing changed.")
            return
        results: tuple[RestResult, ...] = applied.result
        lines = [self._line(cid, result) for cid, result in zip(ids, results, strict=True)]
        self.outcome_label.setText(rolled + "<br>".join(lines))
        summary = ", ".join(
            f"{self.session.name(cid)} +{result.regained} HP"
            for cid, result in zip(ids, results, strict=True)
        )
        self.session.reported.emit(f"{self.kind.value.capitalize()} rest: {summary}")
        taken = self.long_today if results[0].benefits == "long" else self.short_today
        if results[0].benefits:  # a second Apply now meets the day's limit
            taken.setValue(taken.value() + 1)
        listed = self.creature_ids()
        self._fill(listed)  # new HP; totals back to "app rolls"
        for creature_id in set(listed) - set(ids):
            self.set_resting(creature_id, False)

    def _requests(
        self, ruleset: Ruleset, rows: list[tuple[int, EntityId]]
    ) -> tuple[list[RestRequest], str]:
        """Each row's request; without combat dice, "app rolls" rows are rolled here (fresh
        dice seeded by the session) and the rolls returned as outcome text."""
        rules = self._dice_rules(ruleset)
        dice_state = None
        requests, lines = [], []
        for row, creature_id in rows:
            level = self.spin(row, LEVEL).value()
            typed = self.spin(row, TOTAL).value()
            total: int | None = None if typed == APP_ROLLS else typed
            dice = rest_dice(rules, level) if rules is not None else None
            if total is None and dice is not None and self.session.state is None:
                if dice_state is None:
                    dice_state = new_dice_state(self.session.seed_source())
                name = self.session.name(creature_id)
                dice_state, record = roll(dice_state, f"{dice[0]}d{dice[1]}", f"{name}'s rest")
                total = AppRoll(record.total)
                lines.append(f"{_escape(name)} rolled {_escape(record.detail)}<br>")
            requests.append(RestRequest(creature_id, level, total))
        return requests, "".join(lines)

    def _line(self, creature_id: EntityId, result: RestResult) -> str:
        name = _escape(self.session.name(creature_id))
        if result.interrupted_by and not result.benefits:
            return f"<b>{name}</b>: interrupted ({_escape(result.interrupted_by)}), no benefits"
        text = f"<b>{name}</b>: +{result.regained} HP, HP {result.hp_before} → {result.hp_after}"
        if result.interrupted_by:
            text += " (interrupted: a short rest's benefits)"
        if result.hp_max_restored:
            text += ", HP maximum restored"
        if result.temp_hp_lost:
            text += f", {result.temp_hp_lost} temporary HP gone"
        if result.exhaustion_after is not None:
            text += f", exhaustion {result.exhaustion_after}"
        if result.woke:
            text += ", wakes up"
        return text


def _escape(text: str) -> str:
    """``text`` as rich text; apostrophes kept (they are in most names and messages)."""
    return html.escape(text, quote=False)


def in_map_order(encounter: Encounter, creature_ids: list[EntityId]) -> list[EntityId]:
    """``creature_ids`` in the encounter's order (a selection comes in no useful order)."""
    wanted = set(creature_ids)
    return [c.id for c in encounter.creatures if c.id in wanted]


def _describe(ruleset: Ruleset, kind: RestType, rules: RestKind) -> str:
    """One line of the ruleset's rules for this rest, for the dialog's head."""
    dice = f" + level × {rules.hp_dice_per_level}" if rules.hp_dice_per_level else ""
    parts = [f"{rules.hours:g} h", f"regain {rules.hp_flat} HP{dice}"]
    parts.append(f"at most {rules.max_per_day} a day")
    if rules.needs_at_least_1_hp:
        parts.append("needs 1 HP to start")
    return f"<b>{_escape(ruleset.name)}</b>, {kind.value} rest: " + "; ".join(parts) + "."


def refresh_rest_actions(dialog: RestDialog, actions: dict[RestType, QAction]) -> None:
    """The Combat menu's rest entries, as the menu opens: one the ruleset forbids now (no
    such rest, or a combat running that interrupts it) is disabled, its tooltip saying why,
    as on a token's menu."""
    ruleset = dialog.session.ruleset()
    fighting = dialog.session.state is not None
    for kind, action in actions.items():
        refusal = rest_refusal(ruleset, kind, fighting) if ruleset is not None else "no ruleset"
        action.setEnabled(refusal is None)
        action.setToolTip(
            plain_tooltip(refusal or "Rest the selected tokens, or the party when none is")
        )


def add_rest_entries(menu: QMenu, dialog: RestDialog, creature_id: EntityId) -> None:
    """A token's right-click menu: rest it (with the other selected tokens when it is one of
    them). A rest the ruleset forbids now is a disabled entry whose tooltip says why."""
    ruleset = dialog.session.ruleset()
    if ruleset is None:
        return
    selected = dialog.scene.selected_creatures()
    chosen = selected if creature_id in selected else [creature_id]
    chosen = in_map_order(dialog.session.encounter, chosen)
    who = dialog.session.name(creature_id) if len(chosen) == 1 else f"{len(chosen)} creatures"
    menu.addSeparator()
    for kind in (RestType.SHORT, RestType.LONG):
        if ruleset.rests.short is None and ruleset.rests.long is None:
            return  # a ruleset without rests: no entries at all
        action = menu.addAction(
            f"{kind.value.capitalize()} rest for {who}…",
            dialog.opener(kind, chosen),
        )
        refusal = rest_refusal(ruleset, kind, dialog.session.state is not None)
        if refusal is not None:
            action.setEnabled(False)
            action.setToolTip(refusal)
    menu.setToolTipsVisible(True)
