"""Issue 15 item 12: name plates of neighbouring tokens never overlap ("Goblin Goblin 3"): a
crowded plate steps down a line, or is hidden and shown while the pointer is over its token."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QEvent, QPoint, QRectF, QSettings, Qt
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QGraphicsSceneHoverEvent
from pytestqt.qtbot import QtBot

from battlemap.model import Creature, Document, Encounter, Grid, MoveCreature
from battlemap.model.combat import Combatant
from battlemap.model.ids import EntityId
from battlemap.ui.main_window import MainWindow
from battlemap.ui.map_scene import MapScene
from battlemap.ui.token_look import NamePlate
from battlemap.ui.undo import push
from tests.ui.helpers import _send as send
from tests.ui.players_helpers import open_players
from tests.ui.token_helpers import in_combat, render_cells


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
    at_home = [plate.boundingRect().translated(plate.home) for plate in plates]
    assert overlaps(at_home)
    assert overlaps(shown_rects(plates)) == []
    assert all(p.isVisible() for p in plates)  # moved aside or down, none hidden
    assert plates[0].pos() == plates[0].home
    assert [p.pos() != p.home for p in plates[1:]] != [False, False]
    # each still hangs under its own token: within a plate's width and two lines of home
    for plate in plates:
        moved = plate.pos() - plate.home
        assert abs(moved.x()) <= plate.boundingRect().width() / 3 + 0.01
        assert 0 <= moved.y() <= 2 * (plate.boundingRect().height() + 2) + 0.01


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


def test_the_acting_creatures_plate_is_never_hidden(qtbot: QtBot) -> None:
    block = [(x, y) for x in range(2, 6) for y in range(2, 6)]
    plain = goblins(block, "Hobgoblin captain")
    combatants = tuple(
        Combatant(creature_id=c.id, group=c.id, initiative=20 - i)
        for i, c in enumerate(plain.creatures)
    )
    for turn in range(len(block)):
        scene = scene_of(in_combat(plain.creatures, combatants, turn_index=turn))
        acting = scene.tokens[combatants[turn].creature_id]
        assert acting.state.acting and acting.plate.isVisible(), turn
        assert overlaps(shown_rects(dm_plates(scene))) == []


def test_a_long_name_draws_over_the_neighbouring_token(qtbot: QtBot) -> None:
    """Plates stack over every token: a token added after "Thorin Oakenshield" used to cover
    the end of his name."""
    encounter = Encounter(
        grid=Grid(width=8, height=4),
        creatures=(
            Creature(id=EntityId("t"), name="Thorin Oakenshield", x=2, y=1),
            Creature(id=EntityId("g"), name="G", x=3, y=2, colour="#00ff00"),
        ),
    )
    scene = scene_of(encounter)
    plate, neighbour = scene.tokens[EntityId("t")].plate, scene.tokens[EntityId("g")]
    assert plate.isVisible() and plate.zValue() > neighbour.zValue()
    overlap = plate.sceneBoundingRect().intersected(neighbour.sceneBoundingRect())
    assert not overlap.isEmpty()
    image = render_cells(scene, 8, 4)
    inner = overlap.adjusted(2, 2, -2, -2)  # off the plate's antialiased edge
    pixels = [
        image.pixelColor(x, y)
        for x in range(int(inner.left()), int(inner.right()))
        for y in range(int(inner.top()), int(inner.bottom()))
    ]
    disc = [c for c in pixels if c.green() > 200 and c.red() < 90 and c.blue() < 90]
    assert pixels and len(disc) == 0  # the plate's back and letters, not the green disc


def test_pointing_at_a_crowded_token_on_the_map_shows_its_name(
    qtbot: QtBot, settings: QSettings
) -> None:
    block = [(x, y) for x in range(2, 6) for y in range(2, 6)]
    window = MainWindow(Document(goblins(block, "Hobgoblin captain")), settings=settings)
    qtbot.addWidget(window)
    window.resize(1000, 800)
    window.show()
    qtbot.waitExposed(window)
    window.view.resetTransform()
    window.view.centerOn(window.scene.tokens[EntityId("g0")].sceneBoundingRect().center())
    crowded = [t for t in window.scene.tokens.values() if t.plate.crowded]
    assert crowded
    token = crowded[0]
    point = window.view.mapFromScene(token.sceneBoundingRect().center())
    none = Qt.MouseButton.NoButton
    send(window.view, QEvent.Type.MouseMove, point, none, none)
    assert token.plate.isVisible()
    send(window.view, QEvent.Type.MouseMove, point + QPoint(0, 400), none, none)
    assert not token.plate.isVisible()
