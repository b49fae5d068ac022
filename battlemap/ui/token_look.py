"""How a token looks, shared by the DM's and the players' scenes: a disc and a name plate."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPen
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsSimpleTextItem,
    QStyleOptionGraphicsItem,
    QWidget,
)

from battlemap.ui.style import SCENE_UNITS_PER_CELL

PLATE_FONT_PX = int(SCENE_UNITS_PER_CELL * 0.26)
PLATE_BACK = QColor(25, 25, 25, 200)
PLATE_TEXT = QColor("#ffffff")
HIGHLIGHT = QColor("#ffe066")


def initials(name: str) -> str:
    """Up to two letters for the disc: "Hill Giant" -> "HG", "Goblin 3" -> "G3"."""
    words = name.split()
    if len(words) >= 2:
        return (words[0][0] + words[-1][0]).upper()
    return name[:2].capitalize()


def disc_rect(side: float) -> QRectF:
    margin = side * 0.06
    return QRectF(margin, margin, side - 2 * margin, side - 2 * margin)


def paint_disc(
    painter: QPainter,
    side: float,
    fill: QColor,
    outline: QColor,
    outline_width: float,
    text: str,
    dashed: bool = False,
) -> None:
    """A filled disc inside a square of ``side`` scene units, with ``text`` in its middle."""
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    disc = disc_rect(side)
    pen = QPen(outline, outline_width)
    if dashed:
        pen.setStyle(Qt.PenStyle.DashLine)
    painter.setPen(pen)
    painter.setBrush(QBrush(fill))
    painter.drawEllipse(disc)
    font = QFont()
    font.setBold(True)
    font.setPixelSize(max(6, int(side * 0.34)))
    painter.setFont(font)
    painter.setPen(PLATE_TEXT)
    painter.drawText(disc, Qt.AlignmentFlag.AlignCenter, text)


class NamePlate(QGraphicsSimpleTextItem):
    """A readable name on a dark plate, centred under its parent token."""

    def __init__(self, parent: QGraphicsItem) -> None:
        super().__init__(parent)
        font = QFont()
        font.setPixelSize(PLATE_FONT_PX)
        font.setBold(True)
        self.setFont(font)
        self.setBrush(PLATE_TEXT)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def place(self, text: str, token_side: float) -> None:
        self.setText(text)
        width = self.boundingRect().width()
        self.setPos((token_side - width) / 2, token_side - PLATE_FONT_PX * 0.35)

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(PLATE_BACK)
        painter.drawRoundedRect(self.boundingRect(), 6, 6)
        super().paint(painter, option, widget)  # type: ignore[arg-type]  # None is accepted

    def boundingRect(self) -> QRectF:
        return super().boundingRect().adjusted(-6, -1, 6, 1)
