"""Show the ruling (R, issue 20): the DM's cover lines, reach ring or moved path drawn on the
players' window for a few seconds, then gone (pixel probes on the players' own view).

The room (tests/rules/move_builders.py) has a wall from (6, 0) to (6, 5); with the Goblin
at (9, 6) the Fighter at (2, 2) gets two clear and two blocked corner lines (half cover).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPointF
from PySide6.QtGui import QColor, QImage
from pytestqt.qtbot import QtBot

from battlemap.model.features import CoverDegree
from battlemap.ui.main_window import MainWindow
from battlemap.ui.players.ruling import RulingKind
from battlemap.ui.style import cell_to_scene
from battlemap.ui.targeting.overlay import SHOW_RULING_SHORTCUT
from tests.rules.move_builders import fighting, room
from tests.ui.drag_helpers import move_through, open_window, press_at, release_at
from tests.ui.players_helpers import frame_players
from tests.ui.test_targeting import FIGHTER, GOBLIN, placed


def players_image(window: MainWindow) -> QImage:
    return window.players.window.view.grab().toImage()


def players_pixel(window: MainWindow, image: QImage, cell: tuple[float, float]) -> QColor:
    view = window.players.window.view
    point = view.mapFromScene(QPointF(cell_to_scene(cell[0]), cell_to_scene(cell[1])))
    return image.pixelColor(point.x(), point.y())


def reddish(colour: QColor) -> bool:
    return colour.red() > 150 and colour.green() < 90 and colour.blue() < 90


def greenish(colour: QColor) -> bool:
    return colour.green() > 150 and colour.red() < 90


@pytest.fixture
def targeting(qtbot: QtBot, tmp_path: Path) -> MainWindow:
    window = open_window(qtbot, tmp_path, placed(room(), goblin=(9, 6)))
    frame_players(window, qtbot)
    window.scene.tokens[FIGHTER].setSelected(True)
    window.targeting.show_pair(FIGHTER, GOBLIN)
    return window


def test_the_shortcut_is_listed_in_the_view_menu_and_free(targeting: MainWindow) -> None:
    action = targeting.ruling.action
    assert action.shortcut().toString() == SHOW_RULING_SHORTCUT
    assert action in targeting.view_menu.actions()
    assert "R" in action.toolTip()
    others = [
        a
        for a in targeting.findChildren(type(action))
        if a is not action and a.shortcut() == action.shortcut()
    ]
    assert others == []


def test_cover_lines_show_on_the_players_window_and_are_gone_after_their_time(
    targeting: MainWindow, qtbot: QtBot
) -> None:
    window = targeting
    facts = window.targeting.facts
    assert facts is not None and facts.cover.degree is CoverDegree.HALF
    probes = [
        (line.blocked, (line.start[0] + 0.6 * (line.end[0] - line.start[0]),
                        line.start[1] + 0.6 * (line.end[1] - line.start[1])))
        for line in facts.cover.lines
    ]  # fmt: skip
    before = players_image(window)
    assert not any(reddish(players_pixel(window, before, at)) for _, at in probes)
    layer = window.ruling.layer
    layer.shown_ms, layer.fade_ms = 700, 200
    ruling = window.ruling.show_ruling()
    assert ruling is not None and ruling.kind is RulingKind.COVER
    assert len(ruling.lines) == 4 and ruling.left_out == 0  # no fog: nothing is secret
    assert [text for text, _ in ruling.caption] == [
        "Fighter → Goblin · 45 ft",
        "half cover: +2 AC",
        "out of reach (5 ft)",
    ]
    shown = players_image(window)
    colours = [(blocked, players_pixel(window, shown, at)) for blocked, at in probes]
    seen = sorted((blocked, reddish(c), greenish(c)) for blocked, c in colours)
    assert seen == [(False, False, True)] * 2 + [(True, True, False)] * 2
    # the reach ring: the square right of the Fighter is tinted, the floor far off is not
    ring, floor = players_pixel(window, shown, (3.5, 2.2)), players_pixel(window, shown, (0.2, 9.8))
    assert ring != players_pixel(window, before, (3.5, 2.2))
    assert floor == players_pixel(window, before, (0.2, 9.8))
    qtbot.waitUntil(lambda: layer.ruling is None, timeout=6000)
    after = players_image(window)
    for _, at in probes:
        assert players_pixel(window, after, at) == players_pixel(window, before, at)
    assert layer.items == []


def test_the_ruling_fades_before_it_goes(targeting: MainWindow, qtbot: QtBot) -> None:
    layer = targeting.ruling.layer
    # A fade long enough that a loaded machine's stalls still leave ticks inside it; every
    # opacity set is kept, so a tick missed by the polling is still seen.
    layer.shown_ms, layer.fade_ms = 2400, 1800
    opacities: list[float] = []
    set_opacity = layer._set_opacity

    def recording_set_opacity(opacity: float) -> None:
        opacities.append(opacity)
        set_opacity(opacity)

    layer._set_opacity = recording_set_opacity  # type: ignore[method-assign]
    assert targeting.ruling.show_ruling() is not None
    assert layer.root.opacity() == 1.0
    qtbot.waitUntil(lambda: layer.ruling is None, timeout=8000)
    assert any(0.0 < o < 0.9 for o in opacities), opacities


def test_the_key_works_from_the_dms_window(targeting: MainWindow, qtbot: QtBot) -> None:
    targeting.activateWindow()
    targeting.ruling.action.trigger()
    assert targeting.ruling.layer.ruling is not None
    assert "Shown to the players" in targeting.statusBar().currentMessage()


def test_without_the_players_window_or_a_target_the_dm_is_told_why(
    targeting: MainWindow,
) -> None:
    window = targeting
    window.targeting.clear()
    assert window.ruling.show_ruling() is None
    assert "pick a target" in window.statusBar().currentMessage()
    window.players.toggle_action.setChecked(False)
    window.targeting.show_pair(FIGHTER, GOBLIN)
    assert window.ruling.show_ruling() is None
    assert "players' window is closed" in window.statusBar().currentMessage()


def test_the_moved_path_shows_with_its_cost(qtbot: QtBot, tmp_path: Path) -> None:
    encounter = room()
    window = open_window(
        qtbot, tmp_path, encounter.model_copy(update={"combat": fighting(encounter)})
    )
    frame_players(window, qtbot)
    # (2, 2) -> (3, 5): a diagonal (5 ft), a straight step (5), into the mud (5 + 5) = 20 ft
    press_at(window, (2.5, 2.5))
    move_through(window, [(2.5, 2.5), (3.5, 5.5)])
    release_at(window, (3.5, 5.5))
    before = players_image(window)
    ruling = window.ruling.show_ruling()
    assert ruling is not None and ruling.kind is RulingKind.PATH
    assert [text for text, _ in ruling.caption] == [
        "Fighter moved 20 ft",
        "+5 ft: difficult terrain",
    ]
    assert ruling.path[0] == (2.5, 2.5) and ruling.path[-1] == (3.5, 5.5)
    shown = players_image(window)
    middle = ruling.path[1]
    assert players_pixel(window, shown, middle) != players_pixel(window, before, middle)
    window.undo_stack.undo()  # the Fighter no longer stands where the move ended
    assert window.ruling.show_ruling() is None
