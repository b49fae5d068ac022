"""The Log dock: every event of the session with its reasons, filterable and copyable.

The rows are the encounter's session log (``Encounter.session_log``): the events outside
combat and the logs of ended combats (``Encounter.log``), then the running combat's own log
(``CombatState.log``), in time order; undo removes the lines of the undone step. The round
column is blank for round 0: outside combat, and while a combat's initiative is set up. A
filter box matches text; a kind box shows one kind of event (rolls, attacks, damage...).
Ctrl+C copies the selected rows, "Copy all" what the filter shows, one tab-separated line
each (round, kind, text).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QAction, QBrush, QFont, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDockWidget,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from battlemap.model.combat import CombatEvent
from battlemap.model.encounter import COMBAT_ENDED, COMBAT_STARTED
from battlemap.ui.combat.session import CombatSession
from battlemap.ui.combat.widgets import ATTACK, BAD, DEATH, MUTED, REASONS, colour, rows
from battlemap.ui.plain_text import plain_tooltip

ALL_KINDS = "All events"
KIND_COLOURS = {
    "attack": ATTACK,
    "attack-reasons": REASONS,
    "damage": BAD,
    "damage-step": BAD,
    "death": DEATH,
    "death-save": DEATH,
    "drop": DEATH,
    "roll": MUTED,
    COMBAT_STARTED: MUTED,
    COMBAT_ENDED: MUTED,
}
"""Text colours by event kind, so attacks, damage and death stand out at a glance."""
BOLD_KINDS = frozenset({"round", "turn-start", COMBAT_STARTED, COMBAT_ENDED})


class LogDock(QDockWidget):
    """The session log as a table of round, kind and text."""

    def __init__(self, session: CombatSession) -> None:
        super().__init__("Log")
        self.setObjectName("combat-log-dock")
        self.session = session
        self._shown: tuple[CombatEvent, ...] = ()
        self._bold = QFont(self.font())
        self._bold.setBold(True)
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(6, 6, 6, 6)
        bar = QHBoxLayout()
        self.filter = QLineEdit()
        self.filter.setPlaceholderText("Filter: a name, 'advantage', 'fire'…")
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self._apply_filter)
        bar.addWidget(self.filter, 1)
        self.kind = QComboBox()
        self.kind.addItem(ALL_KINDS)
        self.kind.setToolTip("Show one kind of event")
        self.kind.currentTextChanged.connect(self._apply_filter)
        bar.addWidget(self.kind)
        self.copy_all = QPushButton("Copy all")
        self.copy_all.setToolTip("Copy every line the filter shows, as text")
        self.copy_all.clicked.connect(lambda: self.copy(selected_only=False))
        bar.addWidget(self.copy_all)
        layout.addLayout(bar)
        self.table = QTreeWidget()
        self.table.setHeaderLabels(["Rnd", "Kind", "Event"])
        self.table.setRootIsDecorated(False)
        self.table.setAlternatingRowColors(True)
        # One line per event (the tooltip has all of it): uniform rows and fixed columns keep
        # a long evening's log fast, since nothing is measured over every row.
        self.table.setUniformRowHeights(True)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        header = self.table.header()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Interactive)
        metrics = self.table.fontMetrics()
        header.resizeSection(0, metrics.horizontalAdvance("Rnd 000"))
        header.resizeSection(1, metrics.horizontalAdvance("attack-reasons  "))
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        layout.addWidget(self.table, 1)
        copy = QAction("Copy", self.table)
        copy.setShortcut(QKeySequence.StandardKey.Copy)
        copy.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        copy.triggered.connect(lambda: self.copy(selected_only=True))
        self.table.addAction(copy)
        self.setWidget(body)
        session.changed.connect(self.refresh)
        self.refresh()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            self._shown = ()  # redraw every row in the new theme's colours
            self.table.clear()
            self.refresh()

    # --- model -> rows ------------------------------------------------------------

    def refresh(self) -> None:
        log = self.session.encounter.session_log()
        if _shortens(log, self._shown):  # an undo took the last lines out: drop their rows
            for index in range(self.table.topLevelItemCount() - 1, len(log) - 1, -1):
                self.table.takeTopLevelItem(index)
            self._shown = log
            return
        dropped = _dropped_oldest(log, self._shown)
        if dropped:  # the bounded log let its oldest lines go: so do their rows
            for _ in range(dropped):
                self.table.takeTopLevelItem(0)
            self._shown = self._shown[dropped:]
        if not _continues(log, self._shown):
            self.table.clear()  # another encounter: start over
            self._shown = ()
        new = log[len(self._shown) :]
        if not new:
            return
        kinds = {self.kind.itemText(i) for i in range(self.kind.count())}
        for event in new:
            name = self.session.name(event.creature_id) if event.creature_id else ""
            item = QTreeWidgetItem([round_label(event), event.kind, event.text])
            item.setToolTip(2, plain_tooltip(event.text if not name else f"{name}: {event.text}"))
            item.setTextAlignment(0, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
            pair = KIND_COLOURS.get(event.kind)
            if pair is not None:
                for column in (1, 2):
                    item.setForeground(column, QBrush(colour(pair)))
            if event.kind in BOLD_KINDS:
                item.setFont(2, self._bold)
            self.table.addTopLevelItem(item)
            item.setHidden(not self._matches(item))
            if event.kind not in kinds:
                kinds.add(event.kind)
                self.kind.addItem(event.kind)
        self._shown = log
        self.table.scrollToBottom()

    def _matches(self, item: QTreeWidgetItem) -> bool:
        kind = self.kind.currentText()
        if kind != ALL_KINDS and item.text(1) != kind:
            return False
        needle = self.filter.text().strip().lower()
        return not needle or needle in item.text(2).lower() or needle in item.text(1).lower()

    def _apply_filter(self) -> None:
        for item in rows(self.table):
            item.setHidden(not self._matches(item))

    def visible_lines(self, selected_only: bool) -> list[str]:
        """The rows as text (``round N<tab>kind<tab>text``; the first cell is empty for a
        line without a round), as shown or as selected."""
        lines = []
        for item in rows(self.table):
            if item.isHidden() or (selected_only and not item.isSelected()):
                continue
            rnd = f"round {item.text(0)}" if item.text(0) else ""
            lines.append(f"{rnd}\t{item.text(1)}\t{item.text(2)}")
        return lines

    def copy(self, selected_only: bool) -> None:
        QGuiApplication.clipboard().setText("\n".join(self.visible_lines(selected_only)))


def round_label(event: CombatEvent) -> str:
    """The round column's text: the round, or blank for round 0 (outside combat, or a
    combat's initiative before its first round)."""
    return str(event.round) if event.round > 0 else ""


def _shortens(log: tuple[CombatEvent, ...], shown: tuple[CombatEvent, ...]) -> bool:
    """Whether ``log`` is ``shown`` with its last events taken out (what an undo does).

    O(1) by identity, as ``_continues``; an equal prefix made of other objects (the same
    lines read again) is compared in full.
    """
    if len(log) >= len(shown):
        return False
    if not log or log[-1] is shown[len(log) - 1]:
        return True
    return shown[: len(log)] == log


def _dropped_oldest(log: tuple[CombatEvent, ...], shown: tuple[CombatEvent, ...]) -> int:
    """How many of ``shown``'s oldest events ``log`` no longer has, when it is the rest of
    ``shown`` with events appended (what a bounded log does once full); else 0.

    Finds ``log``'s first event in ``shown`` by identity (one pass, no comparisons).
    """
    if not log or not shown or log[0] is shown[0]:
        return 0
    first = log[0]
    dropped = next((i for i, event in enumerate(shown) if event is first), 0)
    kept = len(shown) - dropped
    if not dropped or len(log) < kept or log[kept - 1] is not shown[-1]:
        return 0
    return dropped


def _continues(log: tuple[CombatEvent, ...], shown: tuple[CombatEvent, ...]) -> bool:
    """Whether ``log`` is ``shown`` with events appended.

    Engine calls append to the log and keep the earlier event objects, so comparing the last
    shown event by identity (and the length) answers in O(1) on a long log; anything else
    (another encounter) falls back to a full comparison.
    """
    if len(log) < len(shown):
        return False
    if not shown or log[len(shown) - 1] is shown[-1]:
        return True
    return log[: len(shown)] == shown
