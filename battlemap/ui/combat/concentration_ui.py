"""Concentration in the DM's window: the Creature dock's "Concentrating" row and the token
menu's entries mark a creature concentrating on a spell (its name) or end it, one undo step
each (``rules.concentration``); the saves damage calls for wait in the Actions dock's
"Saves due" box (``pending_box``). ``install`` wires it all into the combat interface."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QHBoxLayout, QInputDialog, QLineEdit, QMenu, QPushButton, QWidget

from battlemap.model.combat import Concentration
from battlemap.model.ids import EntityId
from battlemap.model.limits import MAX_NAME
from battlemap.rules.concentration import concentrate, stop_concentrating
from battlemap.ui.combat.pending_box import PendingSavesBox, pending_box_in
from battlemap.ui.combat.session import CombatSession
from battlemap.ui.map_scene import MapScene
from battlemap.ui.plain_text import literal_mnemonics

if TYPE_CHECKING:
    from battlemap.ui.combat import CombatUi
    from battlemap.ui.combat.condition_dialog import ConditionDialog


def concentration_of(session: CombatSession, creature_id: EntityId) -> Concentration | None:
    """What the creature concentrates on: its combatant's, else (no combat) its lasting one."""
    state = session.state
    if state is not None:
        return state.combatant(creature_id).concentration if state.has(creature_id) else None
    try:
        lasting = session.encounter.creature(creature_id).lasting
    except KeyError:
        return None
    return lasting.concentration if lasting is not None else None


def start(session: CombatSession, creature_id: EntityId, spell: str) -> None:
    name = session.name(creature_id)
    applied = session.run(
        f"{name} concentrates on {spell}", lambda e, r: concentrate(e, r, creature_id, spell)
    )
    if applied is not None:
        session.reported.emit(applied.events[-1].text)


def stop(session: CombatSession, creature_id: EntityId) -> None:
    applied = session.run(
        f"{session.name(creature_id)} stops concentrating",
        lambda e, r: stop_concentrating(e, r, creature_id),
    )
    if applied is not None and applied.events:
        session.reported.emit(applied.events[0].text)


class ConcentrationRow(QWidget):
    """The spell's name and Concentrate, or what it concentrates on and Stop."""

    def __init__(self, session: CombatSession) -> None:
        super().__init__()
        self.session = session
        self.creature_id: EntityId | None = None
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        self.spell = QLineEdit()
        self.spell.setMaxLength(MAX_NAME)
        self.spell.setPlaceholderText("Spell, e.g. Bless")
        self.spell.setToolTip("The spell it concentrates on; damage then calls for a Con save")
        self.spell.returnPressed.connect(self._toggle)
        row.addWidget(self.spell, 1)
        self.button = QPushButton("Concentrate")
        self.button.clicked.connect(self._toggle)
        row.addWidget(self.button)

    def show_for(self, creature_id: EntityId | None) -> None:
        self.creature_id = creature_id
        held = concentration_of(self.session, creature_id) if creature_id else None
        self.setEnabled(creature_id is not None)
        self.spell.setReadOnly(held is not None)
        if held is not None:
            self.spell.setText(held.spell)
        elif self.spell.isReadOnly() or not self.spell.hasFocus():
            self.spell.clear()
        self.button.setText("Stop" if held is not None else "Concentrate")
        self.button.setToolTip(
            f"End the concentration on {held.spell} and what it holds"
            if held is not None
            else "Mark it concentrating on the spell named here"
        )

    def _toggle(self) -> None:
        creature_id = self.creature_id
        if creature_id is None:
            return
        if concentration_of(self.session, creature_id) is not None:
            stop(self.session, creature_id)
        elif self.spell.text().strip():
            start(self.session, creature_id, self.spell.text())
        else:
            self.session.refused.emit("Type the spell's name first")


def token_entries(ui: CombatUi, menu: QMenu, creature_id: EntityId) -> None:
    """Right-click on a token: concentrate on a spell, or stop (in or out of a combat)."""
    session = ui.session
    state = session.state
    if state is not None and not state.has(creature_id):
        return
    held = concentration_of(session, creature_id)
    if held is not None:
        menu.addAction(
            literal_mnemonics(f"Stop concentrating on {held.spell}"),
            lambda: stop(session, creature_id),
        )
        return

    def ask() -> None:
        spell, ok = QInputDialog.getText(
            ui.window, "Concentration", f"Spell {session.name(creature_id)} concentrates on:"
        )
        if ok and spell.strip():
            start(session, creature_id, spell)

    menu.addAction("Concentrate on a spell…", ask)


@dataclass
class EffectsUi:
    """The parts ``install`` adds, for tests and other features to reach."""

    concentration: ConcentrationRow
    pending: PendingSavesBox
    condition_button: QPushButton
    _dialog: ConditionDialog | None = None

    def condition_dialog(
        self, session: CombatSession, scene: MapScene, parent: QWidget
    ) -> ConditionDialog:
        """The condition dialog, made on first use."""
        if self._dialog is None:
            from battlemap.ui.combat.condition_dialog import ConditionDialog

            self._dialog = ConditionDialog(session, scene, parent)
        return self._dialog


def install(ui: CombatUi) -> EffectsUi:
    """The Concentrating row in the Creature dock, the token menu entries and the Saves due
    box at the top of the Actions dock."""
    panel = ui.panel
    row = ConcentrationRow(ui.session)
    form = panel.layout()
    add_row = getattr(form, "addRow", None)
    if add_row is not None:
        add_row("Concentrating", row)
    # after the panel's own slots: its creature_id is the selected one by then
    ui.session.changed.connect(lambda: row.show_for(panel.creature_id))
    panel.scene.selectionChanged.connect(lambda: row.show_for(panel.creature_id))
    row.show_for(panel.creature_id)
    condition_button = QPushButton("Condition with a duration or a save…")
    condition_button.setToolTip(
        "A condition lasting rounds or minutes, ended by a save at the end of each turn,"
        " or held by a creature's concentration"
    )
    if add_row is not None:
        add_row(condition_button)
    panel.scene.token_menu_builders.append(lambda menu, cid: token_entries(ui, menu, cid))
    pending = PendingSavesBox(ui.session)
    actions_body = ui.actions.widget()
    inner = getattr(actions_body, "widget", None)  # the scroll area around the body
    body = inner() if callable(inner) else actions_body
    if body is not None:
        pending_box_in(body, pending, 2)  # under the heading and the economy line
    effects = EffectsUi(row, pending, condition_button)

    def open_dialog(creature_id: EntityId | None) -> None:
        if creature_id is None:
            ui.session.refused.emit("Select one token first")
            return
        effects.condition_dialog(ui.session, panel.scene, ui.window).open_for(creature_id)

    condition_button.clicked.connect(lambda: open_dialog(panel.creature_id))

    def condition_entry(menu: QMenu, creature_id: EntityId) -> None:
        menu.addAction("Condition with a duration or a save…", lambda: open_dialog(creature_id))

    panel.scene.token_menu_builders.append(condition_entry)
    return effects
