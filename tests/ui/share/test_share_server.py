"""The share server: the join code, its three routes, bounds on requests, slow phones."""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection

from battlemap.model import Creature, Encounter, Grid, Side
from battlemap.model.encounter import Background
from battlemap.model.fog import FogMode, FogOfWar, reveal
from battlemap.ui.share.server import (
    MAX_CLIENT_MESSAGE,
    MAX_CLIENTS,
    MapSource,
    ShareError,
    ShareServer,
    Snapshot,
)
from tests.ui.share.conftest import (
    HOST,
    TIMEOUT_S,
    get,
    join,
    make_server,
    raw_request,
    small_encounter,
    snapshot_of,
)


def receive_state(connection: ClientConnection) -> dict[str, Any]:
    """The next state message (camera messages are skipped)."""
    while True:
        message: dict[str, Any] = json.loads(connection.recv(timeout=TIMEOUT_S))
        if message["type"] == "state":
            return message


# --- the join code ---------------------------------------------------------------------


@pytest.mark.parametrize("route", ["/", "/map", "/ws", "/nothing-here"])
def test_without_the_join_code_every_route_answers_403_and_nothing_else(
    server: ShareServer, route: str
) -> None:
    assert get(server.port, route) == (403, b"Forbidden\n")
    assert get(server.port, f"{route}?k=") == (403, b"Forbidden\n")


def test_a_wrong_join_code_gets_403(server: ShareServer) -> None:
    wrong = server.join_code[:-1] + ("a" if server.join_code[-1] != "a" else "b")
    assert get(server.port, f"/?k={wrong}") == (403, b"Forbidden\n")
    assert get(server.port, f"/?k={server.join_code}&k={server.join_code}")[0] == 403
    with pytest.raises(InvalidStatus) as refused:
        join(server, wrong)
    assert refused.value.response.status_code == 403


def test_join_codes_are_random_with_at_least_64_bits() -> None:
    codes = {make_server().join_code for _ in range(200)}
    assert len(codes) == 200
    alphabet = set("abcdefghijklmnopqrstuvwxyz234567")
    assert all(len(code) * 5 >= 64 and set(code) <= alphabet for code in codes)


def test_with_the_code_the_page_is_served_with_its_script_inlined(server: ShareServer) -> None:
    answer = raw_request(
        server.port,
        f"GET /?k={server.join_code} HTTP/1.1\r\nHost: {HOST}:{server.port}\r\n\r\n".encode(),
    )
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200")
    assert b"Content-Security-Policy: default-src 'none'" in head
    assert b"battlemapProbe" in body and b"PAGE_JS" not in body and b"PAGE_CSS" not in body


# --- no file system, bounded requests -----------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        "/../../../../etc/passwd",
        "/%2e%2e/%2e%2e/etc/passwd",
        "/..%2f..%2fetc%2fpasswd",
        "//etc/passwd",
        "/share/page.js",
        "/assets/share/page.html",
        "/map/../../etc/passwd",
        "/C:/Windows/win.ini",
    ],
)
def test_a_path_traversal_request_gets_404(server: ShareServer, path: str) -> None:
    status, body = get(server.port, f"{path}?k={server.join_code}")
    assert (status, body) == (404, b"Not found\n")


def test_an_oversized_request_line_is_refused_with_414(server: ShareServer) -> None:
    status, _ = get(server.port, f"/?k={server.join_code}&pad={'x' * 9000}")
    assert status == 414


def test_oversized_or_too_many_headers_are_refused_with_431(server: ShareServer) -> None:
    big = f"GET /?k={server.join_code} HTTP/1.1\r\nHost: h\r\nX-Big: {'y' * 9000}\r\n\r\n"
    assert raw_request(server.port, big.encode()).startswith(b"HTTP/1.1 431")
    many = "".join(f"X-{i}: 1\r\n" for i in range(200))
    flood = f"GET /?k={server.join_code} HTTP/1.1\r\nHost: h\r\n{many}\r\n"
    assert raw_request(server.port, flood.encode()).startswith(b"HTTP/1.1 431")


def test_a_request_with_a_body_is_dropped_unanswered(server: ShareServer) -> None:
    host = f"{HOST}:{server.port}"
    post = f"POST /?k={server.join_code} HTTP/1.1\r\nHost: {host}\r\nContent-Length: 5\r\n\r\nhello"
    assert raw_request(server.port, post.encode()) == b""


def test_a_phone_message_over_the_limit_closes_its_connection(server: ShareServer) -> None:
    server.publish(snapshot_of(small_encounter()))
    with join(server) as phone:
        receive_state(phone)
        phone.send("x" * 100)  # small messages are read and ignored
        phone.send("x" * (MAX_CLIENT_MESSAGE + 1))
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                phone.recv(timeout=TIMEOUT_S)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009


def test_the_seventeenth_phone_is_turned_away(server: ShareServer) -> None:
    with contextlib.ExitStack() as phones:
        for _ in range(MAX_CLIENTS):
            phones.enter_context(join(server))
        deadline = time.monotonic() + TIMEOUT_S
        while server.client_count < MAX_CLIENTS and time.monotonic() < deadline:
            time.sleep(0.01)
        assert server.client_count == MAX_CLIENTS
        with pytest.raises(InvalidStatus) as refused:
            join(server)
        assert refused.value.response.status_code == 503


def test_starting_on_a_port_in_use_says_which_address() -> None:
    with socket.socket() as taken:
        taken.bind((HOST, 0))
        taken.listen()
        port = taken.getsockname()[1]
        blocked = ShareServer(HOST, port, b"", make_server().palette, make_server().prepare_image)
        with pytest.raises(ShareError, match=f"{HOST}:{port}"):
            blocked.start()


# --- states: the newest one, to everyone, again after a reconnect --------------------------


def test_a_phone_gets_the_whole_state_on_connecting_and_again_after_reconnecting(
    server: ShareServer,
) -> None:
    encounter = small_encounter()
    server.publish(snapshot_of(encounter))
    with join(server) as phone:
        first = receive_state(phone)
        assert [t["label"] for t in first["tokens"]] == ["Thorin"]
    moved = encounter.model_copy(
        update={"creatures": (encounter.creatures[0].model_copy(update={"x": 7.0}),)}
    )
    server.publish(snapshot_of(moved))  # while the phone slept
    with join(server) as phone:
        again = receive_state(phone)
    assert again["tokens"][0]["x"] == 7.0


def test_revoking_disconnects_everyone_and_the_old_code_stops_working(
    server: ShareServer,
) -> None:
    server.publish(snapshot_of(small_encounter()))
    old = server.join_code
    with join(server) as phone:
        receive_state(phone)
        new = server.revoke()
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                phone.recv(timeout=TIMEOUT_S)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4001
    assert new != old
    assert get(server.port, f"/?k={old}")[0] == 403
    assert get(server.port, f"/?k={new}")[0] == 200


def fogged_encounter(x: float) -> Encounter:
    """A 300 x 300 map under fog: about 90 KB of state per message."""
    return Encounter(
        grid=Grid(width=300, height=300),
        creatures=(Creature(id="hero", name="Thorin", side=Side.PARTY, x=x, y=1),),
        fog=reveal(FogOfWar(mode=FogMode.MANUAL), frozenset((c, 1) for c in range(300))),
    )


def test_a_phone_that_never_reads_is_dropped_and_the_others_keep_up() -> None:
    server = make_server(send_timeout=0.5)
    server.start()
    try:
        server.publish(snapshot_of(fogged_encounter(1)))
        stuck = socket.create_connection((HOST, server.port), timeout=TIMEOUT_S)
        stuck.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        stuck.sendall(
            f"GET /ws?k={server.join_code} HTTP/1.1\r\nHost: {HOST}:{server.port}\r\n"
            "Upgrade: websocket\r\n"
            "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode()
        )  # and never reads a byte
        with join(server) as phone:
            published = 0
            deadline = time.monotonic() + 30
            while server.dropped_slow_clients == 0 and time.monotonic() < deadline:
                published += 1
                server.publish(snapshot_of(fogged_encounter(1 + published % 200)))
                receive_state(phone)  # the reading phone is never held up
            assert server.dropped_slow_clients == 1, f"not dropped after {published} states"
            server.publish(snapshot_of(fogged_encounter(250)))
            assert receive_state(phone)["tokens"][0]["x"] == 250
        stuck.close()
    finally:
        server.stop()


def test_states_published_faster_than_sent_are_skipped_to_the_newest(
    server: ShareServer,
) -> None:
    with join(server) as phone:
        for x in range(1, 9):
            server.publish(snapshot_of(fogged_encounter(x)))
        seen: list[int] = []
        while not seen or seen[-1] != 8:
            seen.append(receive_state(phone)["tokens"][0]["x"])
    assert seen == sorted(seen) and seen[-1] == 8


def map_snapshot(encounter: Encounter) -> Snapshot:
    plain = snapshot_of(encounter)
    background = Background(image="map.png", pixels_per_cell=10)
    return Snapshot(plain.view, plain.camera, MapSource(b"image bytes", background, None))


def test_publishing_never_waits_for_the_server_thread() -> None:
    entered, release = threading.Event(), threading.Event()

    def slow_preparer(source: MapSource) -> None:
        entered.set()
        release.wait(TIMEOUT_S)  # the server's worker is stuck on a huge image

    server = make_server(prepare_image=slow_preparer)
    server.start()
    try:
        server.publish(map_snapshot(small_encounter()))
        assert entered.wait(TIMEOUT_S)

        def publish_many() -> None:
            for _ in range(50):
                server.publish(snapshot_of(small_encounter()))

        publisher = threading.Thread(target=publish_many)
        publisher.start()
        publisher.join(TIMEOUT_S)
        assert not publisher.is_alive(), "publish waited for the busy server"
        release.set()
        with join(server) as phone:
            assert receive_state(phone)["map"] is None  # the newest snapshot won
    finally:
        release.set()
        server.stop()


def test_a_snapshot_that_fails_to_build_leaves_the_server_serving(
    caplog: pytest.LogCaptureFixture,
) -> None:
    tried, go_on = threading.Event(), threading.Event()

    def broken(source: MapSource) -> None:
        tried.set()
        go_on.wait(TIMEOUT_S)
        raise RuntimeError("decoder crashed")

    server = make_server(prepare_image=broken)
    server.start()
    try:
        server.publish(map_snapshot(small_encounter()))
        assert tried.wait(TIMEOUT_S)
        server.publish(snapshot_of(small_encounter()))  # waits while the first one fails
        go_on.set()
        with join(server) as phone:
            assert receive_state(phone)["tokens"][0]["label"] == "Thorin"
    finally:
        server.stop()
    assert "could not build the players' state" in caplog.text
