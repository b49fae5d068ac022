"""An encounter: the map, everything on it, and the ruleset it is played under."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from battlemap.model.combat import CombatEvent, CombatState, keep_newest
from battlemap.model.creature import Creature
from battlemap.model.features import Light, MapLighting, Obstacle, TerrainRegion, Wall
from battlemap.model.fog import FogOfWar
from battlemap.model.grid import Grid
from battlemap.model.ids import EntityId, first_duplicate
from battlemap.model.limits import (
    MAX_CREATURES,
    MAX_ENCOUNTER_NAME,
    MAX_IMAGE_NAME,
    MAX_IMAGE_OFFSET,
    MAX_LIGHTS,
    MAX_LOG,
    MAX_NOTES,
    MAX_PARTY,
    MAX_PIXELS_PER_CELL,
    MAX_RULESET_ID,
    MIN_PIXELS_PER_CELL,
)
from battlemap.model.limits import MAX_WALLS as MAX_WALLS  # read by io.uvtt
from battlemap.model.map_margin import clip_regions, clip_walls
from battlemap.model.statblock import StatBlock

MAX_ENCOUNTER_LOG = MAX_LOG
"""Most lines the encounter log keeps; past it the oldest lines are dropped."""
COMBAT_STARTED = "combat-started"
"""The kind of a combat's first line, naming who fights."""
COMBAT_ENDED = "combat-ended"
"""The kind of the line that closes an ended combat's log inside the encounter log."""


def bounded_log(
    log: tuple[CombatEvent, ...], events: Iterable[CombatEvent]
) -> tuple[CombatEvent, ...]:
    """``log`` with ``events`` appended, keeping only the newest ``MAX_ENCOUNTER_LOG`` lines."""
    return keep_newest(log, events, MAX_ENCOUNTER_LOG)


class Background(BaseModel):
    """A map image laid under the grid. ``image`` names a file stored with the encounter."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    image: str = Field(max_length=MAX_IMAGE_NAME)
    pixels_per_cell: float = Field(ge=MIN_PIXELS_PER_CELL, le=MAX_PIXELS_PER_CELL)
    offset_x: float = Field(
        default=0.0,
        ge=-MAX_IMAGE_OFFSET,
        le=MAX_IMAGE_OFFSET,
        description="Image pixel at the map's left edge.",
    )
    offset_y: float = Field(
        default=0.0,
        ge=-MAX_IMAGE_OFFSET,
        le=MAX_IMAGE_OFFSET,
        description="Image pixel at the map's top edge.",
    )


ENTITY_FIELDS = ("creatures", "walls", "obstacles", "terrain", "lights")
"""The encounter's fields whose items commands refer to by id: ids differ within each."""


class _HasId(Protocol):
    @property
    def id(self) -> EntityId: ...


def _duplicate_message(duplicate: tuple[int, int, str]) -> str:
    first, second, entity_id = duplicate
    return f"item {second} has the id '{entity_id}' of item {first}; ids must differ"


def duplicate_id(encounter: Encounter) -> str | None:
    """Which field of ``encounter`` gives two items one id ("walls: item 7 has the id ..."),
    or None: the loader refuses such a file, so saving one is refused too."""
    for name in ENTITY_FIELDS:
        entities: tuple[_HasId, ...] = getattr(encounter, name)
        duplicate = first_duplicate(entity.id for entity in entities)
        if duplicate is not None:
            return f"{name}: {_duplicate_message(duplicate)}"
    return None


def _validated_grid(info: ValidationInfo) -> Grid | None:
    """The encounter's grid while its later fields validate; None when it was refused."""
    grid = info.data.get("grid")
    return grid if isinstance(grid, Grid) else None


class Encounter(BaseModel):
    """Everything a DM prepares for one fight. Immutable: commands produce new versions."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(default="Untitled encounter", max_length=MAX_ENCOUNTER_NAME)
    ruleset: str = Field(default="srd-5e", max_length=MAX_RULESET_ID)
    grid: Grid = Grid()
    background: Background | None = None
    creatures: tuple[Creature, ...] = Field(default=(), max_length=MAX_CREATURES)
    walls: tuple[Wall, ...] = Field(default=(), max_length=MAX_WALLS)
    obstacles: tuple[Obstacle, ...] = Field(default=(), max_length=MAX_WALLS)
    terrain: tuple[TerrainRegion, ...] = Field(default=(), max_length=MAX_WALLS)
    lights: tuple[Light, ...] = Field(default=(), max_length=MAX_LIGHTS)
    lighting: MapLighting = Field(
        default=MapLighting(),
        exclude_if=lambda lighting: lighting == MapLighting(),
        description="The map's ambient light and baked lighting. Left out of the saved data "
        "when bright and not baked (every map before format version 5).",
    )
    notes: str = Field(
        default="", max_length=MAX_NOTES, description="DM notes, never shown to players."
    )
    party: tuple[StatBlock, ...] = Field(
        default=(), max_length=MAX_PARTY, description="Player characters' stat blocks."
    )
    combat: CombatState | None = Field(default=None, description="The fight in progress.")
    fog: FogOfWar = FogOfWar()
    log: tuple[CombatEvent, ...] = Field(
        default=(),
        max_length=MAX_ENCOUNTER_LOG,
        description="The session's events outside combat and the logs of ended combats, "
        "oldest first (round 0 outside combat). DM only: never shown to players.",
    )

    @field_validator(*ENTITY_FIELDS)
    @classmethod
    def _ids_differ(cls, entities: tuple[_HasId, ...]) -> tuple[_HasId, ...]:
        """Commands find entities by id, so two with one id would be edited as one."""
        duplicate = first_duplicate(entity.id for entity in entities)
        if duplicate is not None:
            raise ValueError(_duplicate_message(duplicate))
        return entities

    @field_validator("walls")
    @classmethod
    def _walls_near_the_map(cls, walls: tuple[Wall, ...], info: ValidationInfo) -> tuple[Wall, ...]:
        """Walls far off the map (an old file, a hand-edited one) are cut at its margin."""
        grid = _validated_grid(info)
        return walls if grid is None else clip_walls(walls, grid)

    @field_validator("obstacles")
    @classmethod
    def _obstacles_near_the_map(
        cls, obstacles: tuple[Obstacle, ...], info: ValidationInfo
    ) -> tuple[Obstacle, ...]:
        grid = _validated_grid(info)
        return obstacles if grid is None else clip_regions(obstacles, grid)

    @field_validator("terrain")
    @classmethod
    def _terrain_near_the_map(
        cls, terrain: tuple[TerrainRegion, ...], info: ValidationInfo
    ) -> tuple[TerrainRegion, ...]:
        grid = _validated_grid(info)
        return terrain if grid is None else clip_regions(terrain, grid)

    def session_log(self) -> tuple[CombatEvent, ...]:
        """Every event of the session in time order: the encounter log, then the running
        combat's log (events made during a combat go into the combat's log)."""
        if self.combat is None:
            return self.log
        return self.log + self.combat.log

    def with_log(self, events: Iterable[CombatEvent]) -> Encounter:
        """A copy with ``events`` appended to the encounter log (bounded, oldest dropped)."""
        return self.model_copy(update={"log": bounded_log(self.log, events)})

    def with_combat_ended(self) -> Encounter:
        """A copy with no combat, the ended combat's log kept in the encounter log followed
        by a ``combat-ended`` line naming the last round, and each combatant's lasting state
        (``Combatant.lasting``: None when nothing lasts) on its creature. Unchanged when no
        combat runs."""
        combat = self.combat
        if combat is None:
            return self
        ended = CombatEvent(
            round=combat.round,
            kind=COMBAT_ENDED,
            text=f"Combat ended in round {combat.round}"
            if combat.started
            else "Combat ended before its first round",
        )
        kept = bounded_log(self.log, (*combat.log, ended))
        lasting = {c.creature_id: c.lasting() for c in combat.combatants}
        creatures = tuple(
            c.model_copy(update={"lasting": lasting[c.id]}) if c.id in lasting else c
            for c in self.creatures
        )
        return self.model_copy(update={"combat": None, "log": kept, "creatures": creatures})

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


def over_limit(encounter: Encounter) -> str | None:
    """What makes ``encounter`` hold more than its fields' limits allow ("walls: 50001, more
    than the 50000 an encounter keeps"), or None. Commands copy an encounter without
    validating it, so an edit that would save a file the loader refuses is caught here; the
    limits are read from the fields themselves (``battlemap.model.limits``)."""
    for name, field in Encounter.model_fields.items():
        for bound in field.metadata:
            limit = getattr(bound, "max_length", None)  # pydantic's MaxLen of the Field
            value = getattr(encounter, name)
            if isinstance(limit, int) and len(value) > limit:
                unit = "characters" if isinstance(value, str) else "items"
                return f"{name}: {len(value)} {unit}, more than the {limit} an encounter keeps"
    return None
