"""Light commands: add, change and remove a light by id, each undone exactly; a torch is
bright 20 ft and dim 20 ft more (srd-5e "Vision and Light"), in cells of the map's size."""

from __future__ import annotations

import pytest

from battlemap.model import Encounter, Light
from battlemap.model.ids import EntityId
from battlemap.model.light_commands import (
    AddLight,
    RemoveLight,
    ReplaceLight,
    UnknownLightError,
    light_of_feet,
    torch,
)
from battlemap.model.limits import MAX_LIGHT_RANGE_CELLS
from battlemap.model.map_commands import MapEditError

LAMP = Light(id=EntityId("light-lamp"), position=(1, 1), bright_cells=2, dim_cells=4)
CANDLE = Light(id=EntityId("light-candle"), position=(3, 1), bright_cells=1, dim_cells=2)


def test_a_torch_in_5_ft_cells_is_4_bright_and_8_dim_and_in_10_ft_cells_half() -> None:
    assert (torch((0, 0), 5).bright_cells, torch((0, 0), 5).dim_cells) == (4, 8)
    assert (torch((0, 0), 10).bright_cells, torch((0, 0), 10).dim_cells) == (2, 4)


def test_a_huge_light_is_bounded_to_what_a_file_keeps() -> None:
    light = light_of_feet((0, 0), 100_000, 100_000, 0.5)
    assert light.bright_cells == light.dim_cells == MAX_LIGHT_RANGE_CELLS


def test_add_replace_and_remove_are_undone_exactly() -> None:
    start = Encounter(lights=(LAMP, CANDLE))
    added = AddLight(torch((5, 5), 5)).apply(start)
    assert len(added.lights) == 3
    assert AddLight(added.lights[2]).revert(added) == start
    moved = LAMP.model_copy(update={"position": (2.0, 2.0)})
    command = ReplaceLight(LAMP, moved)
    after = command.apply(start)
    assert after.lights == (moved, CANDLE)
    assert command.revert(after) == start
    remove = RemoveLight.of(start, LAMP.id)
    assert remove.apply(start).lights == (CANDLE,)
    assert remove.revert(remove.apply(start)) == start  # back in its place, first


def test_unknown_ids_and_clashes_are_refused_by_type() -> None:
    start = Encounter(lights=(LAMP,))
    with pytest.raises(UnknownLightError, match="light-candle"):
        RemoveLight.of(start, CANDLE.id)
    with pytest.raises(MapEditError, match="already holds"):
        AddLight(LAMP).apply(start)
    with pytest.raises(MapEditError, match="keeps the light's id"):
        ReplaceLight(LAMP, CANDLE)
