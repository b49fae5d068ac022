"""The Fog tool reveals and hides cells for the players, one undo step per stroke."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox

from battlemap.model import Wall
from battlemap.model.document import ReplaceEncounterField
from battlemap.model.fog import FogMode, FogOfWar
from battlemap.ui.main_window import MainWindow
from battlemap.ui.tools.fog import HIDE, RECTANGLE, ROOM
from tests.ui.tool_input import click, stroke


def choose(window: MainWindow, name: str, value: object) -> None:
    combo = window.tools.options_bar.findChild(QComboBox, name)
    assert combo is not None
    combo.setCurrentIndex(combo.findData(value))


def test_a_brush_stroke_reveals_cells_and_turns_manual_fog_on(window: MainWindow) -> None:
    window.tools.activate("fog")
    stroke(window.view, [(0.5, 0.5), (3.5, 0.5)])
    fog = window.document.encounter.fog
    assert fog.mode is FogMode.MANUAL
    assert fog.revealed == {(0, 0), (1, 0), (2, 0), (3, 0)}
    assert window.undo_stack.count() == 1
    assert window.undo_stack.undoText() == "Reveal 4 cells"
    window.undo_stack.undo()
    assert window.document.encounter.fog == FogOfWar()


def test_hiding_a_rectangle_with_the_fog_off_hides_just_that(window: MainWindow) -> None:
    window.tools.activate("fog")
    choose(window, "fog-action", HIDE)
    choose(window, "fog-shape", RECTANGLE)
    stroke(window.view, [(1.5, 1.5), (2.5, 3.5)])
    fog = window.document.encounter.fog
    grid = window.document.encounter.grid
    hidden = {(c, r) for c in (1, 2) for r in (1, 2, 3)}
    assert grid.width * grid.height - len(fog.revealed) == len(hidden)
    assert not hidden & fog.revealed
    view = window.players.last_view  # the players' projection follows at once
    assert view is not None and view.visible is not None
    assert (1, 1) not in view.visible and (0, 0) in view.visible


def test_clicking_a_room_reveals_the_room_only(window: MainWindow) -> None:
    walls = (Wall(a=(4, 0), b=(4, 10)),)  # splits the 12x10 map at x = 4
    window.document.apply(ReplaceEncounterField("walls", (), walls))
    window.tools.activate("fog")
    choose(window, "fog-shape", ROOM)
    click(window.view, 1.5, 1.5)
    assert window.document.encounter.fog.revealed == {(c, r) for c in range(4) for r in range(10)}
    assert window.tools.actions["fog"].shortcut().toString() == "F"
