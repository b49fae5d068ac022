"""A headless Chromium driven over its DevTools protocol (a WebSocket), for the page tests.

Only loopback addresses are opened: the page's server and Chromium's own DevTools port.
Anything else Chromium asks for (it still calls update.googleapis.com and
accounts.google.com, flags or not) goes to the ``NetworkTrap`` proxy and no further.
"""

from __future__ import annotations

import base64
import contextlib
import itertools
import json
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection, connect

from tests.ui.share.browser import START_TIMEOUT_S, NetworkTrap, PageBrowser, end_process

FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--disable-default-apps",
    "--hide-scrollbars",
    "--mute-audio",
    # What a fresh profile calls home for (each seen in the trap, see browser.py).
    "--disable-features=NetworkTimeServiceQuerying,OptimizationHints,"
    "OptimizationGuideModelDownloading,OptimizationHintsFetching,MediaRouter,Translate,"
    "AutofillServerCommunication,CertificateTransparencyComponentUpdater",
    "--disable-domain-reliability",
    "--disable-client-side-phishing-detection",
    "--no-pings",
    "--metrics-recording-only",
    "--remote-debugging-address=127.0.0.1",
    "--remote-debugging-port=0",
)


def chromium_path() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


class Chromium(PageBrowser):
    """One headless Chromium with one page; ``close`` ends the process."""

    name = "chromium"

    def __init__(self, width: int, height: int) -> None:
        executable = chromium_path()
        if executable is None:
            raise FileNotFoundError("chromium is not installed")
        self.profile = Path(tempfile.mkdtemp(prefix="battlemap-chromium-"))
        self.trap = NetworkTrap()
        proxy = f"--proxy-server=http://127.0.0.1:{self.trap.port}"  # loopback bypasses it
        self.process = subprocess.Popen(
            [executable, *FLAGS, proxy, f"--user-data-dir={self.profile}", "about:blank"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self._ids = itertools.count(1)
        self._stack = contextlib.ExitStack()
        try:
            self.socket = self._attach()
            self.call(
                "Emulation.setDeviceMetricsOverride",
                width=width,
                height=height,
                deviceScaleFactor=1,
                mobile=False,
            )
        except BaseException:
            self.close()
            raise

    def _attach(self) -> ClientConnection:
        port_file = self.profile / "DevToolsActivePort"
        deadline = time.monotonic() + START_TIMEOUT_S
        while not port_file.is_file() or len(port_file.read_text().splitlines()) < 2:
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise RuntimeError("chromium did not open its DevTools port")
            time.sleep(0.05)
        port = int(port_file.read_text().splitlines()[0])
        browser_path = port_file.read_text().splitlines()[1]
        with connect(f"ws://127.0.0.1:{port}{browser_path}") as browser:
            self.socket = browser
            targets = self.call("Target.getTargets")["targetInfos"]
        page = next(t for t in targets if t["type"] == "page")
        page_url = f"ws://127.0.0.1:{port}/devtools/page/{page['targetId']}"
        return self._stack.enter_context(connect(page_url, max_size=None))

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        """Send one DevTools command and wait for its answer (events meanwhile are dropped)."""
        number = next(self._ids)
        self.socket.send(json.dumps({"id": number, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv(timeout=START_TIMEOUT_S))
            if message.get("id") == number:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                result: dict[str, Any] = message["result"]
                return result

    def evaluate(self, expression: str) -> Any:
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def open(self, url: str) -> None:
        self.call("Page.navigate", url=url)

    def pinch(self, x: float, y: float, spreads: list[float]) -> None:
        self.call("Emulation.setTouchEmulationEnabled", enabled=True, maxTouchPoints=2)

        def touch(kind: str, spread: float) -> None:
            points = [{"x": x - spread, "y": y, "id": 1}, {"x": x + spread, "y": y, "id": 2}]
            self.call("Input.dispatchTouchEvent", type=kind, touchPoints=points)

        touch("touchStart", spreads[0])
        for spread in spreads[1:]:
            touch("touchMove", spread)
        self.call("Input.dispatchTouchEvent", type="touchEnd", touchPoints=[])

    def screenshot_png(self) -> bytes:
        data = self.call("Page.captureScreenshot", format="png")["data"]
        return base64.b64decode(data)

    def close(self) -> None:
        self._stack.close()
        end_process(self.process)
        self.trap.close()
        shutil.rmtree(self.profile, ignore_errors=True)
