"""Undoable commands that edit the map: walls, doors, obstacles, terrain and the grid.

Like every command (see ``battlemap.model.document``) these are pure values: ``apply`` and
``revert`` take an encounter and return the changed copy. Features are found by id, so a
command stays valid whatever else changed in between, as long as the undo history is
replayed in order. One drawn wall chain or one brush stroke is one command, so it is one
undo step.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from battlemap.model.document import Command, RemoveCreature
from battlemap.model.encounter import Encounter
from battlemap.model.features import Obstacle, TerrainRegion, Wall, WallKind
from battlemap.model.grid import Grid
from battlemap.model.ids import EntityId
from battlemap.model.map_margin import clip_regions, clip_walls, cut_features

Feature = Wall | Obstacle | TerrainRegion
FeatureField = Literal["walls", "obstacles", "terrain"]
FEATURE_FIELDS: tuple[FeatureField, ...] = ("walls", "obstacles", "terrain")


class MapEditError(ValueError):
    """A map command does not fit the encounter it is applied to."""


class UnknownFeatureError(MapEditError):
    """No wall, door, obstacle or terrain region has the given id."""

    def __init__(self, feature_id: str) -> None:
        super().__init__(f"no wall, obstacle or terrain region has id '{feature_id}'")
        self.feature_id = feature_id


def _features(encounter: Encounter, field_name: FeatureField) -> tuple[Feature, ...]:
    features: tuple[Feature, ...] = getattr(encounter, field_name)
    return features


def find_feature(encounter: Encounter, feature_id: str) -> tuple[FeatureField, int, Feature]:
    """Where the feature with ``feature_id`` lives: its field, its index there, and itself.

    Raises:
        UnknownFeatureError: when no feature has that id.
    """
    for field_name in FEATURE_FIELDS:
        for index, feature in enumerate(_features(encounter, field_name)):
            if feature.id == feature_id:
                return field_name, index, feature
    raise UnknownFeatureError(feature_id)


def _append(encounter: Encounter, field_name: FeatureField, added: Iterable[Feature]) -> Encounter:
    added = tuple(added)
    existing = {feature.id for feature in _features(encounter, field_name)}
    clashes = sorted(feature.id for feature in added if feature.id in existing)
    if clashes:
        raise MapEditError(f"{field_name} already holds id(s) {', '.join(clashes)}")
    return encounter.model_copy(update={field_name: (*_features(encounter, field_name), *added)})


def _remove_ids(encounter: Encounter, field_name: FeatureField, ids: set[str]) -> Encounter:
    kept = tuple(f for f in _features(encounter, field_name) if f.id not in ids)
    return encounter.model_copy(update={field_name: kept})


def _require_unique_ids(features: tuple[Feature, ...], what: str) -> None:
    if not features:
        raise MapEditError(f"{what} needs at least one feature")
    ids = [feature.id for feature in features]
    if len(set(ids)) != len(ids):
        raise MapEditError(f"{what} holds the same id twice")


@dataclass(frozen=True)
class AddWalls(Command):
    """Add wall segments (a drawn chain of walls, doors or windows) in one step, cut to the
    map's margin (``clip_walls``) as a loaded file's would be."""

    walls: tuple[Wall, ...]
    text: str = "Draw walls"

    def __post_init__(self) -> None:
        _require_unique_ids(self.walls, "AddWalls")

    def apply(self, encounter: Encounter) -> Encounter:
        return _append(encounter, "walls", clip_walls(self.walls, encounter.grid))

    def revert(self, encounter: Encounter) -> Encounter:
        return _remove_ids(encounter, "walls", {wall.id for wall in self.walls})


@dataclass(frozen=True)
class AddObstacle(Command):
    """Add one obstacle polygon (cut to the map's margin, as a loaded file's would be)."""

    obstacle: Obstacle
    text: str = "Add obstacle"

    def apply(self, encounter: Encounter) -> Encounter:
        return _append(encounter, "obstacles", clip_regions((self.obstacle,), encounter.grid))

    def revert(self, encounter: Encounter) -> Encounter:
        return _remove_ids(encounter, "obstacles", {self.obstacle.id})


@dataclass(frozen=True)
class AddTerrain(Command):
    """Add terrain regions (one brush stroke or one drawn polygon) in one step, cut to the
    map's margin."""

    regions: tuple[TerrainRegion, ...]
    text: str = "Paint terrain"

    def __post_init__(self) -> None:
        _require_unique_ids(self.regions, "AddTerrain")

    def apply(self, encounter: Encounter) -> Encounter:
        return _append(encounter, "terrain", clip_regions(self.regions, encounter.grid))

    def revert(self, encounter: Encounter) -> Encounter:
        return _remove_ids(encounter, "terrain", {region.id for region in self.regions})


@dataclass(frozen=True)
class RemoveFeature(Command):
    """Remove one wall, door, window, obstacle or terrain region.

    ``index`` is where the feature sat in its field, so undo puts it back in the same place
    (drawing order of overlapping terrain stays the same). Build it with ``RemoveFeature.of``.
    """

    field_name: FeatureField
    feature: Feature
    index: int
    text: str = "Erase"

    @classmethod
    def of(cls, encounter: Encounter, feature_id: str) -> RemoveFeature:
        """The command removing the feature with ``feature_id`` from ``encounter``.

        Raises:
            UnknownFeatureError: when no feature has that id.
        """
        field_name, index, feature = find_feature(encounter, feature_id)
        noun = {"walls": _wall_noun(feature), "obstacles": "obstacle", "terrain": "terrain"}
        return cls(field_name, feature, index, text=f"Erase {noun[field_name]}")

    def apply(self, encounter: Encounter) -> Encounter:
        if all(f.id != self.feature.id for f in _features(encounter, self.field_name)):
            raise UnknownFeatureError(self.feature.id)
        return _remove_ids(encounter, self.field_name, {self.feature.id})

    def revert(self, encounter: Encounter) -> Encounter:
        features = list(_features(encounter, self.field_name))
        features.insert(min(self.index, len(features)), self.feature)
        return encounter.model_copy(update={self.field_name: tuple(features)})


def _wall_noun(feature: Feature) -> str:
    return feature.kind.value if isinstance(feature, Wall) else "wall"


@dataclass(frozen=True)
class ToggleDoor(Command):
    """Open a closed door or close an open one; reverting toggles it back."""

    wall_id: EntityId
    text: str = "Open/close door"

    def _toggled(self, encounter: Encounter) -> Encounter:
        field_name, index, feature = find_feature(encounter, self.wall_id)
        if not isinstance(feature, Wall) or feature.kind is not WallKind.DOOR:
            raise MapEditError(f"'{self.wall_id}' is not a door")
        walls = list(encounter.walls)
        walls[index] = feature.model_copy(update={"open": not feature.open})
        return encounter.model_copy(update={field_name: tuple(walls)})

    def apply(self, encounter: Encounter) -> Encounter:
        return self._toggled(encounter)

    def revert(self, encounter: Encounter) -> Encounter:
        return self._toggled(encounter)


@dataclass(frozen=True)
class SwapDoorWindow(Command):
    """Make a door a window or a window a (closed) door: an importer cannot always tell them
    apart. Reverting restores the kind and, for a door, whether it stood open."""

    wall_id: EntityId
    was_open: bool = False
    text: str = "Door/window"

    @classmethod
    def of(cls, encounter: Encounter, wall_id: EntityId) -> SwapDoorWindow:
        """The command for the door or window ``wall_id`` as it is in ``encounter``.

        Raises:
            UnknownFeatureError: no feature has that id.
            MapEditError: the feature is not a door or a window.
        """
        door = _portal(encounter, wall_id)[2]
        return cls(wall_id, was_open=door.open, text=f"Make {door.kind.value} a {_other(door)}")

    def apply(self, encounter: Encounter) -> Encounter:
        return self._swapped(encounter, open_after=False)

    def revert(self, encounter: Encounter) -> Encounter:
        return self._swapped(encounter, open_after=self.was_open)

    def _swapped(self, encounter: Encounter, open_after: bool) -> Encounter:
        field_name, index, portal = _portal(encounter, self.wall_id)
        kind = WallKind.WINDOW if portal.kind is WallKind.DOOR else WallKind.DOOR
        walls = list(encounter.walls)
        walls[index] = portal.model_copy(
            update={"kind": kind, "open": open_after and kind is WallKind.DOOR}
        )
        return encounter.model_copy(update={field_name: tuple(walls)})


def _portal(encounter: Encounter, wall_id: EntityId) -> tuple[FeatureField, int, Wall]:
    field_name, index, feature = find_feature(encounter, wall_id)
    if not isinstance(feature, Wall) or feature.kind is WallKind.WALL:
        raise MapEditError(f"'{wall_id}' is not a door or a window")
    return field_name, index, feature


def _other(portal: Wall) -> str:
    return "window" if portal.kind is WallKind.DOOR else "door"


@dataclass(frozen=True)
class SetGrid(Command):
    """Change the map size in cells or the cell size in feet.

    Walls, obstacles and terrain past a shrunk map's margin are cut there
    (``battlemap.model.map_margin``), as the saved file would have them when reopened;
    ``before`` keeps the fields the cut changed as they were, so undo gives them back: build
    the command with ``SetGrid.of``. Creatures off a shrunk map are kept.
    """

    old: Grid
    new: Grid
    before: tuple[tuple[FeatureField, tuple[Feature, ...]], ...] = ()
    """``(field, features)`` for each feature field the cut changes, as it was."""
    text: str = "Map settings"

    @classmethod
    def of(cls, encounter: Encounter, new: Grid) -> SetGrid:
        """The command giving ``encounter`` the grid ``new``."""
        cut = cut_features(encounter.walls, encounter.obstacles, encounter.terrain, new)
        before = tuple((name, _features(encounter, name)) for name in FEATURE_FIELDS if name in cut)
        return cls(encounter.grid, new, before)

    def apply(self, encounter: Encounter) -> Encounter:
        cut = cut_features(encounter.walls, encounter.obstacles, encounter.terrain, self.new)
        return encounter.model_copy(update={"grid": self.new, **cut})

    def revert(self, encounter: Encounter) -> Encounter:
        return encounter.model_copy(update={"grid": self.old, **dict(self.before)})


@dataclass(frozen=True)
class CommandGroup(Command):
    """Several commands as one undo step, applied in order and reverted in reverse."""

    commands: tuple[Command, ...]
    text: str = "Edit"

    def apply(self, encounter: Encounter) -> Encounter:
        for command in self.commands:
            encounter = command.apply(encounter)
        return encounter

    def revert(self, encounter: Encounter) -> Encounter:
        for command in reversed(self.commands):
            encounter = command.revert(encounter)
        return encounter


def remove_entities(encounter: Encounter, ids: Iterable[str]) -> Command | None:
    """One command deleting every creature and map feature whose id is in ``ids``.

    Unknown ids are skipped (the selection may hold an item that was just removed).
    Returns None when nothing is left to delete.
    """
    commands: list[Command] = []
    creature_ids = {c.id for c in encounter.creatures}
    for entity_id in dict.fromkeys(ids):  # keep the order, drop repeats
        command: Command
        if entity_id in creature_ids:
            index = next(i for i, c in enumerate(encounter.creatures) if c.id == entity_id)
            command = RemoveCreature(encounter.creatures[index], index)
        else:
            try:
                command = RemoveFeature.of(encounter, entity_id)
            except UnknownFeatureError:
                continue
        encounter = command.apply(encounter)  # later indices refer to the shrunk tuples
        commands.append(command)
    if not commands:
        return None
    if len(commands) == 1:
        return commands[0]
    return CommandGroup(tuple(commands), text=f"Delete {len(commands)} items")
