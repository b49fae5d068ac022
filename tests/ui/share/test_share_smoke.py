"""``battlemap --smoke`` shares on 127.0.0.1 as one phone and stops (what the built bundle
is checked with, ``packaging/smoke-bundle.sh``); here outside the bundle."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from battlemap.io.encounter_file import save_battlemap
from battlemap.model import Creature, Document, Encounter, Grid, Side
from battlemap.model.encounter import Background
from battlemap.ui.main_window import MainWindow
from battlemap.ui.share.server import ShareServer
from battlemap.ui.share.smoke import ShareSmokeError, first_message, share_smoke
from tests.test_cli import run
from tests.ui.share.conftest import HOST, map_png, small_encounter, snapshot_of


def mapped_encounter(image_name: str) -> Encounter:
    return Encounter(
        name="Mapped",
        grid=Grid(width=12, height=8),
        background=Background(image=image_name, pixels_per_cell=40),
        creatures=(Creature(id="hero", name="Thorin", side=Side.PARTY, x=2, y=3),),
    )


def test_the_smoke_check_fetches_page_state_and_map_then_stops(
    qtbot: QtBot, settings: QSettings
) -> None:
    document = Document(Encounter())
    document.encounter = mapped_encounter(document.add_image(map_png(), ".png"))
    window = MainWindow(document, settings=settings)
    qtbot.addWidget(window)
    summary = share_smoke(window.share)
    assert summary.startswith(f"smoke: shared on {HOST}:")
    assert "state with 1 tokens" in summary
    assert ", map 480x320 (" in summary  # the 12 x 8 cell map at 40 px a cell
    port = int(summary.split(":")[2])
    assert window.share.server is None
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection((HOST, port), timeout=2).close()


def test_the_command_line_smoke_check_shares_a_files_map(tmp_path: Path) -> None:
    path = tmp_path / "mapped.battlemap"
    save_battlemap(path, mapped_encounter("map.png"), {"map.png": map_png()})
    result = run("--smoke", str(path))
    assert result.returncode == 0, result.stderr
    assert f"smoke: shared on {HOST}:" in result.stdout and ", map 480x320" in result.stdout


def test_a_refused_websocket_names_the_status(server: ShareServer) -> None:
    server.publish(snapshot_of(small_encounter()))
    assert first_message(server.port, f"/ws?k={server.join_code}")["type"] == "state"
    with pytest.raises(ShareSmokeError, match="the WebSocket answered 403"):
        first_message(server.port, "/ws?k=wrong")


def test_a_server_that_is_gone_is_a_smoke_error() -> None:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port = probe.getsockname()[1]  # nothing listens there once closed
    with pytest.raises(ShareSmokeError, match="the WebSocket:"):
        first_message(port, "/ws?k=x")
