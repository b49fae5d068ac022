"""Every way a .battlemap file can be bad gets its own clear message, and nothing is written."""

from __future__ import annotations

import json
import warnings
import zipfile
from pathlib import Path

import pytest

from battlemap.io import encounter_file
from battlemap.io.encounter_file import (
    ENCOUNTER_ENTRY,
    MAX_JSON_BYTES,
    load_battlemap,
    save_battlemap,
)
from battlemap.io.errors import FileFormatError
from battlemap.io.migrations import CURRENT_FORMAT_VERSION, NewerFormatError
from battlemap.model import Background, Encounter

GOOD_JSON = json.dumps({"format_version": 1, "encounter": {"name": "Fine"}}).encode()


def make_zip(path: Path, entries: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries.items():
            archive.writestr(name, data)
    return path


def refused(path: Path) -> str:
    """Open ``path``, expect a FileFormatError naming it, and return the problem."""
    listing = sorted(p.name for p in path.parent.iterdir())
    with pytest.raises(FileFormatError) as caught:
        load_battlemap(path)
    assert caught.value.path == path
    assert str(path) in str(caught.value)
    assert sorted(p.name for p in path.parent.iterdir()) == listing, "opening wrote a file"
    return caught.value.problem


def encounter_json(encounter: object, version: object = 1) -> bytes:
    return json.dumps({"format_version": version, "encounter": encounter}).encode()


def test_a_file_that_is_not_a_zip(tmp_path: Path) -> None:
    path = tmp_path / "notes.battlemap"
    path.write_text("just some text")
    assert "damaged or truncated" in refused(path)


def test_a_truncated_file(tmp_path: Path) -> None:
    whole = tmp_path / "whole.battlemap"
    save_battlemap(whole, Encounter(name="x" * 150, notes="n" * 5000), {})
    data = whole.read_bytes()
    for keep in (len(data) // 3, len(data) - 30, len(data) - 1):
        cut = tmp_path / f"cut{keep}.battlemap"
        cut.write_bytes(data[:keep])
        assert "damaged or truncated" in refused(cut)


def test_an_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "empty.battlemap"
    path.write_bytes(b"")
    assert "damaged or truncated" in refused(path)


def test_a_damaged_entry(tmp_path: Path) -> None:
    path = tmp_path / "damaged.battlemap"
    save_battlemap(path, Encounter(notes="lorem ipsum " * 400), {})
    data = bytearray(path.read_bytes())
    start = data.index(b"encounter.json") + len("encounter.json")  # compressed data follows
    for offset in range(start + 10, start + 40):
        data[offset] ^= 0xFF
    path.write_bytes(bytes(data))
    assert "entry 'encounter.json' is damaged" in refused(path)


def test_no_such_file(tmp_path: Path) -> None:
    assert refused(tmp_path / "missing.battlemap") == "no such file"


def test_a_folder(tmp_path: Path) -> None:
    folder = tmp_path / "folder.battlemap"
    folder.mkdir()
    assert refused(folder) == "is a folder, not a file"


def test_a_file_past_the_size_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(encounter_file, "MAX_FILE_BYTES", 100)
    path = make_zip(tmp_path / "big.battlemap", {ENCOUNTER_ENTRY: GOOD_JSON * 20})
    assert "more than the 100 allowed" in refused(path)


def test_a_zip_bomb_entry_is_refused_before_it_is_expanded(tmp_path: Path) -> None:
    # 64 MiB of spaces deflates to about 64 KiB: the real limit, not a patched one.
    path = make_zip(
        tmp_path / "bomb.battlemap", {ENCOUNTER_ENTRY: GOOD_JSON + b" " * MAX_JSON_BYTES}
    )
    assert path.stat().st_size < 1024 * 1024
    problem = refused(path)
    assert "entry 'encounter.json' expands to" in problem
    assert "zip bomb" in problem


def test_many_entries_adding_up_to_a_bomb(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(encounter_file, "MAX_TOTAL_BYTES", 50_000)
    entries = {f"images/{i}.png": bytes(20_000) for i in range(3)}
    path = make_zip(tmp_path / "bomb.battlemap", {ENCOUNTER_ENTRY: GOOD_JSON, **entries})
    problem = refused(path)
    assert "entries expand to 60" in problem and "zip bomb" in problem


def test_too_many_entries(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(encounter_file, "MAX_ENTRIES", 3)
    entries = {f"images/{i}.png": b"x" for i in range(3)}
    path = make_zip(tmp_path / "many.battlemap", {ENCOUNTER_ENTRY: GOOD_JSON, **entries})
    assert "holds 4 entries, more than the 3 allowed" in refused(path)


@pytest.mark.parametrize(
    "name",
    ["../evil.png", "images/../../evil.png", "/etc/passwd", "C:/Windows/evil.dll", "a\\..\\b"],
)
def test_a_path_that_escapes_the_folder(tmp_path: Path, name: str) -> None:
    path = make_zip(tmp_path / "escape.battlemap", {ENCOUNTER_ENTRY: GOOD_JSON, name: b"boo"})
    assert f"entry '{name}' has a path that escapes the file's folder" in refused(path)
    assert not (tmp_path.parent / "evil.png").exists()


def test_a_duplicated_entry(tmp_path: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # zipfile warns, and writes it anyway
        path = make_zip(tmp_path / "dup.battlemap", {ENCOUNTER_ENTRY: GOOD_JSON})
        with zipfile.ZipFile(path, "a") as archive:
            archive.writestr(ENCOUNTER_ENTRY, GOOD_JSON)
    assert "entry 'encounter.json' appears twice" in refused(path)


def test_an_encrypted_entry(tmp_path: Path) -> None:
    path = make_zip(tmp_path / "locked.battlemap", {ENCOUNTER_ENTRY: GOOD_JSON})
    data = bytearray(path.read_bytes())
    data[data.index(b"PK\x01\x02") + 8] |= 0x1  # the central directory's "encrypted" flag
    path.write_bytes(bytes(data))
    assert "entry 'encounter.json' is encrypted" in refused(path)


def test_no_encounter_json(tmp_path: Path) -> None:
    path = make_zip(tmp_path / "photos.battlemap", {"images/a.png": b"png"})
    assert "'encounter.json' is missing from the file" in refused(path)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (b"{not json", "encounter.json: invalid JSON: key must be a string at line 1 column 2"),
        (b"\xff\xfe{}", "encounter.json: not UTF-8 text (byte 0)"),
        (b"[1, 2]", "encounter.json: expected a JSON object, got list"),
        (b"[" * 100_000, "encounter.json: JSON nested too deeply"),
    ],
)
def test_encounter_json_that_is_not_a_json_object(
    tmp_path: Path, raw: bytes, expected: str
) -> None:
    path = make_zip(tmp_path / "bad.battlemap", {ENCOUNTER_ENTRY: raw})
    assert refused(path).startswith(expected)


def test_a_newer_format_version_names_both_versions(tmp_path: Path) -> None:
    path = make_zip(tmp_path / "future.battlemap", {ENCOUNTER_ENTRY: encounter_json({}, 7)})
    with pytest.raises(NewerFormatError) as caught:
        load_battlemap(path)
    assert "format version 7" in caught.value.problem
    assert f"up to {CURRENT_FORMAT_VERSION}" in caught.value.problem


@pytest.mark.parametrize("version", ["1", True, -1, 1.0, None])
def test_a_malformed_format_version(tmp_path: Path, version: object) -> None:
    path = make_zip(tmp_path / "odd.battlemap", {ENCOUNTER_ENTRY: encounter_json({}, version)})
    assert refused(path) == f"format_version: expected a whole number >= 0, got {version!r}"


def test_an_unknown_field_in_the_encounter(tmp_path: Path) -> None:
    raw = encounter_json({"name": "x", "mystery": 1})
    path = make_zip(tmp_path / "unknown.battlemap", {ENCOUNTER_ENTRY: raw})
    assert refused(path) == "mystery: Extra inputs are not permitted"


def test_an_unknown_field_beside_the_encounter(tmp_path: Path) -> None:
    raw = json.dumps({"format_version": 1, "encounter": {}, "extra": 2}).encode()
    path = make_zip(tmp_path / "unknown.battlemap", {ENCOUNTER_ENTRY: raw})
    assert refused(path) == "encounter.json: unknown field 'extra'"


def test_no_encounter_in_the_envelope(tmp_path: Path) -> None:
    path = make_zip(tmp_path / "hollow.battlemap", {ENCOUNTER_ENTRY: b'{"format_version": 1}'})
    assert refused(path) == "encounter.json: the 'encounter' field is missing"


def test_wrong_types_name_the_field(tmp_path: Path) -> None:
    raw = encounter_json({"grid": {"width": "wide"}, "creatures": [{"name": "Orc", "hp": -4}]})
    path = make_zip(tmp_path / "types.battlemap", {ENCOUNTER_ENTRY: raw})
    problem = refused(path)
    assert "grid.width: Input should be a valid integer" in problem
    assert "creatures.0.hp: Input should be greater than or equal to 0" in problem


def test_a_missing_image(tmp_path: Path) -> None:
    raw = encounter_json({"background": {"image": "map.png", "pixels_per_cell": 70}})
    path = make_zip(tmp_path / "noimage.battlemap", {ENCOUNTER_ENTRY: raw})
    assert refused(path) == "image 'map.png' used by background.image is missing from the file"


def test_an_image_name_with_a_folder_is_not_looked_up(tmp_path: Path) -> None:
    raw = encounter_json({"background": {"image": "sub/map.png", "pixels_per_cell": 70}})
    path = make_zip(
        tmp_path / "sub.battlemap", {ENCOUNTER_ENTRY: raw, "images/sub/map.png": b"png"}
    )
    assert "image 'sub/map.png' used by background.image is missing" in refused(path)


def test_saving_an_encounter_whose_image_is_missing_keeps_the_old_file(tmp_path: Path) -> None:
    path = tmp_path / "keep.battlemap"
    save_battlemap(path, Encounter(name="Old"), {})
    before = path.read_bytes()
    broken = Encounter(background=Background(image="gone.png", pixels_per_cell=50))
    with pytest.raises(FileFormatError, match=r"image 'gone\.png' used by background\.image"):
        save_battlemap(path, broken, {})
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.battlemap"]


def test_saving_into_a_missing_folder(tmp_path: Path) -> None:
    path = tmp_path / "nowhere" / "x.battlemap"
    with pytest.raises(FileFormatError, match="cannot save: No such file or directory"):
        save_battlemap(path, Encounter(), {})
