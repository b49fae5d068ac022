"""A token's disc with its state, painted alike on the DM's and the players' windows.

The outline is two rings, dark outside and light inside, so a disc reads on any floor (a red
disc on a red floor keeps its white ring; on a white floor its black one). On top: a thick
amber ring for the creature whose turn it is, a red inner ring when bloodied, and the
down/dying/stable/dead looks (dead: grey with a cross; dying: red outline and a cracked heart;
stable: a green cross badge; unconscious: a "Zz" badge).
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen

from battlemap.model.traits import TokenShape
from battlemap.ui.condition_icons import ConditionMark, paint_icon
from battlemap.ui.token_image import TokenImages, paint_token_image
from battlemap.ui.token_look import HIGHLIGHT, PLATE_TEXT, disc_rect, draw_centred
from battlemap.ui.token_state import Vital

OUTLINE_DARK = QColor(10, 10, 10, 235)
OUTLINE_LIGHT = QColor("#f4f4f4")
TURN_RING = QColor("#ffb300")
BLOODIED_RING = QColor("#c4001d")
DYING_RING = QColor("#ff2a2a")
DOWN_RING = QColor("#555555")
DEAD_CROSS = QColor("#e2e2e2")
BADGES = {Vital.DYING: "dying", Vital.STABLE: "stable", Vital.UNCONSCIOUS: "unconscious"}
"""The state badge's glyph (``condition_icons``) per state; dead shows its cross instead."""


@dataclass(frozen=True)
class DiscLook:
    """Everything ``paint_disc_state`` draws, hashable: a token's pixmap cache key."""

    fill: str
    """The disc's colour as ``#rrggbb`` (the creature's own colour, or its side's)."""
    text: str
    selected: bool = False
    acting: bool = False
    vital: Vital = Vital.UP
    bloodied: bool = False
    dashed: bool = False
    badge: bool = True
    """Draw the state badge (False when a condition icon already says the same)."""
    image: str | None = None
    """The token's picture (an image name), drawn instead of the initials; its ring is then
    in ``fill``, the side's (or the DM's) colour."""
    shape: TokenShape = TokenShape.CIRCLE


def dead_grey(colour: QColor) -> QColor:
    """A dead creature's disc: its colour drained to a dark grey (its hue barely left)."""
    return QColor.fromHsvF(max(0.0, colour.hsvHueF()), 0.06, 0.42)


def shown_fill(look: DiscLook) -> QColor:
    colour = QColor(look.fill)
    if look.vital is Vital.DEAD:
        return dead_grey(colour)
    if look.vital is not Vital.UP:
        return colour.darker(180)
    return colour


def _ring(
    painter: QPainter,
    rect: QRectF,
    colour: QColor,
    width: float,
    dashed: bool = False,
    square: bool = False,
) -> None:
    pen = QPen(colour, width)
    if dashed:
        pen.setStyle(Qt.PenStyle.DashLine)
    painter.setPen(pen)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    if square:
        painter.drawRect(rect)
    else:
        painter.drawEllipse(rect)


PICTURE_DOWN_VEIL = QColor(0, 0, 0, 120)
PICTURE_DEAD_VEIL = QColor(20, 20, 20, 170)


def _paint_picture(
    painter: QPainter, rect: QRectF, images: TokenImages, name: str, look: DiscLook
) -> bool:
    """The picture in the footprint, darkened when down and more when dead (as a disc's
    fill is); False when it cannot be shown (the disc's initials are drawn instead)."""
    if not paint_token_image(painter, rect, images, name, look.shape):
        return False
    if look.vital is not Vital.UP:
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(PICTURE_DEAD_VEIL if look.vital is Vital.DEAD else PICTURE_DOWN_VEIL)
        if look.shape is TokenShape.SQUARE:
            painter.drawRect(rect)
        else:
            painter.drawEllipse(rect)
    return True


def badge_rect(side: float) -> QRectF:
    size = side * 0.42
    return QRectF(side - size, side - size, size, size)


def paint_disc_state(
    painter: QPainter, side: float, look: DiscLook, images: TokenImages | None = None
) -> None:
    """The disc of a token ``side`` scene units wide (its space's square) in ``look``; its
    picture from ``images`` when ``look.image`` names one that can be shown."""
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    disc = disc_rect(side)
    margin = disc.left()
    square = look.image is not None and look.shape is TokenShape.SQUARE
    if look.acting:  # in the margin around the disc, outside its outline
        width = margin * 1.5
        turn = disc.adjusted(-width / 3, -width / 3, width / 3, width / 3)
        _ring(painter, turn, TURN_RING, width, square=square)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(shown_fill(look))
    if square:
        painter.drawRect(disc)
    else:
        painter.drawEllipse(disc)
    pictured = (
        look.image is not None
        and images is not None
        and _paint_picture(painter, disc, images, look.image, look)
    )
    dark = max(1.5, side * 0.035)
    light = max(1.5, side * (0.06 if look.selected or pictured else 0.035))
    outer = DYING_RING if look.vital is Vital.DYING else OUTLINE_DARK
    if look.vital is Vital.DYING:
        dark *= 1.8
    inset = dark / 2 + light / 2
    _ring(painter, disc, outer, dark, dashed=look.dashed, square=square)
    plain = shown_fill(look) if pictured else OUTLINE_LIGHT  # a picture's ring: its side's
    _ring(
        painter,
        disc.adjusted(inset, inset, -inset, -inset),
        HIGHLIGHT if look.selected else (DOWN_RING if look.vital is Vital.DEAD else plain),
        light,
        dashed=look.dashed,
        square=square,
    )
    if look.bloodied:
        width = side * 0.06
        inner = inset + light / 2 + width / 2
        bloodied = disc.adjusted(inner, inner, -inner, -inner)
        _ring(painter, bloodied, BLOODIED_RING, width, square=square)
    if not pictured:
        painter.setPen(PLATE_TEXT)
        draw_centred(painter, disc, look.text, max(6, int(side * 0.34)))
    if look.vital is Vital.DEAD:
        pen = QPen(DEAD_CROSS, side * 0.08)
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        painter.setPen(pen)
        cross = disc.adjusted(side * 0.14, side * 0.14, -side * 0.14, -side * 0.14)
        painter.drawLine(cross.topLeft(), cross.bottomRight())
        painter.drawLine(cross.topRight(), cross.bottomLeft())
    badge = BADGES.get(look.vital)
    if badge is not None and look.badge:
        paint_icon(painter, badge_rect(side), ConditionMark(badge))
