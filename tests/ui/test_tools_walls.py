"""Walls and Doors tools: clicks become snapped wall segments in the model and on screen."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QRadioButton

from battlemap.model import Wall, WallKind
from battlemap.model.ids import EntityId
from battlemap.ui.main_window import MainWindow
from battlemap.ui.map_items import wall_line, wall_pen
from tests.ui.children import child
from tests.ui.tool_input import RIGHT, click, double_click, hover, key


def wall_items(window: MainWindow) -> dict[EntityId, Wall]:
    """The walls the scene draws (all walls share one item), by id."""
    return dict(window.scene.map_layer.walls_item.walls)


def test_three_clicks_and_a_double_click_draw_two_snapped_walls(window: MainWindow) -> None:
    window.tools.activate("walls")
    view = window.view
    click(view, 8.2, 0.9)
    click(view, 10.8, 1.1)
    click(view, 11.1, 3.7)
    double_click(view, 11.1, 3.7)
    walls = window.document.encounter.walls
    assert [(w.a, w.b) for w in walls] == [((8, 1), (11, 1)), ((11, 1), (11, 4))]
    assert all(w.kind is WallKind.WALL for w in walls)
    on_screen = wall_items(window)
    assert set(on_screen) == {w.id for w in walls}
    line = wall_line(on_screen[walls[1].id])
    assert (line.x1(), line.y1(), line.x2(), line.y2()) == (11 * 64, 64, 11 * 64, 4 * 64)
    assert window.undo_stack.count() == 1
    assert window.undo_stack.undoText() == "Draw 2 walls"
    window.undo_stack.undo()
    assert window.document.encounter.walls == ()
    assert wall_items(window) == {}


def test_preview_follows_the_pointer_and_clears_when_the_chain_ends(window: MainWindow) -> None:
    window.tools.activate("walls")
    view = window.view
    click(view, 3, 0)
    hover(view, 4.9, 1.2)
    overlay = window.tools.context.overlay
    assert overlay.items, "a rubber segment and handles are shown while drawing"
    assert window.document.encounter.walls == ()
    key(view, Qt.Key.Key_Escape)  # Esc ends the chain: one point makes no wall
    assert window.document.encounter.walls == ()
    assert window.tools.active.key == "walls"


@pytest.mark.parametrize("ender", ["escape", "right-click", "return"])
def test_each_way_of_ending_a_chain_commits_it(window: MainWindow, ender: str) -> None:
    window.tools.activate("walls")
    view = window.view
    click(view, 3, 0)
    click(view, 5, 0)
    if ender == "escape":
        key(view, Qt.Key.Key_Escape)
    elif ender == "return":
        key(view, Qt.Key.Key_Return)
    else:
        click(view, 5, 1, button=RIGHT)
    assert [(w.a, w.b) for w in window.document.encounter.walls] == [((3, 0), (5, 0))]
    assert window.tools.context.overlay.items == [] or all(
        item.zValue() >= 50 for item in window.tools.context.overlay.items
    )


def test_shift_free_draws_and_backspace_drops_the_last_point(window: MainWindow) -> None:
    window.tools.activate("walls")
    view = window.view
    shift = Qt.KeyboardModifier.ShiftModifier
    click(view, 8.25, 1.5, modifiers=shift)
    click(view, 9.0, 3.0)
    click(view, 11.0, 3.0)
    key(view, Qt.Key.Key_Backspace)
    double_click(view, 10.0, 3.0)
    (first, second) = window.document.encounter.walls
    assert first.a == pytest.approx((8.25, 1.5), abs=0.02)
    assert (first.b, second.a, second.b) == ((9, 3), (9, 3), (10, 3))


def test_walls_snap_onto_the_map(window: MainWindow) -> None:
    window.tools.activate("walls")
    view = window.view
    click(view, -1.4, 2.2)
    double_click(view, 14, 2.2)
    (wall,) = window.document.encounter.walls
    assert (wall.a, wall.b) == ((0, 2), (12, 2))


def test_doors_and_windows(window: MainWindow) -> None:
    window.tools.activate("doors")
    view = window.view
    click(view, 8, 2)
    double_click(view, 9, 2)
    child(window.tools.options_bar, QRadioButton, "door-kind-window").setChecked(True)
    click(view, 10, 2)
    double_click(view, 11, 2)
    door, window_pane = window.document.encounter.walls
    assert (door.kind, door.a, door.b) == (WallKind.DOOR, (8, 2), (9, 2))
    assert (window_pane.kind, window_pane.a, window_pane.b) == (WallKind.WINDOW, (10, 2), (11, 2))
    assert window.undo_stack.undoText() == "Draw 1 window"


def test_double_click_on_a_door_toggles_it_with_the_select_tool(window: MainWindow) -> None:
    window.tools.activate("doors")
    view = window.view
    click(view, 8, 2)
    double_click(view, 9, 2)
    window.tools.activate("select")
    double_click(view, 8.5, 2.05)
    (door,) = window.document.encounter.walls
    assert door.open
    assert wall_pen(wall_items(window)[door.id]).style() == Qt.PenStyle.DashLine  # drawn open
    assert "Door open" in window.tools.hint_label.text()
    double_click(view, 8.5, 1.95)
    assert not window.document.encounter.walls[0].open
    window.undo_stack.undo()
    assert window.document.encounter.walls[0].open
    window.undo_stack.undo()
    assert not window.document.encounter.walls[0].open


def test_double_click_away_from_doors_does_nothing(window: MainWindow) -> None:
    window.tools.activate("doors")
    click(window.view, 8, 2)
    double_click(window.view, 9, 2)
    window.tools.activate("select")
    double_click(window.view, 8.5, 3.5)
    assert not window.document.encounter.walls[0].open
    assert window.undo_stack.count() == 1


def test_switching_tool_mid_chain_keeps_what_was_drawn(window: MainWindow) -> None:
    window.tools.activate("walls")
    click(window.view, 3, 0)
    click(window.view, 4, 0)
    window.tools.actions["measure"].trigger()
    assert len(window.document.encounter.walls) == 1
    assert window.tools.context.overlay.items == []


def test_drawn_walls_and_doors_show_in_their_colours(window: MainWindow) -> None:
    from battlemap.ui import style
    from battlemap.ui.render import render_scene
    from tests.ui.test_render import close

    window.tools.activate("walls")
    click(window.view, 8, 1)
    double_click(window.view, 11, 1)
    window.tools.activate("doors")
    click(window.view, 8, 3)
    double_click(window.view, 10, 3)
    window.tools.activate("select")  # no preview handles over the probes
    pixels = 40
    image = render_scene(window.scene, window.map_rect(), width=12 * pixels)
    assert close(image.pixelColor(int(9.5 * pixels), pixels), style.WALL, tolerance=40)
    assert close(image.pixelColor(9 * pixels, 3 * pixels), style.DOOR_CLOSED, tolerance=40)
    assert close(
        image.pixelColor(int(9.5 * pixels), 2 * pixels), style.MAP_BACKGROUND, tolerance=40
    )


def test_doors_tool_double_click_on_a_door_toggles_it(window: MainWindow) -> None:
    window.tools.activate("doors")
    view = window.view
    click(view, 8, 2)
    double_click(view, 9, 2)
    double_click(view, 8.5, 2.02)
    (door,) = window.document.encounter.walls
    assert door.open
    assert window.tools.tools["doors"].points == []  # type: ignore[attr-defined]
    click(view, 8, 4)  # a chain from elsewhere may still end on a door
    double_click(view, 8.5, 2.02)
    assert len(window.document.encounter.walls) == 2
