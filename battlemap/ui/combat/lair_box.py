"""The Actions dock's lair actions: every lair in the fight with a button per lair action,
enabled exactly when ``lair.lair_status`` allows it (on initiative count 20, once a round,
not the same effect two rounds in a row where the stat block says so), its tooltip the reason
when not. A click is one undo step; what the action does is the stat block's text, shown in
the status bar."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QGridLayout,
    QGroupBox,
    QLabel,
    QPushButton,
    QSizePolicy,
    QTreeWidgetItem,
)

from battlemap.model.combat import CombatState
from battlemap.model.ids import EntityId
from battlemap.rules.schema import Ruleset
from battlemap.ui.combat.session import CombatSession
from battlemap.ui.plain_text import literal_mnemonics, plain_tooltip

# The engine and the heavier geometry are imported in the functions that use them, so
# the window is built without them (issue 17; tests/ui/test_start_up_imports.py).


class LairBox(QGroupBox):
    """Lair actions of the lairs in the fight; hidden when there are none."""

    def __init__(self, session: CombatSession) -> None:
        super().__init__("Lair actions")
        self.setToolTip("On initiative count 20, losing ties: once a round")
        self.session = session
        self.grid = QGridLayout(self)
        self.grid.setContentsMargins(4, 4, 4, 4)
        self.buttons: dict[tuple[EntityId, str], QPushButton] = {}
        self.setVisible(False)

    def refresh(self, state: CombatState, ruleset: Ruleset) -> bool:
        """Rebuild the buttons; whether any lair is shown."""
        from battlemap.rules.lair import lair_status

        while self.grid.count():
            item = self.grid.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        self.buttons = {}
        row = 0
        for combatant in state.combatants:
            status = lair_status(self.session.encounter, ruleset, combatant.creature_id)
            if status is None:
                continue
            cid = combatant.creature_id
            heading = QLabel(f"<b>{escape(self.session.name(cid))}</b>: {escape(status.text)}")
            heading.setTextFormat(Qt.TextFormat.RichText)
            heading.setWordWrap(True)
            self.grid.addWidget(heading, row, 0, 1, 2)
            row += 1
            for index, (action, reason) in enumerate(status.options):
                button = QPushButton(literal_mnemonics(action.name))
                button.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
                button.setEnabled(reason is None)
                tip = action.text if reason is None else f"Not available: {reason}"
                button.setToolTip(plain_tooltip(tip))
                button.clicked.connect(lambda _=False, c=cid, a=action.name: self.take(c, a))
                self.grid.addWidget(button, row + index // 2, index % 2)
                self.buttons[(cid, action.name)] = button
            row += (len(status.options) + 1) // 2
        self.setVisible(bool(self.buttons))
        return bool(self.buttons)

    def take(self, creature_id: EntityId, name: str) -> None:
        from battlemap.rules.lair import take_lair_action

        applied = self.session.run(
            f"{self.session.name(creature_id)}'s lair: {name}",
            lambda e, r: take_lair_action(e, r, creature_id, name),
        )
        if applied is not None:
            self.session.reported.emit(
                f"{self.session.name(creature_id)}'s lair: {applied.result.text[:300]}"
            )


def lair_row(session: CombatSession, state: CombatState) -> QTreeWidgetItem:
    """The Initiative dock's row for initiative count 20: the lairs and what each did last;
    it can't be selected or dragged (the lairs act from the Actions dock)."""
    from battlemap.rules.lair import lair_status

    ruleset = session.ruleset()
    parts = []
    for combatant in state.combatants:
        status = lair_status(session.encounter, ruleset, combatant.creature_id) if ruleset else None
        if status is not None:
            parts.append((session.name(combatant.creature_id), status.text))
    names = ", ".join(name for name, _ in parts)
    item = QTreeWidgetItem(["20", f"Lair: {names}", "", "; ".join(text for _, text in parts)])
    item.setFlags(Qt.ItemFlag.ItemIsEnabled)
    item.setTextAlignment(0, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    item.setToolTip(1, plain_tooltip("Lair actions: initiative count 20, losing ties"))
    return item
