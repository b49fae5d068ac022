"""The shown ruling on the players' window: drawn for a few seconds, then faded out.

Draws a ``ShownRuling`` (already cut to what the players may know, ``ruling``) with the
items the DM's overlays use (``drag.items``: cosmetic pens, cards of constant size), under
two root items whose opacity fades: the reach ring under the tokens and the fog (it tints no
token, and shows only where the map does), the lines, path and card above the fog and the
name plates.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QElapsedTimer, QObject, QRectF, Qt, QTimer
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QGraphicsItem, QGraphicsRectItem, QGraphicsScene, QGraphicsView

from battlemap.ui.drag.items import (
    BAD,
    CARD_TEXT,
    GOOD,
    PATH_OK,
    REACH_EDGE,
    REACH_FILL,
    WARN,
    InfoCard,
    cased_line,
    cells_region,
    outline_square,
    shaded_region,
)
from battlemap.ui.map_items import Z_TOKEN
from battlemap.ui.players.ruling import RulingKind, ShownRuling, Tone
from battlemap.ui.players.scene import Z_PLATE
from battlemap.ui.targeting.overlay import LINE_BLOCKED, LINE_CLEAR, TARGET_EDGE

Z_RULING = Z_PLATE + 1
Z_RULING_UNDER = Z_TOKEN - 0.5
"""Over the light layer's veil (a dim or dark area), under the tokens."""
SHOWN_MS = 6000
"""How long a ruling stays, the fade included."""
FADE_MS = 1500
"""The last part of ``SHOWN_MS``, over which it fades out."""
TICK_MS = 40
TONES = {Tone.PLAIN: CARD_TEXT, Tone.GOOD: GOOD, Tone.WARN: WARN, Tone.BAD: BAD}


class RulingLayer(QObject):
    """Shows one ruling at a time on ``scene``; a new one replaces the old.

    Attributes:
        shown_ms, fade_ms: how long a ruling stays and how long its fade takes (tests
            shorten them).
        ruling: the ruling drawn now, or None.
    """

    def __init__(self, scene: QGraphicsScene) -> None:
        super().__init__(scene)
        self.scene = scene
        self.shown_ms = SHOWN_MS
        self.fade_ms = FADE_MS
        self.ruling: ShownRuling | None = None
        self.listeners: list[Callable[[ShownRuling | None, int, int], None]] = []
        """Told each ruling shown (with ``shown_ms`` and ``fade_ms``) and None when it is
        taken down (the phones show what this layer shows)."""
        self.root = _root(scene, Z_RULING)
        self.under = _root(scene, Z_RULING_UNDER)
        self._clock = QElapsedTimer()
        self._timer = QTimer(self)
        self._timer.setInterval(TICK_MS)
        self._timer.timeout.connect(self._tick)

    def show(self, ruling: ShownRuling, view: QGraphicsView | None = None) -> None:
        """Draw ``ruling`` now (its card placed inside ``view`` when given)."""
        self._remove_items()
        self.ruling = ruling
        if ruling.reach_cells:
            ring = shaded_region(cells_region(ruling.reach_cells, 1), REACH_FILL, REACH_EDGE)
            ring.setParentItem(self.under)
        for item in ruling_items(ruling):
            item.setParentItem(self.root)
            if isinstance(item, InfoCard) and view is not None:
                item.place(view, QRectF(*ruling.focus), _away_from(ruling))
        self._set_opacity(1.0)
        self._clock.start()
        self._timer.start()
        self._tell(ruling)

    def clear(self) -> None:
        self._timer.stop()
        self._remove_items()
        shown, self.ruling = self.ruling, None
        if shown is not None:
            self._tell(None)

    def _tell(self, ruling: ShownRuling | None) -> None:
        for listener in self.listeners:
            listener(ruling, self.shown_ms, self.fade_ms)

    @property
    def items(self) -> list[QGraphicsItem]:
        return [*self.under.childItems(), *self.root.childItems()]

    def _set_opacity(self, opacity: float) -> None:
        self.root.setOpacity(opacity)
        self.under.setOpacity(opacity)

    def _remove_items(self) -> None:
        for item in self.items:
            self.scene.removeItem(item)

    def _tick(self) -> None:
        left = self.shown_ms - self._clock.elapsed()
        if left <= 0:
            self.clear()
            return
        self._set_opacity(min(1.0, left / max(1, self.fade_ms)))


def _root(scene: QGraphicsScene, z: float) -> QGraphicsRectItem:
    root = QGraphicsRectItem()
    root.setPen(Qt.PenStyle.NoPen)
    root.setFlag(QGraphicsItem.GraphicsItemFlag.ItemHasNoContents)
    root.setZValue(z)
    scene.addItem(root)
    return root


def ruling_items(ruling: ShownRuling) -> list[QGraphicsItem]:
    """The cover lines and the target square, or the path; then the card (the reach ring
    is drawn apart, under the tokens)."""
    items: list[QGraphicsItem] = []
    if ruling.target_square is not None:
        x, y, side = ruling.target_square
        items.append(outline_square((x, y), side, TARGET_EDGE, Qt.PenStyle.SolidLine))
    for line in ruling.lines:
        colour = LINE_BLOCKED if line.blocked else LINE_CLEAR
        style = Qt.PenStyle.DashLine if line.blocked else Qt.PenStyle.SolidLine
        items += cased_line([line.start, line.end], colour, 5.0, style)
    if ruling.path:
        items += cased_line(list(ruling.path), PATH_OK, 6.0)
        end = ruling.path[-1]
        half = ruling.footprint / 2
        items.append(outline_square((end[0] - half, end[1] - half), ruling.footprint, PATH_OK))
    caption = [(text, TONES[tone]) for text, tone in ruling.caption]
    items.append(InfoCard(ruling.anchor, caption, _accent(ruling)))
    return items


def _accent(ruling: ShownRuling) -> QColor:
    if ruling.kind is RulingKind.PATH:
        return PATH_OK
    return LINE_BLOCKED if any(line.blocked for line in ruling.lines) else LINE_CLEAR


def _away_from(ruling: ShownRuling) -> tuple[float, float]:
    """Where the lines or the path come from, for the card to face away from."""
    if len(ruling.path) > 1:
        return ruling.path[-2]
    if ruling.lines:
        return ruling.lines[0].start
    return ruling.anchor
