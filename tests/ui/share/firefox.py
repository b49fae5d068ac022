"""A headless Firefox (Debian's ``firefox-esr``) driven over its built-in WebDriver BiDi
(a WebSocket; no geckodriver), for the page tests.

A fresh profile would call home (updates, telemetry, Normandy, remote settings, safe
browsing, the captive-portal and connectivity checks): ``user.js`` turns each of those off,
and sends whatever is left to the ``NetworkTrap`` (``browser.py``), so a test can say how
many connections Firefox tried beyond the page's own server.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection

from tests.ui.share.browser import pinch_actions
from tests.ui.share.socket_browser import SocketBrowser

QUIET_PREFS: dict[str, bool | int | str] = {
    "app.update.enabled": False,
    "app.update.auto": False,
    "app.update.checkInstallTime": False,
    "app.update.disabledForTesting": True,
    "app.normandy.enabled": False,
    "app.normandy.api_url": "",
    "app.shield.optoutstudies.enabled": False,
    "toolkit.telemetry.enabled": False,
    "toolkit.telemetry.unified": False,
    "toolkit.telemetry.archive.enabled": False,
    "toolkit.telemetry.server": "",
    "datareporting.policy.dataSubmissionEnabled": False,
    "datareporting.healthreport.uploadEnabled": False,
    "browser.ping-centre.telemetry": False,
    "network.captive-portal-service.enabled": False,
    "network.connectivity-service.enabled": False,
    "network.trr.mode": 5,  # no DNS over HTTPS
    "network.dns.disablePrefetch": True,
    "network.prefetch-next": False,
    "network.http.speculative-parallel-limit": 0,
    "browser.safebrowsing.malware.enabled": False,
    "browser.safebrowsing.phishing.enabled": False,
    "browser.safebrowsing.downloads.enabled": False,
    "browser.safebrowsing.downloads.remote.enabled": False,
    "browser.safebrowsing.blockedURIs.enabled": False,
    "browser.safebrowsing.provider.google.updateURL": "",
    "browser.safebrowsing.provider.google4.updateURL": "",
    "browser.safebrowsing.provider.mozilla.updateURL": "",
    "services.settings.server": "data:,#remote-settings-dummy/v1",  # with the env below
    "messaging-system.rsexperimentloader.enabled": False,
    "nimbus.rollouts.enabled": False,
    "extensions.update.enabled": False,
    "extensions.getAddons.cache.enabled": False,
    "extensions.blocklist.enabled": False,
    "extensions.systemAddon.update.enabled": False,
    "media.gmp-manager.url": "",
    # Firefox fetches Widevine from Google's component updater when its own manager gives
    # nothing: seen in the no-connection test as update.googleapis.com.
    "media.gmp-manager.chromium-update-url": "",
    "media.gmp-gmpopenh264.enabled": False,
    "media.gmp-widevinecdm.enabled": False,
    "media.gmp-provider.enabled": False,
    "media.eme.enabled": False,
    "browser.safebrowsing.provider.google5.updateURL": "",
    "dom.push.connection.enabled": False,
    "geo.provider.network.url": "",
    "browser.region.network.url": "",
    "browser.search.update": False,
    "browser.shell.checkDefaultBrowser": False,
    "browser.startup.page": 0,
    "browser.startup.homepage": "about:blank",
    "browser.startup.homepage_override.mstone": "ignore",
    "browser.newtabpage.enabled": False,
    "browser.newtabpage.activity-stream.feeds.topsites": False,
    "browser.newtabpage.activity-stream.feeds.section.topstories": False,
    "browser.topsites.contile.enabled": False,
    "browser.contentblocking.report.lockwise.enabled": False,
    "identity.fxaccounts.enabled": False,
    "privacy.resistFingerprinting": False,
    "toolkit.startup.max_resumed_crashes": -1,
    "browser.sessionstore.resume_from_crash": False,
    "gfx.webrender.software": True,  # no GPU here; the same pixels everywhere
}

QUIET_ENVIRONMENT = {
    # Firefox's own test switch: lets a release build take the dummy remote-settings
    # server above (so it syncs nothing) and refuses connections beyond loopback.
    "MOZ_DISABLE_NONLOCAL_CONNECTIONS": "1",
}


def firefox_path() -> str | None:
    return shutil.which("firefox-esr") or shutil.which("firefox")


def user_js(trap_port: int) -> str:
    prefs = {
        **QUIET_PREFS,
        "network.proxy.type": 1,
        "network.proxy.http": "127.0.0.1",
        "network.proxy.http_port": trap_port,
        "network.proxy.ssl": "127.0.0.1",
        "network.proxy.ssl_port": trap_port,
        "network.proxy.share_proxy_settings": False,
        "network.proxy.no_proxies_on": "",  # loopback is never proxied anyway
    }
    return "".join(
        f"user_pref({json.dumps(key)}, {json.dumps(value)});\n" for key, value in prefs.items()
    )


def from_remote_value(remote: dict[str, Any]) -> Any:
    """A WebDriver BiDi ``RemoteValue`` (serialised by value) as Python."""
    kind, value = remote["type"], remote.get("value")
    if kind in ("undefined", "null"):
        return None
    if kind == "number" and isinstance(value, str):  # NaN, Infinity, -0
        return float(value)
    if kind == "array":
        return [from_remote_value(item) for item in value or []]
    if kind == "object":
        return {key: from_remote_value(item) for key, item in value or []}
    return value


class Firefox(SocketBrowser):
    """One headless Firefox with one page; ``close`` ends the process."""

    name = "firefox"

    def __init__(self, width: int, height: int) -> None:
        executable = firefox_path()
        if executable is None:
            raise FileNotFoundError("firefox-esr is not installed")

        def command(profile: Path) -> list[str]:
            (profile / "user.js").write_text(user_js(self.trap.port))
            return [
                executable,
                "--headless",
                "--no-remote",
                "--profile",
                str(profile),
                "--remote-debugging-port=0",
                "about:blank",
            ]

        self._launch(command, env={**os.environ, **QUIET_ENVIRONMENT})
        try:
            self.socket = self._attach()
            self.call("session.new", capabilities={})
            tree = self.call("browsingContext.getTree", maxDepth=0)
            self.context = tree["contexts"][0]["context"]
            viewport = {"width": width, "height": height}
            self.call("browsingContext.setViewport", context=self.context, viewport=viewport)
        except BaseException:
            self.close()
            raise

    def _attach(self) -> ClientConnection:
        port_file = self.profile / "WebDriverBiDiServer.json"

        def port() -> int:
            return int(json.loads(port_file.read_text())["ws_port"])

        bidi_port = self._wait_for(port, "its WebDriver BiDi port")
        return self._connect(f"ws://127.0.0.1:{bidi_port}/session")

    @staticmethod
    def _error_of(message: dict[str, Any]) -> str | None:
        if message.get("type") != "error":
            return None
        return f"{message['error']}: {message.get('message')}"

    def open(self, url: str) -> None:
        self.call("browsingContext.navigate", context=self.context, url=url, wait="complete")

    def evaluate(self, expression: str) -> Any:
        answer = self.call(
            "script.evaluate",
            expression=expression,
            target={"context": self.context},
            awaitPromise=False,
        )
        if answer["type"] == "exception":
            raise RuntimeError(f"{expression}: {answer['exceptionDetails']['text']}")
        return from_remote_value(answer["result"])

    def pinch(self, x: float, y: float, spreads: list[float]) -> None:
        actions = pinch_actions(x, y, spreads)
        self.call("input.performActions", context=self.context, actions=actions)
        self.call("input.releaseActions", context=self.context)

    def screenshot_png(self) -> bytes:
        data = self.call("browsingContext.captureScreenshot", context=self.context)["data"]
        return base64.b64decode(data)
