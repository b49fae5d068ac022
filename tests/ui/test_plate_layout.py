"""Issue 15 item 12: name plates of neighbouring tokens never overlap ("Goblin Goblin 3"): a
crowded plate steps down a line, or is hidden and shown while the pointer is over its token."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QRectF, QSettings
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QGraphicsSceneHoverEvent
from pytestqt.qtbot import QtBot

from battlemap.model import Creature, Document, Encounter, Grid, MoveCreature
from battlemap.model.ids import EntityId
from battlemap.ui.map_scene import MapScene
from battlemap.ui.token_look import NamePlate
from battlemap.ui.undo import push
from tests.ui.players_helpers import open_players


def goblins(cells: list[tuple[int, int]], name: str = "Goblin") -> Encounter:
    creatures = tuple(
        Creature(id=EntityId(f"g{i}"), name=f"{name} {i + 1}", x=x, y=y)
        for i, (x, y) in enumerate(cells)
    )
    return Encounter(grid=Grid(width=20, height=20), creatures=creatures)


def scene_of(encounter: Encounter) -> MapScene:
    stack = QUndoStack()
    scene = MapScene(Document(encounter), stack)
    scene.setParent(stack)
    scene._test_stack = stack  # type: ignore[attr-defined]
    return scene


def shown_rects(plates: list[NamePlate]) -> list[QRectF]:
    return [p.sceneBoundingRect() for p in plates if p.isVisible()]


def overlaps(rects: list[QRectF]) -> list[tuple[QRectF, QRectF]]:
    return [(a, b) for a, b in itertools.combinations(rects, 2) if a.intersects(b)]


def dm_plates(scene: MapScene) -> list[NamePlate]:
    return [token.plate for token in scene.tokens.values()]


def test_three_goblins_in_a_row_keep_every_name_readable(qtbot: QtBot) -> None:
    scene = scene_of(goblins([(1, 1), (2, 1), (3, 1)]))
    plates = dm_plates(scene)
    # at home the plates would overlap (each wider than a cell)
    at_home = []
    for plate in plates:
        token = plate.parentItem()
        assert token is not None
        at_home.append(plate.boundingRect().translated(token.mapToScene(plate.home)))
    assert overlaps(at_home)
    assert overlaps(shown_rects(plates)) == []
    assert all(p.isVisible() for p in plates)  # staggered, none hidden
    assert plates[0].pos() == plates[0].home and plates[2].pos() == plates[2].home
    assert plates[1].pos().y() > plates[1].home.y()


def test_a_crowded_plate_hides_and_shows_while_hovered(qtbot: QtBot) -> None:
    block = [(x, y) for x in range(2, 6) for y in range(2, 6)]
    scene = scene_of(goblins(block, "Hobgoblin captain"))
    plates = dm_plates(scene)
    assert overlaps(shown_rects(plates)) == []
    crowded = [cid for cid, token in scene.tokens.items() if token.plate.crowded]
    assert crowded  # sixteen long names can't all fit in a 4 x 4 block
    token = scene.tokens[crowded[0]]
    assert not token.plate.isVisible()
    token.hoverEnterEvent(QGraphicsSceneHoverEvent())
    assert token.plate.isVisible()
    token.hoverLeaveEvent(QGraphicsSceneHoverEvent())
    assert not token.plate.isVisible()


def test_plates_go_home_when_the_crowd_leaves(qtbot: QtBot) -> None:
    scene = scene_of(goblins([(1, 1), (2, 1)]))
    second = scene.tokens[EntityId("g1")].plate
    assert second.pos() != second.home
    push(scene.undo_stack, scene.document, MoveCreature(EntityId("g0"), (1, 1), (10, 10)))
    assert second.pos() == second.home and second.isVisible()


def test_the_players_plates_never_overlap(qtbot: QtBot, settings: QSettings) -> None:
    from battlemap.ui.main_window import MainWindow

    window = MainWindow(
        Document(goblins([(1, 1), (2, 1), (3, 1), (1, 2), (2, 2)])), settings=settings
    )
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    open_players(window, qtbot)
    plates = [item.plate for item in window.players.window.scene.tokens.values()]
    assert len(plates) == 5
    assert overlaps(shown_rects(plates)) == []


def test_no_two_shown_plates_overlap_anywhere(qtbot: QtBot) -> None:
    checked: list[int] = []

    @settings(max_examples=40, deadline=None, database=None)
    @given(
        cells=st.lists(
            st.tuples(st.integers(0, 7), st.integers(0, 7)), min_size=2, max_size=25, unique=True
        ),
        long_names=st.booleans(),
    )
    def check(cells: list[tuple[int, int]], long_names: bool) -> None:
        scene = scene_of(goblins(cells, "Goblin boss of the hill" if long_names else "Orc"))
        assert overlaps(shown_rects(dm_plates(scene))) == []
        checked.append(len(cells))

    check()
    assert len(checked) >= 30
    assert sum(1 for n in checked if n >= 5) >= 10  # crowds, not pairs only
