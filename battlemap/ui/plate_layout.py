"""Name plates of neighbouring tokens never overlap (issue 15 item 12).

Plates are laid out top to bottom, left to right: each stays at home (under its token) if no
plate laid out before it, no condition icon and no token's face is in the way, else it moves
a third of its width aside, or down a line or two, or above its token; if none of those is
free it is hidden (``crowded``) and the DM's token shows it while the pointer is over it.
The same rule lays out the DM's map and the players' window.
Run once per change of the tokens, never per frame: rects are bucketed by area, so the cost
grows with the number of plates, not its square.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Iterator

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QTransform

from battlemap.ui.token_look import PLATE_HANG, NamePlate

LINES_DOWN = (0, 1, 2)
"""The places tried, in plate heights (and a little air) below home."""
AIR = 2.0
SIDEWAYS = (0.0, -1 / 3, 1 / 3)
"""Shifts tried on each line, in plate widths: centred, then a third left, a third right."""
FACE_INSET = (0.25, 0.3)
"""How much of a token's width and height, on each side, is not its face."""
BUCKET = 128.0
"""Scene units per side of a bucket (two cells): a plate overlaps a few at most."""


def _buckets(rect: QRectF) -> Iterator[tuple[int, int]]:
    for bx in range(math.floor(rect.left() / BUCKET), math.floor(rect.right() / BUCKET) + 1):
        for by in range(math.floor(rect.top() / BUCKET), math.floor(rect.bottom() / BUCKET) + 1):
            yield bx, by


def _free_shift(
    plate: NamePlate, home: QRectF, placed: dict[tuple[int, int], list[QRectF]]
) -> QPointF | None:
    """The first of the places tried (``_places``) where nothing placed is in the way. Below,
    above and aside as the plate reads: a plate turned to face another edge of a table's screen
    (``players.facing``) steps down its own lines."""
    turn = QTransform().rotate(plate.rotation())
    for place in _places(plate):
        shift = turn.map(place)
        rect = home.translated(shift)
        if not any(
            rect.intersects(other) for key in _buckets(rect) for other in placed.get(key, ())
        ):
            return shift
    return None


def _places(plate: NamePlate) -> Iterator[QPointF]:
    """The shifts from home tried, upright: down ``LINES_DOWN`` (each ``SIDEWAYS``), then
    above the token (as far over its top edge as home is over its bottom)."""
    size = plate.boundingRect()
    for lines in LINES_DOWN:
        for sideways in SIDEWAYS:
            yield QPointF(sideways * size.width(), lines * (size.height() + AIR))
    above = -(plate.token_side + size.height() - 2 * PLATE_HANG)
    for sideways in SIDEWAYS:
        yield QPointF(sideways * size.width(), above)


def token_face(space: QRectF) -> QRectF:
    """The middle of a token's ``space`` that no plate may cover (its initials or its
    picture's face). A plate at home hangs over the top of the token below it, a few
    tenths of a cell, short of the face; one stepped down a line would cover it."""
    across, down = space.width() * FACE_INSET[0], space.height() * FACE_INSET[1]
    return space.adjusted(across, down, -across, -down)


def spread_plates(
    plates: Iterable[NamePlate],
    keep_clear: Iterable[QRectF] = (),
    first: NamePlate | None = None,
    tokens: Iterable[QRectF] = (),
) -> None:
    """Move, or hide, ``plates`` so that no two of the shown ones overlap, nor any of them a
    rect of ``keep_clear`` (the condition icons, in scene coordinates) or the face of one
    of ``tokens`` (their spaces, scene coordinates: ``token_face``). ``first`` (the
    plate of the creature whose turn it is) is laid out before the others and never hidden:
    with no free place it stays home, over the icons in its way."""
    placed: dict[tuple[int, int], list[QRectF]] = {}
    for rect in itertools.chain(keep_clear, map(token_face, tokens)):
        for key in _buckets(rect):
            placed.setdefault(key, []).append(rect)
    homes = []
    for plate in plates:
        plate.setPos(plate.home)
        homes.append((plate.sceneBoundingRect(), plate))
    homes.sort(key=lambda entry: (entry[1] is not first, entry[0].top(), entry[0].center().x()))
    for home, plate in homes:
        shift = _free_shift(plate, home, placed)
        if shift is None and plate is first:
            shift = QPointF()
        plate.crowded = shift is None
        plate.setVisible(shift is not None)
        if shift is None:
            continue
        plate.setPos(plate.home + shift)
        rect = home.translated(shift)
        for key in _buckets(rect):
            placed.setdefault(key, []).append(rect)
