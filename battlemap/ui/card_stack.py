"""Cards over the map view (the opportunity-attack card, the decision card, any card a fight
waits on) stacked so they never overlap and keep clear of the creatures they are about.

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


@dataclass(frozen=True)
class CardWish:
    """What one card asks of its place, in the view's coordinates.

    Attributes:
        size: the card's size.
        keep_clear: the creatures it is about (never covered if any place avoids them).
        avoid: other tokens, covered as few as can be.
        foot_first: on a tie, the foot of the view rather than the top.
    """

    size: QSize
    keep_clear: tuple[QRect, ...] = ()
    avoid: tuple[QRect, ...] = ()
    foot_first: bool = False


def _covered(card: QRect, rects: Sequence[QRect]) -> int:
    return sum(card.intersects(r) for r in rects)


def place_cards(area: QRect, wishes: Sequence[CardWish]) -> list[QRect]:
    """Each card's rectangle inside ``area``, in order: an earlier card chooses first.

    A card goes centred at the top or the foot of ``area``, or just under or over a card
    already placed; at the left or right edge only when that keeps clear of what a centred
    place would cover. Chosen by, in turn: fewest cards overlapped, fewest ``keep_clear``
    rectangles covered, centred, fewest ``avoid`` rectangles covered, the preferred edge.
    A rectangle counts as covered when any part of it is under the card. A card taller than
    ``area`` starts at its top.
    """
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
        best: tuple[tuple[int, ...], QRect] | None = None
        for order, y in enumerate(ys):
            if y < area.top() or y + height - 1 > area.bottom():
                continue  # off the view: the card would hide part of itself
            for side, x in enumerate(xs):
                card = QRect(x, y, width, height)
                score = (
                    _covered(card, placed),
                    _covered(card, wish.keep_clear),
                    min(side, 1),
                    _covered(card, wish.avoid),
                    order,
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
