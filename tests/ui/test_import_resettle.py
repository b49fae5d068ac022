"""Issue 15 item 9: importing a map over tokens moves those it leaves off the map or inside
its walls to the nearest free cells, names them, and the whole import is one undo step."""

from __future__ import annotations

import math
from pathlib import Path

from pytestqt.qtbot import QtBot
from shapely import LineString, box

from battlemap.model import Encounter
from battlemap.model.creature import Creature, Side
from battlemap.model.grid import Grid
from battlemap.model.ids import EntityId
from tests.shared_data import shared_file
from tests.ui.drag_helpers import open_window

TOWER = "vtt-maps_red-tower-base.dd2vtt"


def creature(cid: str, name: str, x: float, y: float, side: Side = Side.HOSTILE) -> Creature:
    return Creature(id=EntityId(cid), name=name, side=side, x=x, y=y, hp=10, max_hp=10)


def crosses_a_wall(encounter: Encounter, x: float, y: float) -> bool:
    """Does a wall of ``encounter`` run through the inside of the cell at (x, y)?"""
    inside = box(x + 0.1, y + 0.1, x + 0.9, y + 0.9)
    return any(LineString([w.a, w.b]).intersects(inside) for w in encounter.walls)


def test_tokens_off_the_map_or_in_walls_move_to_free_cells_in_one_undo_step(
    qtbot: QtBot, tmp_path: Path
) -> None:
    # The tower's round wall runs through cell (1, 1); the map is 10 x 12 cells.
    goblin = creature("c-goblin", "Goblin", 1, 1)
    orc = creature("c-orc", "Orc", 20, 20)
    cleric = creature("c-cleric", "Cleric", 4, 5, Side.PARTY)
    before = Encounter(grid=Grid(width=30, height=30), creatures=(goblin, orc, cleric))
    window = open_window(qtbot, tmp_path, before)
    assert window.map_importer.import_file(shared_file(TOWER))
    after = window.document.encounter
    assert (after.grid.width, after.grid.height) == (10, 12)
    assert crosses_a_wall(after, 1, 1)  # the Goblin really stood in the wall
    moved = {c.id: (c.x, c.y) for c in after.creatures}
    assert moved[cleric.id] == (4, 5)  # a free token stays
    cells = set()
    for cid in (goblin.id, orc.id):
        x, y = moved[cid]
        assert after.grid.contains_rect(x, y, 1, 1)
        assert not crosses_a_wall(after, x, y)
        cells.add((x, y))
    assert len(cells | {(4, 5)}) == 3  # nobody shares a cell
    # The Goblin's nearest free cell is next to where it stood, not anywhere on the map.
    assert math.dist(moved[goblin.id], (1, 1)) < 2
    assert window.map_importer.last_message.endswith("Moved to free cells: Goblin, Orc")
    assert window.statusBar().currentMessage() == window.map_importer.last_message
    assert window.undo_stack.count() == 1
    window.undo_stack.undo()
    assert window.document.encounter.creatures == before.creatures
    assert window.document.encounter.grid == before.grid


def test_an_import_that_displaces_nobody_moves_nobody(qtbot: QtBot, tmp_path: Path) -> None:
    cleric = creature("c-cleric", "Cleric", 4, 5, Side.PARTY)
    window = open_window(qtbot, tmp_path, Encounter(creatures=(cleric,)))
    assert window.map_importer.import_file(shared_file(TOWER))
    assert window.document.encounter.creatures == (cleric,)
    assert "Moved" not in window.map_importer.last_message
