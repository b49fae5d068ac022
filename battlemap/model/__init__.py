"""Pydantic data for encounters: no Qt, no geometry, no rules."""

from battlemap.model.creature import Creature, Side, Size, Speeds, snap_position
from battlemap.model.document import Change, Command, Document, MoveCreature
from battlemap.model.encounter import Background, Encounter
from battlemap.model.features import (
    CoverDegree,
    Light,
    LightLevel,
    MapLighting,
    Obstacle,
    TerrainKind,
    TerrainRegion,
    Wall,
    WallKind,
)
from battlemap.model.grid import Grid
from battlemap.model.ids import EntityId, new_id

__all__ = [
    "Background",
    "Change",
    "Command",
    "CoverDegree",
    "Creature",
    "Document",
    "Encounter",
    "EntityId",
    "Grid",
    "Light",
    "LightLevel",
    "MapLighting",
    "MoveCreature",
    "Obstacle",
    "Side",
    "Size",
    "Speeds",
    "TerrainKind",
    "TerrainRegion",
    "Wall",
    "WallKind",
    "new_id",
    "snap_position",
]
