"""Fog of war: which parts of the map the players' window may show.

Cells are ``(column, row)`` pairs. The DM reveals cells by hand (``revealed``); the party's
sight adds every cell it has ever seen to ``explored``. What the party sees *now* is not
stored: it follows from the creatures' positions and the walls (``battlemap.geometry``).
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from battlemap.model.limits import MAX_FOG_CELLS, MAX_SIGHT_RANGE_FEET

Cell = tuple[int, int]


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
    revealed: frozenset[Cell] = Field(default=frozenset(), max_length=MAX_FOG_CELLS)
    explored: frozenset[Cell] = Field(default=frozenset(), max_length=MAX_FOG_CELLS)
    dark: bool = Field(default=False, description="Sight is limited to sight_range_feet.")
    sight_range_feet: int = Field(default=60, ge=0, le=MAX_SIGHT_RANGE_FEET)


def reveal(fog: FogOfWar, cells: frozenset[Cell]) -> FogOfWar:
    return fog.model_copy(update={"revealed": fog.revealed | cells})


def hide(fog: FogOfWar, cells: frozenset[Cell]) -> FogOfWar:
    """Hide cells again: forget both the DM's reveal and the party's memory of them."""
    return fog.model_copy(
        update={"revealed": fog.revealed - cells, "explored": fog.explored - cells}
    )
