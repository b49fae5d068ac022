"""Issue 15 item 8: new creatures land on free cells near the middle of the view, out of
obstacles, and the party apart from the monsters (no one starts in melee)."""

from __future__ import annotations

import math
from pathlib import Path

from pytestqt.qtbot import QtBot

from battlemap.model import Encounter, Side
from battlemap.model.creature import Creature
from battlemap.model.features import Obstacle
from battlemap.model.ids import EntityId
from battlemap.ui.main_window import MainWindow
from battlemap.ui.style import cell_to_scene
from tests.rules.move_builders import room
from tests.ui.drag_helpers import open_window
from tests.ui.test_party_dock import saved_ranger

BOULDER = Obstacle(id=EntityId("boulder"), points=[(8, 1), (11, 1), (11, 4), (8, 4)])
"""Covers cells x 8..10, y 1..3 of the room."""


def looking_at(qtbot: QtBot, tmp_path: Path, cell: tuple[float, float]) -> MainWindow:
    encounter = room().model_copy(update={"obstacles": (BOULDER,)})
    window = open_window(qtbot, tmp_path, encounter)
    window.view.scale(3, 3)  # closer than the whole map, so the middle of the view is ``cell``
    window.view.centerOn(cell_to_scene(cell[0]), cell_to_scene(cell[1]))
    return window


def added(window: MainWindow, before: Encounter) -> list[Creature]:
    return list(window.document.encounter.creatures[len(before.creatures) :])


def gap(a: Creature, b: Creature) -> float:
    """Whole cells between two Medium creatures' spaces (0: adjacent)."""
    return max(abs(a.x - b.x), abs(a.y - b.y)) - 1


def test_a_monster_added_beside_the_fighter_keeps_a_cell_away(qtbot: QtBot, tmp_path: Path) -> None:
    window = looking_at(qtbot, tmp_path, (2.5, 2.5))  # the Fighter stands at (2, 2)
    before = window.document.encounter
    dock = window.library_dock
    dock.select("Goblin")
    dock.count.setValue(3)
    dock.add_button.click()
    goblins = added(window, before)
    assert len(goblins) == 3
    fighter = before.creature(EntityId("c-fighter"))
    for goblin in goblins:
        assert gap(goblin, fighter) >= 1, goblin
        assert math.dist((goblin.x + 0.5, goblin.y + 0.5), (2.5, 2.5)) < 4  # near the view
    assert window.undo_stack.count() == 1


def test_a_monster_added_over_an_obstacle_lands_beside_it(qtbot: QtBot, tmp_path: Path) -> None:
    window = looking_at(qtbot, tmp_path, (9.5, 2.5))  # the middle of the boulder
    before = window.document.encounter
    window.library_dock.select("Goblin")
    window.library_dock.add_button.click()
    (goblin,) = added(window, before)
    assert not (8 <= goblin.x <= 10 and 1 <= goblin.y <= 3)
    assert math.dist((goblin.x + 0.5, goblin.y + 0.5), (9.5, 2.5)) < 3


def test_a_character_placed_beside_the_goblin_keeps_a_cell_away(
    qtbot: QtBot, tmp_path: Path
) -> None:
    window = looking_at(qtbot, tmp_path, (2.5, 8.5))  # the Goblin stands at (2, 8)
    before = window.document.encounter
    saved_ranger(window)
    window.party_dock.list.setCurrentRow(0)
    window.party_dock.place_selected()
    (mira,) = [c for c in added(window, before) if c.side is Side.PARTY]
    assert gap(mira, before.creature(EntityId("c-goblin"))) >= 1
    assert math.dist((mira.x + 0.5, mira.y + 0.5), (2.5, 8.5)) < 4
