"""The turns of the scripted fight (srd-5e), each through the widgets a DM uses: drags on the
map, the Actions dock, the attack, area and contest dialogs, the cards on the map, keys.

Each step asserts what the DM sees afterwards: a log line, the token's state, the order.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QScrollArea

from battlemap.ui.combat.save_rows import SaveRow
from battlemap.ui.token_state import Vital
from tests.ui.session.table import Table, entity
from tests.ui.test_turn_controls_fold import unfolded


def end_turn(table: Table) -> None:
    """End turn with the Actions dock's button (what N does)."""
    table.click(table.window.combat.actions.end_button, "End turn")


def next_by_key(table: Table) -> None:
    table.key(Qt.Key.Key_N)


def attack(
    table: Table,
    target: str,
    d20: int | tuple[int, int] | None = None,
    damage: int | None = None,
    attacker: str | None = None,
) -> str:
    """One attack from the attack dialog (opened with the Attack button when not open): the
    d20 (two with advantage or disadvantage) and the damage typed as rolled at the table, or
    left for the app to roll. Returns the log line of the attack."""
    ui = table.window.combat
    dialog = ui.attack_dialog
    since = len(table.log())
    if not dialog.isVisible():
        table.click(ui.actions.buttons["attack"], "Attack")
    assert dialog.isVisible()
    if attacker is not None:
        assert dialog.attacker.currentText().startswith(attacker), dialog.attacker.currentText()
    table.choose_in(dialog.target, target, "attack target")
    assert dialog.target.currentData() == str(entity(table.window, target)), target
    assert dialog.roll_button.isEnabled(), dialog.situation.text()
    faces = (d20,) if isinstance(d20, int) else d20 or ()
    shown = [box for box in dialog.d20 if box.isVisible()]
    assert not faces or len(shown) == len(faces), (len(shown), dialog.situation.text())
    for box, face in zip(shown, faces, strict=False):
        table.type_into(box, str(face), "attack d20")
    table.click(dialog.roll_button, "Roll to hit")
    if dialog.apply_button.isEnabled():  # a hit: the damage step
        if damage is not None:
            table.type_into(dialog.damage_spins[0], str(damage), "damage")
        table.click(dialog.apply_button, "Apply damage")
    return table.logged("attacks", target, since=since)


def close_dialog(table: Table) -> None:
    dialog = table.window.combat.attack_dialog
    if dialog.isVisible():
        dialog.close()
    QApplication.processEvents()


def fireball(table: Table, targets: tuple[str, ...], corpse: str, typed_save: int) -> None:
    """Sela selects the creatures and the corpse on the map and opens Area damage with
    Ctrl+Shift+A: the corpse is left out with a note; the player's save (the last target) is
    typed, the monsters' rolled; 8d6 typed as 24. Dealing it spends her Cast a Spell (no
    separate press), in the damage's undo step."""
    ui = table.window.combat
    state = ui.session.state
    assert state is not None and state.current is not None
    assert not state.combatant(state.current.creature_id).turn.action_used
    table.select(*targets, corpse)
    table.key(Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    area = ui.area_dialog
    assert area.isVisible()
    assert area.left_out_label.isVisible()
    assert area.left_out_label.text() == f"{corpse} is dead: left out."
    row = area.rows[entity(table.window, targets[-1])]
    assert isinstance(row, SaveRow) and row.d20 is not None
    table.type_into(row.d20.spins[0], str(typed_save), "area save d20")
    table.retype(area.dice, "8d6", "area dice")
    table.choose_in(area.damage_type, "Fire", "area damage type")
    table.type_into(area.typed, "24", "area damage total")
    table.click(area.apply_button, "Apply area damage")
    assert "Refused" not in area.outcome_label.text(), area.outcome_label.text()
    table.logged("takes Cast a Spell")
    state = ui.session.state
    assert state is not None and state.current is not None
    assert state.combatant(state.current.creature_id).turn.action_used  # the fireball's
    area.close()


def pass_turns(table: Table, *names: str) -> None:
    """Each of ``names`` in turn, in order, does nothing: End turn."""
    for name in names:
        assert table.turn_of() == name, (table.turn_of(), name)
        end_turn(table)


def death_save_on_card(table: Table, d20: int) -> None:
    """The decision card shows the dying creature's save as the turn before it ends: type the
    d20 on the card, then its Next turn."""
    card = table.window.combat.card
    assert card.isVisible() and "is dying" in card.death_label.text()
    table.type_into(card.death_d20.spins[0], str(d20), "death save d20 (card)")
    table.click(card.next_button, "Next turn (card)")


def stabilize(table: Table, patient: str, d20: int) -> None:
    """More > Stabilize…, the contest dialog's Medicine check typed."""
    ui = table.window.combat
    table.click(ui.actions.more_button, "More")
    table.menu_entry(ui.actions.more_menu, "Stabilize…")
    ui.actions.more_menu.hide()
    dialog = ui.contest_dialog
    assert dialog.isVisible()
    assert dialog.target.currentData() == str(entity(table.window, patient))
    table.type_into(dialog.d20, str(d20), "Medicine d20")
    table.click(dialog.resolve_button, "Resolve")
    assert "STABLE" in dialog.outcome_label.text()
    dialog.close()
    assert table.vital(patient) is Vital.STABLE


def take_opportunity_attack(table: Table, mover: str) -> str:
    """The opportunity-attack card of the move just dropped: Take (the app rolls)."""
    prompt = table.window.drag_feedback.prompt
    table.qtbot.waitUntil(prompt.isVisible)
    since = len(table.log())
    table.click(prompt.take_button, "Take (OA card)")
    assert not prompt.isVisible()
    return table.logged("attacks", mover, since=since)


def mark_condition(table: Table, creature: str, condition: str) -> None:
    """Click the token, then the Creature dock's Add or remove menu's entry."""
    table.select(creature)
    panel = table.window.combat.panel
    scroll = table.window.creature_dock.widget()
    if not unfolded(panel.conditions_button) and isinstance(scroll, QScrollArea):
        table.stalls.append("Creature dock: Add or remove (conditions) below the fold")
        scroll.ensureWidgetVisible(panel.conditions_button)  # the DM scrolls to it
    table.shown(panel.conditions_button, "Conditions: Add or remove")
    # Its instant popup runs a modal menu loop a test cannot click into: the menu as it opens.
    panel.conditions_menu.aboutToShow.emit()
    table.menu_entry(panel.conditions_menu, condition)
    assert condition in [mark.name for mark in table.badge(creature).marks]
