"""The opportunity-attack prompt (srd-5e): a drop that provokes waits at the attack's square
and the DM answers on a card docked in the map view, never a modal dialog.

The Fighter (AC 10, 30 HP) is dragged from (2, 2) to (5, 2) past the Goblin at (3, 3)
(Scimitar +4, 1d6+2 slashing); the attack happens with the Fighter at (4, 2). Every drag is
real mouse events; every answer is a click or a key on the card or the map.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPointF, QRect, QRectF, Qt
from PySide6.QtGui import QTransform
from PySide6.QtWidgets import QApplication, QGraphicsScene, QGraphicsView, QLabel
from pytestqt.qtbot import QtBot

from battlemap.model.document import MoveCreature
from battlemap.model.ids import EntityId
from battlemap.ui.drag.items import OPPORTUNITY, Marker, scene_point
from battlemap.ui.drag.prompt import ANSWERED, OpportunityPrompt
from battlemap.ui.main_window import MainWindow
from battlemap.ui.style import cell_to_scene
from battlemap.ui.undo import push
from tests.rules.move_builders import fighting, goblin_beside_fighter
from tests.ui.drag_helpers import move_through, open_window, press_at, release_at

FIGHTER, GOBLIN, CLERIC = EntityId("c-fighter"), EntityId("c-goblin"), EntityId("c-cleric")


@pytest.fixture
def window(qtbot: QtBot, tmp_path: Path) -> MainWindow:
    return open_window(qtbot, tmp_path, goblin_beside_fighter())


def drag_past_the_goblin(qtbot: QtBot, window: MainWindow) -> None:
    """Drag the Fighter to (5, 2) and wait until the token stands at the attack's square."""
    press_at(window, (2.5, 2.5))
    move_through(window, [(2.5, 2.5), (5.5, 2.5)])
    release_at(window, (5.5, 2.5))
    token = window.scene.tokens[FIGHTER]
    qtbot.waitUntil(lambda: token.pos().x() == cell_to_scene(4))


def fighter(window: MainWindow) -> tuple[float, float, int]:
    creature = window.document.encounter.creature(FIGHTER)
    return creature.x, creature.y, creature.hp


def status(window: MainWindow) -> str:
    return window.statusBar().currentMessage()


def test_the_drop_waits_with_the_prompt_and_take_rolls(qtbot: QtBot, window: MainWindow) -> None:
    before = window.document.encounter
    drag_past_the_goblin(qtbot, window)
    prompt = window.drag_feedback.prompt
    assert prompt.isVisible() and QApplication.activeModalWidget() is None
    assert prompt.title.text() == (
        "Goblin can make an opportunity attack as Fighter leaves its reach"
    )
    assert "<b>Scimitar</b>: +4 to hit · 1d6+2 slashing" in prompt.attack.text()
    assert "Roll: normal · vs <b>AC 10</b>" in prompt.attack.text()
    assert prompt.take_button.text() == "Take (Enter)"
    assert prompt.take_button.height() >= 48  # big enough for a finger
    # Nothing is recorded yet; the token stands at (4, 2), the attack's mark beside it.
    assert window.document.encounter is before and window.undo_stack.count() == 0
    token = window.scene.tokens[FIGHTER]
    assert (token.pos().x(), token.pos().y()) == (cell_to_scene(4), cell_to_scene(2))
    marks = [i for i in window.drag_feedback._waiting_items.items if isinstance(i, Marker)]
    assert [(m.text, m.pos()) for m in marks] == [("!", scene_point((4.5, 2.5)))]

    qtbot.mouseClick(prompt.take_button, Qt.MouseButton.LeftButton)
    assert not prompt.isVisible() and window.drag_feedback.waiting is None
    after = window.document.encounter
    assert after.combat is not None and after.combat.combatant(GOBLIN).reaction_used
    assert fighter(window)[:2] == (5, 2) and window.undo_stack.count() == 1
    assert "Goblin's opportunity attack" in status(window)
    assert any("attacks Fighter with Scimitar" in e.text for e in after.combat.log)
    assert window.drag_feedback._waiting_items.items == []
    window.undo_stack.undo()
    assert window.document.encounter == before


def test_typed_natural_20_and_damage_is_a_critical_hit(qtbot: QtBot, window: MainWindow) -> None:
    drag_past_the_goblin(qtbot, window)
    prompt = window.drag_feedback.prompt
    assert prompt.take_button.hasFocus()
    qtbot.keyClick(prompt.take_button, Qt.Key.Key_2)  # a digit on the card starts the d20
    d20 = prompt.d20.spins[0]
    assert d20.hasFocus()
    qtbot.keyClick(d20, Qt.Key.Key_0)
    assert prompt.d20.faces() == (20,)
    assert prompt.take_button.text() == "Take 20 (Enter)"
    # the verdict comes before any damage is typed: which dice to roll at the table
    assert "CRITICAL HIT</b></span>: 20+4 = 24 vs AC 10 · roll the critical damage" in (
        prompt.verdict.text()
    )
    assert window.undo_stack.count() == 0  # trying the d20 records nothing
    damage = prompt.damage.spins[0]
    damage.setFocus()
    damage.selectAll()
    qtbot.keyClicks(damage, "11")  # 2d6+2 on a critical, rolled at the table
    qtbot.keyClick(damage, Qt.Key.Key_Return)  # Enter takes, from the damage box too
    assert not prompt.isVisible()
    assert fighter(window) == (5, 2, 19)
    assert "critical hit (20+4 = 24 vs AC 10): 11 damage, HP 30 -> 19" in status(window)


def test_s_skips_and_escape_on_the_map_calls_off(qtbot: QtBot, window: MainWindow) -> None:
    before = window.document.encounter
    drag_past_the_goblin(qtbot, window)
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key.Key_Escape)  # the map has the focus: still answered
    assert not window.drag_feedback.prompt.isVisible()
    assert window.document.encounter is before and window.undo_stack.count() == 0
    assert window.scene.tokens[FIGHTER].pos().x() == cell_to_scene(2)  # back at the start
    assert status(window) == "Move of Fighter called off; nothing changed."

    drag_past_the_goblin(qtbot, window)
    qtbot.keyClick(window.drag_feedback.prompt.take_button, Qt.Key.Key_S)
    combat = window.document.encounter.combat
    assert combat is not None and not combat.combatant(GOBLIN).reaction_used
    assert fighter(window) == (5, 2, 30)
    assert "Goblin lets Fighter go" in status(window)


def test_the_card_keeps_clear_of_the_mover_and_its_attacker(
    qtbot: QtBot, window: MainWindow
) -> None:
    """Zoomed in so the Fighter's waiting square (row 2) sits above the middle of the view
    and the Goblin (row 3) reaches under a card at the foot: the card goes to the top."""
    drag_past_the_goblin(qtbot, window)
    card = window.drag_feedback.prompt.height()
    qtbot.keyClick(window.view, Qt.Key.Key_Escape)
    view = window.view
    height = view.viewport().height()
    cell = (height - 2 * card) / 2
    scale = cell / cell_to_scene(1)
    view.setTransform(QTransform.fromScale(scale, scale))
    view.centerOn(cell_to_scene(4), cell_to_scene(2) + (height / 2 - card - 24) / scale)

    def in_view(x: float, y: float, w: float, h: float) -> QRect:
        rect = QRectF(cell_to_scene(x), cell_to_scene(y), cell_to_scene(w), cell_to_scene(h))
        return view.mapFromScene(rect).boundingRect().translated(view.viewport().pos())

    mover, goblin = in_view(4, 2, 1, 1), in_view(3, 3, 1, 1)
    assert mover.center().y() < view.viewport().geometry().center().y()  # the upper half
    assert goblin.bottom() > view.viewport().geometry().bottom() - card - 12  # under a foot card
    drag_past_the_goblin(qtbot, window)
    prompt = window.drag_feedback.prompt
    assert prompt.isVisible()
    assert not prompt.geometry().intersects(goblin)
    assert not prompt.geometry().intersects(mover)


def test_the_card_takes_the_edge_that_covers_fewer_tokens(qtbot: QtBot, window: MainWindow) -> None:
    drag_past_the_goblin(qtbot, window)
    prompt, view = window.drag_feedback.prompt, window.drag_feedback.view
    pending = prompt.pending
    assert pending is not None
    area = view.viewport().geometry()
    middle = area.width() // 2

    def token(y: int, dx: int = 0) -> QRectF:
        """A 30 px token at viewport height ``y``, ``dx`` from the middle, in the scene."""
        return view.mapToScene(QRect(middle + dx, y, 30, 30)).boundingRect()

    top = [token(area.height() // 20)]
    foot = [token(area.height() - 50, dx) for dx in (-200, 0, 200)]
    prompt.show_offer(pending, tokens=lambda: top + foot)
    assert prompt.y() < area.center().y()  # 1 token covered at the top, 3 at the foot
    prompt.show_offer(pending, tokens=lambda: top * 4 + foot)
    assert prompt.y() > area.center().y()
    prompt.show_offer(pending, keep_clear=top, tokens=lambda: foot)  # the mover/attacker first
    assert prompt.y() > area.center().y()
    prompt.show_offer(pending)  # nothing to keep clear: the foot
    assert prompt.y() > area.center().y()


@pytest.mark.parametrize("focus", ["map", "card", "history dock"])
def test_ctrl_z_while_waiting_takes_back_only_the_move(
    qtbot: QtBot, window: MainWindow, focus: str
) -> None:
    push(window.undo_stack, window.document, MoveCreature(CLERIC, (12, 8), (11, 8)))
    moved = window.document.encounter
    drag_past_the_goblin(qtbot, window)
    prompt = window.drag_feedback.prompt
    target = {
        "map": window.view,
        "card": prompt.take_button,
        "history dock": window.history_dock.widget(),
    }
    target[focus].setFocus()
    qtbot.keyClick(target[focus], Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert not prompt.isVisible() and window.drag_feedback.waiting is None
    assert window.document.encounter is moved  # the Cleric's recorded step is not undone
    assert window.undo_stack.count() == 1 and window.undo_stack.index() == 1
    assert window.scene.tokens[FIGHTER].pos().x() == cell_to_scene(2)
    assert "called off (taken back with Undo)" in status(window)
    # the second Ctrl+Z undoes as usual
    qtbot.keyClick(window.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert window.undo_stack.index() == 0
    assert window.document.encounter.creature(CLERIC).x == 12


def test_edit_undo_while_waiting_takes_back_only_the_move(qtbot: QtBot, window: MainWindow) -> None:
    push(window.undo_stack, window.document, MoveCreature(CLERIC, (12, 8), (11, 8)))
    moved = window.document.encounter
    recorded = f"&Undo {window.undo_stack.undoText()}"
    assert window.undo_action.text() == recorded
    drag_past_the_goblin(qtbot, window)
    assert window.undo_action.isEnabled() and window.undo_action.text() == "&Undo"
    window.undo_action.trigger()  # Edit > Undo clicked in the menu while the prompt waits
    assert not window.drag_feedback.prompt.isVisible()
    assert window.drag_feedback.waiting is None
    assert window.document.encounter is moved  # the Cleric's recorded step stays
    assert fighter(window) == (2, 2, 30)
    assert window.scene.tokens[FIGHTER].pos().x() == cell_to_scene(2)
    assert "called off (taken back with Undo)" in status(window)
    assert window.undo_action.text() == recorded
    window.undo_action.trigger()
    assert window.document.encounter.creature(CLERIC).x == 12


def test_undo_while_waiting_works_with_nothing_recorded(qtbot: QtBot, window: MainWindow) -> None:
    before = window.document.encounter
    assert not window.undo_action.isEnabled()
    drag_past_the_goblin(qtbot, window)
    assert window.undo_action.isEnabled()
    qtbot.keyClick(window.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert window.drag_feedback.waiting is None and window.document.encounter == before
    assert not window.undo_action.isEnabled()


def test_redo_while_waiting_calls_the_move_off(qtbot: QtBot, window: MainWindow) -> None:
    push(window.undo_stack, window.document, MoveCreature(CLERIC, (12, 8), (11, 8)))
    window.undo_stack.undo()
    drag_past_the_goblin(qtbot, window)
    window.undo_stack.redo()  # a recorded change while the card waits
    assert window.drag_feedback.waiting is None
    assert "called off (the encounter changed)" in status(window)
    assert window.document.encounter.creature(CLERIC).x == 11


def test_another_drag_while_waiting_calls_the_move_off(qtbot: QtBot, window: MainWindow) -> None:
    before = window.document.encounter
    drag_past_the_goblin(qtbot, window)
    press_at(window, (12.5, 8.5))  # the Cleric, off its turn
    move_through(window, [(12.5, 8.5), (11.5, 8.5)])
    assert not window.drag_feedback.prompt.isVisible()
    assert window.scene.tokens[FIGHTER].pos().x() == cell_to_scene(2)
    release_at(window, (11.5, 8.5))
    assert window.document.encounter == before and window.undo_stack.count() == 0
    # the drag after it is an ordinary one: the Fighter asks again
    drag_past_the_goblin(qtbot, window)
    assert window.drag_feedback.prompt.isVisible()


def test_opening_another_encounter_while_waiting(qtbot: QtBot, window: MainWindow) -> None:
    drag_past_the_goblin(qtbot, window)
    fresh = goblin_beside_fighter().model_copy(update={"combat": None})
    window.document.replace(fresh)  # what File > Open does
    assert not window.drag_feedback.prompt.isVisible()
    assert window.document.encounter is fresh and window.undo_stack.count() == 0
    qtbot.mouseClick(window.drag_feedback.prompt.take_button, Qt.MouseButton.LeftButton)
    assert window.document.encounter is fresh  # a late click does nothing


def test_dragging_the_waiting_token_is_a_new_move_from_its_start(
    qtbot: QtBot, window: MainWindow
) -> None:
    drag_past_the_goblin(qtbot, window)
    press_at(window, (4.5, 2.5))  # the token waiting at the attack's square
    move_through(window, [(4.5, 2.5), (2.5, 3.5)])
    assert not window.drag_feedback.prompt.isVisible()
    plan = window.drag_feedback.plan
    assert plan is not None and plan.start == (2, 2)  # measured from where the model has it
    release_at(window, (2.5, 3.5))  # (2, 3): still beside the Goblin, nothing provoked
    assert fighter(window) == (2, 3, 30) and window.undo_stack.count() == 1
    assert not window.drag_feedback.prompt.isVisible()


def test_two_attacks_are_asked_in_turn(qtbot: QtBot, tmp_path: Path) -> None:
    """An Orc at (3, 1) too: both attack as the Fighter steps from (4, 2) to (5, 2)."""
    encounter = goblin_beside_fighter().model_copy(update={"combat": None})
    orc = encounter.creature(GOBLIN).model_copy(
        update={"id": EntityId("c-orc"), "name": "Orc", "x": 3, "y": 1}
    )
    encounter = encounter.model_copy(update={"creatures": (*encounter.creatures, orc)})
    window = open_window(
        qtbot, tmp_path, encounter.model_copy(update={"combat": fighting(encounter)})
    )
    drag_past_the_goblin(qtbot, window)
    prompt = window.drag_feedback.prompt
    first = prompt.pending
    assert first is not None and (first.number, first.total) == (1, 2)
    assert "Attack 1 of 2" in prompt.attack.text() and not prompt.done.isVisible()
    marks = [i for i in window.drag_feedback._waiting_items.items if isinstance(i, Marker)]
    assert len(marks) == 2
    qtbot.mouseClick(prompt.skip_button, Qt.MouseButton.LeftButton)
    second = prompt.pending
    assert second is not None and (second.number, second.total) == (2, 2)
    assert {first.attacker, second.attacker} == {"Goblin", "Orc"}
    assert prompt.isVisible() and "Attack 2 of 2" in prompt.attack.text()
    assert prompt.done.text() == f"So far: {first.attacker} lets Fighter go"
    assert prompt.d20.faces() is None and window.undo_stack.count() == 0
    assert window.scene.tokens[FIGHTER].pos().x() == cell_to_scene(4)  # still waiting there
    marks = [i for i in window.drag_feedback._waiting_items.items if isinstance(i, Marker)]
    assert [m.colour for m in marks] == [ANSWERED, OPPORTUNITY]  # the answered one greyed
    qtbot.keyClick(prompt.take_button, Qt.Key.Key_1)  # a natural 1 typed: a miss
    assert "MISS</b></span>: 1+4 = 5 vs AC 10" in prompt.verdict.text()
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)
    assert not prompt.isVisible() and window.undo_stack.count() == 1
    combat = window.document.encounter.combat
    assert combat is not None
    reacted = {c.creature_id for c in combat.combatants if c.reaction_used}
    assert reacted == {EntityId("c-orc") if second.attacker == "Orc" else GOBLIN}
    assert f"{second.attacker}'s opportunity attack misses (1+4" in status(window)
    assert fighter(window) == (5, 2, 30)


def test_closing_the_window_while_waiting(qtbot: QtBot, tmp_path: Path) -> None:
    window = open_window(qtbot, tmp_path, goblin_beside_fighter())
    document = window.document
    drag_past_the_goblin(qtbot, window)
    before = document.encounter
    window.close()  # nothing asks, nothing is recorded
    qtbot.wait(10)
    assert document.encounter is before and window.undo_stack.count() == 0


def test_window_shortcuts_with_modifiers_still_work_while_waiting(
    qtbot: QtBot, window: MainWindow
) -> None:
    """Only a plain S skips: Ctrl+S still saves (the card used to take every S key's
    shortcut override, so File > Save's shortcut did nothing while a move waited)."""
    saved: list[bool] = []
    window.files.save_action.triggered.connect(lambda: saved.append(True))
    window.files.ask_save_path = lambda *args: None
    drag_past_the_goblin(qtbot, window)
    prompt = window.drag_feedback.prompt
    for widget in (window.view, prompt.take_button):
        widget.setFocus()
        qtbot.keyClick(widget, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert saved == [True, True]
    assert prompt.isVisible() and prompt.pending is not None  # not skipped
    qtbot.keyClick(window.view, Qt.Key.Key_S)  # a plain S still skips
    assert not prompt.isVisible() and "Goblin lets Fighter go" in status(window)


def test_typed_damage_the_dice_cant_show_keeps_the_card_with_the_engines_reason(
    qtbot: QtBot, window: MainWindow
) -> None:
    before = window.document.encounter
    drag_past_the_goblin(qtbot, window)
    prompt = window.drag_feedback.prompt
    prompt.d20.spins[0].setValue(15)  # 15+4 = 19 hits AC 10, not a critical
    prompt.damage.spins[0].setValue(10000)  # the box's label: "1d6+2 slashing"
    qtbot.mouseClick(prompt.take_button, Qt.MouseButton.LeftButton)
    assert prompt.isVisible() and window.drag_feedback.waiting is not None
    assert prompt.error.isVisible() and prompt.error.text() == (
        "Scimitar damage (slashing): 10000 can't be rolled on 1d6+2 (only 3 to 8)"
    )
    assert window.document.encounter is before and window.undo_stack.count() == 0
    assert prompt.d20.faces() == (15,)  # the typed dice stay to be corrected
    prompt.damage.spins[0].setValue(8)
    qtbot.mouseClick(prompt.take_button, Qt.MouseButton.LeftButton)
    assert not prompt.isVisible() and fighter(window) == (5, 2, 22)
    assert window.undo_stack.count() == 1


def test_a_typed_natural_20_labels_the_critical_dice_to_roll(
    qtbot: QtBot, window: MainWindow
) -> None:
    """srd-5e "Critical Hits": the Scimitar's 1d6+2 is rolled as 2d6+2 (4 to 14)."""
    drag_past_the_goblin(qtbot, window)
    prompt = window.drag_feedback.prompt
    label = prompt.damage.form.labelForField(prompt.damage.spins[0])
    assert isinstance(label, QLabel)
    assert label.text() == "1d6+2 slashing"
    prompt.d20.spins[0].setValue(20)
    assert label.text() == "2d6+2 slashing"
    assert "roll the critical damage, 2d6+2 slashing" in prompt.verdict.text()
    prompt.damage.spins[0].setValue(15)
    qtbot.mouseClick(prompt.take_button, Qt.MouseButton.LeftButton)
    assert prompt.isVisible() and prompt.error.text() == (
        "Scimitar damage (slashing): 15 can't be rolled on 2d6+2"
        " (1d6+2, critical hit: the dice rolled twice) (only 4 to 14)"
    )
    prompt.d20.spins[0].setValue(15)  # not a critical any more: the part's own dice
    assert label.text() == "1d6+2 slashing"
    prompt.d20.spins[0].setValue(0)  # the app rolls the d20: nothing known yet
    assert label.text() == "1d6+2 slashing"


def test_the_card_moves_off_the_mover_when_the_dm_zooms_and_pans_while_it_waits(
    qtbot: QtBot, window: MainWindow
) -> None:
    """The whole map in view: the card waits at the foot, clear of the Fighter (row 2). The DM
    zooms in and scrolls until the Fighter's square lies where the card is: it goes to the top,
    and back to the foot when the Fighter is scrolled to the top of the view."""
    drag_past_the_goblin(qtbot, window)
    prompt, view = window.drag_feedback.prompt, window.view
    area = view.viewport().geometry()
    assert prompt.isVisible() and prompt.y() > area.center().y()

    def mover() -> QRect:
        rect = QRectF(cell_to_scene(4), cell_to_scene(2), cell_to_scene(1), cell_to_scene(1))
        return view.mapFromScene(rect).boundingRect().translated(area.topLeft())

    view.zoom_by(2.0)
    bar = view.verticalScrollBar()
    foot_card = prompt.geometry()
    # Scroll the view up until the Fighter's square sits in the middle of the foot card's band.
    bar.setValue(bar.value() - (foot_card.center().y() - mover().center().y()))
    assert mover().intersects(foot_card)  # where the card was: it would cover the Fighter
    assert prompt.y() < area.center().y()  # moved to the top
    assert not prompt.geometry().intersects(mover())
    bar.setValue(bar.value() + (mover().center().y() - area.top() - 40))  # the Fighter at the top
    assert mover().top() < area.center().y()
    assert prompt.y() > area.center().y()  # back at the foot
    assert not prompt.geometry().intersects(mover())


def test_a_zoom_alone_that_brings_the_mover_under_the_card_moves_it(
    qtbot: QtBot, window: MainWindow
) -> None:
    """A zoom (as the wheel or a pinch does it) around a point at the top of the view pushes
    the Fighter's square down under the foot card: the card goes to the top."""
    drag_past_the_goblin(qtbot, window)
    prompt, view = window.drag_feedback.prompt, window.view
    area = view.viewport().geometry()
    foot_card = prompt.geometry()
    assert foot_card.y() > area.center().y()
    fighter_at = view.mapFromScene(QRectF(cell_to_scene(4), cell_to_scene(2), 1, 1)).boundingRect()
    top_anchor = QPointF(fighter_at.center().x(), 0)
    factor = (foot_card.center().y() - area.top()) / fighter_at.center().y()
    view.zoom_at(factor, top_anchor)
    shown = view.mapFromScene(
        QRectF(cell_to_scene(4), cell_to_scene(2), cell_to_scene(1), cell_to_scene(1))
    ).boundingRect()
    assert shown.translated(area.topLeft()).intersects(foot_card)  # under where the card was
    assert prompt.y() < area.center().y()
    assert not prompt.geometry().intersects(shown.translated(area.topLeft()))


def test_names_from_files_show_as_text_not_markup(qtbot: QtBot, tmp_path: Path) -> None:
    """Creature and attack names come from untrusted files: the card shows them literally."""
    encounter = goblin_beside_fighter()
    goblin = encounter.creature(GOBLIN)
    encounter = encounter.replace_creature(goblin.model_copy(update={"name": "<i>Gob</i>"}))
    window = open_window(qtbot, tmp_path, encounter)
    drag_past_the_goblin(qtbot, window)
    prompt = window.drag_feedback.prompt
    assert prompt.title.text().startswith("<i>Gob</i> can make")
    assert prompt.title.textFormat() is Qt.TextFormat.PlainText
    assert "<i>" not in prompt.attack.text()


def test_the_card_is_made_on_a_view_with_no_card_stack_yet(qtbot: QtBot) -> None:
    """Making the view's card stack sends the view events, which reach the card's filter
    while it is being built (`make bench` died there: 'no attribute pending')."""
    view = QGraphicsView(QGraphicsScene())
    qtbot.addWidget(view)
    view.show()
    prompt = OpportunityPrompt(view)
    assert prompt.pending is None and not prompt.isVisible()
