"""Universal VTT format 1.0 (Arkenforge), whose image may be a file beside the map, and
Universal VTT maps saved as ``.json``: read by content, not refused as broken encounters."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from battlemap.io.errors import FileFormatError
from battlemap.io.json_kind import JsonKind, sniff_json
from battlemap.io.loader import load_encounter_file
from battlemap.io.uvtt import read_uvtt
from battlemap.resources import asset_path
from tests.shared_data import SHARED_DATA, shared_file
from tests.test_cli import run

FIXTURES = Path(__file__).parent / "fixtures"
TINY = FIXTURES / "tiny-format-0.2.uvtt"
TINY_PNG = FIXTURES / "tiny.png"
MONSTERS = SHARED_DATA / "5e-SRD-Monsters.json"


def format_1(image: str | None = None) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(TINY.read_text())
    data["format"] = 1.0
    data["software"] = "Arkenforge"
    if image is not None:
        data["image"] = image
    return data


def write(folder: Path, data: dict[str, Any], name: str = "tavern.uvtt") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(json.dumps(data))
    return path


class Asker:
    """A stand-in for the DM's file dialog: records the questions, gives one answer."""

    def __init__(self, answer: Path | None) -> None:
        self.answer = answer
        self.asked: list[tuple[Path, str]] = []

    def __call__(self, map_path: Path, name: str) -> Path | None:
        self.asked.append((map_path, name))
        return self.answer


# --- format 1.0 -----------------------------------------------------------------------------


def test_format_1_with_an_embedded_image_reads_like_0_2(tmp_path: Path) -> None:
    new, old = read_uvtt(write(tmp_path, format_1())), read_uvtt(TINY)
    assert (new.grid, new.pixels_per_cell, new.image) == (old.grid, old.pixels_per_cell, old.image)
    assert [(w.a, w.b, w.kind) for w in new.walls or ()] == [
        (w.a, w.b, w.kind) for w in old.walls or ()
    ]


@pytest.mark.parametrize(
    ("written", "stored_at"),
    [
        ("tiny.png", "tiny.png"),
        ("images/tiny.png", "images/tiny.png"),
        ("C:\\Users\\dm\\Arkenforge\\tiny.png", "tiny.png"),  # made on another machine
        ("/home/someone/maps/tiny.png", "tiny.png"),
    ],
)
def test_format_1_image_file_is_read_from_beside_the_map(
    tmp_path: Path, written: str, stored_at: str
) -> None:
    (tmp_path / stored_at).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / stored_at).write_bytes(TINY_PNG.read_bytes())
    asker = Asker(None)
    result = read_uvtt(write(tmp_path, format_1(written)), asker)
    assert result.image == TINY_PNG.read_bytes() and asker.asked == []
    assert (result.image_info.width, result.image_info.height) == (40, 30)


def test_a_missing_image_file_is_refused_from_the_command_line_saying_where(
    tmp_path: Path,
) -> None:
    path = write(tmp_path, format_1("tavern-map.png"))
    with pytest.raises(FileFormatError) as caught:
        read_uvtt(path)
    message = str(caught.value)
    assert str(path) in message
    assert f"image: the map's image file 'tavern-map.png' is not in {tmp_path.resolve()}" in message
    result = run(str(path), "--smoke")
    assert result.returncode == 2 and "tavern-map.png" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_missing_image_file_is_asked_for_and_the_answer_used(tmp_path: Path) -> None:
    path = write(tmp_path / "maps", format_1("tavern-map.png"))
    asker = Asker(TINY_PNG)
    result = read_uvtt(path, asker)
    assert asker.asked == [(path, "tavern-map.png")]
    assert result.image == TINY_PNG.read_bytes()


def test_a_map_refused_for_its_walls_never_asks_for_its_image(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("battlemap.io.uvtt.MAX_WALLS", 1)
    asker = Asker(TINY_PNG)
    with pytest.raises(FileFormatError, match="wall segments on the map, more than the 1"):
        read_uvtt(write(tmp_path, format_1("tavern-map.png")), asker)
    assert asker.asked == []


def test_no_answer_refuses_the_map(tmp_path: Path) -> None:
    asker = Asker(None)
    with pytest.raises(FileFormatError, match=r"'tavern-map\.png' is not in"):
        read_uvtt(write(tmp_path, format_1("tavern-map.png")), asker)
    assert len(asker.asked) == 1


@pytest.mark.parametrize("written", ["../private.png", "{outside}/private.png"])
def test_an_image_outside_the_maps_folder_is_never_read_unasked(
    tmp_path: Path, written: str
) -> None:
    (tmp_path / "private.png").write_bytes(TINY_PNG.read_bytes())
    asker = Asker(None)
    path = write(tmp_path / "download", format_1(written.format(outside=tmp_path)))
    with pytest.raises(FileFormatError, match="is not in"):
        read_uvtt(path, asker)
    assert [name for _, name in asker.asked] == [written.format(outside=tmp_path)]


def test_an_image_file_that_is_not_an_image_is_refused_naming_both_files(tmp_path: Path) -> None:
    (tmp_path / "map.png").write_bytes(b"GIF89a not a png")
    path = write(tmp_path, format_1("map.png"))
    with pytest.raises(FileFormatError) as caught:
        read_uvtt(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: image: {tmp_path.resolve() / 'map.png'}: ")
    assert "not a PNG, JPEG or WEBP image" in message


def test_the_opened_encounter_keeps_the_image_it_read(tmp_path: Path) -> None:
    (tmp_path / "tiny.png").write_bytes(TINY_PNG.read_bytes())
    opened = load_encounter_file(write(tmp_path, format_1("tiny.png")))
    background = opened.encounter.background
    assert background is not None and opened.images[background.image] == TINY_PNG.read_bytes()


# --- what a .json file is -------------------------------------------------------------------


def test_a_uvtt_map_named_json_opens_as_a_map(tmp_path: Path) -> None:
    path = write(tmp_path, json.loads(TINY.read_text()), name="exported map.json")
    opened = load_encounter_file(path)
    assert opened.encounter.name == "exported map"
    assert (opened.encounter.grid.width, opened.encounter.grid.height) == (4, 3)
    assert len(opened.encounter.walls) == len(read_uvtt(TINY).walls or ())
    pytest.importorskip("PySide6", reason="--smoke opens the app, which needs Qt")
    result = run(str(path), "--smoke")
    assert result.returncode == 0 and "smoke: rendered 800x" in result.stdout


def test_a_broken_uvtt_map_named_json_is_refused_as_a_map(tmp_path: Path) -> None:
    data = json.loads(TINY.read_text()) | {"format": 7}
    with pytest.raises(FileFormatError, match=r"format: 7\.0 is not a version read"):
        load_encounter_file(write(tmp_path, data, name="map.json"))


def test_a_monster_file_opened_as_an_encounter_says_what_it_is(tmp_path: Path) -> None:
    shared_file(MONSTERS.name)
    with pytest.raises(FileFormatError) as caught:
        load_encounter_file(MONSTERS)
    assert str(caught.value) == (
        f"{MONSTERS}: this is a 5e-database monster file, not an encounter: add its monsters "
        "with Load monsters… in the Creature library"
    )


def test_the_kinds_are_told_apart_by_content() -> None:
    tiny = TINY.read_bytes()
    library = asset_path("srd-monsters.json").read_bytes()
    demo = asset_path("demo-encounter.json").read_bytes()
    goblin = json.dumps(json.loads(library)["monsters"][0]).encode()
    assert sniff_json(tiny) is JsonKind.UNIVERSAL_VTT
    assert sniff_json(library) is JsonKind.MONSTER_LIBRARY
    assert sniff_json(demo) is None  # an encounter (its creatures' stat blocks do not count)
    # One bundled stat block is not a 5e-database monster (other keys): left to the encounter
    # reader, which names what is wrong.
    assert sniff_json(goblin) is None
    assert sniff_json(b"{not json") is None and sniff_json(b'{"challenge_rating": [') is None


def test_a_broken_encounter_json_still_gets_the_encounter_readers_message(tmp_path: Path) -> None:
    path = write(tmp_path, {"grid": {"width": "wide"}}, name="fight.json")
    with pytest.raises(FileFormatError, match=r"grid\.width"):
        load_encounter_file(path)
