"""What Chromium (DevTools) and Firefox (WebDriver BiDi) drivers share: a browser process on
a fresh profile behind a ``NetworkTrap``, a port file it writes once it listens, and one
WebSocket of numbered JSON commands, each answered by a message with its number."""

from __future__ import annotations

import contextlib
import itertools
import json
import shutil
import subprocess
import tempfile
import time
from abc import abstractmethod
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from websockets.sync.client import ClientConnection, connect

from tests.ui.share.browser import START_TIMEOUT_S, NetworkTrap, PageBrowser, end_process

T = TypeVar("T")


class SocketBrowser(PageBrowser):
    """A browser driven over one WebSocket; subclasses start it with ``_launch`` and say how
    its protocol reports an error (``_error_of``)."""

    profile: Path
    process: subprocess.Popen[bytes]
    socket: ClientConnection

    def _launch(
        self, command: Callable[[Path], list[str]], env: dict[str, str] | None = None
    ) -> None:
        """Start ``command(profile)`` on a fresh profile, with a new trap and no socket yet."""
        self.profile = Path(tempfile.mkdtemp(prefix=f"battlemap-{self.name}-"))
        self.trap = NetworkTrap()
        self._ids = itertools.count(1)
        self._stack = contextlib.ExitStack()
        self.process = subprocess.Popen(
            command(self.profile), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env
        )

    def _wait_for(self, read: Callable[[], T | None], what: str) -> T:
        """``read()``'s first answer that is not None (an ``OSError`` or ``ValueError`` is
        read as None: a file half written); a ``RuntimeError`` saying ``what`` was never
        seen when the browser ends or ``START_TIMEOUT_S`` passes first."""
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            with contextlib.suppress(OSError, ValueError):
                value = read()
                if value is not None:
                    return value
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise RuntimeError(f"{self.name} did not open {what}")
            time.sleep(0.05)

    def _connect(self, url: str) -> ClientConnection:
        """A WebSocket to ``url``, closed with the browser."""
        socket = connect(url, max_size=None, open_timeout=START_TIMEOUT_S)
        return self._stack.enter_context(socket)

    @staticmethod
    @abstractmethod
    def _error_of(message: dict[str, Any]) -> str | None:
        """The error an answer reports, or None."""

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        """Send one command and wait for its answer (events meanwhile are dropped)."""
        number = next(self._ids)
        self.socket.send(json.dumps({"id": number, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv(timeout=START_TIMEOUT_S))
            if message.get("id") == number:
                error = self._error_of(message)
                if error is not None:
                    raise RuntimeError(f"{method}: {error}")
                result: dict[str, Any] = message["result"]
                return result

    def close(self) -> None:
        self._stack.close()
        end_process(self.process)
        self.trap.close()
        shutil.rmtree(self.profile, ignore_errors=True)
