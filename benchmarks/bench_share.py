"""Sharing with phones (issue 19) on the ui bench map (100 x 100 cells, 2,000 walls, 100
creatures, under fog: 10,000 fog cells in each state).

16 simulated phones, one of which never reads, run in another process (phones are other
devices; the server thread is in this one, as in the app). The first drag case is what a
drag costs while phones are connected; in the second each move also publishes a new
projection, as if every move changed what the players see (the app publishes on a drop:
this is the worst case). Goals: the drag move within its frame (16 ms, as ``bench_ui``), a
change reaching a reading phone within 100 ms.
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Callable
from functools import cache
from typing import Any

from benchmarks import wall_clock

Case = tuple[str, Callable[[], Callable[[], object] | None]]
PHONES = 16
GOALS_MS = {
    "share: drag mouse move, 16 phones connected (one never reading), bench map": 16.0,
    "share: drag mouse move + publish, 16 phones (one never reading), bench map": 16.0,
    "share: publish on the UI thread (snapshot + hand-over), bench map": 1.0,
    "share: DM change to a reading phone's receipt, 16 phones, bench map": 100.0,
}


def goals() -> dict[str, float]:
    return GOALS_MS


def _views() -> tuple[Any, Any]:
    """Two projections of the bench map under fog, the mover a cell apart."""
    from battlemap.model.fog import FogMode, FogOfWar, reveal
    from battlemap.ui.players.projection import project
    from benchmarks.bench_ui import _encounter

    encounter: Any = _encounter()
    half = frozenset((c, r) for c in range(50) for r in range(100))
    encounter = encounter.model_copy(update={"fog": reveal(FogOfWar(mode=FogMode.MANUAL), half)})
    first = encounter.creatures[0]
    moved = encounter.model_copy(
        update={
            "creatures": (first.model_copy(update={"x": first.x + 1}), *encounter.creatures[1:])
        }
    )
    return project(encounter, None), project(moved, None)


@cache
def _server() -> Any:
    """A share server on 127.0.0.1 with 16 phones connected (15 reading, 1 never reading)."""
    from battlemap.ui.share.images import prepare_map_image
    from battlemap.ui.share.page import page_bytes, players_palette
    from battlemap.ui.share.server import ShareServer
    from benchmarks.bench_ui import _app

    _app()
    server = ShareServer("127.0.0.1", 0, page_bytes(), players_palette(), prepare_map_image)
    server.start()
    phones = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "benchmarks.share_phones",
            str(server.port),
            server.join_code,
            str(PHONES - 2),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert phones.stdout is not None and phones.stdout.readline().strip() == "ready"
    server._bench_phones = phones  # stopped with the benchmark process (stdin closes)
    return server


@cache
def _watcher(server: Any) -> tuple[Any, threading.Event, list[float]]:
    """The 16th phone, in this process: notes when each state arrives."""
    from websockets.sync.client import connect

    arrived = threading.Event()
    times: list[float] = []
    phone = connect(f"ws://127.0.0.1:{server.port}/ws?k={server.join_code}", max_size=None)

    def read() -> None:
        try:
            for message in phone:
                if '"type":"state"' in str(message)[:20]:
                    times.append(time.perf_counter())
                    arrived.set()
        except Exception:  # closed at exit
            return

    threading.Thread(target=read, daemon=True).start()
    deadline = time.monotonic() + 10
    while server.client_count < PHONES and time.monotonic() < deadline:
        time.sleep(0.01)
    return phone, arrived, times


def _snapshot(view: Any) -> Any:
    from battlemap.ui.share.payload import Camera
    from battlemap.ui.share.server import Snapshot

    return Snapshot(view, Camera(0, 0, 100, 100), None)


def _drag(publish_each_move: bool) -> Callable[[], object]:
    """A drag mouse move with the 16 phones connected; with ``publish_each_move`` a new
    projection is published first (the app publishes on a drop; this is the worst case)."""
    from benchmarks.bench_ui import _drag_move

    server = _server()
    _watcher(server)
    views = _views()
    move = _drag_move()
    turn = iter(range(10**9))

    def run() -> object:
        if publish_each_move:
            server.publish(_snapshot(views[next(turn) % 2]))
        return move()

    return run


def _publish_only() -> Callable[[], object]:
    server = _server()
    views = _views()
    turn = iter(range(10**9))
    return lambda: server.publish(_snapshot(views[next(turn) % 2]))


def _change_to_phone() -> Callable[[], object]:
    server = _server()
    _, arrived, _times = _watcher(server)
    views = _views()
    turn = iter(range(10**9))

    def run() -> object:
        arrived.clear()
        server.publish(_snapshot(views[next(turn) % 2]))
        if not arrived.wait(5):
            raise RuntimeError("the phone got no state within 5 s")
        return arrived

    return wall_clock(run)  # a latency across threads: this thread mostly waits


def _state_json(features_kept: bool) -> Callable[[], object]:
    from battlemap.ui.share.page import players_palette
    from battlemap.ui.share.payload import OpaqueKeys, StateEncoder

    views = _views()
    encoder = StateEncoder(OpaqueKeys(b"k" * 16), players_palette())
    turn = iter(range(10**9))

    def run() -> object:
        if not features_kept:
            encoder._features = None
        return encoder.encode(views[next(turn) % 2], None)

    return run


def cases() -> list[Case]:
    return [
        (
            "share: drag mouse move, 16 phones connected (one never reading), bench map",
            lambda: _drag(False),
        ),
        (
            "share: drag mouse move + publish, 16 phones (one never reading), bench map",
            lambda: _drag(True),
        ),
        ("share: publish on the UI thread (snapshot + hand-over), bench map", _publish_only),
        ("share: DM change to a reading phone's receipt, 16 phones, bench map", _change_to_phone),
        ("share: state JSON after a move (server thread), bench map", lambda: _state_json(True)),
        (
            "share: state JSON after a map edit (server thread), bench map",
            lambda: _state_json(False),
        ),
    ]
