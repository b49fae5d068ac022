"""WebKit, the engine of Safari, as Debian ships it: WebKitGTK's ``MiniBrowser`` driven by
``WebKitWebDriver`` (package ``webkit2gtk-driver``) over plain W3C WebDriver (HTTP and
JSON, no selenium), in a private Xvfb display (WebKitGTK has no headless mode).

Safari itself is not tested; WebKitGTK stands for it (the same WebCore and JavaScriptCore,
not Apple's graphics or networking).
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import shutil
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from tests.ui.share.browser import (
    START_TIMEOUT_S,
    NetworkTrap,
    PageBrowser,
    end_process,
    free_port,
)

MINIBROWSER_PATHS = (
    "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser",
    "/usr/lib/aarch64-linux-gnu/webkit2gtk-4.1/MiniBrowser",
    "/usr/libexec/webkit2gtk-4.1/MiniBrowser",
)


def minibrowser_path() -> str | None:
    return next((path for path in MINIBROWSER_PATHS if os.access(path, os.X_OK)), None)


def webkit_missing() -> str | None:
    """Why the WebKit tests cannot run here, or None."""
    for program, package in (("WebKitWebDriver", "webkit2gtk-driver"), ("Xvfb", "xvfb")):
        if shutil.which(program) is None:
            return f"needs {program} (Debian's {package}; .ci/run installs it)"
    if minibrowser_path() is None:
        return "needs WebKitGTK's MiniBrowser (Debian's libwebkit2gtk-4.1-0)"
    return None


def start_xvfb() -> tuple[subprocess.Popen[bytes], str]:
    """A private X display (the server picks a free number and says which)."""
    read_end, write_end = os.pipe()
    process = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write_end), "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
        pass_fds=(write_end,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write_end)
    with os.fdopen(read_end) as answer:
        number = answer.readline().strip()
    if not number:
        end_process(process)
        raise RuntimeError("Xvfb did not start")
    return process, f":{number}"


class WebKit(PageBrowser):
    """One MiniBrowser window with one page; ``close`` ends it, the driver and the display."""

    name = "webkit"

    def __init__(self, width: int, height: int) -> None:
        problem = webkit_missing()
        if problem is not None:
            raise FileNotFoundError(problem)
        self.home = Path(tempfile.mkdtemp(prefix="battlemap-webkit-"))
        self.trap = NetworkTrap()
        self.xvfb, display = start_xvfb()
        port = free_port()
        environment = {
            **os.environ,
            "DISPLAY": display,
            "HOME": str(self.home),  # MiniBrowser's caches and cookies go here, then away
            "XDG_CACHE_HOME": str(self.home / "cache"),
            "XDG_DATA_HOME": str(self.home / "data"),
            "LIBGL_ALWAYS_SOFTWARE": "1",
        }
        environment.pop("WAYLAND_DISPLAY", None)
        self.driver = subprocess.Popen(
            ["WebKitWebDriver", f"--port={port}"],
            env=environment,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self.base = f"http://127.0.0.1:{port}"
        self.session = ""
        try:
            self._wait_for_driver()
            proxy = [f"--proxy=http://127.0.0.1:{self.trap.port}", "--ignore-host=127.0.0.1"]
            options = {"binary": minibrowser_path(), "args": ["--automation", *proxy]}
            capabilities = {"alwaysMatch": {"webkitgtk:browserOptions": options}}
            answer = self._send("POST", "/session", {"capabilities": capabilities})
            self.session = answer["sessionId"]
            self._fit_viewport(width, height)
        except BaseException:
            self.close()
            raise

    def _wait_for_driver(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            try:
                self._send("GET", "/status")
                return
            except (OSError, RuntimeError):
                if time.monotonic() > deadline or self.driver.poll() is not None:
                    raise RuntimeError("WebKitWebDriver did not answer") from None
                time.sleep(0.05)

    def _fit_viewport(self, width: int, height: int) -> None:
        """Size the window so that the page's viewport is ``width`` x ``height``."""
        outer_width, outer_height = width, height
        for _ in range(3):
            self._command("POST", "/window/rect", {"width": outer_width, "height": outer_height})
            inner = self.evaluate("[innerWidth, innerHeight]")
            if inner == [width, height]:
                return
            outer_width += width - inner[0]
            outer_height += height - inner[1]
        raise RuntimeError(f"webkit: the viewport stayed {inner}, not {[width, height]}")

    def _send(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self.base + path, data=data, method=method, headers={"Content-Type": "application/json"}
        )
        try:
            with urllib.request.urlopen(request, timeout=START_TIMEOUT_S) as response:
                return json.loads(response.read())["value"]
        except urllib.error.HTTPError as error:
            raise RuntimeError(
                f"{method} {path}: {error.read().decode(errors='replace')}"
            ) from None

    def _command(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        return self._send(method, f"/session/{self.session}{path}", body)

    def open(self, url: str) -> None:
        self._command("POST", "/url", {"url": url})

    def evaluate(self, expression: str) -> Any:
        return self._command(
            "POST", "/execute/sync", {"script": f"return ({expression});", "args": []}
        )

    def pinch(self, x: float, y: float, spreads: list[float]) -> None:
        """Not possible here: WebKitGTK's WebDriver sends touch pointers as one mouse."""
        raise NotImplementedError("webkit: WebKitWebDriver has no multi-touch")

    def screenshot_png(self) -> bytes:
        # WebKitGTK's snapshot is of the last frame it composited: let one more be painted.
        frames = "requestAnimationFrame(() => requestAnimationFrame(() => arguments[0](true)))"
        self._command("POST", "/execute/async", {"script": frames, "args": []})
        return base64.b64decode(self._command("GET", "/screenshot"))

    def close(self) -> None:
        if self.session:
            # If the browser does not answer, it is ended with the driver below.
            with contextlib.suppress(OSError, RuntimeError):
                self._send("DELETE", f"/session/{self.session}")
        end_process(self.driver)
        end_process(self.xvfb)
        self.trap.close()
        shutil.rmtree(self.home, ignore_errors=True)
