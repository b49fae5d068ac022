"""Live drag feedback (srd-5e, 5-10-5 diagonals): cost card, difficult terrain, walls, OAs.

Every drag is made of real mouse events on the view; the cards and markers read are the
items the drag draws, and the model is checked after the drop.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from battlemap.model.ids import EntityId
from battlemap.rules.move_resolution import Choice
from battlemap.rules.opportunity import OpportunityOffer
from battlemap.ui.drag.items import InfoCard, Marker, scene_point
from battlemap.ui.main_window import MainWindow
from battlemap.ui.style import SCENE_UNITS_PER_CELL
from tests.rules.move_builders import fighting, room
from tests.ui.drag_helpers import (
    grab_view,
    move_through,
    open_window,
    pixel_at,
    press_at,
    release_at,
)

FIGHTER, GOBLIN = EntityId("c-fighter"), EntityId("c-goblin")


@pytest.fixture
def free_window(qtbot: QtBot, tmp_path: Path) -> MainWindow:
    return open_window(qtbot, tmp_path, room())


@pytest.fixture
def combat_window(qtbot: QtBot, tmp_path: Path) -> MainWindow:
    encounter = room()
    return open_window(
        qtbot, tmp_path, encounter.model_copy(update={"combat": fighting(encounter)})
    )


def goblin_next_to_fighter(qtbot: QtBot, tmp_path: Path) -> MainWindow:
    """In combat, the Fighter's turn, with the Goblin moved to (3, 3), next to the Fighter."""
    encounter = room()
    goblin = encounter.creature(GOBLIN).model_copy(update={"x": 3, "y": 3})
    encounter = encounter.replace_creature(goblin)
    return open_window(
        qtbot, tmp_path, encounter.model_copy(update={"combat": fighting(encounter)})
    )


def card_text(window: MainWindow) -> str:
    cards = [i for i in window.drag_feedback.path_items if isinstance(i, InfoCard)]
    assert len(cards) == 1
    return cards[0].text()


def fighter_xy(window: MainWindow) -> tuple[float, float]:
    fighter = window.document.encounter.creature(FIGHTER)
    return fighter.x, fighter.y


def test_difficult_terrain_cost_and_movement_spent_in_combat(combat_window: MainWindow) -> None:
    window = combat_window
    # (2, 2) -> (3, 5): a diagonal (5 ft), a straight step (5), into the mud (5 + 5) = 20 ft.
    press_at(window, (2.5, 2.5))
    move_through(window, [(2.5, 2.5), (3.5, 5.5)])
    text = card_text(window)
    assert text.splitlines()[0] == "20 / 30 ft"
    assert "10 ft left" in text
    assert "difficult terrain: 1 cell, +5 ft" in text
    assert any(i.__class__.__name__ == "QGraphicsPathItem" for i in window.drag_feedback.path_items)
    release_at(window, (3.5, 5.5))
    assert fighter_xy(window) == (3, 5)
    combat = window.document.encounter.combat
    assert combat is not None
    assert combat.combatant(FIGHTER).turn.movement_used == 20
    assert window.undo_stack.count() == 1
    assert window.drag_feedback.path_items == [] and window.drag_feedback.shade_items == []
    window.undo_stack.undo()
    assert fighter_xy(window) == (2, 2)
    combat = window.document.encounter.combat
    assert combat is not None and combat.combatant(FIGHTER).turn.movement_used == 0


def test_drag_through_a_wall_is_shown_and_refused_in_combat(combat_window: MainWindow) -> None:
    window = combat_window
    messages: list[str] = []
    window.scene.message.connect(messages.append)
    press_at(window, (2.5, 2.5))
    move_through(window, [(2.5, 2.5), (8.5, 2.5)])
    assert "× blocked by a wall" in card_text(window)
    crosses = [i for i in window.drag_feedback.path_items if isinstance(i, Marker)]
    assert [m.text for m in crosses] == ["×"]
    # the cross sits on the step that would go through the wall at x = 6
    assert crosses[0].pos().x() == pytest.approx(6.0 * SCENE_UNITS_PER_CELL)
    release_at(window, (8.5, 2.5))
    assert fighter_xy(window) == (2, 2)
    assert window.undo_stack.count() == 0
    assert messages == ["Fighter can't move there: blocked by a wall. (Alt-drop places it anyway.)"]
    assert window.scene.tokens[FIGHTER].pos().x() == 2 * SCENE_UNITS_PER_CELL


def test_beyond_movement_is_refused_in_combat(combat_window: MainWindow) -> None:
    window = combat_window
    messages: list[str] = []
    window.scene.message.connect(messages.append)
    press_at(window, (2.5, 2.5))
    move_through(window, [(2.5, 2.5), (9.5, 9.5)])  # 7 diagonals: 50 ft of 30
    assert card_text(window).splitlines()[:2] == ["50 / 30 ft", "× beyond its movement"]
    release_at(window, (9.5, 9.5))
    assert fighter_xy(window) == (2, 2)
    assert messages and "beyond its movement" in messages[0]


def test_alt_drop_places_without_rules(free_window: MainWindow) -> None:
    window = free_window
    press_at(window, (2.5, 2.5))
    move_through(window, [(2.5, 2.5), (8.5, 2.5)])
    release_at(window, (8.5, 2.5), Qt.KeyboardModifier.AltModifier)
    assert fighter_xy(window) == (8, 2)


def test_outside_combat_a_drag_past_the_goblin_is_placed_and_measured(
    free_window: MainWindow,
) -> None:
    """Issue 15 item 8: setting up, the Goblin's space refuses nothing; the card measures."""
    window = free_window
    messages: list[str] = []
    window.scene.message.connect(messages.append)
    press_at(window, (2.5, 2.5))
    move_through(window, [(2.5, 2.5), (2.5, 9.5)])  # straight through the Goblin at (2, 8)
    text = card_text(window)
    assert text.splitlines()[0] == "35 ft"
    assert "pass through" not in text and "×" not in text
    move_through(window, [(2.5, 9.5), (1.5, 9.5)])
    text = card_text(window)
    assert text.splitlines()[0] == "35 ft"  # 6 straight + 1 diagonal, no limit outside combat
    assert "no combat: free move" in text
    release_at(window, (1.5, 9.5))
    assert fighter_xy(window) == (1, 9)
    assert window.undo_stack.count() == 1
    assert messages == ["Placed Fighter 35 ft away (no combat: free placement)."]
    window.undo_stack.undo()
    assert fighter_xy(window) == (2, 2)


def test_outside_combat_a_wall_refuses_nothing_but_the_edge_does(free_window: MainWindow) -> None:
    window = free_window
    press_at(window, (2.5, 2.5))
    move_through(window, [(2.5, 2.5), (8.5, 2.5)])  # through the wall at x = 6
    assert card_text(window).splitlines()[0] == "30 ft"
    assert not [i for i in window.drag_feedback.path_items if isinstance(i, Marker)]
    release_at(window, (8.5, 2.5))
    assert fighter_xy(window) == (8, 2)
    width = window.document.encounter.grid.width
    press_at(window, (8.5, 2.5))
    move_through(window, [(8.5, 2.5), (width + 2.5, 2.5)])
    release_at(window, (width + 2.5, 2.5))
    assert fighter_xy(window) == (8, 2)  # off the map: refused
    assert window.undo_stack.count() == 1


def test_ctrl_routes_the_cheapest_path_around_the_wall(free_window: MainWindow) -> None:
    window = free_window
    ctrl = Qt.KeyboardModifier.ControlModifier
    press_at(window, (2.5, 2.5))
    move_through(window, [(2.5, 2.5), (8.5, 2.5)], ctrl)
    text = card_text(window)
    assert "cheapest path" in text and "blocked" not in text
    release_at(window, (8.5, 2.5), ctrl)
    assert fighter_xy(window) == (8, 2)
    assert window.undo_stack.count() == 1


def test_space_adds_a_waypoint(qtbot: QtBot, free_window: MainWindow) -> None:
    window = free_window
    press_at(window, (2.5, 2.5))
    move_through(window, [(2.5, 2.5), (2.5, 4.5)])
    qtbot.keyClick(window.view, Qt.Key.Key_Space)
    move_through(window, [(2.5, 4.5), (4.5, 4.5)])
    feedback = window.drag_feedback
    assert feedback.pins == [(2, 4)]
    assert feedback.last is not None
    assert feedback.last.intended == ((2, 2), (2, 3), (2, 4), (3, 4), (4, 4))
    assert card_text(window).splitlines()[0] == "20 ft"
    release_at(window, (4.5, 4.5))
    assert fighter_xy(window) == (4, 4)


def test_opportunity_attack_marked_taken_and_one_undo_step(qtbot: QtBot, tmp_path: Path) -> None:
    window = goblin_next_to_fighter(qtbot, tmp_path)
    before = window.document.encounter
    asked: list[tuple[OpportunityOffer, str, str]] = []

    def take(offer: OpportunityOffer, attacker: str, mover: str) -> Choice:
        asked.append((offer, attacker, mover))
        return Choice.TAKE

    window.drag_feedback.choose = take
    press_at(window, (2.5, 2.5))
    # (2,2) -> (5,2): (3,2) and (4,2) stay next to the Goblin at (3,3); (5,2) leaves its reach
    move_through(window, [(2.5, 2.5), (5.5, 2.5)])
    assert "! opportunity attack: Goblin (step 3)" in card_text(window)
    marks = [i for i in window.drag_feedback.path_items if isinstance(i, Marker)]
    assert [m.text for m in marks] == ["!"]
    assert marks[0].pos() == scene_point((4.5, 2.5))
    release_at(window, (5.5, 2.5))
    assert [(o.attacker_id, o.step_index, o.position, a) for o, a, _ in asked] == [
        (GOBLIN, 2, (4, 2), "Goblin")
    ]
    after = window.document.encounter
    combat = after.combat
    assert combat is not None
    assert combat.combatant(GOBLIN).reaction_used
    assert combat.combatant(FIGHTER).turn.movement_used == 15
    assert any("Scimitar" in e.text for e in combat.log if e.creature_id == GOBLIN)
    assert (after.creature(FIGHTER).x, after.creature(FIGHTER).y) == (5, 2)
    assert window.undo_stack.count() == 1
    window.undo_stack.undo()
    assert window.document.encounter == before


def test_opportunity_attack_skipped_or_move_called_off(qtbot: QtBot, tmp_path: Path) -> None:
    window = goblin_next_to_fighter(qtbot, tmp_path)
    before = window.document.encounter
    window.drag_feedback.choose = lambda offer, attacker, mover: Choice.CANCEL
    press_at(window, (2.5, 2.5))
    move_through(window, [(2.5, 2.5), (5.5, 2.5)])
    release_at(window, (5.5, 2.5))
    assert window.document.encounter == before and window.undo_stack.count() == 0
    window.drag_feedback.choose = lambda offer, attacker, mover: Choice.SKIP
    press_at(window, (2.5, 2.5))
    move_through(window, [(2.5, 2.5), (5.5, 2.5)])
    release_at(window, (5.5, 2.5))
    combat = window.document.encounter.combat
    assert combat is not None and not combat.combatant(GOBLIN).reaction_used
    assert fighter_xy(window) == (5, 2)


def test_reachable_area_is_shaded_while_dragging(free_window: MainWindow) -> None:
    window = free_window
    before = grab_view(window)
    reachable, beyond = (0.5, 0.5), (13.5, 0.5)  # 10 ft away; behind the wall and 55 ft off
    plain = pixel_at(window, before, reachable)
    assert plain == pixel_at(window, before, beyond)
    press_at(window, (2.5, 2.5))
    move_through(window, [(2.5, 2.5), (3.5, 3.5)])
    during = grab_view(window)
    red, green, blue = pixel_at(window, during, reachable)
    assert red < plain[0] - 30 and green > red and green > blue  # tinted teal
    assert pixel_at(window, during, beyond) == plain
    release_at(window, (3.5, 3.5))
    assert pixel_at(window, grab_view(window), reachable) == plain


def test_resting_on_a_cell_adds_a_waypoint(qtbot: QtBot, free_window: MainWindow) -> None:
    window = free_window
    press_at(window, (2.5, 2.5))
    move_through(window, [(2.5, 2.5), (2.5, 4.5)])
    qtbot.waitUntil(lambda: window.drag_feedback.pins == [(2, 4)], timeout=6000)
    move_through(window, [(2.5, 4.5), (4.5, 4.5)])
    assert window.drag_feedback.last is not None
    assert window.drag_feedback.last.intended[:3] == ((2, 2), (2, 3), (2, 4))
    qtbot.keyClick(window.view, Qt.Key.Key_Backspace)  # takes the pin back
    assert window.drag_feedback.pins == []
    assert window.drag_feedback.last.intended == ((2, 2), (3, 3), (4, 4))
    release_at(window, (4.5, 4.5))
    assert fighter_xy(window) == (4, 4)


def test_escape_calls_the_move_off(qtbot: QtBot, free_window: MainWindow) -> None:
    window = free_window
    press_at(window, (2.5, 2.5))
    move_through(window, [(2.5, 2.5), (4.5, 4.5)])
    qtbot.keyClick(window.view, Qt.Key.Key_Escape)
    assert window.drag_feedback.path_items == []
    move_through(window, [(4.5, 4.5), (5.5, 4.5)])  # still held: no feedback comes back
    assert window.drag_feedback.path_items == []
    release_at(window, (5.5, 4.5))
    assert fighter_xy(window) == (2, 2) and window.undo_stack.count() == 0
    assert window.scene.tokens[FIGHTER].pos().x() == 2 * SCENE_UNITS_PER_CELL


def test_a_large_creature_is_measured_by_its_whole_space(window: MainWindow) -> None:
    """conftest's map: the Ogre (Large, 2 x 2 cells) at (5, 2); the Dragon fills (6..9, 5..8)."""
    press_at(window, (6, 3))
    move_through(window, [(6, 3), (8, 3)])
    text = card_text(window)
    assert text.splitlines()[0] == "10 ft"
    shaded = window.drag_feedback.plan
    assert shaded is not None and shaded.area is not None
    # at (5, 4) the Ogre's space would overlap the Dragon's: passable, not an end
    assert (7, 2) in shaded.area.cells and (5, 4) not in shaded.area.cells
    release_at(window, (8, 3))
    ogre = window.document.encounter.creature(EntityId("c-large"))
    assert (ogre.x, ogre.y) == (7, 2)


def test_without_a_ruleset_the_drag_asks_once_and_drops_plainly(free_window: MainWindow) -> None:
    window = free_window
    feedback = window.drag_feedback
    asked: list[None] = []

    def no_ruleset() -> None:
        asked.append(None)
        return None

    feedback._ruleset_of = no_ruleset
    press_at(window, (2.5, 2.5))
    move_through(window, [(2.5, 2.5), (4.5, 2.5), (4.5, 4.5)])
    assert len(asked) == 1  # not once per mouse move
    assert feedback.plan is None and feedback.path_items == []
    release_at(window, (4.5, 4.5))
    assert fighter_xy(window) == (4, 4)  # the scene's plain move
    press_at(window, (4.5, 4.5))  # the next drag asks again
    move_through(window, [(4.5, 4.5), (5.5, 4.5)])
    assert len(asked) == 2
    release_at(window, (5.5, 4.5))


def test_the_card_shows_the_extra_cost_the_rulesets_difficult_terrain_adds(
    free_window: MainWindow, tmp_path: Path
) -> None:
    """A DM's ruleset charging 2 extra feet per foot of difficult terrain (srd-5e charges 1):
    the drag costs and marks what the geometry charged, not a guess of its own."""
    window = free_window
    (tmp_path / "heavy-mud.yaml").write_text(
        "schema_version: 1\nextends: srd-5e\nname: Heavy mud\n"
        "movement:\n  difficult_terrain_extra_cost_per_foot: 2\n",
        encoding="utf-8",
    )
    window.rulesets.user_dir = tmp_path
    window.rulesets.reload()
    window.rulesets.choose("heavy-mud")
    # (2, 2) -> (3, 5): a diagonal (5 ft), a straight step (5), into the mud (5 + 10) = 25 ft.
    press_at(window, (2.5, 2.5))
    move_through(window, [(2.5, 2.5), (3.5, 5.5)])
    text = card_text(window)
    assert text.splitlines()[0] == "25 ft"
    assert "difficult terrain: 1 cell, +10 ft" in text
    plan = window.drag_feedback.plan
    assert plan is not None and plan.costs.difficult_extra == 2
    release_at(window, (3.5, 5.5))
    assert fighter_xy(window) == (3, 5)
