"""Cards over the map view (the opportunity-attack card, the decision card, any card a fight
waits on) stacked so they never overlap, keep clear of the creatures they are about and of
the other tokens, and sit beside the creatures they are about.

One ``CardStack`` per view (``card_stack(view)``); each card registers once with what it wants
(``CardWish``) and calls ``restack`` when it shows, hides or changes size. The placing itself is
the pure ``place_cards``: the same rule for every card, written once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PySide6.QtCore import QObject, QRect, QSize
from PySide6.QtWidgets import QGraphicsView, QWidget

MARGIN_PX = 12
"""Between a card and the viewport's edge, and between two stacked cards."""
NEAR_STEP_PX = 48
"""Places this much nearer the tokens a card is about count as nearer (about a cell)."""


@dataclass(frozen=True)
class CardWish:
    """What one card asks of its place, in the view's coordinates.

    Attributes:
        size: the card's size.
        keep_clear: the creatures it is about (never covered if any place avoids them).
        avoid: other tokens, covered as few as can be.
        foot_first: on a tie, the foot of the view rather than the top.
        beside: also try places just beside the ``keep_clear`` rectangles, and prefer the
            nearest (the decision card); else only the view's top and foot bands.
    """

    size: QSize
    keep_clear: tuple[QRect, ...] = ()
    avoid: tuple[QRect, ...] = ()
    foot_first: bool = False
    beside: bool = False


def _covered(card: QRect, rects: Sequence[QRect]) -> int:
    return sum(card.intersects(r) for r in rects)


def _gap(card: QRect, rects: Sequence[QRect]) -> int:
    """How far the card is from the rectangles' bounding box, in pixels (0: touching or
    over it; no rectangles: 0)."""
    if not rects:
        return 0
    box = QRect(rects[0])
    for rect in rects[1:]:
        box = box.united(rect)
    dx = max(box.left() - card.right(), card.left() - box.right(), 0)
    dy = max(box.top() - card.bottom(), card.top() - box.bottom(), 0)
    return dx + dy


def _beside(rects: Sequence[QRect], width: int, height: int) -> list[tuple[int, int]]:
    """Corners of a card just above, below, left and right of each rectangle, centred on it."""
    places = []
    for rect in rects:
        across = rect.center().x() - width // 2
        down = rect.center().y() - height // 2
        places += [
            (across, rect.top() - height - MARGIN_PX),
            (across, rect.bottom() + 1 + MARGIN_PX),
            (rect.left() - width - MARGIN_PX, down),
            (rect.right() + 1 + MARGIN_PX, down),
        ]
    return places


def place_cards(area: QRect, wishes: Sequence[CardWish]) -> list[QRect]:
    """Each card's rectangle inside ``area``, in order: an earlier card chooses first.

    A card goes at the top or the foot of ``area`` (centred or at an edge), just under or over
    a card already placed, or, when it asks to be ``beside``, beside one of its
    ``keep_clear`` rectangles (the tokens it is about: above, below, left or right of it,
    moved inside ``area``). Chosen by, in turn: fewest cards overlapped, fewest
    ``keep_clear`` rectangles covered, then centred, fewest ``avoid`` rectangles covered and
    the preferred edge; a ``beside`` card: fewest ``avoid`` rectangles covered, nearest the
    ``keep_clear`` rectangles (in steps of ``NEAR_STEP_PX``), the preferred edge, centred.
    A rectangle counts as covered when any part of it is under the card. A card taller than
    ``area`` starts at its top.
    When cards placed beside their tokens would overlap, all go at the edges and stack.
    """
    placed = _place(area, wishes, beside=True)
    if any(a.intersects(b) for i, a in enumerate(placed) for b in placed[i + 1 :]):
        placed = _place(area, wishes, beside=False)  # stacked at the edges they all fit
    return placed


def _place(area: QRect, wishes: Sequence[CardWish], beside: bool) -> list[QRect]:
    placed: list[QRect] = []
    for wish in wishes:
        width = min(wish.size.width(), max(1, area.width() - 2 * MARGIN_PX))
        height = wish.size.height()
        top_y = area.top() + MARGIN_PX
        foot_y = max(area.top(), area.bottom() - height - MARGIN_PX)
        ys = [foot_y, top_y] if wish.foot_first else [top_y, foot_y]
        for other in placed:
            ys += [other.bottom() + 1 + MARGIN_PX, other.top() - height - MARGIN_PX]
        centre = area.left() + (area.width() - width) // 2
        xs = [centre, area.left() + MARGIN_PX, area.right() - width - MARGIN_PX + 1]
        corners = [(x, y, order, side) for order, y in enumerate(ys) for side, x in enumerate(xs)]
        low_x, high_x = area.left() + MARGIN_PX, area.right() - width - MARGIN_PX + 1
        for x, y in _beside(wish.keep_clear, width, height) if beside and wish.beside else ():
            corners.append((min(max(x, low_x), high_x), y, len(ys), 1))
        best: tuple[tuple[int, ...], QRect] | None = None
        for x, y, order, side in corners:
            if y < area.top() or y + height - 1 > area.bottom():
                continue  # off the view: the card would hide part of itself
            card = QRect(x, y, width, height)
            clash = (_covered(card, placed), _covered(card, wish.keep_clear))
            others, centred = _covered(card, wish.avoid), min(side, 1)
            near = _gap(card, wish.keep_clear) // NEAR_STEP_PX
            score = (
                (*clash, others, near, order, centred)
                if wish.beside
                else (*clash, centred, others, order)
            )
            if best is None or score < best[0]:
                best = (score, card)
        placed.append(best[1] if best is not None else QRect(centre, area.top(), width, height))
    return placed


class CardStack(QObject):
    """The cards of one map view, placed together (``place_cards``) whenever one changes."""

    def __init__(self, view: QGraphicsView) -> None:
        super().__init__(view)
        self.setObjectName("card-stack")
        self.view = view
        self.cards: list[tuple[QWidget, Callable[[], CardWish]]] = []

    def add(self, card: QWidget, wish: Callable[[], CardWish]) -> None:
        """Stack ``card`` (a child of the view) after the cards added before it."""
        self.cards.append((card, wish))

    def restack(self) -> None:
        """Place every shown card again."""
        shown = [(card, wish()) for card, wish in self.cards if card.isVisible()]
        rects = place_cards(self.view.viewport().geometry(), [w for _, w in shown])
        for (card, _), rect in zip(shown, rects, strict=True):
            card.setGeometry(rect)


def card_stack(view: QGraphicsView) -> CardStack:
    """The view's card stack, made on first use."""
    found = view.findChild(CardStack, "card-stack")
    return found if isinstance(found, CardStack) else CardStack(view)
