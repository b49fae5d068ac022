"""During a zoom gesture the view shows its last sharp frame scaled, and paints sharply
again once the steps stop (issue 17: a zoom step's frame stays inside its budget)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QImage
from pytestqt.qtbot import QtBot

from battlemap.model import Creature, Encounter, EntityId, Grid, Side
from battlemap.ui import zoom_preview
from battlemap.ui.map_view import ZOOM_STEP, MapView
from battlemap.ui.style import cell_to_scene
from battlemap.ui.token_item import TokenItem
from tests.ui.test_token_frame_cache import shown_view, viewport_frame

GOBLIN = EntityId("g")


@pytest.fixture
def view(qtbot: QtBot) -> MapView:
    creatures = (
        Creature(id=GOBLIN, name="Goblin", x=4, y=3, side=Side.HOSTILE, colour="#ff0000"),
        Creature(id="e", name="Elowen", x=6, y=3, side=Side.PARTY, colour="#0000ff"),
    )
    encounter = Encounter(grid=Grid(width=10, height=8), creatures=creatures)
    return shown_view(qtbot, encounter, (640, 480))[1]


_frame = viewport_frame


def _colour_at(view: MapView, image: QImage, creature: EntityId) -> QColor:
    token = view.scene().tokens[creature]  # type: ignore[attr-defined]
    side = cell_to_scene(1)
    point = view.mapFromScene(token.pos() + QPointF(side * 0.22, side * 0.5))
    return image.pixelColor(point.x(), point.y())


def _counting_paints(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    painted: list[object] = []
    original = TokenItem._paint

    def counting(self: TokenItem, *args: object) -> None:
        painted.append(self)
        original(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(TokenItem, "_paint", counting)
    return painted


def test_zoom_steps_show_the_held_frame_scaled_and_the_settled_view_is_sharp(
    view: MapView, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    painted = _counting_paints(monkeypatch)
    _frame(view)
    qtbot.wait(zoom_preview.IDLE_GRAB_MS + 50)  # the idle grab of the sharp frame
    painted.clear()
    for _ in range(3):
        view.zoom_by(ZOOM_STEP)
        stepped = _frame(view)
        assert view.zoom_preview.active
    assert painted == []  # no token painted during the gesture: its frame scaled
    # the tokens are where they are now, in their colours (scaled, not repainted)
    red, blue = _colour_at(view, stepped, GOBLIN), _colour_at(view, stepped, EntityId("e"))
    assert red.red() > 200 and red.blue() < 60
    assert blue.blue() > 200 and blue.red() < 60
    qtbot.waitUntil(lambda: not view.zoom_preview.active, timeout=5000)  # settled
    sharp = _frame(view)
    assert len(painted) == 2  # both tokens drawn anew at the new zoom
    assert _colour_at(view, sharp, GOBLIN) == red


def test_a_step_with_no_frame_held_grabs_one_and_a_press_ends_the_preview(
    view: MapView, qtbot: QtBot
) -> None:
    view.zoom_preview.sharp_frame_painted()  # whatever was held is out of date
    view.zoom_by(1 / ZOOM_STEP)  # zooming out: the uncovered edges get the scene's colour
    assert view.zoom_preview.active
    image = _frame(view)
    outside = view.scene().backgroundBrush().color()
    assert image.pixelColor(1, 1) == outside
    qtbot.mousePress(view.viewport(), Qt.MouseButton.RightButton, pos=view.rect().center())
    assert not view.zoom_preview.active


def test_fit_map_ends_the_preview(view: MapView) -> None:
    view.zoom_by(ZOOM_STEP)
    assert view.zoom_preview.active
    view.fit_map(QRectF(0, 0, cell_to_scene(10), cell_to_scene(8)))
    assert not view.zoom_preview.active


def _settle_after_prerender(view: MapView, qtbot: QtBot) -> None:
    """Let the idle pre-render run to its end while the scaled frame shows, then settle."""
    qtbot.waitUntil(lambda: not view.zoom_preview.prerender_pending(), timeout=5000)
    assert view.zoom_preview.active  # done before the steps settled
    view.zoom_preview.end()


def test_the_idle_pre_render_paints_the_tokens_before_the_zoom_settles(
    view: MapView, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    painted = _counting_paints(monkeypatch)
    _frame(view)
    qtbot.wait(zoom_preview.IDLE_GRAB_MS + 50)
    view.zoom_by(ZOOM_STEP)
    assert view.zoom_preview.prerender_pending()
    painted.clear()
    _settle_after_prerender(view, qtbot)
    assert sorted(token.creature_id for token in painted) == ["e", GOBLIN]  # type: ignore[attr-defined]
    painted.clear()
    sharp = _frame(view)
    assert painted == []  # the settled frame copies the pixmaps made in idle time
    red, blue = _colour_at(view, sharp, GOBLIN), _colour_at(view, sharp, EntityId("e"))
    assert red.red() > 200 and red.blue() < 60
    assert blue.blue() > 200 and blue.red() < 60


def test_a_token_changed_after_the_pre_render_shows_changed_on_the_next_frame(
    view: MapView, qtbot: QtBot
) -> None:
    from battlemap.model.document import UpdateCreature

    _frame(view)
    qtbot.wait(zoom_preview.IDLE_GRAB_MS + 50)
    view.zoom_by(ZOOM_STEP)
    _settle_after_prerender(view, qtbot)  # the goblin's red pixmap made at this zoom
    scene = view.scene()
    document = scene.document  # type: ignore[attr-defined]
    goblin = document.encounter.creature(GOBLIN)
    document.apply(UpdateCreature(goblin, goblin.model_copy(update={"colour": "#00ff00"})))
    green = _colour_at(view, _frame(view), GOBLIN)
    assert green.green() > 200 and green.red() < 60  # not the red pixmap of the pre-render


def test_a_token_state_changed_after_the_pre_render_shows_on_the_next_frame(
    view: MapView, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    from battlemap.ui.token_state import TokenState, Vital

    painted = _counting_paints(monkeypatch)
    _frame(view)
    qtbot.wait(zoom_preview.IDLE_GRAB_MS + 50)
    view.zoom_by(ZOOM_STEP)
    _settle_after_prerender(view, qtbot)
    before = _frame(view)
    token = view.scene().tokens[GOBLIN]  # type: ignore[attr-defined]
    box = view.mapFromScene(token.sceneBoundingRect()).boundingRect()
    painted.clear()
    token.show_state(TokenState(acting=True, vital=Vital.DEAD))  # as the combat feature does
    after = _frame(view)
    assert painted == [token]  # its pre-rendered pixmap is not the one drawn
    assert before.copy(box) != after.copy(box)  # the dead look and the turn ring show
