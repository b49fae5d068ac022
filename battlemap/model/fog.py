"""Fog of war: which parts of the map the players' window may show.

Cells are ``(column, row)`` pairs. The DM reveals cells by hand (``revealed``); the party's
sight adds every cell it has ever seen to ``explored``. What the party sees *now* is not
stored: it follows from the creatures' positions and the walls (``battlemap.geometry``).
"""

from __future__ import annotations

import base64
import binascii
import sys
from array import array
from enum import StrEnum
from typing import Annotated

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PlainSerializer,
    ValidatorFunctionWrapHandler,
    WrapValidator,
)

from battlemap.model.limits import MAX_FOG_CELLS, MAX_SIGHT_RANGE_FEET

Cell = tuple[int, int]

_CELL_BOUND = 2**15 - 1
"""A remembered cell's column and row fit in 16 bits: far past any map (``MAX_MAP_CELLS``)."""
_BYTES_PER_CELL = 4


def cells_text(cells: frozenset[Cell]) -> str:
    """``cells`` as a file keeps them: base64 of little-endian int16 (column, row) pairs,
    sorted. A fully explored 400 x 400 map takes 0.9 MB this way (3.5 MB as JSON lists) and
    is read in a fiftieth of the time."""
    flat = array("h", (coordinate for cell in sorted(cells) for coordinate in cell))
    if sys.byteorder == "big":
        flat.byteswap()
    return base64.b64encode(flat.tobytes()).decode("ascii")


def _cells_from_text(value: object, handler: ValidatorFunctionWrapHandler) -> object:
    """Cells written by ``cells_text``, decoded and returned as they are (16-bit pairs need no
    further check: checking 160,000 cells one by one took ten times the decoding); anything
    else (a list, as format 2 wrote them) goes through the field's own validation."""
    if not isinstance(value, str):
        return handler(value)
    if len(value) > 4 * (MAX_FOG_CELLS * _BYTES_PER_CELL + 2) // 3:  # before decoding it
        raise ValueError(f"more than the {MAX_FOG_CELLS} cells a fog may remember")
    try:
        raw = base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        raise ValueError("not base64-encoded cells") from None
    if len(raw) % _BYTES_PER_CELL:
        raise ValueError(f"{len(raw)} bytes of cells, not a whole number of 4-byte cells")
    flat = array("h", raw)
    if sys.byteorder == "big":
        flat.byteswap()
    return frozenset(zip(flat[0::2], flat[1::2], strict=True))


_Coordinate = Annotated[int, Field(ge=-_CELL_BOUND, le=_CELL_BOUND)]
RememberedCells = Annotated[
    frozenset[tuple[_Coordinate, _Coordinate]],
    WrapValidator(_cells_from_text),
    PlainSerializer(cells_text, return_type=str, when_used="json"),
    Field(max_length=MAX_FOG_CELLS),
]
"""Cells the fog keeps, saved compactly (``cells_text``); a list of pairs still loads."""


class FogMode(StrEnum):
    """How the players' window hides the map."""

    OFF = "off"
    """Players see the whole map (hidden creatures are still never shown)."""
    MANUAL = "manual"
    """Players see only the cells the DM has revealed."""
    DYNAMIC = "dynamic"
    """Players see what the party sees now; explored cells stay, dimmed and without creatures."""
    BOTH = "both"
    """Manual reveals and the party's sight together."""

    @property
    def uses_sight(self) -> bool:
        return self in (FogMode.DYNAMIC, FogMode.BOTH)

    @property
    def uses_reveals(self) -> bool:
        return self in (FogMode.MANUAL, FogMode.BOTH)


class FogOfWar(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    mode: FogMode = FogMode.OFF
    revealed: RememberedCells = frozenset()
    explored: RememberedCells = frozenset()
    dark: bool = Field(default=False, description="Sight is limited to sight_range_feet.")
    sight_range_feet: int = Field(default=60, ge=0, le=MAX_SIGHT_RANGE_FEET)


def reveal(fog: FogOfWar, cells: frozenset[Cell]) -> FogOfWar:
    return fog.model_copy(update={"revealed": fog.revealed | cells})


def hide(fog: FogOfWar, cells: frozenset[Cell]) -> FogOfWar:
    """Hide cells again: forget both the DM's reveal and the party's memory of them."""
    return fog.model_copy(
        update={"revealed": fog.revealed - cells, "explored": fog.explored - cells}
    )
