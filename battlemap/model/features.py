"""Map features the geometry knows: walls, doors and windows, obstacles, terrain, lights.

All coordinates are in cells (see ``battlemap.model.grid``).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, model_validator

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


class LightLevel(StrEnum):
    """How lit a place is, darkest last (the rules documents' bright light, dim light and
    darkness)."""

    BRIGHT = "bright"
    """Bright light: everyone sees normally."""
    DIM = "dim"
    """Dim light: lightly obscured; darkvision sees it as bright."""
    DARK = "dark"
    """Darkness: heavily obscured; darkvision sees it as dim."""

    @property
    def rank(self) -> int:
        """0 for bright, 1 for dim, 2 for dark: the brighter of two levels has the lower."""
        return list(LightLevel).index(self)


TORCH_BRIGHT_FEET = 20.0
TORCH_DIM_FEET = 20.0
"""A torch (the rules documents): bright light in a 20-foot radius and dim light for another
20 feet."""
UVTT_DIM_PER_BRIGHT = 2.0
"""A Universal VTT light's ``range`` is its bright radius; its dim light reaches this many
times as far (the Foundry importer's reading, dim twice bright; a torch's ratio too)."""


class Light(BaseModel):
    """A light source: bright light within ``bright_cells`` of its centre and dim light out
    to ``dim_cells`` (both radii from the centre, in cells, closed: a point exactly on a
    radius is inside it). Walls that block sight stop it (``geometry.illumination``).

    A light ``carried_by`` a creature shines from the centre of its space, wherever it moves;
    ``position`` is where it lies when nobody carries it (or its carrier has left the map).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: EntityId = Field(default_factory=lambda: new_id("light"))
    position: CheckedPoint
    bright_cells: float = Field(ge=0, le=MAX_LIGHT_RANGE_CELLS, allow_inf_nan=False)
    dim_cells: float = Field(ge=0, le=MAX_LIGHT_RANGE_CELLS, allow_inf_nan=False)
    intensity: float = Field(default=1.0, ge=0, le=MAX_LIGHT_INTENSITY)
    color: str = Field(default="#ffffffff", max_length=16)
    name: str = Field(default="light", max_length=MAX_NAME)
    carried_by: EntityId | None = Field(
        default=None, description="The creature carrying it (a torch); None: it stays put."
    )

    @model_validator(mode="after")
    def _dim_reaches_past_bright(self) -> Light:
        if self.dim_cells < self.bright_cells:
            raise ValueError(
                f"dim_cells: {self.dim_cells:g} is inside bright_cells {self.bright_cells:g};"
                " dim light reaches at least as far as bright light"
            )
        return self


def uvtt_light_radii(range_cells: float) -> tuple[float, float]:
    """The bright and dim radii (cells) of a Universal VTT light of ``range`` cells (see
    ``UVTT_DIM_PER_BRIGHT``), the dim one bounded by ``MAX_LIGHT_RANGE_CELLS``."""
    return range_cells, min(MAX_LIGHT_RANGE_CELLS, UVTT_DIM_PER_BRIGHT * range_cells)


class MapLighting(BaseModel):
    """The map's own light: ``ambient`` everywhere no light shines brighter.

    ``baked_lighting`` says the map's picture already shows its lights and shadows
    (Dungeondraft's "baked lighting"): the players' window draws it as it is, without
    darkening it again; the light levels (for sight and the rules) are read as for any map.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    ambient: LightLevel = LightLevel.BRIGHT
    baked_lighting: bool = False
