"""The addresses the DM can share on: this machine's own, one per network interface.

Never all interfaces unless the DM picks that entry (and confirms it in the dialog).
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtNetwork import QAbstractSocket, QNetworkInterface

LOOPBACK = "127.0.0.1"
ALL_INTERFACES = "0.0.0.0"


@dataclass(frozen=True)
class ShareAddress:
    host: str
    label: str

    @property
    def everywhere(self) -> bool:
        return self.host == ALL_INTERFACES


def share_addresses() -> list[ShareAddress]:
    """The LAN addresses (IPv4, interfaces up), then this computer only, then all interfaces."""
    found: list[ShareAddress] = []
    flags = QNetworkInterface.InterfaceFlag
    for interface in QNetworkInterface.allInterfaces():
        up = interface.flags() & flags.IsUp and interface.flags() & flags.IsRunning
        if not up or interface.flags() & flags.IsLoopBack:
            continue
        for entry in interface.addressEntries():
            ip = entry.ip()
            if ip.protocol() == QAbstractSocket.NetworkLayerProtocol.IPv4Protocol:
                name = interface.humanReadableName() or interface.name()
                found.append(ShareAddress(ip.toString(), f"{ip.toString()} ({name})"))
    found.append(ShareAddress(LOOPBACK, f"{LOOPBACK} (this computer only)"))
    found.append(ShareAddress(ALL_INTERFACES, "All networks (0.0.0.0)"))
    return found
