"""The Creature dock's AC line shows the cover the selected creature has against the hovered one.

Room of tests/ui/drag_helpers.py: a wall from (6, 0) to (6, 5), the Fighter at (2, 2), the
Goblin (AC 15) moved to (9, 6), the Cleric at (12, 8) in the open. Between the Fighter and the
Goblin two of the four corner lines cross the wall whichever way round (half cover, +2 AC in
srd-5e); nothing stands between the Goblin and the Cleric.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent, Qt
from pytestqt.qtbot import QtBot

from battlemap.model.ids import EntityId
from battlemap.ui.main_window import MainWindow
from tests.rules.move_builders import room
from tests.ui.drag_helpers import open_window, send
from tests.ui.helpers import cell_centre_in_view
from tests.ui.test_targeting import FIGHTER, GOBLIN, placed


def hover(window: MainWindow, cell: tuple[float, float]) -> None:
    none = Qt.MouseButton.NoButton
    send(window.view, QEvent.Type.MouseMove, cell_centre_in_view(window.view, *cell), none, none)


def ac_line(window: MainWindow) -> str:
    label = window.creature_dock.ac_cover
    assert label.isVisible()
    return label.text()


def select(window: MainWindow, creature_id: str) -> None:
    window.scene.clearSelection()
    window.scene.tokens[EntityId(creature_id)].setSelected(True)


def test_selected_goblin_shows_its_ac_with_half_cover_against_the_hovered_fighter(
    qtbot: QtBot, tmp_path: Path
) -> None:
    window = open_window(qtbot, tmp_path, placed(room(), goblin=(9, 6)))
    select(window, GOBLIN)
    assert ac_line(window) == "AC 15"  # nothing hovered yet
    hover(window, (2.5, 2.5))  # the Fighter
    assert ac_line(window) == "AC 15 (+2 half cover vs Fighter = 17)"
    defence = window.targeting.defence  # the overlay's geometry, attacker = hovered Fighter
    assert defence is not None and defence.attacker.id == FIGHTER
    assert defence.target.id == GOBLIN
    hover(window, (12.5, 8.5))  # the Cleric, in the open
    assert ac_line(window) == "AC 15 (no cover vs Cleric)"
    hover(window, (0.5, 9.5))  # off every token
    assert ac_line(window) == "AC 15"


def test_the_line_follows_an_ac_edit_and_a_change_of_selection(
    qtbot: QtBot, tmp_path: Path
) -> None:
    window = open_window(qtbot, tmp_path, placed(room(), goblin=(9, 6)))
    select(window, GOBLIN)
    hover(window, (2.5, 2.5))
    window.creature_dock.numbers["ac"].setValue(16)  # one undo step, the line follows
    assert window.document.encounter.creature(GOBLIN).ac == 16
    assert ac_line(window) == "AC 16 (+2 half cover vs Fighter = 18)"
    select(window, FIGHTER)  # a new selection: the old pair is gone until something is hovered
    fighter_ac = window.document.encounter.creature(FIGHTER).ac
    assert ac_line(window) == f"AC {fighter_ac}"
    hover(window, (9.5, 6.5))
    assert ac_line(window) == f"AC {fighter_ac} (+2 half cover vs Goblin = {fighter_ac + 2})"


def test_total_cover_says_it_cannot_be_targeted(qtbot: QtBot, tmp_path: Path) -> None:
    window = open_window(qtbot, tmp_path, placed(room(), goblin=(7, 2)))  # behind the wall
    select(window, GOBLIN)
    hover(window, (2.5, 2.5))
    assert ac_line(window) == "AC 15 (total cover vs Fighter: can't be targeted)"
