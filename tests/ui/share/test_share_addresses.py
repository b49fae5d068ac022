"""The address list as Windows and macOS answer (their ``socket`` faked here): the route's
address, the machine name's addresses, several networks for the DM to pick from, and no
network at all (said plainly); all networks only when the DM picks it."""

from __future__ import annotations

import errno
import socket
import sys
from typing import Any

import pytest
from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from battlemap.model import Document, Encounter
from battlemap.ui.main_window import MainWindow
from battlemap.ui.share import addresses
from battlemap.ui.share.addresses import ALL_INTERFACES, LOOPBACK, share_addresses
from battlemap.ui.share.dialog import NO_NETWORK_TEXT, OFF_TEXT, ShareDialog

WIFI, ETHERNET, VIRTUALBOX = "192.168.1.20", "10.0.0.7", "192.168.56.1"
NO_DHCP = "169.254.12.34"  # Windows' own address for an adapter no router answered


class FakeUdpSocket:
    """What a UDP socket tells about the route: ``route`` is the address the system would
    send from, or None when it has no route (``connect`` fails as on a laptop offline)."""

    def __init__(self, route: str | None) -> None:
        self.route = route
        self.connected_to: tuple[str, int] | None = None

    def __enter__(self) -> FakeUdpSocket:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def connect(self, address: tuple[str, int]) -> None:
        if self.route is None:
            raise OSError(errno.ENETUNREACH, "Network is unreachable")
        self.connected_to = address

    def getsockname(self) -> tuple[str, int]:
        assert self.route is not None
        return self.route, 51234


def fake_system(
    monkeypatch: pytest.MonkeyPatch, route: str | None, resolved: list[str] | None
) -> list[FakeUdpSocket]:
    """The machine's name resolves to ``resolved`` (None: the name is unknown, as on a Mac
    whose name no DNS knows); no Linux ioctls exist (``fcntl`` cannot be imported)."""
    probes: list[FakeUdpSocket] = []

    def udp_socket(family: int, kind: int) -> FakeUdpSocket:
        assert (family, kind) == (socket.AF_INET, socket.SOCK_DGRAM)
        probes.append(FakeUdpSocket(route))
        return probes[-1]

    def getaddrinfo(host: str, port: object, family: int = 0, *rest: object) -> list[Any]:
        assert host == "DM-LAPTOP" and family == socket.AF_INET
        if resolved is None:
            raise socket.gaierror(socket.EAI_NONAME, "nodename nor servname provided")
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (ip, 0)) for ip in resolved]

    monkeypatch.setattr(socket, "socket", udp_socket)  # while the test runs, every socket
    monkeypatch.setattr(socket, "gethostname", lambda: "DM-LAPTOP")
    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    monkeypatch.setitem(sys.modules, "fcntl", None)  # import fcntl fails, as on Windows
    return probes


def hosts(platform: str) -> list[str]:
    return [address.host for address in share_addresses(platform)]


def test_windows_offers_every_adapter_route_first_without_loopback_or_link_local(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    resolved = [VIRTUALBOX, NO_DHCP, ETHERNET, "127.0.0.1", WIFI, ETHERNET]
    probes = fake_system(monkeypatch, WIFI, resolved)
    assert hosts("win32") == [WIFI, VIRTUALBOX, ETHERNET, LOOPBACK, ALL_INTERFACES]
    assert probes[0].connected_to == addresses.ROUTE_PROBE


def test_a_mac_whose_name_resolves_to_loopback_still_offers_its_wifi(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake_system(monkeypatch, WIFI, ["127.0.0.1"])
    assert hosts("darwin") == [WIFI, LOOPBACK, ALL_INTERFACES]


def test_a_mac_whose_name_no_dns_knows_offers_the_routes_address(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake_system(monkeypatch, ETHERNET, None)
    assert hosts("darwin") == [ETHERNET, LOOPBACK, ALL_INTERFACES]


def test_a_laptop_without_a_default_route_offers_what_its_name_resolves_to(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A travel router with no internet: the route probe fails, the adapters still count."""
    fake_system(monkeypatch, None, [WIFI])
    assert hosts("win32") == [WIFI, LOOPBACK, ALL_INTERFACES]


@pytest.mark.parametrize("platform", ["win32", "darwin"])
def test_no_network_at_all_leaves_this_computer_and_says_so(
    monkeypatch: pytest.MonkeyPatch, qtbot: QtBot, platform: str
) -> None:
    fake_system(monkeypatch, None, ["127.0.0.1"] if platform == "win32" else None)
    offered = share_addresses(platform)
    assert [a.host for a in offered] == [LOOPBACK, ALL_INTERFACES]
    dialog = ShareDialog(offered, "", 8765, None)
    qtbot.addWidget(dialog)
    assert dialog.state_label.text() == NO_NETWORK_TEXT
    assert dialog.chosen_address().host == LOOPBACK  # never all networks unasked


def test_with_several_networks_the_dm_picks_and_all_networks_is_never_the_default(
    monkeypatch: pytest.MonkeyPatch, qtbot: QtBot
) -> None:
    fake_system(monkeypatch, WIFI, [ETHERNET, VIRTUALBOX])
    offered = share_addresses("win32")
    dialog = ShareDialog(offered, "", 8765, None)
    qtbot.addWidget(dialog)
    box = dialog.address_box
    assert [box.itemData(i).host for i in range(box.count())] == [
        WIFI,
        ETHERNET,
        VIRTUALBOX,
        LOOPBACK,
        ALL_INTERFACES,
    ]
    assert dialog.chosen_address().host == WIFI and dialog.state_label.text() == OFF_TEXT
    remembered = ShareDialog(offered, VIRTUALBOX, 8765, None)  # the DM's last pick
    qtbot.addWidget(remembered)
    assert remembered.chosen_address().host == VIRTUALBOX
    gone = ShareDialog(offered, "192.168.9.9", 8765, None)  # a network left since
    qtbot.addWidget(gone)
    assert gone.chosen_address().host == WIFI


def test_reopening_the_dialog_finds_a_network_joined_meanwhile(
    monkeypatch: pytest.MonkeyPatch, qtbot: QtBot, settings: QSettings
) -> None:
    window = MainWindow(Document(Encounter()), settings=settings)
    qtbot.addWidget(window)
    fake_system(monkeypatch, None, ["127.0.0.1"])
    monkeypatch.setattr(sys, "platform", "win32")  # the sys that addresses reads
    window.share.open_dialog()
    dialog = window.share.dialog
    assert dialog is not None and dialog.state_label.text() == NO_NETWORK_TEXT
    dialog.hide()
    fake_system(monkeypatch, WIFI, ["127.0.0.1"])  # the DM joined the table's Wi-Fi
    window.share.open_dialog()
    assert dialog.chosen_address().host == WIFI and dialog.state_label.text() == OFF_TEXT
