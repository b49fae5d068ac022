"""Tokens and plates are copied from Qt's pixmap of them on every frame but a zoom step
(issue 17): any change of a token's look shows on the next frame all the same."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QColor, QImage, QUndoStack
from PySide6.QtWidgets import QGraphicsItem
from pytestqt.qtbot import QtBot

from battlemap.model import Creature, Document, Encounter, EntityId, Grid, Side
from battlemap.ui.map_scene import MapScene
from battlemap.ui.map_view import MapView
from battlemap.ui.style import cell_to_scene
from battlemap.ui.token_paint import TURN_RING
from battlemap.ui.token_state import TokenState

GOBLIN = EntityId("g")


def shown_view(
    qtbot: QtBot, encounter: Encounter, size: tuple[int, int] = (700, 500)
) -> tuple[MapScene, MapView]:
    """``encounter``'s DM scene in a shown view of ``size``, the map fitted."""
    stack = QUndoStack()
    scene = MapScene(Document(encounter), stack)
    scene._test_stack = stack  # type: ignore[attr-defined]  # alive as long as the scene
    view = MapView(scene)
    # The view does not own its scene: without this, a caller keeping only the view lets the
    # scene go with the garbage collector at any later moment, while the view may still paint.
    view._test_scene = scene  # type: ignore[attr-defined]
    qtbot.addWidget(view)
    view.resize(*size)
    view.show()
    qtbot.waitExposed(view)
    grid = encounter.grid
    view.fit_map(QRectF(0, 0, cell_to_scene(grid.width), cell_to_scene(grid.height)))
    return scene, view


def viewport_frame(view: MapView) -> QImage:
    return view.viewport().grab().toImage()  # the view's own paint: Qt's item caches apply


def _view(qtbot: QtBot) -> tuple[MapScene, MapView]:
    creatures = (
        Creature(id=GOBLIN, name="Goblin", x=2, y=2, side=Side.HOSTILE, colour="#ff0000"),
        Creature(id="o", name="Owl", x=5, y=2, side=Side.NEUTRAL, hidden=True),
    )
    return shown_view(qtbot, Encounter(grid=Grid(width=8, height=6), creatures=creatures))


_frame = viewport_frame


def _colour_at(view: MapView, image: QImage, scene_point: QPointF) -> QColor:
    point = view.mapFromScene(scene_point)
    return image.pixelColor(point.x(), point.y())


def _near(colour: QColor, expected: QColor) -> bool:
    pairs = (
        (colour.red(), expected.red()),
        (colour.green(), expected.green()),
        (colour.blue(), expected.blue()),
    )
    return all(abs(a - b) <= 24 for a, b in pairs)


def test_opaque_tokens_and_plates_use_qts_cache_and_see_through_ones_do_not(
    qtbot: QtBot,
) -> None:
    scene, _ = _view(qtbot)
    goblin, owl = scene.tokens[GOBLIN], scene.tokens[EntityId("o")]
    cached = QGraphicsItem.CacheMode.DeviceCoordinateCache
    assert goblin.cacheMode() == cached and goblin.plate.cacheMode() == cached
    assert owl.cacheMode() == QGraphicsItem.CacheMode.NoCache  # faded: painted directly


def test_a_new_colour_a_turn_ring_and_a_selection_show_on_the_next_frame(qtbot: QtBot) -> None:
    scene, view = _view(qtbot)
    goblin = scene.tokens[GOBLIN]
    side = cell_to_scene(1)
    fill_point = goblin.pos() + QPointF(side * 0.22, side * 0.5)  # the disc, not its letters
    ring_point = goblin.pos() + QPointF(side * 0.5, side * 0.025)  # the margin over the disc
    first = _frame(view)
    assert _near(_colour_at(view, first, fill_point), QColor("#ff0000"))
    assert not _near(_colour_at(view, first, ring_point), TURN_RING)

    creature = scene.document.encounter.creature(GOBLIN)
    goblin.update_from(creature.model_copy(update={"colour": "#0000ff"}), 5.0)
    assert _near(_colour_at(view, _frame(view), fill_point), QColor("#0000ff"))

    goblin.show_state(TokenState(acting=True))
    assert _near(_colour_at(view, _frame(view), ring_point), TURN_RING)

    before = _frame(view)
    goblin.setSelected(True)
    after = _frame(view)
    assert before != after  # the highlight ring
