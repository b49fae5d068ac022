"""The DM's lights (issue 20): add a torch, a lantern or a custom light from the map's menu,
drag one, remove one, have a token carry a torch and put it down, set the map's ambient
light; each one undo step, drawn on the DM's map."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QCheckBox, QComboBox, QMenu
from pytestqt.qtbot import QtBot

from battlemap.io.encounter_file import load_battlemap, save_battlemap
from battlemap.model import LightLevel, MapLighting
from battlemap.model.document import MoveCreature, RemoveCreature
from battlemap.model.ids import EntityId
from battlemap.ui.light_actions import CARRY_TEXT, DOUSE_TEXT, DROP_TEXT, REMOVE_TEXT
from battlemap.ui.light_items import LightItem
from battlemap.ui.main_window import MainWindow
from battlemap.ui.render import render_scene
from battlemap.ui.style import cell_to_scene
from battlemap.ui.undo import push
from tests.ui.children import child
from tests.ui.tool_input import stroke

FIGHTER = EntityId("c-medium")  # at (2, 2), Medium: its centre is (2.5, 2.5)


def scene_point(x: float, y: float) -> QPointF:
    return QPointF(cell_to_scene(x), cell_to_scene(y))


def map_menu(window: MainWindow, x: float, y: float) -> QMenu:
    menu = QMenu(window)
    for build in window.scene.map_menu_builders:
        build(menu, scene_point(x, y))
    return menu


def token_menu(window: MainWindow, creature_id: EntityId = FIGHTER) -> QMenu:
    menu = QMenu(window)
    for build in window.scene.token_menu_builders:
        build(menu, creature_id)
    return menu


def trigger(menu: QMenu, text: str) -> None:
    (action,) = [a for a in menu.actions() if a.text() == text]
    action.trigger()


def light_items(window: MainWindow) -> list[LightItem]:
    return [item for item in window.scene.items() if isinstance(item, LightItem)]


def test_a_torch_added_from_the_map_menu_is_bright_20_ft_dim_40_ft_one_undo_step(
    window: MainWindow,
) -> None:
    trigger(map_menu(window, 9.5, 1.5), "Add a torch here")
    (light,) = window.document.encounter.lights
    assert (light.position, light.bright_cells, light.dim_cells) == ((9.5, 1.5), 4, 8)
    (item,) = light_items(window)
    assert item.pos() == scene_point(9.5, 1.5)
    assert window.undo_stack.undoText() == "Add torch"
    window.undo_stack.undo()
    assert window.document.encounter.lights == () and light_items(window) == []


def test_a_lantern_and_a_custom_light(window: MainWindow) -> None:
    trigger(map_menu(window, 1, 8), "Add a lantern here")
    window.lights.ask = lambda parent, cell_feet: (10.0, 5.0)
    trigger(map_menu(window, 8, 8), "Add a light here…")
    lantern, custom = window.document.encounter.lights
    assert (lantern.name, lantern.bright_cells, lantern.dim_cells) == ("lantern", 6, 12)
    assert (custom.bright_cells, custom.dim_cells) == (2, 3)
    window.lights.ask = lambda parent, cell_feet: None  # cancelled: nothing added
    trigger(map_menu(window, 4, 8), "Add a light here…")
    assert len(window.document.encounter.lights) == 2


def test_a_light_is_dragged_in_one_undo_step(window: MainWindow, qtbot: QtBot) -> None:
    window.lights.add_torch((9.5, 1.5))
    stroke(window.view, [(9.5, 1.5), (10.5, 3.5)])
    (light,) = window.document.encounter.lights
    assert light.position == pytest.approx((10.5, 3.5), abs=0.05)
    assert window.undo_stack.undoText() == "Move torch"
    window.undo_stack.undo()
    assert window.document.encounter.lights[0].position == (9.5, 1.5)
    assert light_items(window)[0].pos() == scene_point(9.5, 1.5)


def test_a_light_is_removed_from_its_menu_and_comes_back_on_undo(window: MainWindow) -> None:
    window.lights.add_torch((9.5, 1.5))
    menu = map_menu(window, 9.5, 1.5)  # on the sun: the light's own entry
    assert [a.text() for a in menu.actions()] == [REMOVE_TEXT]
    trigger(menu, REMOVE_TEXT)
    assert window.document.encounter.lights == ()
    window.undo_stack.undo()
    assert len(window.document.encounter.lights) == 1


def test_a_token_carries_a_torch_that_moves_with_it_and_puts_it_down(
    window: MainWindow, tmp_path: Path
) -> None:
    trigger(token_menu(window), CARRY_TEXT)
    (torch,) = window.document.encounter.lights
    assert torch.carried_by == FIGHTER and (torch.bright_cells, torch.dim_cells) == (4, 8)
    (item,) = light_items(window)
    assert item.pos() == scene_point(2.5, 2.5)
    push(window.undo_stack, window.document, MoveCreature(FIGHTER, (2, 2), (8, 6)))
    assert item.pos() == scene_point(8.5, 6.5)  # the rings follow the token
    path = tmp_path / "torch.battlemap"
    save_battlemap(path, window.document.encounter, window.document.images)
    assert load_battlemap(path).encounter.lights == window.document.encounter.lights
    menu = token_menu(window)
    assert CARRY_TEXT not in [a.text() for a in menu.actions()]
    trigger(menu, DROP_TEXT)
    (dropped,) = window.document.encounter.lights
    assert (dropped.carried_by, dropped.position) == (None, (8.5, 6.5))
    push(window.undo_stack, window.document, MoveCreature(FIGHTER, (8, 6), (2, 2)))
    assert light_items(window)[0].pos() == scene_point(8.5, 6.5)  # it stays where it was put
    window.undo_stack.undo()
    window.undo_stack.undo()
    assert window.document.encounter.lights[0].carried_by == FIGHTER
    trigger(token_menu(window), DOUSE_TEXT)
    assert window.document.encounter.lights == ()


def test_the_dms_map_draws_a_lights_sun(window: MainWindow) -> None:
    window.lights.add_torch((9.5, 1.5))
    image = render_scene(window.scene, QRectF(scene_point(8, 0), scene_point(11, 3)), 192)
    centre = QColor(image.pixel(96, 96))
    assert centre.red() > 200 and centre.green() > 150 and centre.blue() < 120, centre.name()


def test_map_settings_set_the_ambient_light_in_one_undo_step(window: MainWindow) -> None:
    dialog = window.tools.open_map_settings()
    combo = child(dialog, QComboBox, "ambient-light")
    combo.setCurrentIndex(combo.findData(LightLevel.DARK.value))
    child(dialog, QCheckBox, "baked-lighting").setChecked(True)
    dialog.accept()
    assert window.document.encounter.lighting == MapLighting(
        ambient=LightLevel.DARK, baked_lighting=True
    )
    assert window.undo_stack.count() == 1
    window.undo_stack.undo()
    assert window.document.encounter.lighting == MapLighting()


def test_a_removed_carrier_puts_its_torch_down_where_it_stood_in_the_same_step(
    window: MainWindow,
) -> None:
    trigger(token_menu(window), CARRY_TEXT)
    push(window.undo_stack, window.document, MoveCreature(FIGHTER, (2, 2), (8, 6)))
    index = [c.id for c in window.document.encounter.creatures].index(FIGHTER)
    fighter = window.document.encounter.creatures[index]
    push(window.undo_stack, window.document, RemoveCreature(fighter, index))
    (light,) = window.document.encounter.lights
    assert (light.position, light.carried_by) == ((8.5, 6.5), None)
    (item,) = light_items(window)
    assert not item.carried and item.pos() == scene_point(8.5, 6.5)
    assert [a.text() for a in map_menu(window, 8.5, 6.5).actions()] == [REMOVE_TEXT]
    window.undo_stack.undo()  # the creature and its torch come back together
    assert window.document.encounter.lights[0].carried_by == FIGHTER
