"""Which ``Host`` (and ``Origin``) a request to the share server may name.

Against DNS rebinding: a web page elsewhere can make a player's (or the DM's) browser send
requests to the laptop under a name the attacker controls; such a request carries that
name in ``Host``. The server answers only requests that name the address it listens on
(or ``localhost`` when that is 127.0.0.1) with its port. Serving on all networks, any
IPv4 address with the port is taken: rebinding always needs a name, never an address.
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from battlemap.ui.share.addresses import ALL_INTERFACES, LOOPBACK

HTTP_PORT = 80
"""The port a ``Host`` without one means."""


def host_allowed(header: str, listening_host: str, port: int) -> bool:
    """Whether a request's ``Host`` header value is this server's own address and port."""
    try:
        parts = urlsplit(f"//{header.strip()}")
        named_port = parts.port if parts.port is not None else HTTP_PORT
        name = parts.hostname
    except ValueError:  # a port that is no number, a stray bracket
        return False
    if name is None or named_port != port or parts.username is not None or parts.path:
        return False
    if listening_host == LOOPBACK and name == "localhost":
        return True
    if listening_host == ALL_INTERFACES:
        return _is_ipv4_literal(name)
    return name == listening_host


def origin_allowed(origin: str, listening_host: str, port: int) -> bool:
    """Whether a WebSocket's ``Origin`` (sent by browsers) is the players' page itself."""
    scheme, _, rest = origin.partition("://")
    return scheme == "http" and host_allowed(rest, listening_host, port)


def _is_ipv4_literal(name: str) -> bool:
    try:
        return isinstance(ipaddress.ip_address(name), ipaddress.IPv4Address)
    except ValueError:
        return False
