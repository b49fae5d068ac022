"""Grid metrics: diagonal rules, spaces in cells, and distance between spaces in feet.

Coordinates are in cells as in ``battlemap.model``: (0, 0) is the map's top-left corner, x grows
to the right and y downwards. A creature's *space* is the square ``[x, x + side] x [y, y + side]``
with ``side = size.space_feet / grid.cell_feet`` cells. Tiny creatures (2.5 ft) occupy a half
cell inside one grid square; several may share a square (Legends of Hyrule, "Size Categories").
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum

from battlemap.geometry.errors import UnknownDiagonalRuleError

Cell = tuple[int, int]
PointXY = tuple[float, float]


class DiagonalRule(StrEnum):
    """How a diagonal step on the grid is counted. Rulesets refer to these by value."""

    FIVE_FIVE_FIVE = "5-5-5"
    """Every diagonal step costs one cell (5 ft): distance is max(dx, dy) cells (the SRD and
    GM's Den default, "diagonal movement is 5 feet")."""
    FIVE_TEN_FIVE = "5-10-5"
    """Alternate diagonals cost one then two cells (5, 10, 5, ...): the DMG variant. The count
    of diagonals runs over a whole move, so a search keeps its parity in the state."""
    EUCLIDEAN = "euclidean"
    """Straight-line distance. Between spaces: from the centre of one square to the centre of
    the nearest square of the other, rounded to the nearest whole cell (halves up), so
    adjacent squares stay 5 ft apart as rule 1 requires. A movement step on the diagonal
    costs sqrt(2) cells (about 7.07 ft), unrounded."""

    @classmethod
    def parse(cls, value: str) -> DiagonalRule:
        """The rule named ``value``.

        Raises:
            UnknownDiagonalRuleError: for anything but "5-5-5", "5-10-5" or "euclidean".
        """
        try:
            return cls(value)
        except ValueError:
            names = ", ".join(repr(r.value) for r in cls)
            raise UnknownDiagonalRuleError(
                f"unknown diagonal rule {value!r}; expected one of {names}"
            ) from None


def cells_to_feet(cells: float, cell_feet: float) -> float:
    """A length in cells as feet on a grid of ``cell_feet``."""
    return cells * cell_feet


def feet_to_cells(feet: float, cell_feet: float) -> float:
    """A length in feet as cells on a grid of ``cell_feet``."""
    return feet / cell_feet


def grid_steps_to_feet(dx: int, dy: int, rule: DiagonalRule, cell_feet: float) -> float:
    """Feet for a displacement of ``dx`` x ``dy`` whole cells (signs ignored).

    ``5-10-5`` counts ``min(dx, dy)`` diagonals of which every second costs double, starting
    with a cheap one: 1 diagonal = 5 ft, 2 = 15 ft, 3 = 20 ft. ``euclidean`` rounds
    ``hypot(dx, dy)`` to the nearest whole cell, halves up: 1 diagonal = 5 ft, 3 = 20 ft.
    """
    ax, ay = abs(dx), abs(dy)
    if rule is DiagonalRule.FIVE_FIVE_FIVE:
        return max(ax, ay) * cell_feet
    if rule is DiagonalRule.FIVE_TEN_FIVE:
        diagonals = min(ax, ay)
        return (max(ax, ay) + diagonals // 2) * cell_feet
    return math.floor(math.hypot(ax, ay) + 0.5) * cell_feet


def occupied_cell_range(x: float, y: float, w: float, h: float) -> tuple[int, int, int, int]:
    """Inclusive index range ``(cx0, cy0, cx1, cy1)`` of the grid squares that the space
    ``[x, x + w] x [y, y + h]`` (cells) occupies.

    A square counts when the space covers part of its interior: an edge lying on a grid line
    (within 1e-9) reaches no further square. A space inside one square (Tiny on half cells)
    gives that square. ``Space.cell_range``, ``movement.body_cells`` and the mover's squares
    along a path (``opportunity``) all use it; it takes plain numbers so that hot loops need
    not build a ``Space``.
    """
    cx0 = math.floor(x + 1e-9)
    cy0 = math.floor(y + 1e-9)
    cx1 = max(cx0, math.ceil(x + w - 1e-9) - 1)
    cy1 = max(cy0, math.ceil(y + h - 1e-9) - 1)
    return cx0, cy0, cx1, cy1


@dataclass(frozen=True, slots=True)
class Space:
    """An axis-aligned square (or rectangle) in cells: ``[x, x + w] x [y, y + h]``."""

    x: float
    y: float
    w: float
    h: float

    @property
    def x1(self) -> float:
        return self.x + self.w

    @property
    def y1(self) -> float:
        return self.y + self.h

    @property
    def centre(self) -> PointXY:
        return (self.x + self.w / 2, self.y + self.h / 2)

    @property
    def corners(self) -> tuple[PointXY, PointXY, PointXY, PointXY]:
        """Top-left, top-right, bottom-right, bottom-left."""
        return ((self.x, self.y), (self.x1, self.y), (self.x1, self.y1), (self.x, self.y1))

    def cell_range(self) -> tuple[int, int, int, int]:
        """Inclusive index range ``(cx0, cy0, cx1, cy1)`` of the grid squares it occupies
        (``occupied_cell_range``: a square counts when the space covers part of its interior;
        a Tiny space inside one square gives that square)."""
        return occupied_cell_range(self.x, self.y, self.w, self.h)

    def cells(self) -> list[Cell]:
        """The grid squares it occupies, row by row."""
        cx0, cy0, cx1, cy1 = self.cell_range()
        return [(cx, cy) for cy in range(cy0, cy1 + 1) for cx in range(cx0, cx1 + 1)]

    def squares(self) -> list[Space]:
        """The squares the DMG cover method uses: each whole cell of the space, or the space
        itself when it is smaller than a cell (Tiny)."""
        if self.w < 1 or self.h < 1:
            return [self]
        return [Space(float(cx), float(cy), 1.0, 1.0) for cx, cy in self.cells()]

    def overlaps(self, other: Space) -> bool:
        """True when the interiors overlap; spaces that only touch do not."""
        return (
            self.x < other.x1 - 1e-9
            and other.x < self.x1 - 1e-9
            and self.y < other.y1 - 1e-9
            and other.y < self.y1 - 1e-9
        )


def cell_gap(a: Space, b: Space) -> tuple[int, int]:
    """Steps along x and y from the nearest occupied square of ``a`` to that of ``b``.

    (1, 0), (0, 1) and (1, 1) mean adjacent (sides or corners touching); (0, 0) means the spaces
    share a square.
    """
    ax0, ay0, ax1, ay1 = a.cell_range()
    bx0, by0, bx1, by1 = b.cell_range()
    return max(0, bx0 - ax1, ax0 - bx1), max(0, by0 - ay1, ay0 - by1)


def space_distance_feet(a: Space, b: Space, rule: DiagonalRule, cell_feet: float) -> float:
    """Distance in feet between two spaces, counted square to nearest square (rule 1).

    Adjacent spaces (sides or corners touching) are one cell (5 ft) apart; spaces sharing a
    square (Tiny creatures) are 0 ft apart. Large and bigger spaces measure from their nearest
    occupied square. Symmetric in ``a`` and ``b``.
    """
    dx, dy = cell_gap(a, b)
    return grid_steps_to_feet(dx, dy, rule, cell_feet)
