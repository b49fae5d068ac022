"""A share server on 127.0.0.1 (never any other address), and plain HTTP / WebSocket clients."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest
from PySide6.QtCore import QBuffer, QIODevice
from PySide6.QtGui import QColor, QImage
from websockets.sync.client import ClientConnection, connect

from battlemap.model import Creature, Encounter, Grid, Side, Wall
from battlemap.ui.players.projection import project
from battlemap.ui.share.images import prepare_map_image
from battlemap.ui.share.page import page_bytes, players_palette
from battlemap.ui.share.payload import Camera
from battlemap.ui.share.server import ShareServer, Snapshot

HOST = "127.0.0.1"
TIMEOUT_S = 10.0
MAP_GREEN = QColor(40, 160, 60)


def map_png() -> bytes:
    """A plain green 12 x 8 cell map at 40 pixels a cell, as PNG bytes."""
    image = QImage(12 * 40, 8 * 40, QImage.Format.Format_RGB32)
    image.fill(MAP_GREEN)
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")  # type: ignore[call-overload]  # PySide6 takes str
    return bytes(buffer.data().data())


def small_encounter() -> Encounter:
    return Encounter(
        grid=Grid(width=10, height=6),
        creatures=(Creature(id="hero", name="Thorin", side=Side.PARTY, x=1, y=1),),
        walls=(Wall(a=(5, 0), b=(5, 6)),),
    )


def snapshot_of(encounter: Encounter) -> Snapshot:
    grid = encounter.grid
    return Snapshot(project(encounter, None), Camera(0, 0, grid.width, grid.height), None)


def make_server(**options: object) -> ShareServer:
    options.setdefault("prepare_image", prepare_map_image)
    return ShareServer(HOST, 0, page_bytes(), players_palette(), **options)  # type: ignore[arg-type]


@pytest.fixture
def server() -> Iterator[ShareServer]:
    running = make_server()
    running.start()
    try:
        yield running
    finally:
        running.stop()


def raw_request(port: int, data: bytes) -> bytes:
    """Send ``data`` as it is and read until the server closes (what an attacker sees)."""
    with socket.create_connection((HOST, port), timeout=TIMEOUT_S) as sock:
        sock.sendall(data)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


def get(port: int, target: str) -> tuple[int, bytes]:
    """A GET of ``target`` (sent verbatim, no normalising); the status and the body."""
    answer = raw_request(port, f"GET {target} HTTP/1.1\r\nHost: {HOST}:{port}\r\n\r\n".encode())
    head, _, body = answer.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), body


def join(server: ShareServer, code: str | None = None) -> ClientConnection:
    """A phone's WebSocket, with the server's join code unless told another."""
    key = server.join_code if code is None else code
    return connect(f"ws://{HOST}:{server.port}/ws?k={key}", open_timeout=TIMEOUT_S)
