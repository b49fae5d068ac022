"""The addresses the DM can share on: this machine's own IPv4 addresses, one per network.

Never all interfaces unless the DM picks that entry (and confirms it in the dialog). The
standard library has no portable interface list, so: on Linux each interface is asked for
its address (``SIOCGIFADDR``); elsewhere the machine's name is resolved (Windows and macOS
answer with every adapter's address). QtNetwork's ``QNetworkInterface`` would do it too,
at 5 MB more in the bundle (it brings Kerberos libraries).
"""

from __future__ import annotations

import contextlib
import socket
import struct
import sys
from dataclasses import dataclass

LOOPBACK = "127.0.0.1"
ALL_INTERFACES = "0.0.0.0"
SIOCGIFFLAGS, SIOCGIFADDR = 0x8913, 0x8915
"""Linux ioctls: an interface's flags, its IPv4 address."""
IFF_UP, IFF_LOOPBACK, IFF_RUNNING = 0x1, 0x8, 0x40


@dataclass(frozen=True)
class ShareAddress:
    host: str
    label: str

    @property
    def everywhere(self) -> bool:
        return self.host == ALL_INTERFACES


def _linux_interfaces() -> list[tuple[str, str]]:
    import fcntl  # Unix only

    found = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        for _, name in socket.if_nameindex():
            request = struct.pack("256s", name.encode()[:15])
            with contextlib.suppress(OSError):  # no IPv4 address
                flags = struct.unpack_from("H", fcntl.ioctl(probe, SIOCGIFFLAGS, request), 16)[0]
                if flags & (IFF_UP | IFF_RUNNING) != IFF_UP | IFF_RUNNING or flags & IFF_LOOPBACK:
                    continue
                answer = fcntl.ioctl(probe, SIOCGIFADDR, request)
                found.append((name, socket.inet_ntoa(answer[20:24])))
    return found


def _resolved_interfaces() -> list[tuple[str, str]]:
    with contextlib.suppress(OSError):
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
        return [("", str(info[4][0])) for info in infos]
    return []


def share_addresses() -> list[ShareAddress]:
    """The LAN addresses, then this computer only, then all networks."""
    pairs = _linux_interfaces() if sys.platform.startswith("linux") else _resolved_interfaces()
    found: list[ShareAddress] = []
    for name, host in pairs:
        if host.startswith("127.") or any(a.host == host for a in found):
            continue
        found.append(ShareAddress(host, f"{host} ({name})" if name else host))
    found.append(ShareAddress(LOOPBACK, f"{LOOPBACK} (this computer only)"))
    found.append(ShareAddress(ALL_INTERFACES, "All networks (0.0.0.0)"))
    return found
