"""The Initiative dock: who acts in what order, the round, whose turn it is.

Before round 1 the DM starts a combat with the creatures on the map (or the selected ones),
rolls initiative for everyone or for the monsters only (players then type the totals they
rolled at the table), and begins. During the fight: next and previous turn, drag a row to
reorder, type a new initiative, add the selected tokens or remove a row. Every change is one
engine call and one undo step (``CombatSession``).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QSignalBlocker, QSize, Qt, Signal
from PySide6.QtGui import (
    QAction,
    QBrush,
    QDropEvent,
    QFont,
    QFontMetrics,
    QKeySequence,
    QResizeEvent,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QDockWidget,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSizePolicy,
    QStyle,
    QToolButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from battlemap.model.combat import Combatant, CombatState
from battlemap.model.ids import EntityId
from battlemap.rules.enums import InitiativeMode
from battlemap.rules.vitals import looks_bloodied
from battlemap.ui.combat.lair_box import lair_row
from battlemap.ui.combat.session import CombatSession
from battlemap.ui.combat.widgets import (
    CURRENT_BACKGROUND,
    CURRENT_TEXT,
    MUTED,
    WARNING,
    colour,
    dark_theme,
    rows,
)
from battlemap.ui.map_scene import MapScene
from battlemap.ui.plain_text import plain_tooltip
from battlemap.ui.style import SIDE_COLOURS
from battlemap.ui.typed_dice import TouchSpinBox

# The engine and the heavier geometry are imported in the functions that use them, so
# the window is built without them (issue 17; tests/ui/test_start_up_imports.py).

ID_ROLE = Qt.ItemDataRole.UserRole
NAME_SHARE = 0.7
"""The most of a row's width the Creature column takes (a status keeps some room)."""
NEXT_TURN_TEXT = "Next turn"
ORDER_HEIGHT = 165
"""The order's least and preferred height (about nine rows; more when the dock has room, the
rest scroll). The order is the dock's last part (the buttons and the Initiative box sit above
it), so on a short screen only its foot folds."""


class OrderTree(QTreeWidget):
    """The turn order; rows can be dragged to a new place (top-level only)."""

    reordered = Signal(list)

    def __init__(self) -> None:
        super().__init__()
        self.setMinimumHeight(ORDER_HEIGHT)
        self.setColumnCount(4)
        self.setHeaderLabels(["Init", "Creature", "HP", "Status"])
        self.setRootIsDecorated(False)
        self.setUniformRowHeights(True)
        self.setAlternatingRowColors(True)
        self.setDragDropMode(QAbstractItemView.DragDropMode.InternalMove)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        # Names keep their width (fit_names); the status takes what is left and elides, its
        # full text in the tooltip: a long status ("dying 0/0, unconscious, prone") used to
        # squeeze the names to "...".
        header = self.header()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Fixed)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        header.setStretchLastSection(False)
        self.setTextElideMode(Qt.TextElideMode.ElideRight)

    def sizeHint(self) -> QSize:
        return QSize(super().sizeHint().width(), ORDER_HEIGHT)

    def fit_names(self) -> None:
        """Give the Creature column its longest name's width, up to NAME_SHARE of the row
        (a name longer still elides), and the Status column the rest."""
        bold = QFont(self.font())
        bold.setBold(True)
        metrics = QFontMetrics(bold)  # the current row's name is bold: the widest case
        header = self.header()
        needed = max(
            [metrics.horizontalAdvance(item.text(1)) for item in rows(self)]
            + [metrics.horizontalAdvance(self.headerItem().text(1))]
        )
        needed += 2 * self.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin) + 12
        others = sum(
            max(header.sectionSize(column), self.sizeHintForColumn(column)) for column in (0, 2)
        )  # as they are about to be: resized to their contents after this fill's layout
        room = self.viewport().width() - others
        header.resizeSection(1, max(40, min(needed, int(room * NAME_SHARE))))

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.fit_names()

    def ids(self) -> list[EntityId]:
        return [EntityId(item.data(0, ID_ROLE)) for item in rows(self) if item.data(0, ID_ROLE)]

    def dropEvent(self, event: QDropEvent) -> None:
        if event.source() is not self:
            event.ignore()  # only rows of this list move; nothing is dropped in from outside
            return
        before = self.ids()
        super().dropEvent(event)
        after = self.ids()
        if after != before and sorted(after) == sorted(before):
            self.reordered.emit(after)


class InitiativeDock(QDockWidget):
    """Shows the combat's order and round, and drives turns through the engine."""

    def __init__(self, session: CombatSession, scene: MapScene) -> None:
        super().__init__("Initiative")
        self.setObjectName("initiative-dock")
        self.session = session
        self.scene = scene
        self.death_save_d20: Callable[[], int | None] | None = None
        self.recharge_d6: Callable[[], int | None] | None = None
        """Where Next turn reads a death save typed for the next creature (the Actions dock)."""
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(6, 6, 6, 6)
        self.heading = QLabel()
        self.heading.setTextFormat(Qt.TextFormat.PlainText)  # creatures' names
        heading_font = QFont(self.heading.font())
        heading_font.setPointSizeF(heading_font.pointSizeF() * 1.35)
        heading_font.setBold(True)
        self.heading.setFont(heading_font)
        self.heading.setWordWrap(True)
        layout.addWidget(self.heading)
        self.tree = OrderTree()
        self.tree.reordered.connect(self._reorder)
        self.tree.itemSelectionChanged.connect(self._on_row_selected)

        # Initiative and Set alone on their row: with the touch-sized box (44 px - and +)
        # beside them, Surprised made the dock wider than a laptop's left column.
        entry = QHBoxLayout()
        entry.addWidget(QLabel("Initiative"))
        self.value = TouchSpinBox()
        self.value.setRange(-100, 100)
        self.value.setToolTip("The total a player rolled at the table, or a new value")
        entry.addWidget(self.value)
        self.value.lineEdit().returnPressed.connect(self._set_value)  # Enter presses Set
        self.set_button = QPushButton("Set")
        self.set_button.setToolTip("Set the selected creature's initiative and re-sort")
        self.set_button.clicked.connect(self._set_value)
        entry.addWidget(self.set_button)
        entry.addStretch(1)
        layout.addLayout(entry)
        marks = QHBoxLayout()
        self.surprised = QCheckBox("Surprised")  # only while setting up: no room taken later
        self.surprised.setToolTip("Mark the selected row surprised (before round 1)")
        self.surprised.clicked.connect(self._set_surprised)
        marks.addWidget(self.surprised)
        self.natural_20 = QCheckBox("Set as a natural 20")  # where a 20 earns an extra turn
        self.natural_20.setToolTip("The die showed a natural 20: an extra turn in round 1")
        self.natural_20.setVisible(False)  # before the layout measures it
        marks.addWidget(self.natural_20)
        marks.addStretch(1)
        layout.addLayout(marks)
        # The order under the Initiative box: at 1366 x 768 the box sat below the fold, so a
        # player's roll could not be typed while setting up (found by the scripted session).
        layout.addWidget(self.tree, 1)

        self.next_action = QAction(NEXT_TURN_TEXT, self)
        self.next_action.setShortcut(QKeySequence("N"))
        self.next_action.setToolTip("End the current turn and start the next one (N)")
        self.next_action.triggered.connect(self.next_turn)
        self.previous_action = QAction("Previous turn", self)
        self.previous_action.setShortcut(QKeySequence("Shift+N"))
        self.previous_action.setToolTip("Undo the last turn change (Shift+N)")
        self.previous_action.triggered.connect(self.previous_turn)
        self.start_action = QAction("Start combat", self)
        self.start_action.setShortcut(QKeySequence("Ctrl+Shift+C"))
        self.start_action.setToolTip(
            "Start a combat with the selected tokens, or every creature on the map"
        )
        self.start_action.triggered.connect(self.start)
        self.end_action = QAction("End combat", self)
        self.end_action.triggered.connect(session.end)

        grid = QGridLayout()
        self.start_button = self._button(self.start_action)
        self.roll_all = QPushButton("Roll for all")
        self.roll_all.setToolTip("The app rolls everyone's initiative")
        self.roll_all.clicked.connect(lambda: self.roll(monsters_only=False))
        self.roll_monsters = QPushButton("Roll for monsters")
        self.roll_monsters.setToolTip(
            "The app rolls for everyone but the party; players call out theirs and you type them"
        )
        self.roll_monsters.clicked.connect(lambda: self.roll(monsters_only=True))
        self.begin_button = QPushButton("Begin round 1")
        self.begin_button.clicked.connect(self.begin)
        self.previous_button = self._button(self.previous_action)
        self.next_button = self._button(self.next_action)
        self.add_button = QPushButton("Add selected")
        self.add_button.setToolTip("Add the tokens selected on the map to the combat")
        self.add_button.clicked.connect(self.add_selected)
        self.remove_button = QPushButton("Remove")
        self.remove_button.setToolTip("Take the selected row out of the combat")
        self.remove_button.clicked.connect(self.remove_selected)
        self.end_button = self._button(self.end_action)
        grid.addWidget(self.start_button, 0, 0, 1, 2)
        grid.addWidget(self.roll_all, 1, 0)
        grid.addWidget(self.roll_monsters, 1, 1)
        self.sneak_button = QPushButton("Roll surprise")
        self.sneak_button.setToolTip(
            "The tokens selected on the map sneak up: they roll Stealth against the others'"
            " passive Perception"
        )
        self.sneak_button.clicked.connect(self.roll_surprise)
        grid.addWidget(self.sneak_button, 2, 0)
        grid.addWidget(self.begin_button, 2, 1)
        grid.addWidget(self.add_button, 4, 0)
        grid.addWidget(self.remove_button, 4, 1)
        self.go_now_button = QPushButton("Selected acts now")
        self.go_now_button.setToolTip(
            "Group initiative: a member of the acting group who hasn't gone yet takes the turn"
            " now, before the current creature spends anything"
        )
        self.go_now_button.clicked.connect(self.go_now)
        grid.addWidget(self.go_now_button, 5, 0, 1, 2)
        # The turn's and the set-up's buttons under the heading, above the order: a short
        # dock scrolls its foot out of sight, never these (issue 15: End combat, and Start
        # combat with the rolls, needed scrolling on a laptop).
        turn_row = QHBoxLayout()
        for button in (self.previous_button, self.next_button, self.end_button):
            turn_row.addWidget(button)
        layout.insertLayout(1, turn_row)
        layout.insertLayout(2, grid)
        self.setWidget(body)
        session.changed.connect(self.refresh)
        self.refresh()

    def _button(self, action: QAction) -> QToolButton:
        button = QToolButton()
        button.setDefaultAction(action)
        button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        button.setMinimumHeight(28)
        button.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        return button

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            self.refresh()  # the colours follow the theme

    # --- model -> widgets ----------------------------------------------------------

    def refresh(self) -> None:
        state = self.session.state
        running = state is not None and state.started
        setting_up = state is not None and not state.started
        self.start_button.setVisible(state is None)
        self.start_action.setEnabled(state is None)
        for widget in (
            self.roll_all,
            self.roll_monsters,
            self.begin_button,
            self.sneak_button,
            self.surprised,
        ):
            widget.setVisible(setting_up)
        self.previous_button.setVisible(running)
        self.next_button.setVisible(running)
        self.next_action.setEnabled(running)
        self.previous_action.setEnabled(running)
        self.end_action.setEnabled(state is not None)
        self.end_button.setVisible(state is not None)
        ruleset = self.session.ruleset() if running else None
        grouped = ruleset is not None and ruleset.initiative.mode is InitiativeMode.GROUP_MEDIAN
        self.go_now_button.setVisible(grouped)
        self.add_button.setVisible(state is not None)
        self.remove_button.setVisible(state is not None)
        ruleset_now = self.session.ruleset() if state is not None else None
        self.natural_20.setVisible(
            ruleset_now is not None and ruleset_now.initiative.natural_20_extra_turn
        )
        self.value.setEnabled(state is not None)
        self.set_button.setEnabled(state is not None)
        self._fill(state)

    def _heading(self, state: CombatState | None) -> str:
        if state is None:
            return "No combat"
        if not state.started:
            if not state.order:
                return "Setting up: roll initiative"
            waiting = [c.creature_id for c in state.combatants if c.initiative is None]
            if waiting:
                names = ", ".join(sorted(self.session.name(i) for i in waiting))
                return f"Setting up: waiting for {names}"
            return "Setting up: ready to begin"
        current = state.current
        who = self.session.name(current.creature_id) if current else "?"
        return f"Round {state.round} · {who}'s turn"

    def _fill(self, state: CombatState | None) -> None:
        self.heading.setText(self._heading(state))
        selected = self.selected_id()
        blocker = QSignalBlocker(self.tree)
        self.tree.clear()
        if state is None:
            del blocker
            return
        from battlemap.rules.lair import lair_row_index  # a combat: the engine is needed now
        from battlemap.rules.legendary import legendary_text

        ids = [s.creature_id for s in state.order] or [c.creature_id for c in state.combatants]
        current = state.current
        dark = dark_theme()
        bold = QFont(self.tree.font())
        bold.setBold(True)
        ruleset = self.session.ruleset()
        lair_at = lair_row_index(state, self.session.encounter) if state.started else None
        for index, creature_id in enumerate([*ids, None]):
            if index == lair_at:  # initiative count 20, after the ties
                self.tree.addTopLevelItem(lair_row(self.session, state))
            if creature_id is None:
                break
            combatant = state.combatant(creature_id)
            try:
                creature = self.session.encounter.creature(creature_id)
            except KeyError:
                continue
            init = "?" if combatant.initiative is None else str(combatant.initiative)
            extra = state.order[index].extra if state.order else False
            status = _status(combatant, creature.hp, extra)
            legend = legendary_text(self.session.encounter, combatant)
            status = ", ".join(part for part in (status, legend) if part)
            if combatant.controlled_by is not None:  # a controlled mount, after its rider
                ridden = f"ridden by {self.session.name(combatant.controlled_by)}"
                status = ", ".join(part for part in (ridden, status) if part)
            item = QTreeWidgetItem(
                [init, creature.name, f"{creature.hp}/{creature.max_hp}", status]
            )
            item.setData(0, ID_ROLE, str(creature_id))
            item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsDropEnabled)
            side = SIDE_COLOURS[creature.side]
            item.setForeground(1, QBrush(side.lighter(150) if dark else side.darker(115)))
            item.setTextAlignment(0, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            item.setTextAlignment(2, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            item.setToolTip(
                1, plain_tooltip(f"{creature.name} ({creature.side.value}), AC {creature.ac}")
            )
            if status:
                item.setToolTip(3, plain_tooltip(status))
            if looks_bloodied(ruleset, creature, combatant):
                item.setForeground(2, QBrush(colour(WARNING)))
            if combatant.death.dead or creature.hp == 0:
                for column in range(4):
                    item.setForeground(column, QBrush(colour(MUTED)))
            if current is not None and index == state.turn_index:
                for column in range(4):
                    item.setBackground(column, QBrush(colour(CURRENT_BACKGROUND)))
                    item.setFont(column, bold)
                    if not (combatant.death.dead or creature.hp == 0) and column != 1:
                        item.setForeground(column, QBrush(colour(CURRENT_TEXT)))
                item.setText(1, f"▶ {creature.name}")
            self.tree.addTopLevelItem(item)
            if str(creature_id) == selected:
                item.setSelected(True)
        self.tree.fit_names()
        del blocker

    def selected_id(self) -> EntityId | None:
        items = self.tree.selectedItems()
        return EntityId(items[0].data(0, ID_ROLE)) if items else None

    def _on_row_selected(self) -> None:
        """Select the row's token on the map so the Creature dock shows it."""
        creature_id = self.selected_id()
        token = self.scene.tokens.get(creature_id) if creature_id else None
        if token is None:
            return
        state = self.session.state
        if state is not None and creature_id is not None and state.has(creature_id):
            combatant = state.combatant(creature_id)
            value = combatant.initiative
            self.value.setValue(value if value is not None else 10)
            self.surprised.setChecked(combatant.surprised)
            self.natural_20.setChecked(combatant.extra_turn)
        self.scene.clearSelection()
        token.setSelected(True)

    # --- widgets -> engine ----------------------------------------------------------

    def _selected_tokens(self) -> list[EntityId]:
        return self.scene.selected_creatures()

    def start(self) -> None:
        """Start with the selected tokens when two or more are selected, else everyone."""
        chosen = self._selected_tokens()
        self.session.start(chosen if len(chosen) >= 2 else None)

    def roll(self, monsters_only: bool) -> None:
        """Roll initiative for everyone, or only for the non-party combatants: the players
        roll at the table and the DM types their totals (Set); until then they wait at the
        bottom of the order with no initiative, and the engine won't begin the round."""
        from battlemap.rules import initiative

        if not monsters_only:
            self.session.run("Roll initiative", initiative.roll_initiative)
            return
        party = self.session.party_ids()
        if self.session.run(
            "Roll initiative for the monsters",
            lambda e, r: initiative.roll_initiative_except(e, r, party),
        ):
            self.session.reported.emit("Type each player's initiative, then press Set.")

    def go_now(self) -> None:
        """legends-of-hyrule: the selected member of the acting group takes its turn now."""
        from battlemap.rules import turns

        creature_id = self.selected_id()
        if creature_id is None:
            self.session.refused.emit("Select the group member who acts now")
            return
        self.session.run(
            f"{self.session.name(creature_id)} acts now",
            lambda e, r: turns.take_turn_now(e, r, creature_id),
        )

    def begin(self) -> None:
        from battlemap.rules import turns

        self.session.run("Begin combat", turns.begin_combat)

    def next_turn(self) -> None:
        """End the turn and start the next; the death save the next creature owes (typed in
        the Actions dock, else rolled) is part of the same undo step."""
        from battlemap.rules import legendary

        state = self.session.state
        if state is None or not state.started:
            self.session.refused.emit("the combat hasn't begun")
            return
        ruleset = self.session.ruleset()
        if ruleset is not None and legendary.legendary_pause_due(self.session.encounter, ruleset):
            self._end_of_turn()  # legendary actions come in between; the next press goes on
            return
        typed = self.death_save_d20() if self.death_save_d20 is not None else None
        d6 = self.recharge_d6() if self.recharge_d6 is not None else None
        applied = self.session.run(  # with the monsters' start of turn: recharge, legendary
            lambda done: f"{NEXT_TURN_TEXT}: {self.session.name(done.result.step.started)}",
            lambda e, r: legendary.next_turn(e, r, death_save_d20=typed, recharge_d6=d6),
        )
        save = applied.result.step.death_save if applied is not None else None
        if applied is not None and save is not None:
            who = self.session.name(applied.result.step.started)
            self.session.reported.emit(
                f"{who}'s death save: {save.natural} ({save.effect});"
                f" {save.successes} successes, {save.failures} failures"
            )
        if applied is not None and applied.result.lairs:
            names = ", ".join(self.session.name(cid) for cid in applied.result.lairs)
            self.session.reported.emit(f"Initiative 20: lair actions ({names}); see the log")

    def _end_of_turn(self) -> None:
        """Stop at the end of the current turn: the moment for legendary actions (the SRD stat
        blocks: "only at the end of another creature's turn")."""
        from battlemap.rules import legendary

        state = self.session.state
        if state is None or state.current is None:
            return
        name = self.session.name(state.current.creature_id)
        applied = self.session.run(f"{NEXT_TURN_TEXT}: end of {name}'s turn", legendary.end_of_turn)
        if applied is not None:
            self.session.reported.emit(f"{applied.events[-1].text}; Next turn goes on")

    def previous_turn(self) -> None:
        """Go back one turn by undoing the last turn change, if it is the last step."""
        stack = self.session.undo_stack
        if stack.canUndo() and stack.undoText().startswith(f"{NEXT_TURN_TEXT}:"):
            stack.undo()
        else:
            self.session.refused.emit(
                "Previous turn undoes the last turn change; other steps came after it"
                " (use Undo to step back through them)"
            )

    def roll_surprise(self) -> None:
        from battlemap.rules import initiative

        sneaking = [
            i for i in self._selected_tokens() if self.session.state and self.session.state.has(i)
        ]
        if not sneaking:
            self.session.refused.emit("Select the tokens that sneak up, then Roll surprise")
            return
        self.session.run(
            "Roll surprise",
            lambda e, r: initiative.determine_surprise(e, r, sneaking),
        )

    def _set_surprised(self, on: bool) -> None:
        from battlemap.rules import initiative

        creature_id = self.selected_id()
        if creature_id is None:
            self.session.refused.emit("Select a row first")
            self.surprised.setChecked(False)
            return
        self.session.run(
            f"{self.session.name(creature_id)} surprised" if on else "Not surprised",
            lambda e, r: initiative.set_surprised(e, r, creature_id, on),
        )

    def _set_value(self) -> None:
        from battlemap.rules import initiative

        creature_id = self.selected_id()
        if creature_id is None:
            self.session.refused.emit("Select a row first")
            return
        value = self.value.value()
        natural = 20 if not self.natural_20.isHidden() and self.natural_20.isChecked() else None
        name = self.session.name(creature_id)
        if self.session.run(
            f"Initiative of {name}",
            lambda e, r: initiative.set_initiative(e, r, creature_id, value, natural),
        ):
            self.natural_20.setChecked(False)
            self.refresh()

    def _reorder(self, ids: list[EntityId]) -> None:
        from battlemap.rules import initiative

        state = self.session.state
        if state is None or not state.order:
            self.refresh()
            return
        if not self.session.run(
            "Reorder initiative",
            lambda e, r: initiative.reorder(e, r, ids),
        ):
            self.refresh()

    def add_selected(self) -> None:
        state = self.session.state
        if state is None:
            return
        for creature_id in self._selected_tokens():
            if not state.has(creature_id):
                self._add(creature_id)
                state = self.session.state
                if state is None:
                    return

    def _add(self, creature_id: EntityId) -> None:
        from battlemap.rules import turns

        self.session.run(
            f"Add {self.session.name(creature_id)} to the combat",
            lambda e, r: turns.add_combatant(e, r, creature_id),
        )

    def remove_selected(self) -> None:
        from battlemap.rules import turns

        creature_id = self.selected_id()
        if creature_id is None:
            self.session.refused.emit("Select a row to remove")
            return
        self.session.run(
            f"Remove {self.session.name(creature_id)} from the combat",
            lambda e, r: turns.remove_combatant(e, r, creature_id),
        )


def _status(combatant: Combatant, hp: int, extra: bool) -> str:
    """Down, dying or dead, surprise, an extra turn, concentration and the conditions, for the
    Status column."""
    death = combatant.death
    parts: list[str] = []
    if death.dead:
        return "dead"
    if hp == 0:
        parts.append("stable" if death.stable else f"dying {death.successes}✓ {death.failures}✗")
    if combatant.surprised and combatant.turns_taken == 0:
        parts.append("surprised")
    if extra:
        parts.append("extra turn")
    if combatant.concentration is not None:  # short: the names column keeps its room
        spell = combatant.concentration.spell
        parts.append(f"conc. {spell if len(spell) <= 10 else spell[:9] + '…'}")
    parts.extend(c.name for c in combatant.conditions)
    return ", ".join(parts)
