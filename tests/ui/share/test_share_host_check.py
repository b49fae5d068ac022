"""The Host check against DNS rebinding, and the Origin check on the phones' WebSocket: a
request that names another server gets 421, a page from elsewhere gets 403."""

from __future__ import annotations

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect
from websockets.typing import Origin

from battlemap.ui.share.addresses import ALL_INTERFACES, LOOPBACK
from battlemap.ui.share.host_check import host_allowed, origin_allowed
from battlemap.ui.share.server import ShareServer
from tests.ui.share.conftest import HOST, TIMEOUT_S, raw_request

LAN = "192.168.1.20"


@pytest.mark.parametrize(
    ("header", "listening", "allowed"),
    [
        ("192.168.1.20:8765", LAN, True),
        ("192.168.1.20:8766", LAN, False),  # another port
        ("192.168.1.20", LAN, False),  # port 80 meant
        ("192.168.1.21:8765", LAN, False),
        ("evil.example:8765", LAN, False),  # a rebound name
        ("localhost:8765", LAN, False),  # the server is not on loopback
        ("127.0.0.1:8765", LAN, False),
        ("user@192.168.1.20:8765", LAN, False),
        ("192.168.1.20:8765/x", LAN, False),
        ("192.168.1.20:port", LAN, False),
        ("[::1]:8765", LAN, False),
        ("", LAN, False),
        ("127.0.0.1:8765", LOOPBACK, True),
        ("localhost:8765", LOOPBACK, True),
        ("LocalHost:8765", LOOPBACK, True),  # names are case-blind
        ("localhost.evil.example:8765", LOOPBACK, False),
        ("192.168.1.20:8765", ALL_INTERFACES, True),  # any address of this machine's
        ("10.0.0.7:8765", ALL_INTERFACES, True),
        ("10.0.0.7:9999", ALL_INTERFACES, False),
        ("evil.example:8765", ALL_INTERFACES, False),
        ("0177.0.0.1:8765", ALL_INTERFACES, False),  # octal spelling: not an address
    ],
)
def test_a_host_is_allowed_only_when_it_names_this_server(
    header: str, listening: str, allowed: bool
) -> None:
    assert host_allowed(header, listening, 8765) is allowed


def test_an_origin_must_be_the_page_itself() -> None:
    assert origin_allowed("http://192.168.1.20:8765", LAN, 8765)
    assert not origin_allowed("https://192.168.1.20:8765", LAN, 8765)
    assert not origin_allowed("http://evil.example:8765", LAN, 8765)
    assert not origin_allowed("null", LAN, 8765)  # a sandboxed frame, a file
    assert not origin_allowed("http://192.168.1.20:8765/page", LAN, 8765)


def status_for(server: ShareServer, headers: str) -> int:
    request = f"GET /?k={server.join_code} HTTP/1.1\r\n{headers}\r\n"
    head = raw_request(server.port, request.encode()).split(b"\r\n", 1)[0]
    return int(head.split(b" ", 2)[1])


def test_a_request_under_another_name_gets_421_even_with_the_code(server: ShareServer) -> None:
    port = server.port
    assert status_for(server, f"Host: {HOST}:{port}\r\n") == 200
    assert status_for(server, f"Host: localhost:{port}\r\n") == 200
    assert status_for(server, f"Host: rebound.example:{port}\r\n") == 421
    assert status_for(server, f"Host: {HOST}:{port + 1}\r\n") == 421
    assert status_for(server, "") == 421  # no Host at all
    assert status_for(server, f"Host: {HOST}:{port}\r\nHost: rebound.example\r\n") == 421


def test_a_websocket_opened_by_a_page_from_elsewhere_gets_403(server: ShareServer) -> None:
    url = f"ws://{HOST}:{server.port}/ws?k={server.join_code}"
    with connect(url, origin=Origin(f"http://{HOST}:{server.port}"), open_timeout=TIMEOUT_S):
        pass  # the page's own origin
    with pytest.raises(InvalidStatus) as refused:
        connect(url, origin=Origin("http://rebound.example"), open_timeout=TIMEOUT_S)
    assert refused.value.response.status_code == 403
