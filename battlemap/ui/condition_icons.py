"""Condition icons drawn in code, shared by the DM's and the players' tokens.

One glyph per condition of every shipped ruleset (``GLYPHS``), drawn with QPainter paths in
a 100 x 100 box on a dark rounded badge; a name without a glyph gets its initials in large
letters. A count (exhaustion level, Wounded 2) is drawn as a big digit beside the glyph.

``ICON_SCENE_UNITS`` makes an icon 25 px wide on the players' window at the tabletop scale
(one cell = one inch at 40 px per inch: 64 scene units -> 40 px), above issue 20's 24 px.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from battlemap.ui.style import SCENE_UNITS_PER_CELL
from battlemap.ui.token_look import draw_centred
from battlemap.ui.zoom_cache import ZoomCache

ICON_SCENE_UNITS = SCENE_UNITS_PER_CELL * 0.625
"""An icon's side: 40 scene units, 25 px at the default tabletop scale (40 px per cell)."""
ICON_GAP = ICON_SCENE_UNITS * 0.08
ICONS_PER_ROW_LEAST = 2
"""A row holds at least two icons (a Medium token and a bit) before the next row starts."""
BADGE_BACK = QColor(20, 20, 20, 225)
EXHAUSTION = "exhaustion"
"""Not a condition in the rulesets (a level on the combatant), but shown as one with its count."""

Glyph = Callable[[QPainter], None]
"""Draws into a 100 x 100 box (the painter is already scaled)."""


@dataclass(frozen=True)
class ConditionMark:
    """One icon: a condition id (a ruleset's key, or ``EXHAUSTION``) and a count to show
    (0 or 1: none; exhaustion level 3 shows 3)."""

    name: str
    count: int = 0

    @property
    def label(self) -> str:
        text = self.name.replace("-", " ").capitalize()
        return f"{text} {self.count}" if self.count > 1 else text


def _pen(painter: QPainter, colour: str, width: float) -> None:
    pen = QPen(QColor(colour), width)
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
    painter.setPen(pen)
    painter.setBrush(Qt.BrushStyle.NoBrush)


def _fill(painter: QPainter, colour: str) -> None:
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QBrush(QColor(colour)))


def _polygon(points: Sequence[tuple[float, float]]) -> QPolygonF:
    return QPolygonF([QPointF(x, y) for x, y in points])


def _slash(painter: QPainter) -> None:
    _pen(painter, "#ff4a4a", 10)
    painter.drawLine(QPointF(16, 84), QPointF(84, 16))


def _eye(painter: QPainter) -> None:
    path = QPainterPath(QPointF(8, 50))
    path.quadTo(50, 8, 92, 50)
    path.quadTo(50, 92, 8, 50)
    _pen(painter, "#f2f2f2", 8)
    painter.drawPath(path)
    _fill(painter, "#f2f2f2")
    painter.drawEllipse(QPointF(50, 50), 13, 13)


def _blinded(painter: QPainter) -> None:
    _eye(painter)
    _slash(painter)


def _heart_path() -> QPainterPath:
    path = QPainterPath(QPointF(50, 88))
    path.cubicTo(12, 62, 4, 34, 26, 20)
    path.cubicTo(38, 13, 48, 22, 50, 32)
    path.cubicTo(52, 22, 62, 13, 74, 20)
    path.cubicTo(96, 34, 88, 62, 50, 88)
    return path


def _charmed(painter: QPainter) -> None:
    _fill(painter, "#ff6fb5")
    painter.drawPath(_heart_path())


def _deafened(painter: QPainter) -> None:
    _fill(painter, "#9ad0ff")
    painter.drawPolygon(_polygon([(10, 38), (28, 38), (48, 18), (48, 82), (28, 62), (10, 62)]))
    _pen(painter, "#9ad0ff", 7)
    for radius in (14, 28):
        painter.drawArc(
            QRectF(50 - radius, 50 - radius, 2 * radius, 2 * radius), -50 * 16, 100 * 16
        )
    _slash(painter)


def _frightened(painter: QPainter) -> None:
    _pen(painter, "#c58cff", 8)
    painter.drawPolygon(_polygon([(50, 8), (94, 88), (6, 88)]))
    _fill(painter, "#c58cff")
    painter.drawRoundedRect(QRectF(43, 32, 14, 32), 6, 6)
    painter.drawEllipse(QPointF(50, 76), 8, 8)


def _grappled(painter: QPainter) -> None:
    _pen(painter, "#ffb44a", 10)
    painter.drawRoundedRect(QRectF(8, 32, 50, 36), 18, 18)
    painter.drawRoundedRect(QRectF(42, 32, 50, 36), 18, 18)


def _incapacitated(painter: QPainter) -> None:
    _pen(painter, "#ff8a3d", 10)
    painter.drawEllipse(QPointF(50, 50), 38, 38)
    painter.drawLine(QPointF(25, 50), QPointF(75, 50))


def _invisible(painter: QPainter) -> None:
    path = QPainterPath(QPointF(22, 90))
    path.lineTo(22, 44)
    path.cubicTo(22, 6, 78, 6, 78, 44)
    path.lineTo(78, 90)
    for x in (68, 58, 50, 42, 32):
        path.lineTo(x, 80 if x in (68, 50, 32) else 90)
    path.lineTo(22, 90)
    pen = QPen(QColor("#e8f4ff"), 7)
    pen.setStyle(Qt.PenStyle.DashLine)
    painter.setPen(pen)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawPath(path)
    _fill(painter, "#e8f4ff")
    painter.drawEllipse(QPointF(40, 40), 6, 6)
    painter.drawEllipse(QPointF(60, 40), 6, 6)


def _paralyzed(painter: QPainter) -> None:
    _fill(painter, "#ffe23d")
    painter.drawPolygon(
        _polygon([(58, 4), (18, 56), (44, 56), (34, 96), (82, 40), (56, 40), (68, 4)])
    )


def _petrified(painter: QPainter) -> None:
    _fill(painter, "#b8b0a4")
    painter.drawPolygon(_polygon([(12, 82), (22, 40), (44, 18), (72, 24), (90, 56), (80, 86)]))
    _pen(painter, "#4a4640", 5)
    painter.drawPolyline(_polygon([(44, 18), (50, 44), (38, 60), (46, 84)]))


def _drop_path() -> QPainterPath:
    path = QPainterPath(QPointF(50, 6))
    path.cubicTo(62, 34, 84, 50, 84, 66)
    path.cubicTo(84, 84, 68, 94, 50, 94)
    path.cubicTo(32, 94, 16, 84, 16, 66)
    path.cubicTo(16, 50, 38, 34, 50, 6)
    return path


def _poisoned(painter: QPainter) -> None:
    _fill(painter, "#5fdc4a")
    painter.drawPath(_drop_path())
    _fill(painter, "#1c3a14")
    painter.drawEllipse(QPointF(40, 66), 7, 7)
    painter.drawEllipse(QPointF(60, 66), 7, 7)


def _prone(painter: QPainter) -> None:
    _fill(painter, "#f2f2f2")
    painter.drawEllipse(QPointF(18, 56), 10, 10)
    _pen(painter, "#f2f2f2", 12)
    painter.drawLine(QPointF(34, 58), QPointF(86, 58))
    _pen(painter, "#a0a0a0", 6)
    painter.drawLine(QPointF(6, 78), QPointF(94, 78))


def _restrained(painter: QPainter) -> None:
    _pen(painter, "#d9a060", 7)
    for at in (30, 50, 70):
        painter.drawLine(QPointF(at, 10), QPointF(at, 90))
        painter.drawLine(QPointF(10, at), QPointF(90, at))
    painter.drawRoundedRect(QRectF(10, 10, 80, 80), 10, 10)


def _star(cx: float, cy: float, outer: float) -> QPolygonF:
    points = []
    for i in range(10):
        radius = outer if i % 2 == 0 else outer * 0.42
        angle = math.pi * (i / 5 - 0.5)
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return _polygon(points)


def _stunned(painter: QPainter) -> None:
    _fill(painter, "#ffd84a")
    painter.drawPolygon(_star(44, 56, 38))
    painter.drawPolygon(_star(80, 20, 16))


def _z(painter: QPainter, x: float, y: float, size: float) -> None:
    painter.drawPolyline(_polygon([(x, y), (x + size, y), (x, y + size), (x + size, y + size)]))


def _unconscious(painter: QPainter) -> None:
    _pen(painter, "#b8d4ff", 10)
    _z(painter, 10, 48, 40)
    _pen(painter, "#b8d4ff", 7)
    _z(painter, 60, 14, 26)


def _stable(painter: QPainter) -> None:
    _fill(painter, "#4ad66d")
    painter.drawRoundedRect(QRectF(38, 10, 24, 80), 5, 5)
    painter.drawRoundedRect(QRectF(10, 38, 80, 24), 5, 5)


def _last_breath(painter: QPainter) -> None:
    flame = QPainterPath(QPointF(50, 4))
    flame.cubicTo(70, 30, 86, 48, 84, 68)
    flame.cubicTo(82, 88, 64, 96, 50, 96)
    flame.cubicTo(36, 96, 18, 88, 16, 68)
    flame.cubicTo(14, 48, 40, 36, 50, 4)
    _fill(painter, "#ff7a1a")
    painter.drawPath(flame)
    _fill(painter, "#ffe07a")
    painter.drawEllipse(QRectF(38, 58, 24, 32))


def _wounded(painter: QPainter) -> None:
    painter.save()
    painter.translate(50, 50)
    painter.rotate(-45)
    _fill(painter, "#f0d9b5")
    painter.drawRoundedRect(QRectF(-44, -16, 88, 32), 14, 14)
    _fill(painter, "#d23a3a")
    painter.drawRect(QRectF(-12, -12, 24, 24))
    painter.restore()


def _soaked(painter: QPainter) -> None:
    _pen(painter, "#5ab4ff", 8)
    for y in (28, 50, 72):
        wave = QPainterPath(QPointF(8, y))
        wave.cubicTo(22, y - 14, 36, y + 14, 50, y)
        wave.cubicTo(64, y - 14, 78, y + 14, 92, y)
        painter.drawPath(wave)


def _exhaustion(painter: QPainter) -> None:
    _pen(painter, "#ffcf70", 7)
    painter.drawRoundedRect(QRectF(8, 28, 74, 44), 6, 6)
    _fill(painter, "#ffcf70")
    painter.drawRect(QRectF(84, 40, 8, 20))
    _fill(painter, "#ff5a3d")
    painter.drawRect(QRectF(16, 36, 16, 28))


def _dying(painter: QPainter) -> None:
    _fill(painter, "#ff3030")
    painter.drawPath(_heart_path())
    _pen(painter, "#1a1a1a", 7)
    painter.drawPolyline(_polygon([(50, 30), (42, 50), (56, 60), (48, 84)]))


def _dead(painter: QPainter) -> None:
    _fill(painter, "#e6e6e6")
    painter.drawEllipse(QRectF(18, 8, 64, 58))
    painter.drawRoundedRect(QRectF(32, 56, 36, 30), 6, 6)
    _fill(painter, "#1a1a1a")
    painter.drawEllipse(QPointF(37, 40), 10, 11)
    painter.drawEllipse(QPointF(63, 40), 10, 11)
    for x in (42, 58):
        painter.drawRect(QRectF(x - 3, 70, 6, 16))


STATE_GLYPHS: dict[str, Glyph] = {"dying": _dying, "dead": _dead}
"""Badges of a token's state that no ruleset lists as a condition."""

GLYPHS: dict[str, Glyph] = {
    "blinded": _blinded,
    "charmed": _charmed,
    "deafened": _deafened,
    "frightened": _frightened,
    "grappled": _grappled,
    "incapacitated": _incapacitated,
    "invisible": _invisible,
    "paralyzed": _paralyzed,
    "petrified": _petrified,
    "poisoned": _poisoned,
    "prone": _prone,
    "restrained": _restrained,
    "stunned": _stunned,
    "unconscious": _unconscious,
    "stable": _stable,
    "last-breath": _last_breath,
    "wounded": _wounded,
    "soaked": _soaked,
    EXHAUSTION: _exhaustion,
}
"""Glyphs by condition id: every condition of the shipped rulesets (a test checks)."""


def fallback_letters(name: str) -> str:
    """Up to two letters for a condition without a glyph: "hexed" -> "He", "on-fire" -> "OF"."""
    words = [word for word in name.replace("_", "-").split("-") if word]
    if len(words) >= 2:
        return (words[0][0] + words[1][0]).upper()
    return (words[0][:2] if words else "?").capitalize()


def paint_icon(painter: QPainter, rect: QRectF, mark: ConditionMark) -> None:
    """One condition's badge filling ``rect``: its glyph (or initials), and its count."""
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(QPen(QColor(255, 255, 255, 150), rect.width() * 0.04))
    painter.setBrush(BADGE_BACK)
    radius = rect.width() * 0.2
    painter.drawRoundedRect(rect, radius, radius)
    counted = mark.count > 1
    glyph = GLYPHS.get(mark.name) or STATE_GLYPHS.get(mark.name)
    inner = rect.adjusted(rect.width() * 0.12, rect.height() * 0.12, -rect.width() * 0.12, 0)
    inner.setHeight(inner.width())
    if counted:  # the glyph on the left, the count in large digits on the right
        inner = QRectF(
            rect.left() + rect.width() * 0.06,
            inner.top() + inner.height() * 0.2,
            inner.width() * 0.6,
            inner.height() * 0.6,
        )
    if glyph is None:
        painter.setPen(QColor("#ffffff"))
        text_rect = inner if counted else rect
        draw_centred(painter, text_rect, fallback_letters(mark.name), _font_px(text_rect, 0.55))
    else:
        painter.save()
        painter.translate(inner.topLeft())
        painter.scale(inner.width() / 100, inner.height() / 100)
        glyph(painter)
        painter.restore()
    if counted:
        digits = QRectF(
            rect.left() + rect.width() * 0.55, rect.top(), rect.width() * 0.45, rect.height()
        )
        painter.setPen(QColor("#ffffff"))
        draw_centred(painter, digits, str(min(mark.count, 99)), _font_px(rect, 0.6))


def _font_px(rect: QRectF, share: float) -> int:
    return max(4, round(rect.height() * share))


def _per_row(token_side: float) -> int:
    fits = int((token_side + ICON_GAP) // (ICON_SCENE_UNITS + ICON_GAP))
    return max(ICONS_PER_ROW_LEAST, fits)


def icon_rects(count: int, token_side: float) -> list[QRectF]:
    """Where each of ``count`` icons goes, in the token's coordinates: rows centred on the
    token, the first overlapping its top edge by a third of an icon, more stacking upwards."""
    per_row = _per_row(token_side)
    step = ICON_SCENE_UNITS + ICON_GAP
    bottom = ICON_SCENE_UNITS / 3
    rects = []
    for index in range(count):
        row, column = divmod(index, per_row)
        in_row = min(per_row, count - row * per_row)
        left = (token_side - (in_row * step - ICON_GAP)) / 2 + column * step
        top = bottom - ICON_SCENE_UNITS - row * step
        rects.append(QRectF(left, top, ICON_SCENE_UNITS, ICON_SCENE_UNITS))
    return rects


class ConditionStrip(QGraphicsItem):
    """The icons of one token's conditions, drawn from a pixmap per zoom bucket.

    A top-level item over the tokens (and the players' fog), placed by ``token_labels``.
    """

    def __init__(self, parent: QGraphicsItem | None) -> None:
        super().__init__(parent)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self._looks = ZoomCache()
        self.marks: tuple[ConditionMark, ...] = ()
        self._rects: list[QRectF] = []
        self._bounds = QRectF()

    def place(self, marks: Sequence[ConditionMark], token_side: float) -> None:
        """Show ``marks`` over a token ``token_side`` scene units wide (in the coordinates of
        a token at this item's position: its owner moves it there)."""
        marks = tuple(marks)
        if marks == self.marks and self._rects and self._bounds.width():
            return
        self.prepareGeometryChange()
        self.marks = marks
        self._rects = icon_rects(len(marks), token_side)
        pad = ICON_SCENE_UNITS * 0.05
        united = QRectF()
        for rect in self._rects:
            united = united.united(rect)
        self._bounds = united.adjusted(-pad, -pad, pad, pad)
        self._looks.clear()
        self.setToolTip(", ".join(mark.label for mark in marks))
        self.setVisible(bool(marks))

    def icon_rect(self, index: int) -> QRectF:
        """Icon ``index``'s box in this item's coordinates."""
        return self._rects[index]

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        self._looks.draw(painter, self._bounds, self.marks, self._paint)

    def _paint(self, painter: QPainter) -> None:
        for rect, mark in zip(self._rects, self.marks, strict=True):
            paint_icon(painter, rect, mark)


def marks_for(conditions: Sequence[tuple[str, int]], exhaustion: int) -> tuple[ConditionMark, ...]:
    """The icons of a creature's conditions ``(id, value)`` and exhaustion level, in order."""
    marks = [ConditionMark(name, value) for name, value in conditions]
    if exhaustion > 0:
        marks.append(ConditionMark(EXHAUSTION, exhaustion))
    return tuple(marks)


__all__ = [
    "EXHAUSTION",
    "GLYPHS",
    "ICON_SCENE_UNITS",
    "ConditionMark",
    "ConditionStrip",
    "fallback_letters",
    "icon_rects",
    "marks_for",
    "paint_icon",
]
