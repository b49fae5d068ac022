"""Tokens are drawn to the scale of their space and can be dragged onto grid cells."""

from __future__ import annotations

import pytest

from battlemap.model import Creature, Size
from battlemap.model.document import UpdateCreature
from battlemap.ui.main_window import MainWindow
from battlemap.ui.style import SCENE_UNITS_PER_CELL
from battlemap.ui.token_item import TokenItem
from tests.ui.helpers import cell_centre_in_view, drag


@pytest.mark.parametrize(
    ("creature_id", "size"),
    [
        ("c-tiny", Size.TINY),
        ("c-medium", Size.MEDIUM),
        ("c-large", Size.LARGE),
        ("c-huge", Size.HUGE),
        ("c-garg", Size.GARGANTUAN),
    ],
)
def test_each_size_renders_at_its_space(window: MainWindow, creature_id: str, size: Size) -> None:
    token = window.scene.tokens[creature_id]  # type: ignore[index]
    rect = token.sceneBoundingRect()
    expected_side = size.space_feet / 5 * SCENE_UNITS_PER_CELL
    assert rect.width() == pytest.approx(expected_side)
    assert rect.height() == pytest.approx(expected_side)
    creature = window.document.encounter.creature(token.creature_id)
    assert rect.left() == pytest.approx(creature.x * SCENE_UNITS_PER_CELL)


def test_drag_moves_and_snaps_the_model(window: MainWindow) -> None:
    view = window.view
    # grab the fighter at its centre (2.5, 2.5) and let go a little off (4.8, 6.3)
    drag(view, cell_centre_in_view(view, 2.5, 2.5), cell_centre_in_view(view, 4.8, 6.3))
    fighter = window.document.encounter.creature("c-medium")  # type: ignore[arg-type]
    # the top-left corner went from (2, 2) to (4.3, 5.8), which snaps to (4, 6)
    assert (fighter.x, fighter.y) == (4, 6)
    assert window.scene.tokens[fighter.id].pos().x() == 4 * SCENE_UNITS_PER_CELL
    assert window.undo_stack.count() == 1
    window.undo_stack.undo()
    fighter = window.document.encounter.creature(fighter.id)
    assert (fighter.x, fighter.y) == (2, 2)


def test_tiny_creatures_snap_to_half_cells(window: MainWindow) -> None:
    view = window.view
    drag(view, cell_centre_in_view(view, 0.75, 0.75), cell_centre_in_view(view, 2.05, 1.3))
    owl = window.document.encounter.creature("c-tiny")  # type: ignore[arg-type]
    assert (owl.x, owl.y) == (2.0, 1.0)


def test_drop_outside_the_map_is_refused(window: MainWindow) -> None:
    view = window.view
    messages: list[str] = []
    window.scene.message.connect(messages.append)
    drag(
        view, cell_centre_in_view(view, 6, 3), cell_centre_in_view(view, 11.5, 3)
    )  # Ogre, 2 cells wide
    ogre = window.document.encounter.creature("c-large")  # type: ignore[arg-type]
    assert (ogre.x, ogre.y) == (5, 2)
    assert window.scene.tokens[ogre.id].pos().x() == 5 * SCENE_UNITS_PER_CELL
    assert window.undo_stack.count() == 0
    assert messages == ["Ogre can't be placed off the map."]


def test_click_without_moving_records_nothing(window: MainWindow) -> None:
    view = window.view
    point = cell_centre_in_view(view, 2.5, 2.5)
    drag(view, point, point, steps=1)
    assert window.undo_stack.count() == 0


def test_modified_marker_follows_the_undo_stack(window: MainWindow) -> None:
    view = window.view
    assert not window.isWindowModified()
    drag(view, cell_centre_in_view(view, 2.5, 2.5), cell_centre_in_view(view, 3.5, 2.5))
    assert window.isWindowModified()
    window.undo_stack.undo()
    assert not window.isWindowModified()


def test_editing_one_creature_updates_only_its_token(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    updated: list[str] = []
    original = TokenItem.update_from

    def record(self: TokenItem, creature: Creature, cell_feet: float) -> None:
        updated.append(str(creature.id))
        original(self, creature, cell_feet)

    monkeypatch.setattr(TokenItem, "update_from", record)
    ogre = window.document.encounter.creature("c-large")  # type: ignore[arg-type]
    window.document.apply(UpdateCreature(ogre, ogre.model_copy(update={"hp": 1})))
    assert updated == ["c-large"]
    assert window.scene.tokens[ogre.id].creature.hp == 1


@pytest.mark.parametrize("creature_id", ["c-tiny", "c-medium", "c-garg"])
def test_name_plate_is_centred_under_its_token(window: MainWindow, creature_id: str) -> None:
    token = window.scene.tokens[creature_id]  # type: ignore[index]
    plate = token.plate.sceneBoundingRect()
    assert plate.center().x() == pytest.approx(token.sceneBoundingRect().center().x(), abs=0.5)
    assert plate.top() > token.sceneBoundingRect().center().y()
