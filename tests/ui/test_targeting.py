"""The targeting overlay: select a creature, hover another (real mouse moves on the view).

The room (tests/ui/drag_helpers.py) has a wall from (6, 0) to (6, 5); with the Goblin at
(9, 6) the Fighter at (2, 2) gets the DMG corner lines from its corner (2, 3): two of the
four cross the wall, so the Goblin has half cover.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, Qt
from pytestqt.qtbot import QtBot

from battlemap.model import Encounter
from battlemap.model.document import MoveCreature
from battlemap.model.features import CoverDegree
from battlemap.model.ids import EntityId
from battlemap.rules.loader import load_registry
from battlemap.rules.schema import CoverRules
from battlemap.ui.drag.items import InfoCard
from battlemap.ui.main_window import MainWindow
from battlemap.ui.targeting.overlay import card_lines
from tests.rules.move_builders import room
from tests.ui.drag_helpers import grab_view, open_window, pixel_at, send
from tests.ui.helpers import cell_centre_in_view

FIGHTER, GOBLIN, CLERIC = EntityId("c-fighter"), EntityId("c-goblin"), EntityId("c-cleric")


def placed(encounter: Encounter, **where: tuple[int, int]) -> Encounter:
    ids = {"fighter": FIGHTER, "goblin": GOBLIN, "cleric": CLERIC}
    for name, (x, y) in where.items():
        creature = encounter.creature(ids[name]).model_copy(update={"x": x, "y": y})
        encounter = encounter.replace_creature(creature)
    return encounter


def hover(window: MainWindow, cell: tuple[float, float]) -> None:
    point = cell_centre_in_view(window.view, *cell)
    none = Qt.MouseButton.NoButton
    send(window.view, QEvent.Type.MouseMove, point, none, none)


def card(window: MainWindow) -> str:
    cards = [i for i in window.targeting.items if isinstance(i, InfoCard)]
    assert len(cards) == 1
    return cards[0].text()


@pytest.fixture
def behind_wall(qtbot: QtBot, tmp_path: Path) -> MainWindow:
    window = open_window(qtbot, tmp_path, placed(room(), goblin=(9, 6)))
    window.scene.tokens[FIGHTER].setSelected(True)
    return window


def test_hover_shows_distance_reach_cover_and_blockers(behind_wall: MainWindow) -> None:
    window = behind_wall
    hover(window, (9.5, 6.5))
    facts = window.targeting.facts
    assert facts is not None and facts.cover.degree is CoverDegree.HALF
    lines = card(window).splitlines()
    # 7 squares across, 4 down under 5-10-5: 4 diagonals (5 + 10 + 5 + 10) + 3 straight
    assert lines[0] == "Goblin · 45 ft"
    assert lines[1] == "out of reach (5 ft)"
    assert lines[2] == "half cover (+2 AC)"
    assert lines[3] == "2 of 4 lines blocked by wall"
    hover(window, (0.5, 9.5))  # off every token: the overlay goes
    assert window.targeting.items == [] and window.targeting.facts is None


def test_card_cover_bonus_is_the_rulesets(behind_wall: MainWindow) -> None:
    window = behind_wall
    hover(window, (9.5, 6.5))
    facts = window.targeting.facts
    assert facts is not None and facts.cover.degree is CoverDegree.HALF
    srd = load_registry().get(window.document.encounter.ruleset)
    house = srd.model_copy(
        update={"attacks": srd.attacks.model_copy(update={"cover": CoverRules(half_bonus=3)})}
    )
    assert card_lines(facts, house)[2][0] == "half cover (+3 AC)"
    assert card_lines(facts, None)[2][0] == "half cover (+2 AC)"  # SRD without a ruleset


def test_cover_lines_drawn_clear_and_blocked_in_their_colours(behind_wall: MainWindow) -> None:
    window = behind_wall
    hover(window, (9.5, 6.5))
    facts = window.targeting.facts
    assert facts is not None
    image = grab_view(window)
    seen = []
    for line in facts.cover.lines:
        (ax, ay), (bx, by) = line.start, line.end
        red, green, _ = pixel_at(window, image, (ax + 0.7 * (bx - ax), ay + 0.7 * (by - ay)))
        seen.append((line.blocked, red > 150 and green < 90, green > 150 and red < 90))
    assert sorted(seen) == [(False, False, True)] * 2 + [(True, True, False)] * 2


def test_no_overlay_without_a_single_selected_creature(behind_wall: MainWindow) -> None:
    window = behind_wall
    window.scene.clearSelection()
    hover(window, (9.5, 6.5))
    assert window.targeting.items == []


def test_keep_toggle_keeps_the_overlay_on(behind_wall: MainWindow) -> None:
    window = behind_wall
    keep = window.targeting.keep_action
    assert keep.shortcut().toString() == "K"
    keep.trigger()
    hover(window, (9.5, 6.5))
    hover(window, (0.5, 9.5))
    assert card(window).startswith("Goblin")
    keep.trigger()
    assert window.targeting.items == []


def test_flanking_partner_and_line_under_gms_den(qtbot: QtBot, tmp_path: Path) -> None:
    encounter = placed(room(), fighter=(4, 8), goblin=(5, 8), cleric=(6, 8))
    window = open_window(qtbot, tmp_path, encounter.model_copy(update={"ruleset": "gms-den"}))
    window.scene.tokens[FIGHTER].setSelected(True)
    hover(window, (5.5, 8.5))
    facts = window.targeting.facts
    assert facts is not None and facts.flank is not None and facts.flank.flanked
    assert facts.flank.line == ((4.5, 8.5), (6.5, 8.5))
    text = card(window)
    assert "within reach (5 ft)" in text and "flanked with Cleric" in text


def test_srd_has_no_flanking_and_the_overlay_follows_moves(behind_wall: MainWindow) -> None:
    window = behind_wall
    hover(window, (9.5, 6.5))
    assert "flank" not in card(window)
    goblin = window.document.encounter.creature(GOBLIN)
    window.document.apply(MoveCreature(GOBLIN, (goblin.x, goblin.y), (3, 2)))
    assert card(window).splitlines()[:2] == ["Goblin · 5 ft", "within reach (5 ft)"]
