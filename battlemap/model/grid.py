"""The square grid a map is laid on.

Model coordinates are in *cells*: (0, 0) is the top-left corner of the map, x grows to the
right and y downwards, and one unit is one cell side. ``cell_to_feet`` converts to feet.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from battlemap.model.limits import MAX_CELL_FEET, MIN_CELL_FEET
from battlemap.model.limits import MAX_MAP_CELLS as MAX_MAP_CELLS  # read by io.uvtt


class Grid(BaseModel):
    """A rectangular map of ``width`` x ``height`` square cells of ``cell_feet`` feet."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    cell_feet: float = Field(
        default=5.0, ge=MIN_CELL_FEET, le=MAX_CELL_FEET, description="Side of one cell in feet."
    )
    width: int = Field(default=20, ge=1, le=MAX_MAP_CELLS, description="Map width in cells.")
    height: int = Field(default=15, ge=1, le=MAX_MAP_CELLS, description="Map height in cells.")

    def cell_to_feet(self, cells: float) -> float:
        return cells * self.cell_feet

    def feet_to_cell(self, feet: float) -> float:
        return feet / self.cell_feet

    def contains_rect(self, x: float, y: float, w: float, h: float) -> bool:
        """True when the rectangle (in cells) lies wholly on the map; it may touch the border."""
        return x >= 0 and y >= 0 and x + w <= self.width and y + h <= self.height
