"""Share with players in the DM's window: the menu entry, the dialog, the status bar, and a
DM change reaching a phone. Binds to 127.0.0.1 only."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
import segno
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot
from websockets.sync.client import ClientConnection

from battlemap.model.document import MoveCreature
from battlemap.model.ids import EntityId
from battlemap.ui.main_window import MainWindow
from battlemap.ui.share.addresses import ALL_INTERFACES, LOOPBACK, ShareAddress, share_addresses
from battlemap.ui.share.dialog import ShareDialog
from battlemap.ui.share.qr import QUIET_ZONE, qr_image
from battlemap.ui.undo import push
from tests.ui.share.conftest import TIMEOUT_S, join

LOCAL = ShareAddress(LOOPBACK, "loopback")


@pytest.fixture
def sharing(window: MainWindow) -> Iterator[MainWindow]:
    assert window.share.start(LOCAL, 0) is None
    try:
        yield window
    finally:
        window.share.stop()


def test_the_entry_sits_in_the_view_menu_after_the_players_window(window: MainWindow) -> None:
    texts = [action.text() for action in window.view_menu.actions()]
    players = texts.index("&Players' window")
    assert texts.index("S&hare with players…") > players
    assert not window.share.status_label.isVisible()  # off by default
    assert window.share.server is None


def test_the_status_bar_counts_the_connected_phones(sharing: MainWindow, qtbot: QtBot) -> None:
    server = sharing.share.server
    assert server is not None
    label = sharing.share.status_label
    assert label.text() == f"Sharing on {LOOPBACK}:{server.port}: 0 connected"
    with join(server), join(server):
        qtbot.waitUntil(lambda: label.text().endswith(": 2 connected"), timeout=5000)
    qtbot.waitUntil(lambda: label.text().endswith(": 0 connected"), timeout=5000)
    sharing.share.stop()
    assert not label.isVisible() and sharing.share.server is None


def test_a_dm_move_reaches_a_connected_phone(sharing: MainWindow) -> None:
    server = sharing.share.server
    assert server is not None
    with join(server) as phone:
        first = next_state(phone)
        fighter = next(t for t in first["tokens"] if t["label"] == "Fighter")
        assert (fighter["x"], fighter["y"]) == (2, 2)
        push(
            sharing.undo_stack, sharing.document, MoveCreature(EntityId("c-medium"), (2, 2), (3, 4))
        )
        moved = next(t for t in next_state(phone)["tokens"] if t["label"] == "Fighter")
    assert (moved["x"], moved["y"]) == (3, 4)
    assert moved["key"] == fighter["key"]  # the same token, so the page can follow it


def test_the_camera_follows_the_dm_view_by_default(sharing: MainWindow, qtbot: QtBot) -> None:
    server = sharing.share.server
    assert server is not None
    with join(server) as phone:
        first = sharing.share.camera()
        sharing.view.scale(0.5, 0.5)
        qtbot.wait(50)  # the view settles its scroll bars
        wanted = sharing.share.camera().as_json()
        assert wanted["width"] > first.width * 1.5  # zoomed out: the players see more
        seen: list[object] = []
        while not seen or seen[-1] != wanted:  # a recv timeout fails the test
            message = json.loads(phone.recv(timeout=TIMEOUT_S))
            if message["type"] == "camera":
                seen.append(message["camera"])


def next_state(phone: ClientConnection) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = json.loads(phone.recv(timeout=TIMEOUT_S))
        if message["type"] == "state":
            return message


def test_the_dialog_shows_the_qr_code_address_and_code_and_revokes(
    window: MainWindow, qtbot: QtBot
) -> None:
    window.share.open_dialog()
    dialog = window.share.dialog
    assert dialog is not None and dialog.isVisible()
    assert not dialog.revoke_button.isEnabled()
    box = dialog.address_box
    box.setCurrentIndex(next(i for i in range(box.count()) if box.itemData(i).host == LOOPBACK))
    dialog.port_box.setValue(free_port())
    try:
        dialog.start_button.click()
        server = window.share.server
        assert server is not None
        code = server.join_code
        assert dialog.url_label.text() == f"http://{LOOPBACK}:{server.port}/?k={code}"
        assert code in dialog.code_label.text()
        assert not dialog.qr_label.pixmap().isNull()
        assert dialog.revoke_button.isEnabled() and not dialog.address_box.isEnabled()
        dialog.revoke_button.click()
        assert server.join_code != code and server.join_code in dialog.url_label.text()
        dialog.start_button.click()  # now "Stop sharing"
        assert window.share.server is None and dialog.address_box.isEnabled()
    finally:
        window.share.stop()


def test_all_networks_is_never_used_without_the_dm_saying_yes(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    everywhere = ShareAddress(ALL_INTERFACES, "all")
    dialog = ShareDialog([everywhere], ALL_INTERFACES, 8765, None)
    qtbot.addWidget(dialog)
    asked: list[tuple[object, ...]] = []

    def answer_no(*args: object, **kwargs: object) -> QMessageBox.StandardButton:
        asked.append(args)
        return QMessageBox.StandardButton.No

    monkeypatch.setattr(QMessageBox, "question", answer_no)
    with qtbot.assertNotEmitted(dialog.start_requested):
        dialog.start_button.click()
    assert len(asked) == 1


def test_the_address_list_ends_with_this_computer_and_all_networks() -> None:
    addresses = share_addresses()
    assert [a.host for a in addresses[-2:]] == [LOOPBACK, ALL_INTERFACES]
    assert all(a.host.count(".") == 3 for a in addresses)
    assert sum(a.everywhere for a in addresses) == 1


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or shutil.which("ip") is None,
    reason="compares with iproute2's list of the machine's addresses (Linux)",
)
def test_on_linux_every_address_of_an_interface_that_is_up_is_offered() -> None:
    shown = subprocess.run(
        ["ip", "-o", "-4", "addr", "show", "up"], capture_output=True, text=True, check=True
    ).stdout
    expected = {
        line.split()[3].split("/")[0]
        for line in shown.splitlines()
        if "LOWER_UP" in interface_flags(line.split()[1].rstrip(":"))
    } - {LOOPBACK}
    assert {a.host for a in share_addresses()[:-2]} == expected


def interface_flags(name: str) -> str:
    return subprocess.run(
        ["ip", "-o", "link", "show", name], capture_output=True, text=True, check=True
    ).stdout


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((LOOPBACK, 0))
        return int(probe.getsockname()[1])


def test_the_qr_code_has_whole_pixel_modules_and_a_quiet_zone() -> None:
    text = "http://192.0.2.10:8765/?k=abcdefghijklmnop"
    image = qr_image(text, side_px=280)
    modules = int(segno.make(text, error="m").symbol_size(scale=1, border=QUIET_ZONE)[0])
    module = image.width() // modules
    assert image.width() == image.height() == module * modules and module >= 5
    assert image.pixelColor(module * QUIET_ZONE - 1, module * QUIET_ZONE - 1).lightness() == 255
    assert image.pixelColor(module * QUIET_ZONE, module * QUIET_ZONE).lightness() == 0  # finder


def test_a_port_in_use_is_reported_in_the_dialog_and_nothing_runs(window: MainWindow) -> None:
    window.share.open_dialog()
    dialog = window.share.dialog
    assert dialog is not None
    with socket.socket() as taken:
        taken.bind((LOOPBACK, 0))
        taken.listen()
        port = taken.getsockname()[1]
        reason = window.share.start(LOCAL, port)
    assert reason is not None and f"{LOOPBACK}:{port}" in reason
    assert dialog.state_label.text() == f"Could not share: {reason}"
    assert window.share.server is None and not window.share.status_label.isVisible()


def test_missing_page_files_are_reported_not_raised(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    from battlemap.ui.share import page  # read by start(), when the DM first shares

    def missing() -> bytes:
        raise FileNotFoundError("assets/share/page.html: not found")

    monkeypatch.setattr(page, "page_bytes", missing)
    assert window.share.start(LOCAL, 0) == "assets/share/page.html: not found"
    assert window.share.server is None


def test_from_the_dms_window_a_phone_gets_no_hidden_creature_numbers_or_notes(
    window: MainWindow,
) -> None:
    from battlemap.model import Creature, Side
    from battlemap.model.document import ReplaceEncounterField

    spy = Creature(id="c-spy", name="Assassin Vexx", side=Side.HOSTILE, x=8, y=8, hidden=True)
    encounter = window.document.encounter
    numbered = tuple(
        c.model_copy(update={"hp": 173, "max_hp": 291, "ac": 27}) for c in encounter.creatures
    )
    window.document.apply(ReplaceEncounterField("creatures", encounter.creatures, (*numbered, spy)))
    window.document.apply(ReplaceEncounterField("notes", "", "Vexx waits for the signal"))
    assert window.share.start(LOCAL, 0) is None
    try:
        server = window.share.server
        assert server is not None
        with join(server) as phone:
            text = ""
            while '"type":"state"' not in text:
                text = str(phone.recv(timeout=TIMEOUT_S))
    finally:
        window.share.stop()
    state = json.loads(text)
    assert {t["label"] for t in state["tokens"]} == {c.name for c in encounter.creatures}
    assert "Vexx" not in text and "c-spy" not in text and "c-medium" not in text
    assert not any(f":{n}," in text or f":{n}}}" in text for n in (173, 291, 27))
