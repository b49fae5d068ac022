"""The saving-throw rows shared by the Area damage and Saving throw dialogs.

``SaveRolls`` fills a ``QListWidget`` with one ``SaveRow`` per creature and works out each
creature's save (``battlemap.rules.saves``) for the host dialog's ability, DC and point of
origin. Each row shows the creature's save bonus and roll mode with their reasons before
anything is rolled; **Roll** rolls it, a player character's row also takes the d20 rolled at
the table (typed faces count at once). Rows are saved/failed by the roll, and the DM may still
flip the box (``record`` logs the DM's call).

In a combat, the app's save rolls come from the combat's seeded dice, chained in the order
rolled on a copy of the combat state (nothing is recorded yet); ``record`` hands the host that
chain with the typed saves and any DM override added, for its one undo step. If the combat
changed in between, the rolls are stale: ``record`` refuses (the host asks for new rolls). An
app roll that a typed d20 replaced stays in the log (it was rolled), followed by the typed
save. Outside a combat the saves roll from fresh dice seeded by ``session.seed_source`` and
``record`` returns their log lines for the encounter log.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from itertools import pairwise

import shiboken6
from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QVBoxLayout,
    QWidget,
)

from battlemap.geometry.map_index import MapIndex
from battlemap.geometry.metrics import PointXY
from battlemap.model.combat import CombatEvent, CombatState, DiceState
from battlemap.model.document import Change
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.model.statblock import StatBlock
from battlemap.model.traits import Side
from battlemap.rules.attacks import RollMode
from battlemap.rules.dice import new_dice_state
from battlemap.rules.enums import Ability
from battlemap.rules.errors import InvalidRequestError
from battlemap.rules.limited_actions import legendary_resistance_left, use_legendary_resistance
from battlemap.rules.loose_dice import fresh_d20s
from battlemap.rules.outcome import Outcome, with_combat
from battlemap.rules.saves import (
    SaveReport,
    SaveResult,
    SaveSituation,
    record_save_override,
    save_bonus_of,
    save_report,
    save_situation,
    saving_throw,
)
from battlemap.rules.schema import Ruleset
from battlemap.rules.statblocks import find_statblock
from battlemap.rules.vitals import is_dead
from battlemap.ui.combat.save_text import reason_lines, report_line, result_line, tooltip
from battlemap.ui.combat.session import CombatSession
from battlemap.ui.combat.widgets import BAD, GOOD, tone
from battlemap.ui.map_index_cache import window_index
from battlemap.ui.plain_text import literal_mnemonics
from battlemap.ui.typed_dice import D20Entry, TouchSpinBox

ID_ROLE = Qt.ItemDataRole.UserRole


def party_first(session: CombatSession, ids: Iterable[EntityId]) -> list[EntityId]:
    """``ids`` with the party's creatures first, each group by name (rows keep this order)."""
    encounter = session.encounter
    return sorted(
        ids, key=lambda cid: (encounter.creature(cid).side is not Side.PARTY, session.name(cid))
    )


@dataclass(frozen=True)
class _Standing:
    """What a row's save needs besides the dice, worked out once per opening."""

    situation: SaveSituation
    reasons: tuple[str, ...]
    bonus: int


class RowWidgetsOnly(QStyledItemDelegate):
    """Paints nothing: each item's ``SaveRow`` shows its name and box (the item keeps the
    check state and id that ``SaveRolls.record`` reads)."""

    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionViewItem,
        index: QModelIndex | QPersistentModelIndex,
    ) -> None:
        return


class SaveRow(QWidget):
    """One creature's save: its "saved" box (named), the d20 typed at the table (party only),
    **Roll** and the save's outcome with its reasons.

    The box mirrors the list item's check state (the item stays the one truth ``record`` reads).
    """

    def __init__(self, item: QListWidgetItem, party: bool, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.item = item
        self.party = party
        grid = QGridLayout(self)
        grid.setContentsMargins(4, 2, 4, 2)
        grid.setHorizontalSpacing(6)
        grid.setVerticalSpacing(0)
        self.saved = QCheckBox(literal_mnemonics(item.text()))  # the creature's name
        self.saved.setToolTip("Checked: this creature saved (follows the roll; yours to change)")
        self.saved.toggled.connect(self._box_toggled)
        grid.addWidget(self.saved, 0, 0)
        controls = QHBoxLayout()
        self.d20: D20Entry | None = None
        if party:
            self.d20 = D20Entry()
            for spin in self.d20.spins:
                spin.setToolTip("The d20 the player rolled at the table, or leave 'app rolls'")
            controls.addWidget(self.d20)
        self.roll_button = QPushButton("Roll")
        self.roll_button.setToolTip("Roll this save (a typed d20 counts as rolled)")
        controls.addWidget(self.roll_button)
        grid.addLayout(controls, 0, 1, Qt.AlignmentFlag.AlignRight)
        self.outcome = QLabel()
        self.outcome.setTextFormat(Qt.TextFormat.RichText)
        grid.addWidget(self.outcome, 1, 0, 1, 2)
        self.resist = QPushButton("Use Legendary Resistance")
        self.resist.setToolTip("It fails the save and chooses to succeed instead: one use")
        self.resist.setVisible(False)
        grid.addWidget(self.resist, 2, 0, 1, 2)
        self.resisted = False
        """The DM used its Legendary Resistance on this roll (spent when recorded)."""
        grid.setColumnStretch(0, 1)

    def _box_toggled(self, checked: bool) -> None:
        wanted = Qt.CheckState.Checked if checked else Qt.CheckState.Unchecked
        if self.item.checkState() != wanted:
            self.item.setCheckState(wanted)

    def follow_item(self) -> None:
        """Show the item's check state in the box (it was set on the item)."""
        checked = self.item.checkState() == Qt.CheckState.Checked
        if self.saved.isChecked() != checked:
            blocked = self.saved.blockSignals(True)
            self.saved.setChecked(checked)
            self.saved.blockSignals(blocked)

    @property
    def creature_id(self) -> EntityId:
        return EntityId(self.item.data(ID_ROLE))

    def set_saved(self, saved: bool) -> None:
        self.item.setCheckState(Qt.CheckState.Checked if saved else Qt.CheckState.Unchecked)

    def is_saved(self) -> bool:
        return self.item.checkState() == Qt.CheckState.Checked

    def typed_faces(self) -> tuple[int, ...] | None:
        return self.d20.faces() if self.d20 is not None else None


LIST_SCREEN_SHARE = 0.45
"""The most of the screen's height the rows' list takes before it scrolls."""
LIST_MIN_PX = 80

NEW_ENCOUNTER_NOTE = "Another encounter is open: select the creatures that save, then Use selected."


class StaleSavesError(InvalidRequestError):
    """The saves were rolled on a combat that has changed since: they must be rolled again."""


class SaveRolls:
    """The saving throws of the creatures in a list: one ``SaveRow`` each, the save's preview,
    its rolls (chained on the combat's dice, or fresh dice outside one) and their recording.

    The host dialog lays out the ability and DC boxes (``add_save_row``) and the list with its
    buttons (``add_to``); it sets ``origin`` (cover for Dex saves) before ``set_creatures``.
    """

    def __init__(
        self,
        session: CombatSession,
        library: Mapping[str, StatBlock],
        window: Callable[[], QWidget | None],
        ability: Ability,
        dc: int,
    ) -> None:
        """``window``: the host's main window (for its shared map index; None: build one);
        ``ability`` and ``dc``: the save the boxes start with."""
        self.session = session
        self.library = library
        self.targets = QListWidget()
        """The rows' list (the host lays it out: ``add_to``)."""
        self._window = window
        self.ability = QComboBox()
        for each in Ability:
            self.ability.addItem(each.description, each)
        self.ability.setCurrentIndex(self.ability.findData(ability))
        self.ability.setToolTip("The ability of the saving throw")
        self.dc = TouchSpinBox()
        self.dc.setRange(1, 40)
        self.dc.setValue(dc)
        self.dc.setToolTip("The save's DC: a total of at least the DC saves")
        self.origin: PointXY | None = None
        """The effect's point of origin (cells) for cover against it; None: not known."""
        self.rows: dict[EntityId, SaveRow] = {}
        self.results: dict[EntityId, SaveResult] = {}
        """The save shown in each row (rolled, typed or automatic)."""
        self._standing: dict[EntityId, _Standing] = {}
        self._chain_start: CombatState | None = None
        self._chain: CombatState | None = None
        """The combat state after the app's save rolls so far (None: none rolled in combat)."""
        self._chained: dict[EntityId, SaveResult] = {}
        """The app's rolls in ``_chain`` (the latest per creature)."""
        self._loose: dict[EntityId, SaveResult] = {}
        """The app's rolls from fresh dice, outside a combat."""
        self._loose_lines: dict[EntityId, tuple[CombatEvent, ...]] = {}
        """The log lines of those rolls, for the encounter log when recorded."""
        self._loose_dice: DiceState | None = None
        self.targets.setItemDelegate(RowWidgetsOnly(self.targets))
        self.targets.itemChanged.connect(self._item_changed)
        self.use_selected = QPushButton("Use selected tokens")
        """The host connects it (each dialog takes the selection its own way)."""
        self.roll_monsters = QPushButton("Roll saves for monsters")
        self.roll_monsters.setToolTip("Roll the save of every non-party creature not rolled yet")
        self.roll_monsters.clicked.connect(self.roll_monster_saves)
        self.ability.currentIndexChanged.connect(self.changed)
        self.dc.valueChanged.connect(self.changed)
        session.changed.connect(self._session_changed)

    def forget_on_new_encounter(
        self, outcome: QLabel, also: Callable[[], None] = lambda: None
    ) -> None:
        """File > New/Open: the rows were the old encounter's creatures (even where the new one
        has the same ids), so they go (``also`` forgets the host's own state, such as a point
        of origin) and ``outcome`` says to start afresh with Use selected."""

        def on_change(change: Change) -> None:
            if not change.replaced or not shiboken6.isValid(outcome):
                return
            self.set_creatures([])
            also()
            outcome.setText(f"<b>{NEW_ENCOUNTER_NOTE}</b>")

        self.session.document.subscribe(on_change)

    def add_save_row(self, form: QFormLayout) -> None:
        """Lay out the "Save" row: the ability's box, then the DC's."""
        line = QHBoxLayout()
        line.addWidget(self.ability, 1)
        line.addWidget(QLabel("DC"))
        line.addWidget(self.dc)
        form.addRow("Save", line)

    def add_to(self, layout: QVBoxLayout) -> None:
        """Lay out the rows' list (it takes the spare height) and under it **Use selected
        tokens** and **Roll saves for monsters**."""
        layout.addWidget(self.targets, 1)
        buttons = QHBoxLayout()
        buttons.addWidget(self.use_selected)
        buttons.addWidget(self.roll_monsters)
        layout.addLayout(buttons)

    def set_creatures(self, ids: Iterable[EntityId]) -> None:
        """One row per creature (each unsaved, nothing rolled), in the given order."""
        self.targets.clear()
        self.rows = {}
        encounter = self.session.encounter
        for creature_id in ids:
            row = QListWidgetItem(self.session.name(creature_id))
            row.setData(ID_ROLE, str(creature_id))
            row.setFlags(row.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            row.setCheckState(Qt.CheckState.Unchecked)
            row.setToolTip("Checked: this creature saved")
            self.targets.addItem(row)
            party = encounter.creature(creature_id).side is Side.PARTY
            widget = SaveRow(row, party)
            widget.roll_button.clicked.connect(lambda _=False, cid=creature_id: self.roll_save(cid))
            widget.resist.clicked.connect(lambda _=False, cid=creature_id: self.resist(cid))
            if widget.d20 is not None:
                for spin in widget.d20.spins:
                    spin.valueChanged.connect(lambda _=0, cid=creature_id: self._typed_d20(cid))
            self.targets.setItemWidget(row, widget)
            self.rows[creature_id] = widget
        self._tab_through_rows()
        self.changed()

    def _tab_through_rows(self) -> None:
        """Tab goes from the list through each row's box, d20 and Roll, then on to **Use
        selected tokens** (rows made at opening would otherwise come after the dialog's last
        button)."""
        chain: list[QWidget] = [self.targets]
        for row in self.rows.values():
            chain.append(row.saved)
            if row.d20 is not None:
                chain.extend(row.d20.spins)
            chain.append(row.roll_button)
        chain.append(self.use_selected)
        if self.targets.window() is not self.use_selected.window():
            return  # not laid out in one window yet: Qt can't order them
        for before, after in pairwise(chain):
            QWidget.setTabOrder(before, after)

    def save_ability(self) -> Ability:
        return Ability(self.ability.currentData())

    def changed(self) -> None:
        """A new ability, DC or set of targets: the app's rolls so far are dropped (none was
        recorded), each row shows its bonus and roll mode, and typed d20s count again."""
        self.forget()
        self._standing = {}
        self.refresh()

    def refresh(self) -> None:
        """Rows without the app's roll: the preview, or the save of their typed d20."""
        ruleset = self.session.ruleset()
        if ruleset is None:
            return
        for creature_id, row in self.rows.items():
            if creature_id in self._chained or creature_id in self._loose:
                continue
            self.results.pop(creature_id, None)
            self._preview(creature_id, ruleset)
            if row.typed_faces() is not None:
                self.roll_save(creature_id)

    def _session_changed(self) -> None:
        """The encounter changed (a move, a condition): cover and conditions again, while the
        rows show; the app's rolls stay until ``record`` finds them stale."""
        if self.rows and self.targets.isVisible():
            self._standing = {}
            self.refresh()

    def forget(self) -> None:
        self.results = {}
        self._chain_start = self._chain = None
        self._chained = {}
        self._loose = {}
        self._loose_lines = {}
        self._loose_dice = None

    def _standing_of(self, creature_id: EntityId, ruleset: Ruleset) -> _Standing:
        """The row's cover and squeezing (from the map) and save bonus, once per opening."""
        found = self._standing.get(creature_id)
        if found is None:
            encounter = self.session.encounter
            situation, reasons = save_situation(
                self._map_index(),
                encounter,
                encounter.combat,
                ruleset,
                creature_id,
                self.origin,
            )
            creature = encounter.creature(creature_id)
            block = find_statblock(creature, encounter, self.library)
            bonus = save_bonus_of(creature, block, self.save_ability())
            found = _Standing(situation, reasons, bonus)
            self._standing[creature_id] = found
        return found

    def _map_index(self) -> MapIndex:
        """The window's shared map index; a dialog without a window builds its own."""
        window = self._window()
        if window is None or not hasattr(window, "document"):
            return MapIndex.build(self.session.encounter)
        return window_index(window).get()

    def _report(self, creature_id: EntityId, ruleset: Ruleset) -> SaveReport:
        standing = self._standing_of(creature_id, ruleset)
        state = self.session.state
        combatant = state.combatant(creature_id) if state and state.has(creature_id) else None
        return save_report(
            ruleset,
            combatant,
            self.save_ability(),
            standing.situation,
            save_bonus=standing.bonus,
        )

    def _preview(self, creature_id: EntityId, ruleset: Ruleset) -> None:
        """The row before its roll: the bonus and roll mode with their reasons."""
        row = self.rows[creature_id]
        try:
            report = self._report(creature_id, ruleset)
        except (ValueError, KeyError) as error:
            row.outcome.setText(f"<i>{html.escape(str(error))}</i>")
            row.roll_button.setEnabled(False)
            return
        row.roll_button.setEnabled(True)
        if row.d20 is not None:
            row.d20.set_two(report.roll.mode.d20_count == 2)
        standing = self._standing_of(creature_id, ruleset)
        lines = [report_line(report, self.dc.value())]
        lines.extend(reason_lines(report, standing.reasons))
        row.outcome.setText("<br>".join(lines))
        row.setToolTip(tooltip(report, standing.reasons))
        self._fit(row)

    def _typed_d20(self, creature_id: EntityId) -> None:
        """A face typed (or cleared) in a party row: its save at once, no dice spent."""
        row = self.rows.get(creature_id)
        ruleset = self.session.ruleset()
        if row is None or ruleset is None:
            return
        if row.typed_faces() is not None:
            self.roll_save(creature_id)
            return
        rolled = self._chained.get(creature_id) or self._loose.get(creature_id)
        if rolled is not None:  # the app had rolled it: that roll counts again
            self._show(creature_id, rolled)
        else:
            self.results.pop(creature_id, None)
            self._preview(creature_id, ruleset)

    def roll_monster_saves(self) -> None:
        """Roll the save of every non-party row that has none yet, in row order."""
        for creature_id, row in list(self.rows.items()):
            if not row.party and creature_id not in self.results:
                self.roll_save(creature_id)

    def roll_save(self, creature_id: EntityId) -> None:
        """Roll one row's save (or take its typed d20) and show it; the box follows it.

        In a combat the app's roll comes from the combat's dice, continuing the chain of this
        opening's rolls; outside one, from fresh dice. Nothing is recorded until ``record``.
        """
        row = self.rows.get(creature_id)
        ruleset = self.session.ruleset()
        if row is None or ruleset is None:
            return
        row.resisted = False  # a new roll: the DM decides again
        encounter, state = self.session.encounter, self.session.state
        typed = row.typed_faces()
        try:
            if typed is not None:  # no dice spent: worked out again when recorded
                result = self._throw(encounter, state, ruleset, creature_id, typed).result
            elif state is not None:
                if self._chain is None or self._chain_start != state:
                    self._drop_chain(ruleset)
                    self._chain_start = self._chain = state
                applied = self._throw(encounter, self._chain, ruleset, creature_id, None)
                self._chain, result = applied.combat, applied.result
                self._chained[creature_id] = result
            else:
                faces = self._loose_faces(self._report(creature_id, ruleset).roll.mode)
                thrown = self._throw(encounter, None, ruleset, creature_id, faces)
                result = self._loose[creature_id] = thrown.result
                self._loose_lines[creature_id] = thrown.events
        except (ValueError, KeyError) as error:
            row.outcome.setText(f"<span style='color:{tone(BAD)}'>{html.escape(str(error))}</span>")
            self._fit(row)
            return
        row.set_saved(result.success)
        self._show(creature_id, result)

    def _drop_chain(self, ruleset: Ruleset) -> None:
        """The combat changed since the app's rolls in it: they are dropped (never recorded)."""
        dropped, self._chained = self._chained, {}
        self._chain_start = self._chain = None
        for creature_id in dropped:
            self.results.pop(creature_id, None)
            self._preview(creature_id, ruleset)

    def _show(self, creature_id: EntityId, result: SaveResult) -> None:
        """A save's outcome and reasons in its row (the box is left as it is)."""
        ruleset = self.session.ruleset()
        row = self.rows[creature_id]
        self.results[creature_id] = result
        standing = self._standing_of(creature_id, ruleset) if ruleset is not None else None
        situation = standing.reasons if standing is not None else ()
        lines = [result_line(result)]
        lines.extend(reason_lines(result.report, situation))
        if row.resisted:
            lines.append(
                f"<b style='color:{tone(GOOD)}'>Legendary Resistance: succeeds instead</b>"
            )
        left = legendary_resistance_left(self.session.encounter, creature_id)
        row.resist.setVisible(not result.success and not row.resisted and left > 0)
        row.resist.setText(f"Use Legendary Resistance ({left} left)")
        row.outcome.setText("<br>".join(lines))
        row.setToolTip(tooltip(result.report, situation))
        self._fit(row)

    def resist(self, creature_id: EntityId) -> None:
        """The failed save succeeds instead by Legendary Resistance (spent when recorded)."""
        row, result = self.rows.get(creature_id), self.results.get(creature_id)
        if row is None or result is None or result.success:
            return
        row.resisted = True
        row.set_saved(True)
        self._show(creature_id, result)

    def _throw(
        self,
        encounter: Encounter,
        combat: CombatState | None,
        ruleset: Ruleset,
        creature_id: EntityId,
        typed: tuple[int, ...] | None,
    ) -> Outcome[SaveResult]:
        standing = self._standing_of(creature_id, ruleset)
        return saving_throw(
            with_combat(encounter, combat),
            ruleset,
            creature_id,
            self.save_ability(),
            self.dc.value(),
            standing.situation,
            save_bonus=standing.bonus,
            typed=typed,
        )

    def _loose_faces(self, mode: RollMode) -> tuple[int, ...]:
        """The d20s of a save in ``mode`` from this opening's fresh dice."""
        if self._loose_dice is None:
            self._loose_dice = new_dice_state(self.session.seed_source())
        self._loose_dice, faces = fresh_d20s(self._loose_dice, mode, "saving throw")
        return faces

    def _item_changed(self, item: QListWidgetItem) -> None:
        row = self.rows.get(EntityId(item.data(ID_ROLE)))
        if row is not None:
            row.follow_item()

    def _fit(self, row: SaveRow) -> None:
        """Size the row's item to the row. A d20 box just hidden (``set_two``) only asks for a
        new layout later: until the d20 entry says its size changed, the row's layout still
        counts the hidden box and the list would scroll sideways."""
        if row.d20 is not None:
            row.d20.updateGeometry()
        row.adjustSize()
        row.item.setSizeHint(row.sizeHint())
        self._fit_list()

    def _fit_list(self) -> None:
        """Tall enough for every row, up to ``LIST_SCREEN_SHARE`` of the screen's height (then
        it scrolls): a fireball's eight targets show at once, not three."""
        rows = sum(self.targets.sizeHintForRow(i) for i in range(self.targets.count()))
        screen = self.targets.screen()
        tallest = round(screen.availableGeometry().height() * LIST_SCREEN_SHARE)
        wanted = min(rows + 2 * self.targets.frameWidth() + 2, tallest)
        self.targets.setMinimumHeight(max(LIST_MIN_PX, wanted))

    def record(
        self, encounter: Encounter, combat: CombatState | None, ruleset: Ruleset
    ) -> tuple[Encounter, list[str], list[CombatEvent]]:
        """The encounter (with its combat) with this opening's saves recorded: the chain of
        the app's rolls (refused when the combat changed since), then the typed saves, the
        Legendary Resistances used and the DM's overrides, in row order (a creature no longer
        on the map left out); the outcome lines of the overrides and resistances; and,
        outside a combat, the saves' log lines (the app's rolls, typed d20s, overrides,
        resistances) for the encounter log (in a combat they are in the combat's own log).

        Raises:
            StaleSavesError: the combat changed since the saves were rolled.
        """
        if self._chained:
            if combat is None or combat != self._chain_start:
                raise StaleSavesError(
                    "the combat changed since the saves were rolled: roll them again"
                )
            combat = self._chain
        if self._loose and combat is not None:
            raise StaleSavesError("a combat started since the saves were rolled: roll them again")
        notes = []
        loose: list[CombatEvent] = []
        present = {creature.id for creature in encounter.creatures}
        for creature_id, row in self.rows.items():
            result = self.results.get(creature_id)
            gone = creature_id not in present or is_dead(
                with_combat(encounter, combat), creature_id
            )
            if result is None or gone:  # gone or dead since: its save isn't logged
                continue
            typed = row.typed_faces()
            if typed is not None:  # no dice spent: recorded now
                thrown = self._throw(encounter, combat, ruleset, creature_id, typed)
                combat, result = thrown.combat, thrown.result
                loose.extend(thrown.events if combat is None else ())
            elif combat is None:
                loose.extend(self._loose_lines.get(creature_id, ()))
            name = self.session.name(creature_id)
            if row.resisted and not result.success and row.is_saved():
                what = f"{result.report.ability.description} save DC {result.dc}"
                used = use_legendary_resistance(
                    with_combat(encounter, combat), ruleset, creature_id, what
                )
                encounter, combat = used.encounter, used.combat
                loose.extend(used.events if combat is None else ())
                notes.append(f"{name}: Legendary Resistance, the {what} succeeds instead")
            elif row.is_saved() != result.success:
                notes.append(f"{name}: {'saved' if row.is_saved() else 'failed'} (DM's call)")
                override = record_save_override(
                    with_combat(encounter, combat), ruleset, creature_id, row.is_saved()
                )
                combat = override.combat
                loose.extend(override.events if combat is None else ())
        return with_combat(encounter, combat), notes, loose
