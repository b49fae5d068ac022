"""Name plates of neighbouring tokens never overlap (issue 15 item 12).

Plates are laid out top to bottom, left to right: each stays at home (under its token) if no
plate laid out before it is in the way, else it steps down a line, or two; if none of those
is free it is hidden (``crowded``) and the DM's token shows it while the pointer is over it.
Run once per change of the tokens, never per frame: rects are bucketed by area, so the cost
grows with the number of plates, not its square.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator

from PySide6.QtCore import QPointF, QRectF

from battlemap.ui.token_look import PLATE_FONT_PX, NamePlate

STEP = PLATE_FONT_PX * 1.3
"""One line down: a plate's height and a little air."""
STEPS = (0.0, STEP, 2 * STEP)
"""The places tried, from home: home, one line down, two lines down."""
BUCKET = 128.0
"""Scene units per side of a bucket (two cells): a plate overlaps a few at most."""


def _buckets(rect: QRectF) -> Iterator[tuple[int, int]]:
    for bx in range(math.floor(rect.left() / BUCKET), math.floor(rect.right() / BUCKET) + 1):
        for by in range(math.floor(rect.top() / BUCKET), math.floor(rect.bottom() / BUCKET) + 1):
            yield bx, by


def spread_plates(plates: Iterable[NamePlate]) -> None:
    """Move, or hide, ``plates`` so that no two of the shown ones overlap."""
    placed: dict[tuple[int, int], list[QRectF]] = {}
    homes = []
    for plate in plates:
        plate.setPos(plate.home)
        homes.append((plate.sceneBoundingRect(), plate))
    homes.sort(key=lambda entry: (entry[0].top(), entry[0].left()))
    for home, plate in homes:
        for step in STEPS:
            rect = home.translated(0, step)
            if not any(
                rect.intersects(other) for key in _buckets(rect) for other in placed.get(key, ())
            ):
                break
        else:
            plate.crowded = True
            plate.setVisible(False)
            continue
        plate.crowded = False
        plate.setVisible(True)
        plate.setPos(plate.home + QPointF(0, step))
        for key in _buckets(rect):
            placed.setdefault(key, []).append(rect)
