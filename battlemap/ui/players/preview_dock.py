"""The players' preview: a small dock on the DM's window showing what the players' window
shows (its scene, its camera, its banner), so the DM need not look at the TV.

Cheap by construction: nothing is drawn while the dock is hidden; when it shows, the
players' scene is drawn into a small picture only after something changed there (the
scene's ``changed``, a camera move, a new projection), at most once per ``MIN_INTERVAL_MS``.
The DM's own frames never draw it.

Hidden by default (a 1366 x 768 laptop has no room beside the turn's controls); View >
Players' preview shows it, floating over the map's bottom-left corner the first time; where
the DM then puts it is kept with the window's layout (its object name).
"""

from __future__ import annotations

import time

from PySide6.QtCore import QRectF, QSize, Qt, QTimer
from PySide6.QtGui import QColor, QPainter, QPixmap
from PySide6.QtWidgets import QDockWidget, QLabel, QSizePolicy, QVBoxLayout, QWidget

from battlemap.ui.feature_window import FeatureWindow
from battlemap.ui.players.controller import PlayersController
from battlemap.ui.players.window import PlayerWindow

MIN_INTERVAL_MS = 250
"""At most four pictures a second (a fading ruling changes the scene every 40 ms)."""
FIRST_SIZE = QSize(360, 240)
PLACED_KEY = "players/preview_placed"
CLOSED_TEXT = "The players' window is closed (View > Players' window, F10)."


class PlayersPreview(QDockWidget):
    """The dock; ``refresh`` draws the picture now (tests), ``renders`` counts them.

    Attributes:
        picture: the label holding the latest picture.
        banner: the players' window's round and turn line, when it shows one.
        renders: how many pictures were drawn (for tests and the bench).
        last_render_ms: how long the last one took.
    """

    def __init__(self, window: FeatureWindow, players: PlayersController) -> None:
        super().__init__("Players' preview", window)
        self.setObjectName("players-preview-dock")
        self.main_window = window
        self.players = players
        self.renders = 0
        self.last_render_ms = 0.0
        self._last_at = 0.0
        body = QWidget(self)
        layout = QVBoxLayout(body)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.setSpacing(2)
        self.banner = QLabel(body)
        self.banner.setTextFormat(Qt.TextFormat.PlainText)  # names come from files
        self.banner.hide()
        self.picture = QLabel(body)
        self.picture.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.picture.setMinimumSize(160, 90)
        self.picture.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)
        self.picture.setWordWrap(True)
        layout.addWidget(self.banner)
        layout.addWidget(self.picture, 1)
        self.setWidget(body)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.refresh)
        players.window.scene.changed.connect(self.schedule)
        players.camera_listeners.append(self.schedule)
        players.view_listeners.append(self.schedule)
        self.visibilityChanged.connect(self.schedule)

    def schedule(self, *_args: object) -> None:
        """Draw soon: now if the last picture is old enough, else when it is."""
        if not self.isVisible() or self._timer.isActive():
            return
        since = (time.perf_counter() - self._last_at) * 1000
        self._timer.start(max(0, round(MIN_INTERVAL_MS - since)))

    def refresh(self) -> None:
        """Draw the players' window's scene as the TV frames it, at the dock's size."""
        if not self.isVisible():
            return
        started = time.perf_counter()
        self._last_at = started
        players_window = self.players.window
        if not players_window.isVisible():
            self.banner.hide()
            self.picture.setPixmap(QPixmap())
            self.picture.setText(CLOSED_TEXT)
            return
        banner = players_window.banner
        self.banner.setText(banner.text())
        self.banner.setVisible(not banner.isHidden())
        picture = draw_preview(players_window, self.picture.size(), self.devicePixelRatioF())
        self.picture.setPixmap(picture)
        self.renders += 1
        self.last_render_ms = (time.perf_counter() - started) * 1000

    def shown_from_menu(self, checked: bool) -> None:
        if checked:
            self.show_first_time()

    def show_first_time(self) -> None:
        """View > Players' preview: floating over the map's bottom-left corner the first
        time ever, then where the DM left it."""
        settings = self.main_window.settings
        if not settings.value(PLACED_KEY, False, type=bool):
            settings.setValue(PLACED_KEY, True)
            self.setFloating(True)
            view = self.main_window.view
            corner = view.mapToGlobal(view.rect().bottomLeft())
            self.resize(FIRST_SIZE)
            self.move(corner.x() + 8, corner.y() - FIRST_SIZE.height() - 8)
        self.show()
        if not self.isFloating():
            self.raise_()  # in front of the tabs it shares


def draw_preview(players_window: PlayerWindow, size: QSize, ratio: float = 1.0) -> QPixmap:
    """The players' window's scene as it frames it, drawn into ``size`` (black bars)."""
    pixmap = QPixmap(max(1, round(size.width() * ratio)), max(1, round(size.height() * ratio)))
    pixmap.setDevicePixelRatio(ratio)
    pixmap.fill(QColor("black"))
    painter = QPainter(pixmap)
    painter.setRenderHints(
        QPainter.RenderHint.Antialiasing | QPainter.RenderHint.SmoothPixmapTransform
    )
    source = players_window.visible_scene_rect()
    players_window.scene.render(painter, centred(source, size), source)
    painter.end()
    return pixmap


def centred(source: QRectF, size: QSize) -> QRectF:
    """The largest rect of ``source``'s shape centred in ``size`` (the scene's own
    ``KeepAspectRatio`` keeps it at the top-left)."""
    if source.width() <= 0 or source.height() <= 0:
        return QRectF(0, 0, size.width(), size.height())
    scale = min(size.width() / source.width(), size.height() / source.height())
    width, height = source.width() * scale, source.height() * scale
    return QRectF((size.width() - width) / 2, (size.height() - height) / 2, width, height)


def install(window: FeatureWindow) -> PlayersPreview:
    dock = PlayersPreview(window, window.players)
    window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
    dock.hide()
    toggle = dock.toggleViewAction()
    toggle.setText("Players' pre&view")
    toggle.setStatusTip("A small copy of what the players' window shows")
    toggle.triggered.connect(dock.shown_from_menu)
    window.view_menu.addAction(toggle)
    return dock
