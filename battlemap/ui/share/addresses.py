"""The addresses the DM can share on: this machine's own IPv4 addresses, one per network.

Never all interfaces unless the DM picks that entry (and confirms it in the dialog). The
standard library has no portable interface list, so: on Linux each interface is asked for
its address (``SIOCGIFADDR``); elsewhere (Windows, macOS) two answers are put together:
the address the system would send from towards the internet (a UDP socket "connected" to a
documentation address: no packet leaves) and the addresses the machine's own name resolves
to (Windows answers with every adapter's; macOS often with 127.0.0.1 only, hence the
first). QtNetwork's ``QNetworkInterface`` would do it too, at 5 MB more in the bundle (it
brings Kerberos libraries).
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
ROUTE_PROBE = ("192.0.2.1", 9)
"""A documentation address (RFC 5737), never a real host: only its route matters."""


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


def _route_address() -> list[tuple[str, str]]:
    """The address of the network the default route goes through (none without one)."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(ROUTE_PROBE)  # UDP: only picks the route, sends nothing
        return [("", str(probe.getsockname()[0]))]
    return []


def _resolved_interfaces() -> list[tuple[str, str]]:
    with contextlib.suppress(OSError):
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
        return [("", str(info[4][0])) for info in infos]
    return []


def _lan_host(host: str) -> bool:
    # 169.254.x.x: an adapter that got no address from a router (Windows, macOS); no phone
    # on the table's Wi-Fi has one.
    return not host.startswith(("127.", "169.254.", "0."))


def share_addresses(platform: str | None = None) -> list[ShareAddress]:
    """The LAN addresses, then this computer only, then all networks.

    ``platform`` is ``sys.platform`` unless told (tests fake another system's answers).
    """
    platform = sys.platform if platform is None else platform
    if platform.startswith("linux"):
        pairs = _linux_interfaces()
    else:
        pairs = _route_address() + _resolved_interfaces()
    found: list[ShareAddress] = []
    for name, host in pairs:
        if not _lan_host(host) or any(a.host == host for a in found):
            continue
        found.append(ShareAddress(host, f"{host} ({name})" if name else host))
    found.append(ShareAddress(LOOPBACK, f"{LOOPBACK} (this computer only)"))
    found.append(ShareAddress(ALL_INTERFACES, "All networks (0.0.0.0)"))
    return found


def has_lan(addresses: list[ShareAddress]) -> bool:
    """Whether any address is on a network phones can be on (not loopback, not all)."""
    return any(a.host not in (LOOPBACK, ALL_INTERFACES) for a in addresses)
