"""Show the ruling (R) reaches the phones too (issue 20 follow-up): the players' window's
``ShownRuling``, sent as it is, and null once it is taken down, so a phone that comes back
shows no stale ruling. Binds to 127.0.0.1 only.

The room (tests/rules/move_builders.py) has a wall from (6, 0) to (6, 5); with the Goblin
at (9, 6) the Fighter at (2, 2) gets two clear and two blocked corner lines (half cover).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pytestqt.qtbot import QtBot
from websockets.sync.client import ClientConnection

from battlemap.model.document import MoveCreature
from battlemap.ui.main_window import MainWindow
from battlemap.ui.share.addresses import LOOPBACK, ShareAddress
from battlemap.ui.undo import push
from tests.rules.move_builders import room
from tests.ui.drag_helpers import open_window
from tests.ui.players_helpers import frame_players
from tests.ui.share.conftest import TIMEOUT_S, join
from tests.ui.test_targeting import FIGHTER, GOBLIN, placed


@pytest.fixture
def sharing(qtbot: QtBot, tmp_path: Path) -> Iterator[MainWindow]:
    """The Fighter picks the Goblin as its target; the DM shares on 127.0.0.1."""
    window = open_window(qtbot, tmp_path, placed(room(), goblin=(9, 6)))
    frame_players(window, qtbot)
    window.scene.tokens[FIGHTER].setSelected(True)
    window.targeting.show_pair(FIGHTER, GOBLIN)
    assert window.share.start(ShareAddress(LOOPBACK, "loopback"), 0) is None
    try:
        yield window
    finally:
        window.share.stop()


def next_ruling(phone: ClientConnection) -> dict[str, Any] | None:
    while True:
        message: dict[str, Any] = json.loads(phone.recv(timeout=TIMEOUT_S))
        if message["type"] == "ruling":
            ruling: dict[str, Any] | None = message["ruling"]
            return ruling


def test_the_shown_ruling_reaches_a_phone_as_the_players_window_shows_it(
    sharing: MainWindow,
) -> None:
    server = sharing.share.server
    assert server is not None
    with join(server) as phone:
        shown = sharing.ruling.show_ruling()
        assert shown is not None
        sent = next_ruling(phone)
    assert sent is not None
    assert sent["kind"] == "cover"
    assert [[line["a"], line["b"], line["blocked"]] for line in sent["lines"]] == [
        [list(line.start), list(line.end), line.blocked] for line in shown.lines
    ]
    assert sorted(line["blocked"] for line in sent["lines"]) == [False, False, True, True]
    assert sent["caption"] == [[text, tone.value] for text, tone in shown.caption]
    assert sent["caption"][1][0] == "half cover: +2 AC"
    assert sorted(map(tuple, sent["reach_cells"])) == sorted(shown.reach_cells)
    layer = sharing.ruling.layer
    assert (sent["shown_ms"], sent["fade_ms"]) == (layer.shown_ms, layer.fade_ms)


def test_a_taken_down_ruling_is_null_for_a_phone_that_comes_back(sharing: MainWindow) -> None:
    server = sharing.share.server
    assert server is not None
    with join(server) as phone:
        assert sharing.ruling.show_ruling() is not None
        assert next_ruling(phone) is not None
        moved = MoveCreature(GOBLIN, (9, 6), (9, 7))
        push(sharing.undo_stack, sharing.document, moved)  # any change takes it down
        assert sharing.ruling.layer.ruling is None
        assert next_ruling(phone) is None
    with join(server) as back:
        assert next_ruling(back) is None  # not the stale one


def test_a_phone_gets_nothing_while_no_ruling_was_shown(sharing: MainWindow) -> None:
    server = sharing.share.server
    assert server is not None
    with join(server) as phone:
        kinds = set()
        for _ in range(2):  # the state and the camera, both sent at once on joining
            kinds.add(json.loads(phone.recv(timeout=TIMEOUT_S))["type"])
        assert kinds == {"state", "camera"}
        sharing.ruling.layer.clear()  # nothing shown: nothing to take down, nothing sent
        with pytest.raises(TimeoutError):
            phone.recv(timeout=0.3)
