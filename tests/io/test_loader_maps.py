"""``battlemap MAP`` opens a map file as a new encounter (a Universal VTT file or an image)."""

from __future__ import annotations

from pathlib import Path

import pytest

from battlemap.io.errors import FileFormatError
from battlemap.io.loader import load_encounter_file
from battlemap.io.uvtt import read_uvtt

FIXTURES = Path(__file__).parent / "fixtures"


def test_a_uvtt_file_opens_as_a_new_encounter_with_its_image() -> None:
    path = FIXTURES / "tiny-format-0.2.uvtt"
    opened = load_encounter_file(path)
    imported = read_uvtt(path)
    assert opened.encounter.name == "tiny-format-0.2"
    assert opened.encounter.grid.width == imported.grid.width
    assert imported.walls is not None
    assert [(w.a, w.b, w.kind) for w in opened.encounter.walls] == [
        (w.a, w.b, w.kind) for w in imported.walls
    ]
    assert opened.encounter.creatures == ()
    background = opened.encounter.background
    assert background is not None
    assert opened.images == {background.image: imported.image}


def test_an_image_opens_as_a_background_under_a_fitted_grid() -> None:
    opened = load_encounter_file(FIXTURES / "tiny.png")
    assert opened.encounter.background is not None
    assert list(opened.images) == [opened.encounter.background.image]
    assert opened.encounter.walls == ()


def test_a_file_that_is_not_an_image_is_refused_with_its_name(tmp_path: Path) -> None:
    fake = tmp_path / "map.png"
    fake.write_bytes(b"not a png at all")
    with pytest.raises(FileFormatError, match=r"map\.png"):
        load_encounter_file(fake)
