"""The share server's part of ``battlemap --smoke`` (run on the built bundle by
``packaging/smoke-bundle.sh``): share on 127.0.0.1 on a free port, fetch the page, the
first WebSocket message and the map image with the join code as a phone would, and stop.

The phone's side uses the standard library's ``http.client`` and ``websockets``' sans-I/O
client protocol over a plain socket: ``websockets``' ready-made clients import ``ssl``,
which the bundle leaves out.
"""

from __future__ import annotations

import http.client
import json
import socket
from typing import Any

from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.uri import parse_uri

from battlemap.ui.share.addresses import LOOPBACK, ShareAddress
from battlemap.ui.share.controller import ShareController

TIMEOUT_S = 10.0
JPEG_START = b"\xff\xd8\xff"
"""What phones get the map as (``images.py``): an empty body if Qt's JPEG writer is gone."""


class ShareSmokeError(ValueError):
    """The share server failed its smoke check: the step and what went wrong."""


def share_smoke(share: ShareController) -> str:
    """Share, act as one phone, stop; a one-line summary.

    Raises:
        ShareSmokeError: a step failed (names it).
    """
    problem = share.start(ShareAddress(LOOPBACK, "smoke check"), 0)
    server = share.server
    if problem is not None or server is None:
        raise ShareSmokeError(f"share: could not start on {LOOPBACK}: {problem}")
    try:
        share.players.refresh()  # publish the current projection
        port, code = server.port, server.join_code
        status, _ = _get(port, "/")
        if status != 403:
            raise ShareSmokeError(f"share: the page without the join code answered {status}")
        status, page = _get(port, f"/?k={code}")
        if status != 200 or b"<canvas" not in page:
            raise ShareSmokeError(f"share: the page answered {status} ({len(page)} bytes)")
        state = first_message(port, f"/ws?k={code}")
        if state.get("type") != "state":
            raise ShareSmokeError(f"share: the first WebSocket message was {state.get('type')}")
        summary = (
            f"smoke: shared on {LOOPBACK}:{port}: page {len(page)} bytes, "
            f"state with {len(state['tokens'])} tokens"
        )
        map_image = state["map"]
        if map_image is not None:
            status, image = _get(port, f"/map?k={code}&v={map_image['version']}")
            if status != 200 or not image.startswith(JPEG_START):
                raise ShareSmokeError(
                    f"share: the map image answered {status} with {len(image)} bytes, not a JPEG"
                )
            size = f"{map_image['width']}x{map_image['height']}"
            summary += f", map {size} ({len(image)} bytes)"
        return summary
    finally:
        share.stop()


def _get(port: int, target: str) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection(LOOPBACK, port, timeout=TIMEOUT_S)
    try:
        connection.request("GET", target)
        response = connection.getresponse()
        return response.status, response.read()
    except OSError as error:
        raise ShareSmokeError(f"share: GET {target.split('?')[0]}: {error}") from error
    finally:
        connection.close()


def first_message(port: int, target: str) -> dict[str, Any]:
    """Open the WebSocket at ``target`` as a phone does and return its first text message.

    Raises:
        ShareSmokeError: the handshake was refused, or the server closed or said nothing.
    """
    protocol = ClientProtocol(parse_uri(f"ws://{LOOPBACK}:{port}{target}"))
    protocol.send_request(protocol.connect())
    try:
        with socket.create_connection((LOOPBACK, port), timeout=TIMEOUT_S) as sock:
            sock.sendall(b"".join(protocol.data_to_send()))
            while True:
                data = sock.recv(65536)
                if data:
                    protocol.receive_data(data)
                else:
                    protocol.receive_eof()
                for event in protocol.events_received():
                    if isinstance(event, Response) and event.status_code != 101:
                        raise ShareSmokeError(f"share: the WebSocket answered {event.status_code}")
                    if isinstance(event, Frame) and event.opcode is Opcode.TEXT:
                        message: dict[str, Any] = json.loads(bytes(event.data))
                        return message
                if protocol.handshake_exc is not None or not data:
                    raise ShareSmokeError(f"share: the WebSocket closed ({protocol.handshake_exc})")
    except OSError as error:
        raise ShareSmokeError(f"share: the WebSocket: {error}") from error
