"""The Area template tool: press, drag to aim, release; the caught tokens go to Area damage.

Map (tests/ui/conftest.py, 12 x 10): Owl (Tiny) at (0.5, 0.5), Fighter at (2, 2), Ogre (Large)
at (5, 2), Giant (Huge) at (0, 5), Dragon (Gargantuan) at (6, 5).
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QComboBox, QSpinBox
from pytestqt.qtbot import QtBot

from battlemap.geometry.templates import TemplateCoverage, TemplateShape
from battlemap.model import Wall
from battlemap.model.document import ReplaceEncounterField
from battlemap.model.ids import EntityId
from battlemap.ui.drag.items import InfoCard
from battlemap.ui.main_window import MainWindow
from battlemap.ui.style import cell_to_scene
from battlemap.ui.tools.template import TemplateTool
from tests.ui.helpers import cell_centre_in_view
from tests.ui.tool_input import LEFT, NONE, at, hover, key, send_mouse, stroke

PRESS, MOVE, RELEASE = (
    QEvent.Type.MouseButtonPress,
    QEvent.Type.MouseMove,
    QEvent.Type.MouseButtonRelease,
)


def tool(window: MainWindow) -> TemplateTool:
    found = window.tools.tools["template"]
    assert isinstance(found, TemplateTool)
    return found


def covered(window: MainWindow) -> TemplateCoverage:
    found = tool(window).coverage
    assert found is not None, "no template placed"
    return found


def choose_shape(window: MainWindow, shape: TemplateShape, feet: int) -> None:
    combo = window.tools.options_bar.findChild(QComboBox, "template-shape")
    assert combo is not None
    combo.setCurrentIndex(combo.findData(shape))
    size = window.tools.options_bar.findChild(QSpinBox, "template-size")
    assert size is not None
    size.setValue(feet)


def press_and_aim(
    window: MainWindow, origin: tuple[float, float], aim: tuple[float, float]
) -> None:
    """Press at ``origin`` and drag to ``aim`` without releasing (the template is being placed)."""
    view = window.view
    send_mouse(view, MOVE, at(view, *origin), NONE, NONE)
    send_mouse(view, PRESS, at(view, *origin), LEFT, LEFT)
    for step in (0.5, 1.0):
        x = origin[0] + (aim[0] - origin[0]) * step
        y = origin[1] + (aim[1] - origin[1]) * step
        send_mouse(view, MOVE, at(view, x, y), NONE, LEFT)


def release(window: MainWindow, aim: tuple[float, float]) -> None:
    send_mouse(window.view, RELEASE, at(window.view, *aim), LEFT, NONE)


def selected_ids(window: MainWindow) -> set[str]:
    return {str(cid) for cid, token in window.scene.tokens.items() if token.isSelected()}


def test_shortcut_picks_the_tool(window: MainWindow, qtbot: QtBot) -> None:
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key.Key_X)
    assert window.tools.active is tool(window)
    assert window.tools.actions["template"].shortcut().toString() == "X"


def test_placing_a_cone_shades_its_squares_lists_the_ogre_and_selects_it(
    window: MainWindow,
) -> None:
    window.tools.activate("template")
    choose_shape(window, TemplateShape.CONE, 15)
    press_and_aim(window, (4.1, 2.9), (8, 3))  # origin snaps to the intersection (4, 3)
    placing = tool(window)
    assert placing.template is not None and placing.template.origin == (4.0, 3.0)
    assert placing.coverage is not None
    cells = set(placing.coverage.cells)
    assert {(5, 2), (5, 3), (6, 2), (6, 3)} <= cells  # the Ogre's four squares
    assert (4, 2) not in cells  # a quarter of it near the tip: under half
    assert placing.coverage.creature_ids == ("c-large",)
    cards = [item for item in window.tools.context.overlay.items if isinstance(item, InfoCard)]
    assert [text for text, _ in cards[0].lines][:3] == [
        "Cone 15 ft",
        "1 creature inside:",
        "• Ogre",
    ]
    assert "Ogre" in window.tools.hint_label.text()
    assert not selected_ids(window)  # nothing selected until release
    release(window, (8, 3))
    assert selected_ids(window) == {"c-large"}
    # No combat running: Area damage opens all the same (a fireball before initiative).
    area = window.combat.area_dialog
    assert area.isVisible()
    assert [area.targets.item(i).text() for i in range(area.targets.count())] == ["Ogre"]
    assert window.tools.context.overlay.items  # the placed template stays drawn


def test_circle_centre_snaps_to_an_intersection_and_catches_large_creatures_partly_inside(
    window: MainWindow,
) -> None:
    window.tools.activate("template")
    choose_shape(window, TemplateShape.CIRCLE, 10)
    stroke(window.view, [(5.2, 4.7), (5.3, 4.8)])  # a click with a little drag: no aim needed
    placed = tool(window)
    assert placed.template is not None and placed.template.origin == (5.0, 5.0)
    # Radius 2 squares around (5, 5): one square of the Ogre (5, 3) and one of the Dragon
    # (6, 5) are at least half inside; the Ogre's (6, 3) is less than half in.
    assert placed.coverage is not None
    caught = {str(c.id): c.cells for c in placed.coverage.caught}
    assert caught == {"c-large": ((5, 3),), "c-garg": ((6, 5),)}
    assert selected_ids(window) == {"c-large", "c-garg"}


def test_a_line_uses_its_width_and_escape_clears_it(window: MainWindow) -> None:
    window.tools.activate("template")
    choose_shape(window, TemplateShape.LINE, 40)
    width = window.tools.options_bar.findChild(QSpinBox, "template-width")
    assert width is not None
    assert width.isEnabled()
    assert width is not None
    width.setValue(10)
    stroke(window.view, [(0.1, 2.9), (11, 3)])  # along the line y = 3, from the map's edge
    placed = tool(window)
    assert placed.coverage is not None
    assert set(placed.coverage.cells) == {(c, r) for c in range(8) for r in (2, 3)}
    assert selected_ids(window) == {"c-medium", "c-large"}
    key(window.view, Qt.Key.Key_Escape)
    assert placed.template is None and not window.tools.context.overlay.items
    assert window.tools.active is placed  # the first Esc clears, it does not switch tools


def test_a_click_without_aiming_a_cone_places_nothing(window: MainWindow) -> None:
    window.tools.activate("template")
    choose_shape(window, TemplateShape.CONE, 15)
    stroke(window.view, [(3, 3), (3, 3)])
    assert tool(window).template is None and not selected_ids(window)
    assert "drag from the origin to aim" in window.tools.hint_label.text()


def test_hovering_shows_where_the_origin_will_snap(window: MainWindow) -> None:
    window.tools.activate("template")
    hover(window.view, 3.2, 3.1)  # a cone's origin snaps to the nearest half square
    items = window.tools.context.overlay.items
    assert len(items) == 1
    assert items[0].scenePos() == window.view.mapToScene(cell_centre_in_view(window.view, 3, 3))


def test_released_template_opens_area_damage_for_exactly_those_caught(
    window: MainWindow, qtbot: QtBot
) -> None:
    initiative = window.combat.initiative
    for button in (initiative.start_button, initiative.roll_all, initiative.begin_button):
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert window.document.encounter.combat is not None
    window.tools.activate("template")
    choose_shape(window, TemplateShape.CUBE, 20)
    stroke(window.view, [(2, 1), (4, 4)])  # corner (2, 1), down-right: squares 2..5 x 1..4
    area = window.combat.area_dialog
    assert area.isVisible()
    rows = {
        area.targets.item(i).data(Qt.ItemDataRole.UserRole) for i in range(area.targets.count())
    }
    assert rows == {"c-medium", "c-large"}
    before = {c.id: c.hp for c in window.document.encounter.creatures}
    area.typed.setValue(6)
    area.dice.setText("2d6")
    qtbot.mouseClick(area.apply_button, Qt.MouseButton.LeftButton)
    after = {c.id: c.hp for c in window.document.encounter.creatures}
    lost = {cid: before[cid] - after[cid] for cid in before if before[cid] != after[cid]}
    assert lost == {
        "c-medium": min(6, before[EntityId("c-medium")]),
        "c-large": min(6, before[EntityId("c-large")]),
    }
    window.undo_stack.undo()  # one step for the whole area
    assert {c.id: c.hp for c in window.document.encounter.creatures} == before


def test_area_damage_opens_at_the_templates_origin_even_when_it_catches_nobody(
    window: MainWindow,
) -> None:
    window.tools.activate("template")
    choose_shape(window, TemplateShape.CUBE, 10)
    stroke(window.view, [(8, 1), (10, 3)])  # squares (8..9, 1..2): no creature there
    assert covered(window).creature_ids == ()
    area = window.combat.area_dialog
    assert area.isVisible() and area.targets.count() == 0
    assert area.origin == (8.0, 1.0)
    assert "point of origin (8, 1)" in area.origin_label.text()


def test_caught_area_is_shaded_orange_on_screen(window: MainWindow) -> None:
    window.tools.activate("template")
    choose_shape(window, TemplateShape.CUBE, 10)
    window.view.centerOn(cell_to_scene(9), cell_to_scene(2))
    press_and_aim(window, (8, 1), (10, 3))  # squares (8..9, 1..2), empty of creatures
    image = window.view.viewport().grab().toImage()
    inside = QColor(image.pixel(cell_centre_in_view(window.view, 8.5, 2.5)))
    outside = QColor(image.pixel(cell_centre_in_view(window.view, 8.5, 3.5)))  # empty square
    assert inside.red() > outside.red() - 5 and inside.blue() < outside.blue() - 20


def test_a_wall_stops_the_template_and_shelters_the_ogre(window: MainWindow) -> None:
    window.tools.activate("template")
    choose_shape(window, TemplateShape.CUBE, 20)
    stroke(window.view, [(3, 1), (6, 4)])  # squares 3..6 x 1..4: two columns of the Ogre's
    assert covered(window).creature_ids == ("c-large",)
    walls = (Wall(a=(5, 0), b=(5, 10)),)  # between the origin and the Ogre
    window.document.apply(ReplaceEncounterField("walls", (), walls))
    stroke(window.view, [(3, 1), (6, 4)])
    coverage = tool(window).coverage
    assert coverage is not None
    assert set(coverage.cells) == {(c, r) for c in (3, 4) for r in (1, 2, 3, 4)}
    assert coverage is not None
    assert coverage.creature_ids == () and not selected_ids(window)
    assert "no creatures" in window.tools.hint_label.text()


def test_shift_places_the_origin_off_the_grid(window: MainWindow) -> None:
    window.tools.activate("template")
    choose_shape(window, TemplateShape.CIRCLE, 5)
    view, shift = window.view, Qt.KeyboardModifier.ShiftModifier
    send_mouse(view, MOVE, at(view, 3.3, 3.3), NONE, NONE, shift)
    send_mouse(view, PRESS, at(view, 3.3, 3.3), LEFT, LEFT, shift)
    send_mouse(view, RELEASE, at(view, 3.3, 3.3), LEFT, NONE, shift)
    template = tool(window).template
    assert template is not None
    origin = template.origin
    assert origin == pytest.approx((3.3, 3.3), abs=0.02)
    # Snapped to (3, 3) it would affect the four squares around; off-centre, (2, 2) is
    # less than half covered.
    assert covered(window).cells == ((3, 2), (2, 3), (3, 3))
