"""A headless Chromium driven over its DevTools protocol (a WebSocket), for the page tests.

Only loopback addresses are opened: the page's server and Chromium's own DevTools port.
Anything else Chromium asks for (it still calls update.googleapis.com and
accounts.google.com, flags or not) goes to the ``NetworkTrap`` proxy and no further.
"""

from __future__ import annotations

import base64
import shutil
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection, connect

from tests.ui.share.socket_browser import SocketBrowser

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


class Chromium(SocketBrowser):
    """One headless Chromium with one page; ``close`` ends the process."""

    name = "chromium"

    def __init__(self, width: int, height: int) -> None:
        executable = chromium_path()
        if executable is None:
            raise FileNotFoundError("chromium is not installed")

        def command(profile: Path) -> list[str]:
            proxy = f"--proxy-server=http://127.0.0.1:{self.trap.port}"  # loopback bypasses it
            return [executable, *FLAGS, proxy, f"--user-data-dir={profile}", "about:blank"]

        self._launch(command)
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

        def port_and_path() -> list[str] | None:
            lines = port_file.read_text().splitlines()
            return lines if len(lines) >= 2 else None  # the port, then the browser's path

        port_line, browser_path = self._wait_for(port_and_path, "its DevTools port")[:2]
        port = int(port_line)
        with connect(f"ws://127.0.0.1:{port}{browser_path}") as browser:
            self.socket = browser
            targets = self.call("Target.getTargets")["targetInfos"]
        page = next(t for t in targets if t["type"] == "page")
        return self._connect(f"ws://127.0.0.1:{port}/devtools/page/{page['targetId']}")

    @staticmethod
    def _error_of(message: dict[str, Any]) -> str | None:
        return str(message["error"]) if "error" in message else None

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
