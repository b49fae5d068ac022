"""What the page tests ask of a browser, whichever engine drives it (Chromium, Firefox,
WebKitGTK): open a page, evaluate an expression, wait for one, take a screenshot, close."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import threading
import time
from abc import ABC, abstractmethod
from typing import Any

START_TIMEOUT_S = 30.0


class NetworkTrap:
    """A listener on 127.0.0.1 set as a browser's HTTP and HTTPS proxy: every connection
    the browser makes beyond loopback (never proxied) arrives here, is noted and closed."""

    def __init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self.listener.getsockname()[1])
        self.requests: list[str] = []
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        with contextlib.suppress(OSError):  # closed by close()
            while True:
                connection, _ = self.listener.accept()
                with connection:
                    connection.settimeout(2)
                    with contextlib.suppress(OSError):
                        first_line = connection.recv(1024).split(b"\r\n", 1)[0]
                        self.requests.append(first_line.decode(errors="replace"))

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.listener.shutdown(socket.SHUT_RDWR)  # wakes the accept() (close alone may not)
        self.listener.close()
        self._thread.join(5)


class PageBrowser(ABC):
    """One browser process with one page of ``width`` x ``height`` CSS pixels; ``trap``
    holds every connection it tried beyond loopback."""

    name = ""
    trap: NetworkTrap

    @abstractmethod
    def open(self, url: str) -> None: ...

    @abstractmethod
    def evaluate(self, expression: str) -> Any:
        """The expression's value (numbers, strings, booleans, lists) in the page."""

    @abstractmethod
    def screenshot_png(self) -> bytes:
        """The page's viewport as a PNG, one pixel per CSS pixel."""

    @abstractmethod
    def pinch(self, x: float, y: float, spreads: list[float]) -> None:
        """Two fingers on a touch screen, ``spread`` CSS pixels left and right of (x, y)
        for each spread in turn: down at the first, moved through the rest, then lifted."""

    @abstractmethod
    def close(self) -> None: ...

    def wait_for(self, expression: str, timeout: float = 10.0) -> Any:
        """Poll ``expression`` until it is truthy; its value."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = self.evaluate(expression)
            if value:
                return value
            time.sleep(0.01)
        raise TimeoutError(f"{self.name}: {expression} stayed false for {timeout} s")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def end_process(process: subprocess.Popen[bytes]) -> None:
    """Terminate ``process`` (kill it if it does not go) and reap it."""
    with contextlib.suppress(ProcessLookupError):
        process.terminate()
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(10)


def pinch_actions(x: float, y: float, spreads: list[float]) -> list[dict[str, Any]]:
    """A two-finger pinch as W3C WebDriver input actions (classic and BiDi alike): each
    finger is a touch pointer; the two move tick by tick together."""

    def finger(name: str, side: int) -> dict[str, Any]:
        at = [{"x": round(x + side * spread), "y": round(y)} for spread in spreads]
        moves = [{"type": "pointerMove", "duration": 16, **point} for point in at[1:]]
        return {
            "type": "pointer",
            "id": name,
            "parameters": {"pointerType": "touch"},
            "actions": [
                {"type": "pointerMove", "duration": 0, **at[0]},
                {"type": "pointerDown", "button": 0},
                *moves,
                {"type": "pointerUp", "button": 0},
            ],
        }

    return [finger("left finger", -1), finger("right finger", 1)]
