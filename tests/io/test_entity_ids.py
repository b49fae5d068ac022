"""Entity ids: 64 random bits each, and two items of one kind with one id are refused on load
and on save (commands find entities by id); the 32-bit ids of old files still load."""

from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path

import pytest

from battlemap.io.encounter_file import ENCOUNTER_ENTRY, load_battlemap, save_battlemap
from battlemap.io.errors import FileFormatError
from battlemap.model import Creature, Encounter, Light, Wall
from battlemap.model.ids import first_duplicate, new_id

WALLS = 50_000


def write_encounter(path: Path, encounter: dict[str, object]) -> Path:
    data = json.dumps({"format_version": 1, "encounter": encounter}).encode()
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(ENCOUNTER_ENTRY, data)
    return path


def wall_json(wall_id: str, x: float) -> dict[str, object]:
    return {"id": wall_id, "a": [x, 0.0], "b": [x, 1.0]}


def test_a_new_id_has_64_random_bits() -> None:
    assert re.fullmatch(r"wall-[0-9a-f]{16}", new_id("wall"))


def test_the_ids_of_a_50000_wall_map_all_differ() -> None:
    ids = [Wall(a=(0.0, 0.0), b=(1.0, 0.0)).id for _ in range(WALLS)]
    assert len(set(ids)) == WALLS
    assert first_duplicate(ids) is None


def test_first_duplicate_names_both_places_and_the_id() -> None:
    assert first_duplicate(["a", "b", "c", "b", "a"]) == (1, 3, "b")
    assert first_duplicate([]) is None


def test_old_files_with_32_bit_ids_still_load(tmp_path: Path) -> None:
    walls = [wall_json("wall-3f2a9c1b", 1.0), wall_json("wall-0a1b2c3d", 2.0)]
    creature = {"id": "creature-deadbeef", "name": "Goblin", "x": 1, "y": 1}
    path = write_encounter(tmp_path / "old.battlemap", {"walls": walls, "creatures": [creature]})
    encounter = load_battlemap(path).encounter
    assert [w.id for w in encounter.walls] == ["wall-3f2a9c1b", "wall-0a1b2c3d"]
    assert encounter.creatures[0].id == "creature-deadbeef"


@pytest.mark.parametrize("field", ["walls", "lights", "creatures"])
def test_a_file_giving_two_items_one_id_is_refused_naming_file_field_and_id(
    tmp_path: Path, field: str
) -> None:
    items: dict[str, list[dict[str, object]]] = {
        "walls": [wall_json("wall-1", 1.0), wall_json("wall-2", 2.0), wall_json("wall-1", 3.0)],
        "lights": [
            {"id": "light-1", "position": [1.0, 1.0], "range_cells": 4},
            {"id": "light-2", "position": [2.0, 1.0], "range_cells": 4},
            {"id": "light-1", "position": [3.0, 1.0], "range_cells": 4},
        ],
        "creatures": [
            {"id": "creature-1", "name": "A", "x": 0, "y": 0},
            {"id": "creature-2", "name": "B", "x": 1, "y": 0},
            {"id": "creature-1", "name": "C", "x": 2, "y": 0},
        ],
    }
    prefix = field.removesuffix("s")
    path = write_encounter(tmp_path / "clash.battlemap", {field: items[field]})
    with pytest.raises(FileFormatError) as caught:
        load_battlemap(path)
    assert caught.value.path == path
    problem = caught.value.problem
    assert problem.startswith(f"{field}: ")
    assert f"item 2 has the id '{prefix}-1' of item 0" in problem


def test_the_same_id_in_two_kinds_is_allowed(tmp_path: Path) -> None:
    path = write_encounter(
        tmp_path / "kinds.battlemap",
        {
            "walls": [wall_json("x-1", 1.0)],
            "lights": [{"id": "x-1", "position": [1.0, 1.0], "range_cells": 4}],
        },
    )
    encounter = load_battlemap(path).encounter
    assert encounter.walls[0].id == encounter.lights[0].id == "x-1"


def test_saving_two_items_with_one_id_is_refused_and_writes_nothing(tmp_path: Path) -> None:
    wall = Wall(a=(1.0, 0.0), b=(1.0, 1.0))
    twin = wall.model_copy(update={"a": (2.0, 0.0), "b": (2.0, 1.0)})
    # Commands copy without validating, so an edit could build this; the save must catch it.
    encounter = Encounter().model_copy(update={"walls": (wall, twin)})
    path = tmp_path / "twins.battlemap"
    with pytest.raises(FileFormatError) as caught:
        save_battlemap(path, encounter, {})
    assert f"walls: item 1 has the id '{wall.id}' of item 0" in caught.value.problem
    assert not path.exists()


def test_an_encounter_with_distinct_ids_saves_and_reopens(tmp_path: Path) -> None:
    encounter = Encounter(
        walls=(Wall(a=(1.0, 0.0), b=(1.0, 1.0)), Wall(a=(2.0, 0.0), b=(2.0, 1.0))),
        lights=(Light(position=(1.0, 1.0), bright_cells=4, dim_cells=8),),
        creatures=(Creature(name="A", x=0, y=0), Creature(name="B", x=1, y=0)),
    )
    path = tmp_path / "fine.battlemap"
    save_battlemap(path, encounter, {})
    assert load_battlemap(path).encounter == encounter
