"""The players' window: full screen on the TV or projector, no chrome, no interaction."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QCloseEvent, QColor, QPainter, QScreen
from PySide6.QtWidgets import QFrame, QGraphicsView, QGridLayout, QWidget

from battlemap import APP_NAME
from battlemap.model.document import Document
from battlemap.ui.players.banners import BANNER_STYLE, EdgeLabel, place_banners
from battlemap.ui.players.facing import Facing, banner_angles, plate_angle
from battlemap.ui.players.projection import PlayerView
from battlemap.ui.players.scene import PlayerScene


class PlayerWindow(QWidget):
    """Shows a ``PlayerScene`` plus the round, whose turn it is and the initiative strip.

    Signals:
        closed(): the window was closed from its own side (it only hides).
    """

    closed = Signal()

    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setWindowTitle(f"{APP_NAME} — Players")
        # The TV's window never takes the keyboard: the DM's shortcuts (N, A...) and the box
        # being typed in keep working as it opens (found by the scripted session).
        self.setAttribute(Qt.WidgetAttribute.WA_ShowWithoutActivating)
        self.setStyleSheet("background: black;")
        self.scene = PlayerScene(document)
        self.view = QGraphicsView(self.scene, self)
        self.view.setFrameShape(QFrame.Shape.NoFrame)
        self.view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.view.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.view.setInteractive(False)
        self.view.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.view.setBackgroundBrush(QColor("black"))
        self.view.setRenderHints(
            QPainter.RenderHint.Antialiasing | QPainter.RenderHint.SmoothPixmapTransform
        )
        self.view.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.banner = EdgeLabel(BANNER_STYLE, self)
        self.banner.hide()
        self.strip = EdgeLabel(BANNER_STYLE.replace("26px", "20px"), self)
        self.strip.hide()
        self.grid_layout = QGridLayout(self)
        self.grid_layout.setContentsMargins(0, 0, 0, 0)
        self.grid_layout.setSpacing(0)
        self.facing = Facing.BOTTOM
        place_banners(self.grid_layout, self.view, self.banner, self.strip, (0.0, 0.0))
        self.resize(960, 540)
        self._area: QRectF | None = None
        self._scale: tuple[QPointF, float] | None = None
        self.view.viewport().installEventFilter(self)  # the banner or strip resizes it

    def show_view(self, view: PlayerView) -> None:
        self.scene.show_view(view)
        self.face_plates()
        turn = view.turn
        if turn is None:
            self.banner.hide()
            self.strip.hide()
            return
        acting = f" — {turn.acting_label}'s turn" if turn.acting_label else ""
        self.banner.setText(f"Round {turn.round}{acting}")
        self.banner.setVisible(turn.round is not None)
        self.strip.setText("   ›   ".join(turn.order))
        self.strip.setVisible(bool(turn.order))

    # --- tabletop ------------------------------------------------------------

    def set_facing(self, facing: Facing) -> None:
        """Turn the plates and banners to the seats ``facing`` says."""
        self.facing = facing
        place_banners(self.grid_layout, self.view, self.banner, self.strip, banner_angles(facing))
        self.face_plates()

    def face_plates(self) -> None:
        """Each plate's angle, from where its token is on the screen now."""
        screen = QRectF(self.view.viewport().rect())
        angles = {}
        for key, item in self.scene.tokens.items():
            centre = QPointF(self.view.mapFromScene(item.sceneBoundingRect().center()))
            angles[key] = plate_angle(self.facing, centre, screen)
        self.scene.set_plate_angles(angles)

    # --- camera ------------------------------------------------------------

    def show_area(self, rect: QRectF) -> None:
        """Frame ``rect`` (scene coordinates), keeping its aspect ratio."""
        self._area, self._scale = QRectF(rect), None
        self.view.fitInView(rect, Qt.AspectRatioMode.KeepAspectRatio)
        self.face_plates()

    def show_at_scale(self, centre: QPointF, view_pixels_per_scene_unit: float) -> None:
        """Centre on ``centre`` at a fixed scale (tabletop mode)."""
        self._area, self._scale = None, (QPointF(centre), view_pixels_per_scene_unit)
        self.view.resetTransform()
        self.view.scale(view_pixels_per_scene_unit, view_pixels_per_scene_unit)
        self.view.centerOn(centre)
        self.face_plates()

    def visible_scene_rect(self) -> QRectF:
        return self.view.mapToScene(self.view.viewport().rect()).boundingRect()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Frame the area again when the view changes size without the window doing so: the
        strip appearing at the foot hid the party under it on first opening."""
        if watched is self.view.viewport() and event.type() == QEvent.Type.Resize:
            self._reframe()
        return False

    def resizeEvent(self, event: object) -> None:  # keep the framing when the window resizes
        super().resizeEvent(event)  # type: ignore[arg-type]
        self._reframe()

    def _reframe(self) -> None:
        if self._area is not None:
            self.view.fitInView(self._area, Qt.AspectRatioMode.KeepAspectRatio)
        elif self._scale is not None:
            self.view.centerOn(self._scale[0])
        self.face_plates()

    # --- screen ------------------------------------------------------------

    def place_on(self, screen: QScreen, full_screen: bool) -> None:
        """Move to ``screen``; full screen there hides every bit of window chrome."""
        self.setScreen(screen)
        self.move(screen.geometry().topLeft())
        if full_screen:
            self.setWindowFlag(Qt.WindowType.FramelessWindowHint, True)
            self.showFullScreen()
        else:
            self.setWindowFlag(Qt.WindowType.FramelessWindowHint, False)
            self.showNormal()

    def closeEvent(self, event: QCloseEvent) -> None:
        event.ignore()  # hide rather than destroy, so reopening keeps the camera and screen
        self.hide()
        self.closed.emit()
