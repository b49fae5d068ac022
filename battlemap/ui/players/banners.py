"""The players' window's turn banner and initiative strip, each along one edge of the screen
and turned to face the seats there (``facing``).

An ``EdgeLabel`` is a plain-text ``QLabel`` (its text, visibility and style as before) that,
turned, paints its text itself: along the left or right edge its size hint is the upright
one turned a quarter, and a text longer than the screen is cut with an ellipsis rather than
making the window taller than the TV.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFontMetricsF, QPainter, QPaintEvent
from PySide6.QtWidgets import QGridLayout, QLabel, QWidget

BANNER_BACK = QColor(20, 20, 20, 210)
BANNER_TEXT = QColor("#f4efe4")
BANNER_STYLE = (
    "background: rgba(20, 20, 20, 210); color: #f4efe4; font-size: 26px; font-weight: bold;"
    "padding: 8px 18px;"
)
PADDING = (18, 8)
"""The style's padding, across and along the text's lines, for the turned paint."""
EDGE_CELLS = {0.0: (0, 1), 180.0: (2, 1), 90.0: (1, 2), 270.0: (1, 0)}
"""The grid cell a banner facing this way sits in when it is the far one (the turn banner:
at the top for readers along the bottom); the near one (the strip) takes the opposite."""
OPPOSITE = {(0, 1): (2, 1), (2, 1): (0, 1), (1, 2): (1, 0), (1, 0): (1, 2)}
VIEW_CELL = (1, 1)


class EdgeLabel(QLabel):
    """A banner that can be turned by 0, 90, 180 or 270 degrees."""

    def __init__(self, style: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)  # names come from files and the DM
        self.setStyleSheet(style)
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.angle = 0.0

    def set_angle(self, angle: float) -> None:
        self.angle = angle % 360
        self.updateGeometry()
        self.update()

    def _sideways(self) -> bool:
        return self.angle in (90.0, 270.0)

    def sizeHint(self) -> QSize:
        upright = super().sizeHint()
        return upright.transposed() if self._sideways() else upright

    def minimumSizeHint(self) -> QSize:
        upright = super().minimumSizeHint()
        if self._sideways():  # its thickness; any length (the text is elided)
            return QSize(upright.height(), 0)
        return upright

    def paintEvent(self, event: QPaintEvent) -> None:
        if self.angle == 0.0:
            super().paintEvent(event)
            return
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.fillRect(self.rect(), BANNER_BACK)
        width, height = float(self.width()), float(self.height())
        along, across = (height, width) if self._sideways() else (width, height)
        painter.translate(width / 2, height / 2)
        painter.rotate(self.angle)
        box = QRectF(-along / 2, -across / 2, along, across)
        painter.setPen(BANNER_TEXT)
        painter.setFont(self.font())
        room = max(0.0, along - 2 * PADDING[0])
        text = QFontMetricsF(self.font()).elidedText(self.text(), Qt.TextElideMode.ElideRight, room)
        painter.drawText(box, Qt.AlignmentFlag.AlignCenter, text)
        painter.end()


def place_banners(
    layout: QGridLayout,
    view: QWidget,
    banner: EdgeLabel,
    strip: EdgeLabel,
    angles: tuple[float, float],
) -> None:
    """Put the turn banner and the strip along the edges ``angles`` (theirs) face: the
    banner at the far edge for its readers, the strip at the near one; both facing the
    same way sit on opposite edges, a banner turned to the top and a strip upright (each
    facing its own edge) at the top and the bottom."""
    banner_angle, strip_angle = angles
    banner.set_angle(banner_angle)
    strip.set_angle(strip_angle)
    if banner_angle == strip_angle:
        banner_cell = EDGE_CELLS[banner_angle]
        strip_cell = OPPOSITE[banner_cell]
    else:  # each along the edge it faces
        banner_cell = OPPOSITE[EDGE_CELLS[banner_angle]]
        strip_cell = OPPOSITE[EDGE_CELLS[strip_angle]]
    for widget in (view, banner, strip):
        layout.removeWidget(widget)
    layout.addWidget(view, *VIEW_CELL)
    layout.addWidget(banner, *banner_cell)
    layout.addWidget(strip, *strip_cell)
    for row in range(3):
        layout.setRowStretch(row, 1 if row == VIEW_CELL[0] else 0)
        layout.setColumnStretch(row, 1 if row == VIEW_CELL[1] else 0)
