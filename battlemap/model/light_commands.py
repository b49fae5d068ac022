"""Undoable commands for lights: add one, change one (move, radii, carried or put down),
remove one. Pure values like every command (``battlemap.model.document``); lights are found
by id, and a removed light goes back to its place in ``Encounter.lights`` on undo.
"""

from __future__ import annotations

from dataclasses import dataclass

from battlemap.model.document import Command
from battlemap.model.encounter import Encounter
from battlemap.model.features import TORCH_BRIGHT_FEET, TORCH_DIM_FEET, Light, Point
from battlemap.model.ids import EntityId
from battlemap.model.limits import MAX_LIGHT_RANGE_CELLS, MAX_LIGHTS
from battlemap.model.map_commands import MapEditError


class UnknownLightError(MapEditError):
    """No light has the given id."""

    def __init__(self, light_id: str) -> None:
        super().__init__(f"no light has id '{light_id}'")
        self.light_id = light_id


def light_index(encounter: Encounter, light_id: str) -> int:
    """Where the light ``light_id`` sits in ``encounter.lights``.

    Raises:
        UnknownLightError: no light has that id.
    """
    for index, light in enumerate(encounter.lights):
        if light.id == light_id:
            return index
    raise UnknownLightError(light_id)


def light_of_feet(
    position: Point,
    bright_feet: float,
    dim_feet: float,
    cell_feet: float,
    name: str = "light",
    carried_by: EntityId | None = None,
) -> Light:
    """A light at ``position`` (cells) shedding bright light ``bright_feet`` round it and dim
    light ``dim_feet`` further (the rules documents' way of saying it), in cells of
    ``cell_feet``, each radius bounded by ``MAX_LIGHT_RANGE_CELLS``."""
    bright = min(MAX_LIGHT_RANGE_CELLS, bright_feet / cell_feet)
    dim = min(MAX_LIGHT_RANGE_CELLS, (bright_feet + dim_feet) / cell_feet)
    return Light(
        position=position, bright_cells=bright, dim_cells=dim, name=name, carried_by=carried_by
    )


def torch(position: Point, cell_feet: float, carried_by: EntityId | None = None) -> Light:
    """A torch: bright light in a 20-foot radius and dim light for another 20 feet."""
    return light_of_feet(
        position, TORCH_BRIGHT_FEET, TORCH_DIM_FEET, cell_feet, "torch", carried_by
    )


@dataclass(frozen=True)
class AddLight(Command):
    """Add one light at the end of ``Encounter.lights``."""

    light: Light
    text: str = "Add light"

    def apply(self, encounter: Encounter) -> Encounter:
        if any(light.id == self.light.id for light in encounter.lights):
            raise MapEditError(f"lights already holds id {self.light.id}")
        if len(encounter.lights) >= MAX_LIGHTS:
            raise MapEditError(f"lights: an encounter keeps at most {MAX_LIGHTS}")
        return encounter.model_copy(update={"lights": (*encounter.lights, self.light)})

    def revert(self, encounter: Encounter) -> Encounter:
        kept = tuple(light for light in encounter.lights if light.id != self.light.id)
        return encounter.model_copy(update={"lights": kept})


@dataclass(frozen=True)
class ReplaceLight(Command):
    """Swap a light for another of the same id (moved, carried, put down, new radii)."""

    old: Light
    new: Light
    text: str = "Edit light"

    def __post_init__(self) -> None:
        if self.old.id != self.new.id:
            raise MapEditError("ReplaceLight keeps the light's id")

    def _swap(self, encounter: Encounter, out: Light, into: Light) -> Encounter:
        index = light_index(encounter, out.id)
        lights = list(encounter.lights)
        lights[index] = into
        return encounter.model_copy(update={"lights": tuple(lights)})

    def apply(self, encounter: Encounter) -> Encounter:
        return self._swap(encounter, self.old, self.new)

    def revert(self, encounter: Encounter) -> Encounter:
        return self._swap(encounter, self.new, self.old)


@dataclass(frozen=True)
class RemoveLight(Command):
    """Remove one light; undo puts it back where it was. Build it with ``RemoveLight.of``."""

    light: Light
    index: int
    text: str = "Remove light"

    @classmethod
    def of(cls, encounter: Encounter, light_id: str) -> RemoveLight:
        index = light_index(encounter, light_id)
        light = encounter.lights[index]
        return cls(light, index, text=f"Remove {light.name}")

    def apply(self, encounter: Encounter) -> Encounter:
        light_index(encounter, self.light.id)
        kept = tuple(light for light in encounter.lights if light.id != self.light.id)
        return encounter.model_copy(update={"lights": kept})

    def revert(self, encounter: Encounter) -> Encounter:
        lights = list(encounter.lights)
        lights.insert(min(self.index, len(lights)), self.light)
        return encounter.model_copy(update={"lights": tuple(lights)})
