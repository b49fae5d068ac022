"""A Universal VTT 1.0 file shaped as Arkenforge writes it: 32-bit float coordinates (a wall on
the map's east border at x = 4.0000005), object outlines left open, portals with bounds,
rotation in radians and ``freestanding``, ``closed: false`` windows, an ``environment``,
lights with ARGB colours and ``shadows``, and the image embedded or named as a file.

The fixture follows the field list of Arkenforge's Universal VTT page (format, resolution,
line_of_sight, objects_line_of_sight, portals, environment, lights, image), the 0.3 light
fields MapTool documents from real exports, and 32-bit coordinates such as 0.006420135.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from battlemap.io.encounter_file import load_battlemap, save_battlemap
from battlemap.io.loader import load_encounter_file
from battlemap.io.uvtt import read_uvtt
from battlemap.model import LightLevel, MapLighting, WallKind

FIXTURES = Path(__file__).parent / "fixtures"
ARKENFORGE = FIXTURES / "arkenforge-format-1.0.uvtt"
TINY_PNG = FIXTURES / "tiny.png"


def arkenforge() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(ARKENFORGE.read_text())
    return data


def test_the_fixture_is_format_1_with_every_arkenforge_field() -> None:
    data = arkenforge()
    assert data["format"] == 1.0
    assert set(data) == {
        "format",
        "resolution",
        "line_of_sight",
        "objects_line_of_sight",
        "portals",
        "environment",
        "lights",
        "image",
    }
    assert {"shadows"} <= data["lights"][0].keys()
    assert {"bounds", "rotation", "closed", "freestanding"} <= data["portals"][0].keys()


def test_grid_image_and_cell_size_are_read() -> None:
    imported = read_uvtt(ARKENFORGE)
    assert (imported.grid.width, imported.grid.height) == (4, 3)
    assert imported.pixels_per_cell == 10
    assert imported.image == TINY_PNG.read_bytes()


def test_walls_on_the_border_in_32_bit_floats_are_kept_on_the_border() -> None:
    walls = read_uvtt(ARKENFORGE).walls or ()
    ends = {(w.a, w.b) for w in walls if w.kind is WallKind.WALL}
    assert ((4.0, 3.0), (4.0, 0.0)) in ends  # written at x = 4.0000005
    assert ((0.0, 3.0), (4.0, 3.0)) in ends
    assert all(0 <= x <= 4 and 0 <= y <= 3 for w in walls for x, y in (w.a, w.b))


def test_the_outline_is_closed_and_the_portals_are_doors_and_a_window() -> None:
    walls = read_uvtt(ARKENFORGE).walls or ()
    # 5 outer walls (gapped at the window), 2 inner (gapped at the door), 4 for the table.
    assert Counter(w.kind for w in walls) == {
        WallKind.WALL: 11,
        WallKind.DOOR: 2,
        WallKind.WINDOW: 1,
    }
    table = {(w.a, w.b) for w in walls if all(0.5 <= c <= 1 for c in (*w.a, *w.b))}
    assert ((0.5, 1.0), (0.5, 0.5)) in table and len(table) == 4
    (window,) = [w for w in walls if w.kind is WallKind.WINDOW]
    assert (window.a, window.b) == ((2.6, 0.0), (3.4, 0.0))
    doors = sorted((w.a, w.b) for w in walls if w.kind is WallKind.DOOR)
    assert doors == [((0.5, 2.5), (1.5, 2.5)), ((2.0, 1.0), (2.0, 2.0))]  # the second freestanding
    assert not any(w.open for w in walls)


def test_lights_keep_range_intensity_and_argb_colour_and_the_far_one_is_dropped() -> None:
    lights = read_uvtt(ARKENFORGE).lights or ()
    # range is the bright radius; dim light reaches twice as far (uvtt_light_radii)
    assert [(i.position, i.bright_cells, i.dim_cells, i.intensity, i.color) for i in lights] == [
        ((1.0, 1.5), 4.0, 8.0, 0.8, "#ffeccd8b"),
        ((3.0, 1.5), 2.5, 5.0, 1.0, "#ff66b8ff"),
    ]


def test_a_night_blue_ambient_light_makes_the_map_dark() -> None:
    lighting = read_uvtt(ARKENFORGE).lighting
    assert lighting == MapLighting(ambient=LightLevel.DARK, baked_lighting=False)


def test_an_image_named_by_a_windows_path_is_found_beside_the_map(tmp_path: Path) -> None:
    data = arkenforge()
    data["image"] = "C:\\Users\\dm\\Documents\\Arkenforge\\Maps\\Pig and Whistle.png"
    path = tmp_path / "Pig and Whistle.uvtt"
    path.write_text(json.dumps(data))
    (tmp_path / "Pig and Whistle.png").write_bytes(TINY_PNG.read_bytes())
    imported = read_uvtt(path)
    assert imported.image == TINY_PNG.read_bytes()
    assert len(imported.walls or ()) == 14


def test_opened_saved_and_reopened_as_an_encounter(tmp_path: Path) -> None:
    opened = load_encounter_file(ARKENFORGE)
    assert opened.encounter.name == "arkenforge-format-1.0"
    saved = tmp_path / "tavern.battlemap"
    save_battlemap(saved, opened.encounter, opened.images)
    reopened = load_battlemap(saved)
    assert reopened.encounter == opened.encounter
    assert dict(reopened.images) == dict(opened.images)
