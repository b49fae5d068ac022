"""Issue 18: importing more than an encounter keeps is refused, naming the file and the
field, instead of importing and saving a file that then does not reopen. A map at the limit
imports, saves and reopens."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from battlemap.io.encounter_file import load_battlemap, save_battlemap
from battlemap.io.errors import FileFormatError
from battlemap.io.loader import encounter_from_map
from battlemap.io.map_import import import_image_map
from battlemap.io.uvtt import read_uvtt
from battlemap.model import Encounter, Grid, Wall
from battlemap.model.limits import (
    MAP_MARGIN_CELLS,
    MAX_LIGHTS,
    MAX_PIXELS_PER_CELL,
    MAX_WALLS,
    MIN_PIXELS_PER_CELL,
)

FIXTURES = Path(__file__).parent / "fixtures"
TINY = FIXTURES / "tiny-format-0.2.uvtt"  # 4 x 3 cells


def uvtt_with(tmp_path: Path, **changes: Any) -> Path:
    data: dict[str, Any] = json.loads(TINY.read_text())
    data.update(changes)
    path = tmp_path / "map.dd2vtt"
    path.write_text(json.dumps(data))
    return path


def lights(count: int) -> list[dict[str, Any]]:
    return [{"position": {"x": 1 + i % 3, "y": 1}, "range": 2} for i in range(count)]


def test_a_map_with_one_light_more_than_an_encounter_keeps_is_refused(tmp_path: Path) -> None:
    # Issue 18: 10,001 lights imported and saved; the saved file was refused on reopening.
    path = uvtt_with(tmp_path, lights=lights(MAX_LIGHTS + 1))
    with pytest.raises(FileFormatError) as refused:
        read_uvtt(path)
    assert refused.value.path == path
    assert refused.value.problem == (
        f"lights: {MAX_LIGHTS + 1} in the file, more than the {MAX_LIGHTS} an encounter keeps"
    )


def test_a_map_with_as_many_lights_as_an_encounter_keeps_saves_and_reopens(
    tmp_path: Path,
) -> None:
    opened = encounter_from_map(uvtt_with(tmp_path, lights=lights(MAX_LIGHTS)))
    assert len(opened.encounter.lights) == MAX_LIGHTS
    saved = tmp_path / "lit.battlemap"
    save_battlemap(saved, opened.encounter, opened.images)
    assert load_battlemap(saved).encounter == opened.encounter


def test_a_map_whose_cells_are_too_few_pixels_is_refused_by_name() -> None:
    # 0.05 pixels a cell: the image would be scaled 20x past what Qt can draw. (A 40-pixel
    # image over the most cells a map may have, 400, is 0.1 a cell: just allowed.)
    with pytest.raises(FileFormatError) as refused:
        dataclasses.replace(read_uvtt(TINY), pixels_per_cell=MIN_PIXELS_PER_CELL / 2)
    assert refused.value.problem == (
        f"resolution: a cell of 0.05 image pixels; cells may be "
        f"{MIN_PIXELS_PER_CELL:g} to {MAX_PIXELS_PER_CELL:g} pixels"
    )


def test_any_map_import_with_cells_of_too_many_pixels_is_refused() -> None:
    with pytest.raises(FileFormatError, match="resolution: a cell of 20000 image pixels"):
        dataclasses.replace(read_uvtt(TINY), pixels_per_cell=2 * MAX_PIXELS_PER_CELL)


def test_an_image_import_onto_a_smaller_map_cuts_the_walls_past_its_margin() -> None:
    # tiny.png is 40 x 30 pixels: at 10 pixels a cell, a 4 x 3 map.
    imported = import_image_map(FIXTURES / "tiny.png", pixels_per_cell=10)
    encounter = Encounter(grid=Grid(width=100, height=100), walls=(Wall(a=(1, 1), b=(90, 1)),))
    command = imported.command(encounter, "tiny.png")
    applied = command.apply(encounter)
    assert applied.grid.width == 4
    assert applied.walls[0].b == (4 + MAP_MARGIN_CELLS, 1)
    assert Encounter.model_validate(applied.model_dump()) == applied  # reopens the same
    assert command.revert(applied) == encounter


def test_a_map_with_one_wall_more_than_an_encounter_keeps_is_refused(tmp_path: Path) -> None:
    # Every map reader returns a MapImport, which refuses it (a UVTT file with 50,001 walls
    # takes ~15 s to parse, so the test builds the import directly).
    imported = read_uvtt(TINY)
    wall = Wall(a=(0, 1), b=(1, 1))
    with pytest.raises(FileFormatError) as refused:
        dataclasses.replace(imported, walls=(wall,) * (MAX_WALLS + 1))
    assert refused.value.path == TINY
    assert refused.value.problem == (
        f"walls: {MAX_WALLS + 1} on the map, more than the {MAX_WALLS} an encounter keeps"
    )
