"""Obstacles and Terrain tools: what is drawn is what the model holds, one undo step each."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QComboBox, QGraphicsPolygonItem

from battlemap.model import CoverDegree, TerrainKind
from battlemap.ui.main_window import MainWindow
from tests.ui.children import child
from tests.ui.tool_input import click, double_click, hover, key, stroke


def choose(window: MainWindow, name: str, value: object) -> None:
    combo = window.tools.options_bar.findChild(QComboBox, name)
    assert combo is not None
    index = combo.findData(value)
    assert index >= 0, (name, value)
    assert combo is not None
    combo.setCurrentIndex(index)


def polygon_ids(window: MainWindow) -> set[str]:
    return {
        item.data(0)
        for item in window.scene.items()
        if isinstance(item, QGraphicsPolygonItem) and item.data(0)
    }


def test_drag_a_rectangle_obstacle_snapped_to_corners(window: MainWindow) -> None:
    window.tools.activate("obstacles")
    stroke(window.view, [(8.2, 0.9), (10.8, 3.1)])
    (obstacle,) = window.document.encounter.obstacles
    assert obstacle.points == [(8, 1), (11, 1), (11, 3), (8, 3)]
    assert (obstacle.cover, obstacle.blocks_movement) == (CoverDegree.HALF, True)
    assert obstacle.id in polygon_ids(window)
    window.undo_stack.undo()
    assert window.document.encounter.obstacles == ()
    assert obstacle.id not in polygon_ids(window)


def test_options_bar_sets_cover_and_movement(window: MainWindow) -> None:
    window.tools.activate("obstacles")
    choose(window, "obstacle-cover", CoverDegree.THREE_QUARTERS)
    child(window.tools.options_bar, QCheckBox, "obstacle-blocks-movement").setChecked(False)
    stroke(window.view, [(8, 1), (9, 2)])
    (obstacle,) = window.document.encounter.obstacles
    assert (obstacle.cover, obstacle.blocks_movement) == (CoverDegree.THREE_QUARTERS, False)


def test_a_drag_without_area_makes_nothing(window: MainWindow) -> None:
    window.tools.activate("obstacles")
    stroke(window.view, [(8, 1), (11, 1.2)])  # both corners on row 1: no height
    assert window.document.encounter.obstacles == ()
    assert "at least one cell" in window.tools.hint_label.text()


def test_polygon_obstacle_and_escape_cancels(window: MainWindow) -> None:
    window.tools.activate("obstacles")
    choose(window, "obstacle-shape", "polygon")
    view = window.view
    click(view, 8, 0)
    click(view, 11, 0)
    key(view, Qt.Key.Key_Escape)  # cancels the unfinished polygon
    assert window.tools.active.key == "obstacles"
    click(view, 8, 0)
    click(view, 11, 0)
    click(view, 11, 3)
    hover(view, 9, 3)
    assert window.tools.context.overlay.items
    double_click(view, 11, 3)
    (obstacle,) = window.document.encounter.obstacles
    assert obstacle.points == [(8, 0), (11, 0), (11, 3)]
    assert window.undo_stack.count() == 1


def test_terrain_brush_stroke_is_one_undo_step(window: MainWindow) -> None:
    window.tools.activate("terrain")
    choose(window, "terrain-kind", TerrainKind.WATER)
    stroke(window.view, [(8.5, 0.5), (11.5, 0.5), (11.5, 2.5)])
    terrain = window.document.encounter.terrain
    assert {region.kind for region in terrain} == {TerrainKind.WATER}
    covered = {
        (x, y)
        for region in terrain
        for x in range(int(region.points[0][0]), int(region.points[1][0]))
        for y in range(int(region.points[0][1]), int(region.points[2][1]))
    }
    assert covered == {(8, 0), (9, 0), (10, 0), (11, 0), (11, 1), (11, 2)}
    assert len(terrain) == 2  # a row run and a column run, not six squares
    assert window.undo_stack.count() == 1
    assert window.undo_stack.undoText() == "Paint 6 cells of water terrain"
    assert {r.id for r in terrain} <= polygon_ids(window)
    window.undo_stack.undo()
    assert window.document.encounter.terrain == ()


def test_painting_over_the_same_kind_adds_nothing_but_another_kind_does(
    window: MainWindow,
) -> None:
    window.tools.activate("terrain")
    stroke(window.view, [(8.5, 0.5), (9.5, 0.5)])
    stroke(window.view, [(8.5, 0.5), (9.5, 0.5)])
    assert window.undo_stack.count() == 1
    assert "already difficult" in window.tools.hint_label.text()
    choose(window, "terrain-kind", TerrainKind.IMPASSABLE)
    stroke(window.view, [(9.5, 0.5), (10.5, 0.5)])
    kinds = [region.kind for region in window.document.encounter.terrain]
    assert kinds == [TerrainKind.DIFFICULT, TerrainKind.IMPASSABLE]


def test_brush_stays_on_the_map(window: MainWindow) -> None:
    window.tools.activate("terrain")
    stroke(window.view, [(11.5, 9.5), (13.5, 11.5)])
    (region,) = window.document.encounter.terrain
    assert region.points == [(11, 9), (12, 9), (12, 10), (11, 10)]


def test_terrain_polygon(window: MainWindow) -> None:
    window.tools.activate("terrain")
    choose(window, "terrain-mode", "polygon")
    view = window.view
    for point in [(8, 0), (12, 0), (12, 4)]:
        click(view, *point)
    click(view, 8, 4, button=Qt.MouseButton.RightButton)  # right-click closes
    (region,) = window.document.encounter.terrain
    assert region.points == [(8, 0), (12, 0), (12, 4)]
    assert region.kind is TerrainKind.DIFFICULT


def test_options_bar_shows_settings_changed_from_code(window: MainWindow) -> None:
    tool = window.tools.tools["terrain"]
    tool.set_kind(TerrainKind.IMPASSABLE)  # type: ignore[attr-defined]
    combo = window.tools.options_bar.findChild(QComboBox, "terrain-kind")
    assert combo is not None
    assert combo.currentData() == TerrainKind.IMPASSABLE
    obstacles = window.tools.tools["obstacles"]
    obstacles.set_shape("polygon")  # type: ignore[attr-defined]
    shape = window.tools.options_bar.findChild(QComboBox, "obstacle-shape")
    assert shape is not None
    assert shape.currentData() == "polygon"
