"""Eraser, selecting and deleting map features and tokens, map settings, shortcuts and pan."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import QApplication, QDoubleSpinBox, QSpinBox
from pytestqt.qtbot import QtBot

from battlemap.model import Obstacle, TerrainRegion, Wall, WallKind
from battlemap.model.map_commands import AddObstacle, AddTerrain, AddWalls
from battlemap.ui.main_window import MainWindow
from battlemap.ui.tools.map_settings import MapSettingsDialog
from battlemap.ui.tools.select import SelectTool
from tests.ui.children import child
from tests.ui.tool_input import at, click, hover, send_mouse, stroke


def furnish(window: MainWindow) -> None:
    """A wall, a door, an obstacle and a terrain region in the empty top-right corner."""
    window.tools.context.push(
        AddWalls(
            (
                Wall(id="w-top", a=(8, 1), b=(11, 1)),
                Wall(id="d-top", a=(11, 1), b=(11, 2), kind=WallKind.DOOR),
            )
        )
    )
    square = [(8, 3), (10, 3), (10, 5), (8, 5)]
    window.tools.context.push(AddObstacle(Obstacle(id="o-box", points=square)))
    region = TerrainRegion(id="t-mud", points=[(3, 0), (5, 0), (5, 2), (3, 2)])
    window.tools.context.push(AddTerrain((region,)))


def feature_ids(window: MainWindow) -> set[str]:
    encounter = window.document.encounter
    return {
        f.id
        for features in (encounter.walls, encounter.obstacles, encounter.terrain)
        for f in features
    }


def test_eraser_removes_what_it_clicks_and_undo_restores(window: MainWindow) -> None:
    furnish(window)
    window.tools.activate("eraser")
    view = window.view
    hover(view, 9.5, 1.05)
    assert window.tools.context.overlay.items, "the wall under the pointer is outlined"
    click(view, 9.5, 1.05)
    click(view, 9, 4)
    click(view, 4, 1)
    assert feature_ids(window) == {"d-top"}
    assert window.undo_stack.undoText() == "Erase terrain"
    for _ in range(3):
        window.undo_stack.undo()
    assert feature_ids(window) == {"w-top", "d-top", "o-box", "t-mud"}
    click(view, 6.5, 7)  # nothing there but a token: nothing happens
    assert window.undo_stack.index() == window.undo_stack.count() - 3


def test_eraser_drag_removes_several_in_one_step(window: MainWindow) -> None:
    furnish(window)
    window.tools.activate("eraser")
    before = window.undo_stack.count()
    stroke(window.view, [(9, 0.8), (10.9, 1.5), (9, 4)], steps=1)
    assert feature_ids(window) == {"t-mud"}
    assert window.undo_stack.count() == before + 1
    window.undo_stack.undo()
    assert len(feature_ids(window)) == 4


def test_select_a_wall_and_delete_it(window: MainWindow) -> None:
    furnish(window)
    view = window.view
    click(view, 9.5, 1.05)
    select = window.tools.tools["select"]
    assert isinstance(select, SelectTool)
    assert select.selected_feature == "w-top"
    window.tools.delete_action.trigger()
    assert "w-top" not in feature_ids(window)
    assert select.selected_feature is None  # the outline goes with it
    window.undo_stack.undo()
    assert "w-top" in feature_ids(window)


def test_delete_removes_selected_tokens_as_one_step(window: MainWindow) -> None:
    window.scene.tokens["c-medium"].setSelected(True)  # type: ignore[index]
    window.scene.tokens["c-large"].setSelected(True)  # type: ignore[index]
    window.tools.delete_action.trigger()
    names = [c.name for c in window.document.encounter.creatures]
    assert names == ["Owl", "Giant", "Dragon"]
    assert window.undo_stack.count() == 1
    window.undo_stack.undo()
    assert len(window.document.encounter.creatures) == 5
    assert window.document.encounter.creatures[1].name == "Fighter"


def test_delete_with_nothing_selected_says_so(window: MainWindow) -> None:
    window.tools.delete_action.trigger()
    assert window.undo_stack.count() == 0
    assert window.tools.hint_label.text() == "Nothing selected to delete."


def test_clicking_a_token_does_not_select_the_terrain_under_it(window: MainWindow) -> None:
    region = TerrainRegion(points=[(1, 1), (4, 1), (4, 4), (1, 4)])
    window.tools.context.push(AddTerrain((region,)))
    click(window.view, 2.5, 2.5)  # the fighter stands on it
    select = window.tools.tools["select"]
    assert isinstance(select, SelectTool)
    assert select.selected_feature is None
    assert window.scene.tokens["c-medium"].isSelected()  # type: ignore[index]


def test_map_settings_dialog_changes_the_grid_in_one_undo_step(
    window: MainWindow, qtbot: QtBot
) -> None:
    window.tools.map_settings_action.trigger()
    dialog = window.findChild(MapSettingsDialog)
    assert dialog is not None and dialog.isVisible()
    child(dialog, QSpinBox, "map-width").setValue(30)
    child(dialog, QSpinBox, "map-height").setValue(25)
    child(dialog, QDoubleSpinBox, "cell-feet").setValue(10)
    dialog.accept()
    grid = window.document.encounter.grid
    assert (grid.width, grid.height, grid.cell_feet) == (30, 25, 10)
    assert window.map_rect().width() == 30 * 64
    window.undo_stack.undo()
    assert window.document.encounter.grid.width == 12


def test_map_settings_cancel_or_no_change_records_nothing(window: MainWindow) -> None:
    dialog = window.tools.open_map_settings()
    dialog.accept()
    dialog = window.tools.open_map_settings()
    child(dialog, QSpinBox, "map-width").setValue(40)
    dialog.reject()
    assert window.undo_stack.count() == 0


def test_tools_have_shortcuts_tooltips_and_hints(window: MainWindow, qtbot: QtBot) -> None:
    expected = {
        "select": "V",
        "measure": "M",
        "walls": "W",
        "doors": "D",
        "obstacles": "O",
        "terrain": "T",
        "eraser": "E",
    }
    for key, shortcut in expected.items():
        action = window.tools.actions[key]
        assert action.shortcut().toString() == shortcut
        assert f"({shortcut})" in action.toolTip()
        assert not action.icon().isNull()
        assert action in window.tools_toolbar.actions()
    window.activateWindow()
    qtbot.waitActive(window)
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key.Key_W)
    assert window.tools.active.key == "walls"
    assert window.tools.hint_label.text().startswith("Walls:")
    assert window.tools.actions["walls"].isChecked()
    qtbot.keyClick(window.view, Qt.Key.Key_Escape)  # nothing drawn: back to Select
    assert window.tools.active.key == "select"


def test_middle_drag_pans_without_drawing(window: MainWindow) -> None:
    window.tools.activate("walls")
    view = window.view
    before = view.horizontalScrollBar().value()
    middle = Qt.MouseButton.MiddleButton
    start, end = at(view, 6, 5), at(view, 4, 5)
    send_mouse(view, QEvent.Type.MouseButtonPress, start, middle, middle)
    send_mouse(view, QEvent.Type.MouseMove, end, Qt.MouseButton.NoButton, middle)
    send_mouse(view, QEvent.Type.MouseButtonRelease, end, middle, Qt.MouseButton.NoButton)
    QApplication.processEvents()
    assert view.horizontalScrollBar().value() != before
    assert window.tools.tools["walls"].points == []  # type: ignore[attr-defined]
    assert view.viewport().cursor().shape() == Qt.CursorShape.CrossCursor


def test_a_finger_has_a_wider_reach_than_a_mouse(window: MainWindow) -> None:
    from PySide6.QtCore import QPointF
    from PySide6.QtGui import QInputDevice, QMouseEvent, QPointingDevice

    furnish(window)
    window.tools.activate("eraser")
    view = window.view
    near = at(view, 9.5, 1.3)  # about 19 px from the wall at 64 px per cell
    finger = QPointingDevice(
        "test finger",
        1,
        QInputDevice.DeviceType.TouchScreen,
        QPointingDevice.PointerType.Finger,
        QInputDevice.Capability.Position,
        1,
        0,
    )

    def tap(device: QPointingDevice | None) -> None:
        left, none = Qt.MouseButton.LeftButton, Qt.MouseButton.NoButton
        for kind, buttons in (
            (QEvent.Type.MouseButtonPress, left),
            (QEvent.Type.MouseButtonRelease, none),
        ):
            local = QPointF(near)
            global_pos = QPointF(view.viewport().mapToGlobal(near))
            modifiers = Qt.KeyboardModifier.NoModifier
            if device is None:
                event = QMouseEvent(kind, local, global_pos, left, buttons, modifiers)
            else:
                event = QMouseEvent(kind, local, global_pos, left, buttons, modifiers, device)
            QApplication.sendEvent(view.viewport(), event)

    tap(None)
    assert "w-top" in feature_ids(window)
    tap(finger)
    assert "w-top" not in feature_ids(window)


def test_no_two_actions_share_a_shortcut(window: MainWindow) -> None:
    from PySide6.QtGui import QAction

    seen: dict[str, str] = {}
    for action in window.findChildren(QAction):
        for sequence in action.shortcuts():
            text = sequence.toString()
            assert text not in seen, f"{text} is both {seen[text]!r} and {action.text()!r}"
            seen[text] = action.text()
    assert {"V", "M", "W", "D", "O", "T", "E"} <= seen.keys()


def test_icons_follow_a_palette_change(window: MainWindow) -> None:
    from PySide6.QtGui import QColor, QPalette

    before = window.tools.actions["walls"].icon().pixmap(32, 32).toImage()
    original = QPalette(QApplication.palette())
    palette = QPalette(original)
    palette.setColor(QPalette.ColorRole.WindowText, QColor("#f0f0f0"))
    QApplication.setPalette(palette)
    try:
        QApplication.processEvents()
        after = window.tools.actions["walls"].icon().pixmap(32, 32).toImage()
        assert after != before
    finally:
        QApplication.setPalette(original)
