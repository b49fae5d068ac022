"""An encounter: the map, everything on it, and the ruleset it is played under."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from battlemap.model.combat import CombatState
from battlemap.model.creature import Creature
from battlemap.model.features import Light, Obstacle, TerrainRegion, Wall
from battlemap.model.fog import FogOfWar
from battlemap.model.grid import Grid
from battlemap.model.ids import EntityId
from battlemap.model.statblock import StatBlock

MAX_CREATURES = 2_000
MAX_WALLS = 50_000


class Background(BaseModel):
    """A map image laid under the grid. ``image`` names a file stored with the encounter."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    image: str = Field(max_length=255)
    pixels_per_cell: float = Field(gt=0, le=10_000)
    offset_x: float = Field(default=0.0, description="Image pixel at the map's left edge.")
    offset_y: float = Field(default=0.0, description="Image pixel at the map's top edge.")


class Encounter(BaseModel):
    """Everything a DM prepares for one fight. Immutable: commands produce new versions."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(default="Untitled encounter", max_length=200)
    ruleset: str = Field(default="srd-5e", max_length=80)
    grid: Grid = Grid()
    background: Background | None = None
    creatures: tuple[Creature, ...] = Field(default=(), max_length=MAX_CREATURES)
    walls: tuple[Wall, ...] = Field(default=(), max_length=MAX_WALLS)
    obstacles: tuple[Obstacle, ...] = Field(default=(), max_length=MAX_WALLS)
    terrain: tuple[TerrainRegion, ...] = Field(default=(), max_length=MAX_WALLS)
    lights: tuple[Light, ...] = Field(default=(), max_length=10_000)
    notes: str = Field(
        default="", max_length=100_000, description="DM notes, never shown to players."
    )
    party: tuple[StatBlock, ...] = Field(
        default=(), max_length=100, description="Player characters' stat blocks."
    )
    combat: CombatState | None = Field(default=None, description="The fight in progress.")
    fog: FogOfWar = FogOfWar()

    def creature(self, creature_id: EntityId) -> Creature:
        """The creature with this id.

        Raises:
            KeyError: when no creature has it.
        """
        for creature in self.creatures:
            if creature.id == creature_id:
                return creature
        raise KeyError(creature_id)

    def replace_creature(self, creature: Creature) -> Encounter:
        """A copy of this encounter with the creature of the same id replaced."""
        self.creature(creature.id)
        creatures = tuple(creature if c.id == creature.id else c for c in self.creatures)
        return self.model_copy(update={"creatures": creatures})
