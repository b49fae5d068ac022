"""Map features the geometry knows: walls, doors and windows, obstacles, terrain, lights.

All coordinates are in cells (see ``battlemap.model.grid``).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from battlemap.model.ids import EntityId, new_id
from battlemap.model.limits import COORD_LIMIT as COORD_LIMIT  # read by io.uvtt
from battlemap.model.limits import MAX_LIGHT_INTENSITY, MAX_LIGHT_RANGE_CELLS, MAX_NAME

Point = tuple[float, float]
Coordinate = Annotated[float, Field(allow_inf_nan=False, ge=-COORD_LIMIT, le=COORD_LIMIT)]
"""A coordinate a file may hold: finite, within ``COORD_LIMIT``. Checked by pydantic's core,
not a Python validator: an encounter holds up to 100,000 walls and obstacles."""
CheckedPoint = tuple[Coordinate, Coordinate]
Polygon = Annotated[list[CheckedPoint], Field(min_length=3)]


class WallKind(StrEnum):
    """What a wall segment does to movement and sight."""

    WALL = "wall"
    """Blocks movement and sight."""
    DOOR = "door"
    """Blocks movement and sight while closed; nothing while open."""
    WINDOW = "window"
    """Blocks movement but not sight (windows, arrow slits)."""


class Wall(BaseModel):
    """A straight wall segment from ``a`` to ``b``. Walls that share an end form one barrier."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: EntityId = Field(default_factory=lambda: new_id("wall"))
    a: CheckedPoint
    b: CheckedPoint
    kind: WallKind = WallKind.WALL
    open: bool = Field(default=False, description="Only meaningful for doors.")

    @property
    def blocks_movement(self) -> bool:
        return not (self.kind is WallKind.DOOR and self.open)

    @property
    def blocks_sight(self) -> bool:
        return self.kind is WallKind.WALL or (self.kind is WallKind.DOOR and not self.open)


class CoverDegree(StrEnum):
    """Degrees of cover, weakest first."""

    NONE = "none"
    HALF = "half"
    THREE_QUARTERS = "three-quarters"
    TOTAL = "total"

    @property
    def rank(self) -> int:
        return list(CoverDegree).index(self)


class Obstacle(BaseModel):
    """A solid thing on the map (a low wall, a table, a pillar) that gives up to ``cover``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: EntityId = Field(default_factory=lambda: new_id("obstacle"))
    name: str = Field(default="obstacle", max_length=MAX_NAME)
    points: Polygon
    cover: CoverDegree = CoverDegree.HALF
    blocks_movement: bool = True


class TerrainKind(StrEnum):
    """What a terrain region does to movement."""

    DIFFICULT = "difficult"
    """Each foot of movement costs one extra foot."""
    WATER = "water"
    """Swimming: costs one extra foot per foot without a swim speed."""
    IMPASSABLE = "impassable"
    """Cannot be entered."""


class TerrainRegion(BaseModel):
    """A polygon of terrain; cells whose centre lies inside it take on its kind."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: EntityId = Field(default_factory=lambda: new_id("terrain"))
    kind: TerrainKind = TerrainKind.DIFFICULT
    points: Polygon
    secret: bool = Field(default=False, description="Known to the DM only (a trap, a pit).")


class Light(BaseModel):
    """A light source (from imported maps), kept for the players' fog of war."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: EntityId = Field(default_factory=lambda: new_id("light"))
    position: CheckedPoint
    range_cells: float = Field(ge=0, le=MAX_LIGHT_RANGE_CELLS)
    intensity: float = Field(default=1.0, ge=0, le=MAX_LIGHT_INTENSITY)
    color: str = Field(default="#ffffffff", max_length=16)
