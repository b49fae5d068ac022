"""Share with players: the View menu entry, the dialog, the status bar, and the hand-over of
each new players' projection to the share server (``server.py``) on its own thread."""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

import shiboken6
from PySide6.QtCore import QObject, QRectF, QSettings, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QLabel

from battlemap.ui.feature_window import FeatureWindow
from battlemap.ui.players.controller import CameraMode, PlayersController
from battlemap.ui.players.projection import PlayerView
from battlemap.ui.share.addresses import ALL_INTERFACES, LOOPBACK, ShareAddress, share_addresses
from battlemap.ui.style import scene_to_cell

if TYPE_CHECKING:  # imported when the DM first shares (websockets, asyncio, QR codes)
    from battlemap.ui.players.ruling import ShownRuling
    from battlemap.ui.share.dialog import ShareDialog
    from battlemap.ui.share.payload import Camera
    from battlemap.ui.share.server import ShareServer, Snapshot


class ShareController(QObject):
    """Off until the DM starts it; then every projection the players' window gets (and every
    camera change) goes to the phones too.

    Signals:
        players_changed(int): how many phones are connected (emitted from the server
            thread; Qt queues it to this object's thread).
    """

    players_changed = Signal(int)

    def __init__(
        self, window: FeatureWindow, players: PlayersController, settings: QSettings
    ) -> None:
        super().__init__(window)
        self.window = window
        self.players = players
        self.settings = settings
        self.server: ShareServer | None = None
        self.dialog: ShareDialog | None = None
        self.shown_host = LOOPBACK
        self.status_label = QLabel()
        self.status_label.hide()
        window.statusBar().addPermanentWidget(self.status_label)
        self.action = window.view_menu.addAction("S&hare with players…")
        self.action.setStatusTip("Show the players' view on their phones, over this network")
        self.action.triggered.connect(self.open_dialog)
        self.players_changed.connect(self._show_players)
        players.view_listeners.append(self._on_view)
        players.camera_listeners.append(self._on_camera)

    # --- the DM's side ---------------------------------------------------------------

    def open_dialog(self) -> None:
        from battlemap.ui.share.dialog import DEFAULT_PORT, ShareDialog

        chosen = str(self.settings.value("share/address", ""))
        if self.dialog is None:
            port = int(str(self.settings.value("share/port", DEFAULT_PORT)))
            self.dialog = ShareDialog(share_addresses(), chosen, port, self.window)
            self.dialog.start_requested.connect(self.start)
            self.dialog.stop_requested.connect(self.stop)
            self.dialog.revoke_requested.connect(self.revoke)
        elif self.server is None and not self.dialog.isVisible():
            # The laptop may have joined (or left) a network since the dialog was last open.
            self.dialog.set_addresses(share_addresses(), chosen)
        self._refresh_dialog()
        self.dialog.show()
        if QGuiApplication.platformName() != "offscreen":  # it cannot raise windows
            self.dialog.raise_()

    def start(self, address: ShareAddress, port: int) -> str | None:
        """Start serving on ``address:port``; the reason when it cannot (also shown)."""
        from battlemap.ui.share.images import prepare_map_image, prepare_token_image
        from battlemap.ui.share.page import page_bytes, players_palette
        from battlemap.ui.share.server import ShareError, ShareServer

        self.stop()
        try:
            server = ShareServer(
                address.host,
                port,
                page_bytes(),
                players_palette(),
                prepare_map_image,
                on_clients=self._count_from_server_thread,
                prepare_token_image=prepare_token_image,
            )
            server.start()
        except (ShareError, OSError, ValueError) as error:  # port in use; page files missing
            if self.dialog is not None:
                self.dialog.show_stopped(f"Could not share: {error}")
            return str(error)
        self.server = server
        # Torn down with the window (a plain callable: this object is gone by then).
        self.destroyed.connect(server.stop)
        self.shown_host = address.host if not address.everywhere else _first_lan_host()
        self.settings.setValue("share/address", address.host)
        self.settings.setValue("share/port", port)
        if self.players.last_view is not None:
            self._on_view(self.players.last_view)
        self._refresh_dialog()
        self._show_players(0)
        return None

    def stop(self) -> None:
        server, self.server = self.server, None
        if server is not None:
            server.stop()
        if shiboken6.isValid(self.status_label):
            self.status_label.hide()
            self._refresh_dialog()

    def revoke(self) -> None:
        if self.server is not None:
            self.server.revoke()
            self._refresh_dialog()

    def url(self) -> str | None:
        return None if self.server is None else self.server.url(self.shown_host)

    # --- to the phones ---------------------------------------------------------------

    def snapshot(self, view: PlayerView) -> Snapshot:
        from battlemap.ui.share.server import MapSource, Snapshot

        background = view.background
        images = self.players.document.images
        source = None
        if background is not None and background.image in images:
            clip = getattr(view, "background_clip", None)
            source = MapSource(images[background.image], background, clip)
        pictures = {t.image: images[t.image] for t in view.tokens if t.image in images}
        return Snapshot(view, self.camera(), source, pictures)

    def camera(self) -> Camera:
        """What the players' window frames (or would frame, while closed), in cells."""
        from battlemap.ui.share.payload import Camera

        players = self.players
        rect: QRectF
        if players.camera_mode is CameraMode.STEER:
            rect = players.outline.area()
        elif players.camera_mode is CameraMode.TABLETOP and players.window.isVisible():
            rect = players.window.visible_scene_rect()
        else:
            rect = players.dm_view.visible_scene_rect()
        return Camera(
            scene_to_cell(rect.x()),
            scene_to_cell(rect.y()),
            scene_to_cell(rect.width()),
            scene_to_cell(rect.height()),
        )

    def _on_view(self, view: PlayerView) -> None:
        if self.server is not None:
            self.server.publish(self.snapshot(view))

    def _on_camera(self) -> None:
        if self.server is not None:
            self.server.publish_camera(self.camera())

    def show_ruling(self, ruling: ShownRuling | None, shown_ms: int, fade_ms: int) -> None:
        """The ruling the players' window shows now (None: taken down), to the phones too."""
        if self.server is not None:
            from battlemap.ui.share.payload import encode, ruling_json

            self.server.publish_ruling(encode(ruling_json(ruling, shown_ms, fade_ms)))

    # --- what the DM sees ------------------------------------------------------------

    def _count_from_server_thread(self, count: int) -> None:
        # The window (and this object) may go away while a phone leaves.
        with contextlib.suppress(RuntimeError):
            self.players_changed.emit(count)

    def _show_players(self, count: int) -> None:
        if self.server is None:
            return
        where = f"{self.shown_host}:{self.server.port}"
        self.status_label.setText(f"Sharing on {where}: {count} connected")
        self.status_label.show()
        if self.dialog is not None:
            self.dialog.show_players(count)

    def _refresh_dialog(self) -> None:
        if self.dialog is None:
            return
        url = self.url()
        if self.server is None or url is None:
            self.dialog.show_stopped()
        else:
            self.dialog.show_sharing(url, self.server.join_code, self.server.client_count)


def _first_lan_host() -> str:
    """The address to show when serving on all networks: the first LAN one, else loopback."""
    hosts = [a.host for a in share_addresses() if a.host not in (LOOPBACK, ALL_INTERFACES)]
    return hosts[0] if hosts else LOOPBACK


def install(window: FeatureWindow) -> ShareController:
    return ShareController(window, window.players, window.settings)
