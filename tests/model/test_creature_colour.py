"""A token's own colour (issue 15 item 12): bounded to #rrggbb, saved, reopened; files
without it open as before and are written without it."""

import json
import zipfile
from pathlib import Path

import pytest
from pydantic import ValidationError

from battlemap.io.encounter_file import encounter_json_bytes, save_battlemap
from battlemap.io.loader import load_encounter
from battlemap.model import Creature, Encounter


def test_colour_is_optional_and_only_hex_rgb() -> None:
    assert Creature(name="Goblin").colour is None
    assert Creature(name="Goblin", colour="#1a2B3c").colour == "#1a2B3c"
    for bad in ("red", "#12345", "#1234567", "#12345g", "", "#ffffff; x", "1a2b3c"):
        with pytest.raises(ValidationError, match="colour"):
            Creature(name="Goblin", colour=bad)


def test_colour_round_trips_through_a_saved_file(tmp_path: Path) -> None:
    encounter = Encounter(creatures=(Creature(name="Ogre", colour="#208040"), Creature(name="Imp")))
    path = tmp_path / "colours.battlemap"
    save_battlemap(path, encounter, {})
    loaded = load_encounter(path)
    assert loaded == encounter
    assert [c.colour for c in loaded.creatures] == ["#208040", None]


def test_no_colour_is_left_out_of_the_file_and_an_old_file_opens(tmp_path: Path) -> None:
    written = json.loads(encounter_json_bytes(Encounter(creatures=(Creature(name="Imp"),))))
    assert "colour" not in json.dumps(written)
    old = {"name": "Old", "creatures": [{"id": "c-imp", "name": "Imp"}]}
    path = tmp_path / "old.battlemap"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("encounter.json", json.dumps({"format_version": 1, "encounter": old}))
    assert load_encounter(path).creatures[0].colour is None
