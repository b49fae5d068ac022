"""Issue 18: reading grows with the JSON values a file holds, so an encounter's JSON is
counted before it is parsed (``MAX_ENCOUNTER_JSON_VALUES``), on opening and on saving alike:
a file within the count opens or is refused in under a second (``make bench``, "limits")."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from battlemap.io.encounter_file import (
    ENCOUNTER_ENTRY,
    encounter_json_bytes,
    load_battlemap,
    save_battlemap,
)
from battlemap.io.encounter_json import load_encounter_json
from battlemap.io.errors import FileFormatError
from battlemap.model import Encounter, Grid, Obstacle, Wall
from battlemap.model.limits import MAX_ENCOUNTER_JSON_VALUES, MAX_WALLS


def _battlemap_with(tmp_path: Path, raw: bytes) -> Path:
    path = tmp_path / "counted.battlemap"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(ENCOUNTER_ENTRY, raw)
    return path


def _values(count: int) -> bytes:
    """An encounter.json with ``count`` commas, nonsense after the first few."""
    raw = b'{"format_version":3,"encounter":{"walls":[' + b"0," * (count - 1) + b"0]}}"
    assert raw.count(b",") == count
    return raw


def test_one_value_past_the_count_is_refused_before_parsing(tmp_path: Path) -> None:
    path = _battlemap_with(tmp_path, _values(MAX_ENCOUNTER_JSON_VALUES + 1))
    with pytest.raises(FileFormatError) as caught:
        load_battlemap(path)
    assert str(caught.value) == (
        f"{path}: {MAX_ENCOUNTER_JSON_VALUES + 1} JSON values, more than the "
        f"{MAX_ENCOUNTER_JSON_VALUES} an encounter may have"
    )


def test_at_the_count_the_file_is_parsed_and_its_problem_named(tmp_path: Path) -> None:
    path = _battlemap_with(tmp_path, _values(MAX_ENCOUNTER_JSON_VALUES))
    with pytest.raises(FileFormatError, match=r"walls\.0: Input should be"):
        load_battlemap(path)


def test_a_plain_json_encounter_is_counted_too(tmp_path: Path) -> None:
    path = tmp_path / "plain.json"
    path.write_bytes(b"[" + b"0," * (MAX_ENCOUNTER_JSON_VALUES + 1) + b"0]")
    with pytest.raises(FileFormatError, match=r"JSON values, more than the 600000"):
        load_encounter_json(path)


def test_a_plain_json_encounter_in_bad_utf8_names_the_byte(tmp_path: Path) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes(b'{"name": "Caf\xe9"}')
    with pytest.raises(FileFormatError) as caught:
        load_encounter_json(path)
    assert str(caught.value) == f"{path}: not UTF-8 text (byte 13)"


def test_an_encounter_of_many_objects_is_bounded_by_its_values_alone(tmp_path: Path) -> None:
    """Every object but the last is followed by a comma: the values' count bounds them."""
    many = b'{"format_version":3,"encounter":{"walls":[' + b"{}," * MAX_ENCOUNTER_JSON_VALUES
    path = _battlemap_with(tmp_path, many + b"{}]}}")
    with pytest.raises(FileFormatError, match=r"JSON values, more than the 600000"):
        load_battlemap(path)


def _walls(count: int) -> tuple[Wall, ...]:
    return tuple(
        Wall(id=f"w{i}", a=(i % 400, i // 400), b=(i % 400 + 1, i // 400)) for i in range(count)
    )


@pytest.mark.slow  # 50,000 walls and 25,000 obstacles: a few seconds
def test_a_save_past_the_count_is_refused_and_one_within_reopens(tmp_path: Path) -> None:
    base = Encounter(grid=Grid(width=400, height=400), walls=_walls(MAX_WALLS))
    obstacles = tuple(
        Obstacle(id=f"o{i}", points=[(i % 399, 0), (i % 399 + 1, 0), (i % 399, 1)])
        for i in range(25_000)
    )
    # Each collection is within its own limit; together they hold too many values.
    past = base.model_copy(update={"obstacles": obstacles})
    values = encounter_json_bytes(past).count(b",")
    assert values > MAX_ENCOUNTER_JSON_VALUES
    path = tmp_path / "past.battlemap"
    with pytest.raises(FileFormatError, match=rf"holds {values} JSON values, more than the"):
        save_battlemap(path, past, {})
    assert not path.exists()
    within = base.model_copy(update={"obstacles": obstacles[:20_000]})
    assert encounter_json_bytes(within).count(b",") <= MAX_ENCOUNTER_JSON_VALUES
    save_battlemap(path, within, {})
    assert load_battlemap(path).encounter == within
    saved = json.loads(zipfile.ZipFile(path).read(ENCOUNTER_ENTRY))
    assert saved["encounter"]["fog"]["explored"] == ""  # cells as text (format 3)
