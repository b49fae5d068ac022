"""Issue 18: whatever the DM can type or draw, the app saves and reopens. The editors take
their bounds from ``battlemap.model.limits``, the same numbers the loader checks."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from battlemap.io.encounter_file import load_battlemap
from battlemap.model import Creature, Encounter, Grid, Wall
from battlemap.model.limits import (
    MAX_AC,
    MAX_CELL_FEET,
    MAX_CHARACTER_LEVEL,
    MAX_CREATURES,
    MAX_HP,
    MAX_MAP_CELLS,
    MAX_NAME,
    MAX_REACH_FEET,
    MAX_SPEED_FEET,
    MAX_WALLS,
    MIN_CELL_FEET,
)
from battlemap.model.statblock import StatBlock
from battlemap.ui.main_window import MainWindow
from tests.ui.drag_helpers import open_window
from tests.ui.test_creature_dock import select
from tests.ui.tool_input import click, double_click


def test_an_88_letter_name_typed_in_the_creature_dock_saves_and_reopens(
    window: MainWindow, qtbot: QtBot, tmp_path: Path
) -> None:
    # Issue 18: the box took 88 letters, the save wrote them, the file then failed to open.
    select(window, "c-medium")
    box = window.creature_dock.name
    box.selectAll()
    qtbot.keyClicks(box, "N" * 88)
    box.editingFinished.emit()
    typed = window.document.encounter.creature("c-medium").name  # type: ignore[arg-type]
    assert typed == "N" * MAX_NAME
    path = tmp_path / "long-name.battlemap"
    assert window.files.save_to(path)
    reopened = load_battlemap(path).encounter
    assert reopened.creature("c-medium").name == typed  # type: ignore[arg-type]
    assert reopened == window.document.encounter


def test_the_creature_docks_number_boxes_stop_at_the_models_limits(window: MainWindow) -> None:
    dock = window.creature_dock
    highest = {field: spin.maximum() for field, spin in dock.numbers.items()}
    assert highest == {
        "hp": MAX_HP,
        "max_hp": MAX_HP,
        "temp_hp": MAX_HP,
        "ac": MAX_AC,
        "reach": MAX_REACH_FEET,
        "level": MAX_CHARACTER_LEVEL,
    }
    assert {spin.maximum() for spin in dock.speeds.values()} == {MAX_SPEED_FEET}


def test_map_settings_offer_exactly_the_grids_the_model_accepts(window: MainWindow) -> None:
    dialog = window.tools.open_map_settings()
    assert (dialog.cell_feet.minimum(), dialog.cell_feet.maximum()) == (
        MIN_CELL_FEET,
        MAX_CELL_FEET,
    )
    assert dialog.width_cells.maximum() == dialog.height_cells.maximum() == MAX_MAP_CELLS
    dialog.cell_feet.setValue(0.0001)  # the box clamps what is typed to the model's range
    dialog.width_cells.setValue(MAX_MAP_CELLS + 5)
    assert dialog.chosen_grid() == Grid(width=MAX_MAP_CELLS, height=10, cell_feet=MIN_CELL_FEET)
    dialog.reject()


def test_the_walls_tool_refuses_a_wall_past_the_limit_and_says_why(
    qtbot: QtBot, tmp_path: Path
) -> None:
    walls = tuple(Wall(a=(i % 10, 0), b=(i % 10, 1)) for i in range(MAX_WALLS))
    window = open_window(qtbot, tmp_path, Encounter(grid=Grid(width=12, height=10), walls=walls))
    window.tools.activate("walls")
    click(window.view, 3, 5)
    double_click(window.view, 6, 5)
    assert len(window.document.encounter.walls) == MAX_WALLS
    assert window.undo_stack.count() == 0
    hint = window.tools.hint_label.text()
    assert (
        hint
        == f"Refused: walls: {MAX_WALLS + 1} items, more than the {MAX_WALLS} an encounter keeps."
    )


def test_copies_of_a_monster_with_the_longest_name_are_named_within_the_limit(
    window: MainWindow, tmp_path: Path
) -> None:
    dock = window.library_dock
    block = StatBlock(name="Ancient " + "D" * (MAX_NAME - len("Ancient ")))
    dock.add_monsters([block])
    added = dock.add_copies(block, 3, near=(1, 8))
    names = [creature.name for creature in added]
    stem = block.name[: MAX_NAME - len(" 99999")]
    assert names == [f"{stem} 1", f"{stem} 2", f"{stem} 3"]
    path = tmp_path / "long-monster.battlemap"
    assert window.files.save_to(path)
    assert load_battlemap(path).encounter == window.document.encounter


def test_adding_creatures_stops_at_the_most_an_encounter_keeps(
    qtbot: QtBot, tmp_path: Path
) -> None:
    creatures = tuple(
        Creature(name=f"c{i}", x=i % 100, y=i // 100) for i in range(MAX_CREATURES - 1)
    )
    grid = Grid(width=100, height=30)
    window = open_window(qtbot, tmp_path, Encounter(grid=grid, creatures=creatures))
    dock = window.library_dock
    goblin = dock.monsters["Goblin"]
    assert len(dock.add_copies(goblin, 3, near=(50, 25))) == 1
    assert window.statusBar().currentMessage() == "Only 1 of 3 Goblin fit in the encounter."
    assert dock.add_copies(goblin, 1, near=(50, 25)) == []
    full = f"The encounter holds {MAX_CREATURES} creatures, the most it can keep."
    assert window.statusBar().currentMessage() == full
    assert len(window.document.encounter.creatures) == MAX_CREATURES
