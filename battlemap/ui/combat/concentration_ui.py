"""Concentration and lasting effects in the DM's window: entries in the Creature dock's
conditions menu and the token menu mark a creature concentrating on a spell (its name) or end
it, one undo step each (``rules.concentration``), and open the condition dialog (duration,
save at the end of each turn, held by); the saves the fight waits on are in the "Saves due"
box (``pending_box``) on the decision card over the map. ``install`` wires it all into the
combat UI."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QInputDialog, QMenu, QWidget

from battlemap.model.combat import Concentration
from battlemap.model.ids import EntityId
from battlemap.ui.combat.pending_box import PendingSavesBox
from battlemap.ui.combat.session import CombatSession
from battlemap.ui.map_scene import MapScene
from battlemap.ui.plain_text import literal_mnemonics

# The engine and the heavier geometry are imported in the functions that use them, so
# the window is built without them (issue 17; tests/ui/test_start_up_imports.py).
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
    from battlemap.rules.concentration import concentrate

    name = session.name(creature_id)
    applied = session.run(
        f"{name} concentrates on {spell}", lambda e, r: concentrate(e, r, creature_id, spell)
    )
    if applied is not None:
        session.reported.emit(applied.events[-1].text)


def stop(session: CombatSession, creature_id: EntityId) -> None:
    from battlemap.rules.concentration import stop_concentrating

    applied = session.run(
        f"{session.name(creature_id)} stops concentrating",
        lambda e, r: stop_concentrating(e, r, creature_id),
    )
    if applied is not None and applied.events:
        session.reported.emit(applied.events[0].text)


SpellAsker = Callable[[EntityId], str | None]
"""Asks the DM for the spell's name (None: cancelled)."""


@dataclass
class EffectsUi:
    """The parts ``install`` adds, for tests and other features to reach."""

    pending: PendingSavesBox
    ask_spell: SpellAsker
    _dialog: ConditionDialog | None = None

    def condition_dialog(
        self, session: CombatSession, scene: MapScene, parent: QWidget
    ) -> ConditionDialog:
        """The condition dialog, made on first use."""
        if self._dialog is None:
            from battlemap.ui.combat.condition_dialog import ConditionDialog

            self._dialog = ConditionDialog(session, scene, parent)
        return self._dialog


def effect_entries(ui: CombatUi, effects: EffectsUi, menu: QMenu, creature_id: EntityId) -> None:
    """Concentrate (or stop) and the condition dialog, for ``creature_id``."""
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
    else:

        def ask() -> None:
            spell = effects.ask_spell(creature_id)
            if spell is not None and spell.strip():
                start(session, creature_id, spell)

        menu.addAction("Concentrate on a spell…", ask)
    menu.addAction(
        "Condition with a duration or a save…",
        lambda: effects.condition_dialog(session, ui.panel.scene, ui.window).open_for(creature_id),
    )


def install(ui: CombatUi) -> EffectsUi:
    """Concentration and the condition dialog in the token menu and at the top of the Creature
    dock's conditions menu (no rows added: the dock fits a 1600 x 1000 window), and the Saves
    due box on the decision card (Next turn waits for them)."""
    session = ui.session

    def ask_spell(creature_id: EntityId) -> str | None:
        spell, ok = QInputDialog.getText(
            ui.window, "Concentration", f"Spell {session.name(creature_id)} concentrates on:"
        )
        return spell if ok else None

    pending = PendingSavesBox(session)
    effects = EffectsUi(pending, ask_spell)
    panel = ui.panel
    menu = panel.conditions_menu

    def add_to_conditions_menu() -> None:  # after the panel has filled it
        creature_id = panel.creature_id
        if creature_id is None:
            return
        first = menu.actions()[0] if menu.actions() else None
        extra = QMenu(menu)
        effect_entries(ui, effects, extra, creature_id)
        for action in extra.actions():
            action.setParent(menu)
            if first is None:
                menu.addAction(action)
            else:
                menu.insertAction(first, action)
        if first is not None and extra.actions():
            menu.insertSeparator(first)
        extra.deleteLater()  # its actions now belong to the conditions menu

    menu.aboutToShow.connect(add_to_conditions_menu)
    panel.scene.token_menu_builders.append(
        lambda token_menu, cid: effect_entries(ui, effects, token_menu, cid)
    )
    ui.card.add_section(pending, 1)  # the saves due, on the map, under the card's title
    return effects
