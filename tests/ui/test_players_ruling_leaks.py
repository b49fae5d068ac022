"""A shown ruling holds no secret (issue 20): the players' leak tests for rulings.

Reading (``players.ruling``): a cover line is drawn only when it lies over cells the players
know and, when blocked, by something they are shown; a line blocked by a hidden creature or
running over unexplored ground is left out (the DM is told how many); names are the players'
window's; a ruling about a creature the players don't see is refused.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPointF
from PySide6.QtGui import QColor
from pytestqt.qtbot import QtBot

from battlemap.model import Creature, Encounter, Grid, Side, Wall
from battlemap.model.document import UpdateCreature
from battlemap.model.fog import FogMode, FogOfWar
from battlemap.model.ids import EntityId
from battlemap.ui.drag.items import InfoCard
from battlemap.ui.main_window import MainWindow
from battlemap.ui.players.ruling import line_over_known
from battlemap.ui.style import cell_to_scene
from battlemap.ui.undo import push
from tests.rules.move_builders import fighting, room
from tests.ui.drag_helpers import move_through, open_window, press_at, release_at
from tests.ui.players_helpers import frame_players

HERO, ORC, LURKER = EntityId("hero"), EntityId("orc"), EntityId("lurker")


def arena(**changes: object) -> Encounter:
    """The hero at (1, 2), the orc at (8, 2), a hidden lurker at (4, 2) between them."""
    encounter = Encounter(
        grid=Grid(width=12, height=6),
        creatures=(
            Creature(id=HERO, name="Thorin", side=Side.PARTY, x=1, y=2),
            Creature(id=LURKER, name="Assassin", side=Side.HOSTILE, x=4, y=2, hidden=True),
            Creature(id=ORC, name="Orc Warchief", side=Side.HOSTILE, x=8, y=2),
        ),
    )
    return encounter.model_copy(update=changes)


def shown(qtbot: QtBot, tmp_path: Path, encounter: Encounter) -> MainWindow:
    window = open_window(qtbot, tmp_path, encounter)
    frame_players(window, qtbot)
    window.scene.tokens[HERO].setSelected(True)
    window.targeting.show_pair(HERO, ORC)
    return window


def players_reddish(window: MainWindow, cell: tuple[float, float]) -> bool:
    view = window.players.window.view
    image = view.grab().toImage()
    point = view.mapFromScene(QPointF(cell_to_scene(cell[0]), cell_to_scene(cell[1])))
    colour: QColor = image.pixelColor(point.x(), point.y())
    return colour.red() > 150 and colour.green() < 90 and colour.blue() < 90


def test_lines_blocked_by_a_hidden_creature_are_left_out(qtbot: QtBot, tmp_path: Path) -> None:
    window = shown(qtbot, tmp_path, arena())
    facts = window.targeting.facts
    assert facts is not None
    by_lurker = [line for line in facts.cover.lines if line.blocker_id == LURKER]
    assert by_lurker, "the DM sees the lurker block lines"
    ruling = window.ruling.show_ruling()
    assert ruling is not None
    assert ruling.left_out == len(by_lurker)
    assert not any(line.blocked for line in ruling.lines)
    drawn = {(line.start, line.end) for line in ruling.lines}
    assert drawn.isdisjoint({(line.start, line.end) for line in by_lurker})
    for line in by_lurker:  # nothing red where the lurker stops the line
        mid = ((line.start[0] + line.end[0]) / 2, (line.start[1] + line.end[1]) / 2)
        assert not players_reddish(window, mid)
    assert "left out" in window.statusBar().currentMessage()  # the DM is told


def test_lines_over_unexplored_ground_are_left_out_with_the_wall_there(
    qtbot: QtBot, tmp_path: Path
) -> None:
    """Manual fog: the players know the west room and the orc's squares, not the middle
    where a wall runs: its lines are not drawn, blocked or clear."""
    known = frozenset(
        {(c, r) for c in range(0, 4) for r in range(6)} | {(8, 2), (8, 3), (9, 2), (9, 3)}
    )
    encounter = arena(
        creatures=arena().creatures[:1] + arena().creatures[2:],
        walls=(Wall(id=EntityId("secret-wall"), a=(6, 2.5), b=(6, 6)),),
        fog=FogOfWar(mode=FogMode.MANUAL, revealed=known),
    )
    window = shown(qtbot, tmp_path, encounter)
    view = window.players.last_view
    assert view is not None and all(wall.id != "secret-wall" for wall in view.walls)
    facts = window.targeting.facts
    assert facts is not None and any(line.blocked for line in facts.cover.lines)
    ruling = window.ruling.show_ruling()
    assert ruling is not None and ruling.lines == () and ruling.left_out == 4
    assert not players_reddish(window, (6.0, 3.2))


def test_a_masked_name_stays_masked_on_the_card(qtbot: QtBot, tmp_path: Path) -> None:
    masked = arena().creature(ORC).model_copy(update={"name_shown_to_players": False})
    window = shown(qtbot, tmp_path, arena().replace_creature(masked))
    ruling = window.ruling.show_ruling()
    assert ruling is not None
    texts = [item.text() for item in window.ruling.layer.items if isinstance(item, InfoCard)]
    assert texts and all("Orc" not in text and "Assassin" not in text for text in texts)
    assert "Medium creature" in texts[0]


def test_a_ruling_about_a_creature_the_players_dont_see_is_refused(
    qtbot: QtBot, tmp_path: Path
) -> None:
    window = shown(qtbot, tmp_path, arena())
    window.targeting.show_pair(HERO, LURKER)
    assert window.ruling.show_ruling() is None
    assert window.ruling.layer.items == []
    assert "target is not on the players' window" in window.statusBar().currentMessage()


def test_a_line_along_a_known_cells_edge_is_known() -> None:
    known = frozenset({(0, 0), (1, 0)})
    assert line_over_known((0.0, 1.0), (2.0, 1.0), known)  # the cells' bottom edge
    assert line_over_known((0.0, 0.0), (2.0, 1.0), known)
    assert not line_over_known((0.0, 0.0), (2.0, 2.0), known)  # through (1, 1)
    assert line_over_known((5.0, 5.0), (9.0, 9.0), None)  # no fog: everything is known


def test_a_change_takes_the_ruling_down_at_once(qtbot: QtBot, tmp_path: Path) -> None:
    """The DM hides the orc while its ruling shows: its lines must not stay a moment more."""
    window = shown(qtbot, tmp_path, arena())
    assert window.ruling.show_ruling() is not None and window.ruling.layer.items
    orc = window.document.encounter.creature(ORC)
    hidden = orc.model_copy(update={"hidden": True})
    push(window.undo_stack, window.document, UpdateCreature(orc, hidden))
    assert window.ruling.layer.ruling is None and window.ruling.layer.items == []


def test_a_moved_path_shows_only_the_part_the_players_see(qtbot: QtBot, tmp_path: Path) -> None:
    """Manual fog revealing columns 3 and beyond: the Fighter walks from (2, 2), unseen, to
    (5, 2); the players see the path from (3, 2) on, and the feet of that part only."""
    encounter = room()
    seen = frozenset((c, r) for c in range(3, 14) for r in range(10))
    encounter = encounter.model_copy(
        update={
            "combat": fighting(encounter),
            "fog": FogOfWar(mode=FogMode.MANUAL, revealed=seen),
        }
    )
    window = open_window(qtbot, tmp_path, encounter)
    frame_players(window, qtbot)
    press_at(window, (2.5, 2.5))
    move_through(window, [(2.5, 2.5), (5.5, 2.5)])
    release_at(window, (5.5, 2.5))
    assert window.document.encounter.creature(EntityId("c-fighter")).x == 5
    ruling = window.ruling.show_ruling()
    assert ruling is not None
    assert ruling.path == ((3.5, 2.5), (4.5, 2.5), (5.5, 2.5))
    assert [text for text, _ in ruling.caption] == ["Fighter moved 10 ft", "(the part you saw)"]
