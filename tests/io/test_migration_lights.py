"""Format 4 to 5: lights get a bright and a dim radius; the map keeps its bright look."""

from __future__ import annotations

import copy
import json
import zipfile
from pathlib import Path

import pytest

from battlemap.io.encounter_file import ENCOUNTER_ENTRY, load_battlemap, save_battlemap
from battlemap.io.errors import FileFormatError
from battlemap.io.migrations import migrate_4_to_5
from battlemap.model import Creature, Encounter, Light, LightLevel, MapLighting
from battlemap.model.ids import EntityId
from battlemap.model.limits import MAX_LIGHT_RANGE_CELLS


def version_4(lights: list[object]) -> dict[str, object]:
    return {"format_version": 4, "encounter": {"name": "cave", "lights": lights}}


def test_4_to_5_reads_range_as_bright_and_twice_it_as_dim() -> None:
    data = version_4([{"id": "light-1", "position": [2.0, 3.0], "range_cells": 5, "color": "#ff0"}])
    before = copy.deepcopy(data)
    migrated = migrate_4_to_5(data)
    assert data == before, "a migration must not change its argument"
    assert migrated == {
        "format_version": 5,
        "encounter": {
            "name": "cave",
            "lights": [
                {
                    "id": "light-1",
                    "position": [2.0, 3.0],
                    "color": "#ff0",
                    "bright_cells": 5.0,
                    "dim_cells": 10.0,
                }
            ],
        },
    }


def test_4_to_5_bounds_the_dim_radius_of_the_largest_range() -> None:
    light = {"position": [0, 0], "range_cells": MAX_LIGHT_RANGE_CELLS}
    (migrated,) = migrate_4_to_5(version_4([light]))["encounter"]["lights"]
    assert (migrated["bright_cells"], migrated["dim_cells"]) == (MAX_LIGHT_RANGE_CELLS,) * 2


def test_4_to_5_leaves_malformed_lights_for_the_model_to_report() -> None:
    odd = ["a torch", {"position": [0, 0], "range_cells": "far"}]
    assert migrate_4_to_5(version_4(list(odd)))["encounter"] == {"name": "cave", "lights": odd}


def write(path: Path, data: dict[str, object]) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(ENCOUNTER_ENTRY, json.dumps(data))
    return path


def test_a_version_4_file_opens_lit_bright_everywhere_as_it_was_drawn(tmp_path: Path) -> None:
    path = write(
        tmp_path / "v4.battlemap",
        version_4([{"id": "light-1", "position": [2.0, 3.0], "range_cells": 4}]),
    )
    opened = load_battlemap(path).encounter
    assert opened.lighting == MapLighting(ambient=LightLevel.BRIGHT, baked_lighting=False)
    assert [(i.bright_cells, i.dim_cells, i.carried_by) for i in opened.lights] == [(4, 8, None)]


def test_a_version_4_file_naming_lighting_is_refused(tmp_path: Path) -> None:
    data = version_4([])
    data["encounter"] = {"lighting": {"ambient": "dark"}}
    path = write(tmp_path / "odd.battlemap", data)
    with pytest.raises(FileFormatError) as caught:
        load_battlemap(path)
    assert "encounter.lighting" in caught.value.problem


def test_a_dark_map_with_a_carried_torch_saves_and_reopens(tmp_path: Path) -> None:
    hero = Creature(id=EntityId("creature-hero"), name="Hero", x=3, y=3)
    torch = Light(position=(3.5, 3.5), bright_cells=4, dim_cells=8, carried_by=hero.id)
    encounter = Encounter(
        creatures=(hero,),
        lights=(torch,),
        lighting=MapLighting(ambient=LightLevel.DARK, baked_lighting=True),
    )
    path = tmp_path / "dark.battlemap"
    save_battlemap(path, encounter, {})
    assert load_battlemap(path).encounter == encounter


def test_a_light_whose_dim_radius_is_inside_its_bright_one_is_refused() -> None:
    with pytest.raises(ValueError, match="dim_cells: 2 is inside bright_cells 4"):
        Light(position=(0, 0), bright_cells=4, dim_cells=2)
