"""Issue 15: the cards on the map (the decision card, the opportunity-attack card) stack
without overlapping and keep clear of the creatures they are about: the placing rule
(``place_cards``) as a property, and both cards at once in the real window (srd-5e)."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QRect, QRectF, QSize
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from battlemap.model import Creature, Side
from battlemap.model.document import AddCreature
from battlemap.model.ids import EntityId
from battlemap.ui.card_stack import MARGIN_PX, CardWish, place_cards
from battlemap.ui.main_window import MainWindow
from battlemap.ui.style import cell_to_scene
from battlemap.ui.undo import push
from tests.rules.move_builders import fighting, room
from tests.ui.drag_helpers import move_through, open_window, press_at, release_at
from tests.ui.test_turn_controls_fold import SCREENS, dying_cleric

LAPTOP = SCREENS["laptop"]

CHECKED = {"stacked": 0, "kept clear": 0}
areas = st.builds(QRect, st.just(0), st.just(0), st.integers(300, 1600), st.integers(300, 1000))


@settings(max_examples=300, deadline=None)
@given(area=areas, data=st.data())
def test_cards_that_fit_never_overlap_and_a_lone_card_keeps_clear(
    area: QRect, data: st.DataObject
) -> None:
    heights = data.draw(st.lists(st.integers(60, 400), min_size=1, max_size=3))
    width = data.draw(st.integers(200, 700))
    token = data.draw(
        st.builds(
            QRect,
            st.integers(0, area.width() - 40),
            st.integers(0, area.height() - 40),
            st.integers(20, 40),
            st.integers(20, 40),
        )
    )
    beside = data.draw(st.booleans())  # the decision card's wish, or the edges' only
    wishes = [CardWish(QSize(width, h), keep_clear=(token,), beside=beside) for h in heights]
    rects = place_cards(area, wishes)
    assert all(area.contains(r) or r.height() > area.height() for r in rects)
    if sum(heights) + (len(heights) + 1) * MARGIN_PX <= area.height():
        CHECKED["stacked"] += 1
        assert not any(a.intersects(b) for i, a in enumerate(rects) for b in rects[i + 1 :])
    lone = place_cards(area, wishes[:1])[0]
    if token.height() <= area.height() - 2 * heights[0] - 2 * MARGIN_PX - 2:
        CHECKED["kept clear"] += 1  # the top band or the foot band misses the token
        assert not lone.intersects(token)


def test_the_property_checked_enough_cases() -> None:
    test_cards_that_fit_never_overlap_and_a_lone_card_keeps_clear()
    assert CHECKED["stacked"] >= 100 and CHECKED["kept clear"] >= 100, CHECKED


def test_the_decision_card_and_the_opportunity_card_share_the_map(
    qtbot: QtBot, tmp_path: Path
) -> None:
    """The Cleric is dying and acts next (the decision card shows its death save) while the
    Fighter is dragged past the Goblin (the opportunity-attack card): both show, apart, and
    neither covers the Fighter, the Goblin or the Cleric."""
    encounter = room()
    goblin = encounter.creature(EntityId("c-goblin")).model_copy(update={"x": 3, "y": 3})
    cleric = encounter.creature(EntityId("c-cleric")).model_copy(update={"hp": 0})
    encounter = encounter.replace_creature(goblin).replace_creature(cleric)
    encounter = encounter.model_copy(update={"combat": fighting(encounter)})
    window = open_window(qtbot, tmp_path, encounter)
    card, prompt, view = window.combat.card, window.drag_feedback.prompt, window.view
    window.combat.session.changed.emit()
    assert card.isVisible() and "Cleric is dying" in card.death_label.text()
    press_at(window, (2.5, 2.5))
    move_through(window, [(2.5, 2.5), (5.5, 2.5)])
    release_at(window, (5.5, 2.5))
    qtbot.waitUntil(prompt.isVisible)
    area = view.viewport().geometry()

    def token(x: float, y: float) -> QRect:
        rect = QRectF(cell_to_scene(x), cell_to_scene(y), cell_to_scene(1), cell_to_scene(1))
        return view.mapFromScene(rect).boundingRect().translated(area.topLeft())

    fighter_at, goblin_at, cleric_at = token(4, 2), token(3, 3), token(12, 8)
    assert card.isVisible() and prompt.isVisible()
    assert not card.geometry().intersects(prompt.geometry())
    for rect in (fighter_at, goblin_at):
        assert not prompt.geometry().intersects(rect)
    for rect in (cleric_at, token(2, 2)):  # the dying Cleric; the Fighter, whose turn it is
        assert not card.geometry().intersects(rect)
    assert area.contains(card.geometry()) and area.contains(prompt.geometry())


def drawn_in_view(window: MainWindow, creature_id: str) -> QRect:
    """A token with its name plate and badges, in the view's coordinates (the card's)."""
    view = window.view
    token = window.scene.tokens[EntityId(creature_id)]
    rect = token.sceneBoundingRect() | token.mapToScene(token.childrenBoundingRect()).boundingRect()
    return view.mapFromScene(rect).boundingRect().translated(view.viewport().geometry().topLeft())


def test_at_1366_by_768_the_decision_card_sits_beside_its_tokens_covering_none(
    qtbot: QtBot, tmp_path: Path
) -> None:
    """bloodied-brink, the Cleric dying and its death save due: the card covers no token (nor
    its name plate and badges), least of all the Cleric's or the current creature's, and sits
    beside them rather than in a fixed band over the map's top rows."""
    window = dying_cleric(qtbot, tmp_path, LAPTOP)
    card, view = window.combat.card, window.view
    assert card.isVisible() and "Cleric is dying" in card.death_label.text()
    area = view.viewport().geometry()

    tokens = {c: drawn_in_view(window, c) for c in ("c-cleric", "c-sal", "c-rat")}
    assert area.contains(card.geometry())
    assert not [c for c, rect in tokens.items() if card.geometry().intersects(rect)]
    cell = view.mapFromScene(QRectF(0, 0, cell_to_scene(1), cell_to_scene(1))).boundingRect()
    near = tokens["c-cleric"].united(tokens["c-rat"])  # the dying and the current creature
    gap = max(near.top() - card.geometry().bottom(), card.geometry().top() - near.bottom(), 0)
    assert gap <= cell.height(), (card.geometry(), near)


def test_a_selected_creature_is_kept_clear_of_the_decision_card_in_a_crowd(
    qtbot: QtBot, tmp_path: Path
) -> None:
    """bloodied-brink, the Cleric's death save due on a map crowded with crates (one in every
    free cell of the view): the card must cover some token; the DM selects one it covers (the
    target being worked on) and the card moves off it, still covering neither the Cleric nor
    the current creature."""
    window = dying_cleric(qtbot, tmp_path, LAPTOP)
    card, view, scene = window.combat.card, window.view, window.scene
    taken = {(int(c.x), int(c.y)) for c in window.document.encounter.creatures}
    crates = [
        Creature(id=f"c-crate-{x}-{y}", name="Crate", side=Side.NEUTRAL, x=x, y=y, hp=1, max_hp=1)
        for x in range(20)
        for y in range(14)
        if (x, y) not in taken
    ]
    for crate in crates:
        push(window.undo_stack, window.document, AddCreature(crate))
    QApplication.processEvents()
    card.place()
    assert card.isVisible() and "Cleric is dying" in card.death_label.text()
    area = view.viewport().geometry()

    under = [c.id for c in crates if card.geometry().intersects(drawn_in_view(window, c.id))]
    assert under, "the crowd leaves the card a free place: the test shows nothing"
    chosen = under[len(under) // 2]
    scene.clearSelection()
    scene.tokens[EntityId(chosen)].setSelected(True)  # the card re-places on the selection
    QApplication.processEvents()
    assert not card.geometry().intersects(drawn_in_view(window, chosen)), (
        card.geometry(),
        drawn_in_view(window, chosen),
    )
    for about in ("c-cleric", "c-rat"):  # the dying creature; the current creature
        assert not card.geometry().intersects(drawn_in_view(window, about))
    scene.clearSelection()  # no longer the DM's target: it may be covered again
    QApplication.processEvents()
    assert area.contains(card.geometry())
