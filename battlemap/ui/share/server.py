"""The share server: the players' page, its map image and one WebSocket per phone.

Runs on its own thread with its own asyncio loop (``websockets``' server, which parses HTTP
and WebSocket frames and answers plain GETs through ``process_request``). The UI thread only
calls ``publish`` (a ``call_soon_threadsafe``, never a wait); the server thread turns the
newest snapshot into JSON once and hands the same text to every phone.

What a request can reach: only a request whose ``Host`` names this server's address and
port (else 421, ``host_check.py``: DNS rebinding), and whose ``Origin``, when a browser
sends one, is the page itself (else 403). Then four fixed routes, each needing the join
code (``?k=``):
``/`` the page (bytes read once at start), ``/map`` the served map image, ``/image?n=`` a
token picture by its content hash (only one a token of the current view shows: a hidden
creature's picture is not served), ``/ws`` the WebSocket. No part of a request becomes a
file path. Other paths: 404; no or a wrong code: 403. Request lines and headers are
bounded by ``websockets`` (414 / 431), requests with a body are dropped, and a phone's
messages are read and thrown away (at most ``MAX_CLIENT_MESSAGE`` bytes each, else the
connection closes): the page is read-only.

A phone that does not read its messages cannot hold anything up: each phone has its own
sender that sends only the newest state (states in between are skipped), and a send that
does not finish within ``send_timeout`` drops that phone.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hmac
import logging
import secrets
import socket
import threading
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import dataclass, field
from http import HTTPStatus
from urllib.parse import parse_qs, urlsplit

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from battlemap.model.encounter import Background
from battlemap.ui.players.projection import PlayerView
from battlemap.ui.share.host_check import host_allowed, origin_allowed
from battlemap.ui.share.payload import (
    Camera,
    MapImage,
    OpaqueKeys,
    Palette,
    StateEncoder,
    camera_json,
    encode,
)

MAX_CLIENTS = 16
MAX_CLIENT_MESSAGE = 1024
"""The page sends nothing; anything larger than this closes the connection (1009)."""
SEND_TIMEOUT_S = 5.0
CLIENT_SEND_BUFFER = 256 * 1024
"""Kernel send buffer per phone: bounds what a phone that does not read can pin."""
START_TIMEOUT_S = 5.0
STOP_TIMEOUT_S = 3.0
JOIN_CODE_BYTES = 10
"""80 random bits, 16 base32 characters."""
CODE_REVOKED = 4001
log = logging.getLogger("battlemap.share")


class ShareError(ValueError):
    """The server could not start: the address and the system's reason."""


def new_join_code() -> str:
    """A random join code: lowercase base32 (easy to read aloud), no padding."""
    return base64.b32encode(secrets.token_bytes(JOIN_CODE_BYTES)).decode().lower().rstrip("=")


@dataclass(frozen=True)
class MapSource:
    """The map image as the encounter holds it, and what part of it the players may see.

    ``clip`` (x, y, width, height in cells) is None for the whole image.
    """

    data: bytes
    background: Background
    clip: tuple[int, int, int, int] | None

    def same_image(self, other: MapSource | None) -> bool:
        return (
            other is not None
            and other.background == self.background
            and other.clip == self.clip
            and (other.data is self.data or other.data == self.data)
        )


@dataclass(frozen=True)
class PreparedImage:
    """The image bytes to serve (JPEG or PNG) and where it lies on the grid."""

    data: bytes
    content_type: str
    width: int
    height: int
    pixels_per_cell: float
    offset_x: float
    offset_y: float


ImagePreparer = Callable[[MapSource], PreparedImage | None]
TokenImagePreparer = Callable[[bytes, str], PreparedImage | None]


@dataclass(frozen=True)
class Snapshot:
    """What the UI thread hands over: immutable, so the server thread may read it freely."""

    view: PlayerView
    camera: Camera
    map_source: MapSource | None
    token_images: Mapping[str, bytes] = field(default_factory=dict)
    """The bytes of the pictures the view's tokens show, by content hash."""


class _Client:
    def __init__(self, connection: ServerConnection) -> None:
        self.connection = connection
        self.wake = asyncio.Event()
        self.sent_state = -1
        self.sent_camera = -1
        self.sent_ruling = -1


class ShareServer:
    """Serves the players' page on ``host:port`` (``port`` 0: any free one) until ``stop``.

    ``on_clients(count)`` is called on the server thread whenever a phone connects or
    leaves. ``prepare_image`` turns the map image into what is served (downscaled); it runs
    on a worker thread.
    """

    def __init__(
        self,
        host: str,
        port: int,
        page: bytes,
        palette: Palette,
        prepare_image: ImagePreparer,
        on_clients: Callable[[int], None] | None = None,
        max_clients: int = MAX_CLIENTS,
        send_timeout: float = SEND_TIMEOUT_S,
        prepare_token_image: TokenImagePreparer | None = None,
    ) -> None:
        self.host = host
        self.port = port
        self.page = page
        self.palette = palette
        self.prepare_image = prepare_image
        self.on_clients = on_clients
        self.max_clients = max_clients
        self.send_timeout = send_timeout
        self.prepare_token_image = prepare_token_image
        self._token_images: dict[str, PreparedImage | None] = {}
        self.join_code = new_join_code()
        self.encoder = StateEncoder(OpaqueKeys(secrets.token_bytes(16)), palette)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._stopping: asyncio.Event | None = None
        self._ready = threading.Event()
        self._start_error: BaseException | None = None
        self._clients: set[_Client] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._pending: Snapshot | None = None
        self._building = False
        self._state_text: str | None = None
        self._state_number = 0
        self._camera_text: str | None = None
        self._camera_number = 0
        self._ruling_text: str | None = None
        self._ruling_number = 0
        self._map_source: MapSource | None = None
        self._image: PreparedImage | None = None
        self._image_version = 0
        self.dropped_slow_clients = 0
        """Phones dropped because a send did not finish in time (for tests and the bench)."""

    # --- the UI thread's side --------------------------------------------------

    def start(self) -> None:
        """Bind and serve on the server thread; returns once listening.

        Raises:
            ShareError: the address could not be bound (in use, not this machine's).
        """
        self._thread = threading.Thread(target=self._run, name="battlemap-share", daemon=True)
        self._thread.start()
        if not self._ready.wait(START_TIMEOUT_S):
            raise ShareError(f"{self.host}:{self.port}: the server did not start in time")
        if self._start_error is not None:
            self._thread.join(STOP_TIMEOUT_S)
            raise ShareError(f"{self.host}:{self.port}: {self._start_error}")

    def stop(self) -> None:
        """Disconnect every phone and stop listening (waits a few seconds at most)."""
        loop, stopping = self._loop, self._stopping
        if loop is not None and stopping is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(stopping.set)
        if self._thread is not None:
            self._thread.join(STOP_TIMEOUT_S)
        self._thread = None

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    @property
    def client_count(self) -> int:
        return len(self._clients)

    def url(self, host: str | None = None) -> str:
        """The address players open (also in the QR code)."""
        return f"http://{host or self.host}:{self.port}/?k={self.join_code}"

    def publish(self, snapshot: Snapshot) -> None:
        """Hand the newest projection to the server thread; returns at once."""
        self._call(self._take_snapshot, snapshot)

    def publish_camera(self, camera: Camera) -> None:
        self._call(self._take_camera, encode(camera_json(camera)))

    def publish_ruling(self, text: str) -> None:
        """Hand the shown ruling's message (``payload.ruling_json``) to the phones: sent
        after the state, and again to a phone that comes back (a taken-down ruling is null,
        so a phone that comes back shows no stale one)."""
        self._call(self._take_ruling, text)

    def revoke(self) -> str:
        """A new join code; every phone is disconnected (it must scan the new code)."""
        self.join_code = new_join_code()
        self._call(self._disconnect_all)
        return self.join_code

    def _call(self, function: Callable[..., object], *args: object) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # stopped between the check and the call
                loop.call_soon_threadsafe(function, *args)

    # --- the server thread --------------------------------------------------------

    def _run(self) -> None:
        try:
            asyncio.run(self._main())
        except BaseException as error:  # reported by start(); the thread must not die loudly
            self._start_error = self._start_error or error
            self._ready.set()

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stopping = asyncio.Event()
        try:
            server: Server = await serve(
                self._handle,
                self.host,
                self.port,
                process_request=self._process_request,
                max_size=MAX_CLIENT_MESSAGE,
                max_queue=4,
                write_limit=64 * 1024,
                open_timeout=10,
                close_timeout=1,
                ping_interval=20,
                ping_timeout=20,
                server_header=None,
                compression=None,  # one text for every phone, not one deflate per phone
                logger=log,
            )
        except OSError as error:
            self._start_error = error
            self._ready.set()
            return
        self.port = server.sockets[0].getsockname()[1]
        self._ready.set()
        try:
            await self._stopping.wait()
        finally:
            server.close(close_connections=True)
            await server.wait_closed()

    def _process_request(self, connection: ServerConnection, request: Request) -> Response | None:
        hosts = request.headers.get_all("Host")
        if len(hosts) != 1 or not host_allowed(hosts[0], self.host, self.port):
            return _response(
                HTTPStatus.MISDIRECTED_REQUEST, b"Not this server's address\n", "text/plain"
            )
        origins = request.headers.get_all("Origin")
        if any(not origin_allowed(origin, self.host, self.port) for origin in origins):
            return _response(HTTPStatus.FORBIDDEN, b"Forbidden\n", "text/plain; charset=utf-8")
        parts = urlsplit(request.path)
        codes = parse_qs(parts.query).get("k", [])
        if len(codes) != 1 or not hmac.compare_digest(codes[0], self.join_code):
            return _response(HTTPStatus.FORBIDDEN, b"Forbidden\n", "text/plain; charset=utf-8")
        if parts.path == "/":
            return _response(HTTPStatus.OK, self.page, "text/html; charset=utf-8")
        if parts.path == "/map":
            image = self._image
            if image is None:
                return _response(HTTPStatus.NOT_FOUND, b"No map image\n", "text/plain")
            return _response(HTTPStatus.OK, image.data, image.content_type)
        if parts.path == "/image":
            names = parse_qs(parts.query).get("n", [])
            picture = self._token_images.get(names[0]) if len(names) == 1 else None
            if picture is None:
                return _response(HTTPStatus.NOT_FOUND, b"No such picture\n", "text/plain")
            return _response(HTTPStatus.OK, picture.data, picture.content_type)
        if parts.path == "/ws":
            if len(self._clients) >= self.max_clients:
                return _response(
                    HTTPStatus.SERVICE_UNAVAILABLE, b"Too many players\n", "text/plain"
                )
            return None  # the WebSocket handshake goes on
        return _response(HTTPStatus.NOT_FOUND, b"Not found\n", "text/plain; charset=utf-8")

    async def _handle(self, connection: ServerConnection) -> None:
        sock = connection.transport.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, CLIENT_SEND_BUFFER)
        client = _Client(connection)
        self._clients.add(client)
        self._tell_clients()
        client.wake.set()  # a phone that connects (or comes back) gets the whole state at once
        sender = asyncio.create_task(self._send_loop(client))
        try:
            async for _message in connection:
                pass  # read-only: whatever a phone sends is dropped
        except ConnectionClosed:
            pass
        finally:
            sender.cancel()
            self._clients.discard(client)
            self._tell_clients()

    async def _send_loop(self, client: _Client) -> None:
        connection = client.connection
        try:
            while True:
                await client.wake.wait()
                client.wake.clear()
                for text, number, attribute in (
                    (self._state_text, self._state_number, "sent_state"),
                    (self._camera_text, self._camera_number, "sent_camera"),
                    (self._ruling_text, self._ruling_number, "sent_ruling"),
                ):
                    if text is not None and getattr(client, attribute) != number:
                        setattr(client, attribute, number)
                        await asyncio.wait_for(connection.send(text), self.send_timeout)
        except TimeoutError:
            self.dropped_slow_clients += 1
            log.info("dropped a phone that did not read for %.1f s", self.send_timeout)
            connection.transport.abort()
        except ConnectionClosed:
            pass

    def _wake_all(self) -> None:
        for client in self._clients:
            client.wake.set()

    def _tell_clients(self) -> None:
        if self.on_clients is not None:
            self.on_clients(len(self._clients))

    def _take_camera(self, text: str) -> None:
        self._camera_text = text
        self._camera_number += 1
        self._wake_all()

    def _take_ruling(self, text: str) -> None:
        self._ruling_text = text
        self._ruling_number += 1
        self._wake_all()

    def _take_snapshot(self, snapshot: Snapshot) -> None:
        self._pending = snapshot
        if not self._building:
            self._building = True
            self._keep(self._build())

    async def _build(self) -> None:
        """Turn the newest snapshot into JSON; snapshots that came meanwhile are skipped."""
        try:
            while self._pending is not None:
                snapshot, self._pending = self._pending, None
                try:
                    await self._update_image(snapshot.map_source)
                    await self._update_token_images(snapshot.token_images)
                    self._state_text = self.encoder.encode(snapshot.view, self._map_image())
                except Exception:  # a bad snapshot must not stop the server; the next may do
                    log.exception("could not build the players' state")
                    continue
                self._state_number += 1
                self._take_camera(encode(camera_json(snapshot.camera)))
        finally:
            self._building = False

    async def _update_image(self, source: MapSource | None) -> None:
        if source is None:
            self._map_source, self._image = None, None
            return
        if source.same_image(self._map_source):
            return
        loop = asyncio.get_running_loop()
        self._image = await loop.run_in_executor(None, self.prepare_image, source)
        self._map_source = source
        self._image_version += 1

    async def _update_token_images(self, wanted: Mapping[str, bytes]) -> None:
        """Keep the pictures of the view's tokens only, preparing the new ones."""
        kept = {name: self._token_images[name] for name in wanted if name in self._token_images}
        if self.prepare_token_image is not None:
            loop = asyncio.get_running_loop()
            for name, data in wanted.items():
                if name not in kept:
                    kept[name] = await loop.run_in_executor(
                        None, self.prepare_token_image, data, name
                    )
        self._token_images = kept

    def _map_image(self) -> MapImage | None:
        image = self._image
        if image is None:
            return None
        return MapImage(
            version=self._image_version,
            width=image.width,
            height=image.height,
            pixels_per_cell=image.pixels_per_cell,
            offset_x=image.offset_x,
            offset_y=image.offset_y,
        )

    def _disconnect_all(self) -> None:
        for client in list(self._clients):
            self._keep(client.connection.close(CODE_REVOKED, "join code revoked"))

    def _keep(self, work: Coroutine[object, object, None]) -> None:
        """Run ``work`` as a task, held until done (the loop keeps only weak references)."""
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


def _response(status: HTTPStatus, body: bytes, content_type: str) -> Response:
    headers = Headers(
        [
            ("Content-Type", content_type),
            ("Content-Length", str(len(body))),
            ("Cache-Control", "no-store"),
            ("X-Content-Type-Options", "nosniff"),
            ("Referrer-Policy", "no-referrer"),
            ("Connection", "close"),
        ]
    )
    if content_type.startswith("text/html"):
        headers["Content-Security-Policy"] = (
            "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
            "img-src 'self' blob:; connect-src 'self' ws:"
        )
    return Response(status.value, status.phrase, headers, body)
