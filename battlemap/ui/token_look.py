"""How a token looks, shared by the DM's and the players' scenes: a disc and a name plate."""

from __future__ import annotations

import functools
from collections.abc import Sequence

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QStaticText
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsRectItem,
    QStyleOptionGraphicsItem,
    QWidget,
)

from battlemap.ui.style import SCENE_UNITS_PER_CELL
from battlemap.ui.zoom_cache import ZoomCache

PLATE_FONT_PX = int(SCENE_UNITS_PER_CELL * 0.26)
PLATE_HANG = PLATE_FONT_PX * 0.35
"""How far a plate at home reaches up over its token's bottom edge."""
PLATE_BACK = QColor(25, 25, 25, 200)
PLATE_TEXT = QColor("#ffffff")
HIGHLIGHT = QColor("#ffe066")


def condition_badges(conditions: Sequence[str]) -> str:
    """The badge line over a players' token: "Po Pr" for poisoned and prone."""
    return " ".join(name[:2].capitalize() for name in conditions)


def initials(name: str) -> str:
    """Up to two letters for the disc: "Hill Giant" -> "HG", "Goblin 3" -> "G3"."""
    words = name.split()
    if len(words) >= 2:
        return (words[0][0] + words[-1][0]).upper()
    return name[:2].capitalize()


@functools.lru_cache(maxsize=64)
def bold_font(pixel_size: int) -> QFont:
    """A bold font of ``pixel_size`` pixels, made once (shared; never changed after)."""
    font = QFont()
    font.setBold(True)
    font.setPixelSize(pixel_size)
    return font


@functools.lru_cache(maxsize=1024)
def static_text(text: str, pixel_size: int) -> QStaticText:
    """``text`` laid out once in ``bold_font(pixel_size)``; drawing it skips the layout that
    ``QPainter.drawText`` redoes on every call (a hundred tokens' labels on every frame)."""
    laid_out = QStaticText(text)
    laid_out.setTextFormat(Qt.TextFormat.PlainText)
    laid_out.prepare(font=bold_font(pixel_size))
    return laid_out


def draw_centred(painter: QPainter, rect: QRectF, text: str, pixel_size: int) -> None:
    """``text`` in ``bold_font(pixel_size)`` centred in ``rect``, as ``drawText`` with
    ``AlignCenter`` would place it (its line box centred both ways)."""
    laid_out = static_text(text, pixel_size)
    size = laid_out.size()
    painter.setFont(bold_font(pixel_size))
    painter.drawStaticText(
        QPointF(
            rect.x() + (rect.width() - size.width()) / 2,
            rect.y() + (rect.height() - size.height()) / 2,
        ),
        laid_out,
    )


def disc_rect(side: float) -> QRectF:
    margin = side * 0.06
    return QRectF(margin, margin, side - 2 * margin, side - 2 * margin)


class NamePlate(QGraphicsRectItem):
    """A readable name on a dark plate, centred under its parent token.

    A rect item with no pen, its rect the plate's: Qt reads the bounds it asks for several
    times a frame from C++ (a Python ``boundingRect`` cost ~5 us a call, ~2 ms a frame for a
    hundred plates)."""

    def __init__(self, parent: QGraphicsItem) -> None:
        super().__init__(parent)
        self.setPen(Qt.PenStyle.NoPen)
        self._name = ""
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        # Two caches: Qt's copies the plate on every frame without calling paint() (a plate
        # changes rarely); a zoom step empties it, and paint() copies the plate from its
        # pixmap per zoom bucket. An owner that fades the plate turns Qt's cache off (a
        # pixmap faded as one blends unlike the plate's parts faded one by one).
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self._looks = ZoomCache()
        self._text = static_text("", PLATE_FONT_PX)
        self._bounds = self._plate_rect()
        self.setRect(self._bounds)
        self.home = QPointF()
        """Where the plate goes when no neighbour's plate is in the way (see ``place``)."""
        self.token_side = 0.0
        """The side of its token's space (scene units), as last placed."""
        self.crowded = False
        """No free place near home: hidden, shown while the pointer is over its token."""

    def text(self) -> str:
        return self._name

    def _text_rect(self) -> QRectF:
        """The name's box from its top-left, as ``QGraphicsSimpleTextItem`` measures it."""
        metrics = QFontMetricsF(bold_font(PLATE_FONT_PX))
        return QRectF(0, 0, metrics.horizontalAdvance(self._name), metrics.height())

    def _plate_rect(self) -> QRectF:
        return self._text_rect().adjusted(-6, -1, 6, 1)

    def place(self, text: str, token_side: float, token_pos: QPointF | None = None) -> None:
        """Show ``text`` centred under a token ``token_side`` scene units wide (the one way
        to change the text: the plate's bounds are computed here, not on every frame).

        ``token_pos``: where the token is in the plate's parent (a top-level plate: the
        token's scene position); None for a child of the token. The plate goes to its
        ``home`` there; ``plate_layout.spread_plates`` may move it off home when crowded."""
        self._name = text
        self.token_side = token_side
        self._text = static_text(text, PLATE_FONT_PX)
        self._bounds = self._plate_rect()
        self.setRect(self._bounds)
        self._looks.clear()
        text_width = self._text_rect().width()  # the plate's margins stick out evenly
        origin = token_pos or QPointF()
        self.home = QPointF(
            origin.x() + (token_side - text_width) / 2,
            origin.y() + token_side - PLATE_HANG,
        )
        self.setPos(self.home)

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        self._looks.draw(painter, self._bounds, None, self._paint)

    def _paint(self, painter: QPainter) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(PLATE_BACK)
        painter.drawRoundedRect(self._bounds, 6, 6)
        # The text as QGraphicsSimpleTextItem.paint draws it (from its top-left, in the brush's
        # colour), from a layout made once per name instead of once per frame.
        painter.setPen(PLATE_TEXT)
        painter.setFont(bold_font(PLATE_FONT_PX))
        painter.drawStaticText(QPointF(0, 0), self._text)
