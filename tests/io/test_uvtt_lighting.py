"""The map's light read from a Universal VTT file's ``environment``: the real exports'
``baked_lighting`` and ``ambient_light``, and the brightness reading of the ambient colour."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest

from battlemap.io.errors import FileFormatError
from battlemap.io.uvtt import read_uvtt
from battlemap.model import Document, Encounter, LightLevel, MapLighting
from tests.shared_data import SHARED_DATA, shared_file

SAMPLE = SHARED_DATA / "uvtt2fgu_sampleMap.dd2vtt"
RED_TOWER = SHARED_DATA / "vtt-maps_red-tower-base.dd2vtt"
TINY_PNG = Path(__file__).parent / "fixtures" / "tiny.png"


def real(path: Path) -> Path:
    return shared_file(path.name)


def test_a_baked_export_keeps_its_baked_lighting_and_white_ambient_is_bright() -> None:
    assert read_uvtt(real(RED_TOWER)).lighting == MapLighting(
        ambient=LightLevel.BRIGHT, baked_lighting=True
    )


def test_an_unbaked_export_with_lights_is_not_baked() -> None:
    result = read_uvtt(real(SAMPLE))
    assert result.lighting == MapLighting(ambient=LightLevel.BRIGHT, baked_lighting=False)
    assert len(result.lights or ()) == 2


def tiny_map(tmp_path: Path, environment: dict[str, Any] | None) -> Path:
    data: dict[str, Any] = {
        "format": 0.3,
        "resolution": {"map_size": {"x": 1, "y": 1}, "pixels_per_grid": 1},
        "image": base64.b64encode(TINY_PNG.read_bytes()).decode(),
    }
    if environment is not None:
        data["environment"] = environment
    path = tmp_path / "tiny.dd2vtt"
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize(
    ("colour", "level"),
    [
        ("ffffffff", LightLevel.BRIGHT),
        ("ffa0a0a0", LightLevel.BRIGHT),  # luminance 0.63: at least 0.6
        ("ff606060", LightLevel.DIM),  # 0.38
        ("ff2a2a2a", LightLevel.DARK),  # 0.16: under 0.2
        ("ff1a1a26", LightLevel.DARK),
        ("00ffffff", LightLevel.DARK),  # fully transparent white lights nothing
        ("#ffffff", LightLevel.BRIGHT),  # rrggbb, with a hash
    ],
)
def test_the_ambient_colour_brightness_sets_the_level(
    tmp_path: Path, colour: str, level: LightLevel
) -> None:
    path = tiny_map(tmp_path, {"baked_lighting": False, "ambient_light": colour})
    lighting = read_uvtt(path).lighting
    assert lighting is not None and lighting.ambient is level


def test_a_file_without_environment_is_bright_and_not_baked(tmp_path: Path) -> None:
    assert read_uvtt(tiny_map(tmp_path, None)).lighting == MapLighting()


def test_a_malformed_ambient_colour_is_refused_naming_the_field(tmp_path: Path) -> None:
    path = tiny_map(tmp_path, {"ambient_light": "night"})
    with pytest.raises(FileFormatError) as caught:
        read_uvtt(path)
    assert caught.value.path == path
    assert "environment.ambient_light" in caught.value.problem


def test_importing_the_map_sets_the_encounter_lighting_and_undo_restores_it() -> None:
    document = Document(Encounter())
    command = read_uvtt(real(RED_TOWER)).command(document.encounter, "map.png")
    document.apply(command)
    assert document.encounter.lighting.baked_lighting
    document.revert(command)
    assert document.encounter.lighting == MapLighting()
