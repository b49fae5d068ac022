"""Universal VTT import: the real exports in ../shared/data, our own fixtures, bad input."""

from __future__ import annotations

import base64
import itertools
import json
import math
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from battlemap.io.errors import FileFormatError
from battlemap.io.map_import import ReplaceMap
from battlemap.io.uvtt import read_uvtt
from battlemap.model import Document, Encounter, Grid, Wall, WallKind
from tests.shared_data import SHARED_DATA, shared_file

FIXTURES = Path(__file__).parent / "fixtures"
DATA = SHARED_DATA
SAMPLE = DATA / "uvtt2fgu_sampleMap.dd2vtt"
RED_TOWER = DATA / "vtt-maps_red-tower-base.dd2vtt"
AZHEIM = DATA / "vtt-maps_azheim-meeting.dd2vtt"
TINY = FIXTURES / "tiny-format-0.2.uvtt"


def real(path: Path) -> Path:
    return shared_file(path.name)


def counts(walls: tuple[Wall, ...] | None) -> Counter[WallKind]:
    return Counter(wall.kind for wall in walls or ())


def inside(point: tuple[float, float], grid: Grid) -> bool:
    return 0 <= point[0] <= grid.width and 0 <= point[1] <= grid.height


def raw_wall_length_inside(path: Path) -> float:
    """Length of the file's line_of_sight segments inside the exported region, by shapely alone."""
    data = json.loads(path.read_text())
    origin, size = data["resolution"]["map_origin"], data["resolution"]["map_size"]
    region = shapely.box(origin["x"], origin["y"], origin["x"] + size["x"], origin["y"] + size["y"])
    segments = [
        shapely.LineString([(a["x"], a["y"]), (b["x"], b["y"])])
        for line in data["line_of_sight"]
        for a, b in itertools.pairwise(line)
    ]
    return float(sum(segment.intersection(region).length for segment in segments))


# --- the real files ------------------------------------------------------------------------


def test_sample_map_grid_image_doors_window_and_lights() -> None:
    result = read_uvtt(real(SAMPLE))
    assert (result.grid.width, result.grid.height) == (10, 10)
    assert result.pixels_per_cell == 256
    assert (result.image_info.format.value, result.image_info.width) == ("png", 2560)
    assert result.image_info.height == 2560
    kinds = counts(result.walls)
    assert (kinds[WallKind.DOOR], kinds[WallKind.WINDOW]) == (1, 1)
    door = next(w for w in result.walls or () if w.kind is WallKind.DOOR)
    # The door at x=7, y 2.5..3.5 in the drawing; the export starts at origin (2, 1).
    assert sorted([door.a, door.b]) == [(5.0, 1.5), (5.0, 2.5)]
    assert not door.open and door.blocks_movement and door.blocks_sight
    window = next(w for w in result.walls or () if w.kind is WallKind.WINDOW)
    assert window.blocks_movement and not window.blocks_sight
    # The room rectangle (3,2)-(11,10) in the drawing is (1,1)-(9,9) on the map.
    ends = {p for w in result.walls or () for p in (w.a, w.b)}
    assert {(1.0, 1.0), (9.0, 1.0), (1.0, 9.0), (9.0, 9.0)} <= ends
    assert len(result.lights or ()) == 2
    light = (result.lights or ())[0]
    assert light.position == pytest.approx((8.570312 - 2, 9 - 1))
    assert (light.bright_cells, light.dim_cells, light.color) == (5, 10, "#ffeccd8b")


def test_sample_map_object_outline_becomes_a_closed_ring_of_walls() -> None:
    result = read_uvtt(real(SAMPLE))
    line_of_sight_segments = 1 + 1 + 1 + 4  # three door/window-gapped lines and the room
    object_walls = [w for w in result.walls or () if w.kind is WallKind.WALL][
        line_of_sight_segments:
    ]
    assert len(object_walls) >= 3
    ring = shapely.polygonize([shapely.LineString([w.a, w.b]) for w in object_walls])
    assert len(shapely.get_parts(ring)) == 1  # the outline closes into one polygon


def test_cropped_export_translates_by_origin_and_clips_walls_to_the_map() -> None:
    result = read_uvtt(real(RED_TOWER))
    assert (result.grid.width, result.grid.height) == (10, 12)
    assert (result.image_info.width, result.image_info.height) == (1280, 1536)
    assert result.pixels_per_cell == 128
    kinds = counts(result.walls)
    data = json.loads(RED_TOWER.read_text())
    origin, size = data["resolution"]["map_origin"], data["resolution"]["map_size"]
    portals_inside = [
        p
        for p in data["portals"]
        if all(
            origin["x"] <= b["x"] <= origin["x"] + size["x"]
            and origin["y"] <= b["y"] <= origin["y"] + size["y"]
            for b in p["bounds"]
        )
    ]
    assert kinds[WallKind.DOOR] == len(portals_inside) == 4  # SOURCES.md: 4 of 41 inside
    assert kinds[WallKind.WALL] > 0
    walls = result.walls or ()
    assert all(inside(w.a, result.grid) and inside(w.b, result.grid) for w in walls)
    wall_length = sum(math.dist(w.a, w.b) for w in walls if w.kind is WallKind.WALL)
    assert wall_length == pytest.approx(raw_wall_length_inside(RED_TOWER), abs=0.1)


def test_every_wall_point_inside_the_cropped_map_is_kept() -> None:
    result = read_uvtt(real(RED_TOWER))
    data = json.loads(RED_TOWER.read_text())
    origin = data["resolution"]["map_origin"]
    ends = {p for w in result.walls or () for p in (w.a, w.b)}
    shifted = {
        (p["x"] - origin["x"], p["y"] - origin["y"]) for line in data["line_of_sight"] for p in line
    }
    inner = {p for p in shifted if 0 < p[0] < 10 and 0 < p[1] < 12}
    assert inner
    near = [min(math.dist(p, e) for e in ends) for p in inner]
    assert max(near) < 0.02  # simplification moves a point by at most 0.01 cell


def test_webp_map_with_empty_arrays() -> None:
    result = read_uvtt(real(AZHEIM))
    assert (result.grid.width, result.grid.height) == (8, 8)
    assert result.image_info.format.value == "webp"
    assert (result.image_info.width, result.image_info.height) == (2048, 2048)
    assert result.walls == () and result.lights == ()


# --- our own fixture (format 0.2) and the command --------------------------------------------


def test_format_0_2_fixture_without_objects_line_of_sight() -> None:
    result = read_uvtt(TINY)
    assert (result.grid.width, result.grid.height, result.pixels_per_cell) == (4, 3, 10)
    walls = result.walls or ()
    assert counts(walls) == {WallKind.WALL: 3, WallKind.DOOR: 1}
    # The wall from (2,2) to (2,6) is clipped at the bottom edge y=3.
    assert any(sorted([w.a, w.b]) == [(2.0, 2.0), (2.0, 3.0)] for w in walls)
    assert len(result.lights or ()) == 1


def test_import_command_replaces_the_map_and_undo_restores_it() -> None:
    result = read_uvtt(TINY)
    before = Encounter(walls=(Wall(a=(0, 0), b=(1, 1)),))
    document = Document(before)
    name = document.add_image(result.image, result.image_info.format.suffix)
    command = result.command(document.encounter, name)
    assert isinstance(command, ReplaceMap)
    document.apply(command)
    after = document.encounter
    assert after.grid.width == 4 and after.background is not None
    assert after.background.image == name and document.images[name] == result.image
    assert after.walls == result.walls and after.lights == result.lights
    document.revert(command)
    assert document.encounter == before


def test_portal_without_bounds_uses_position_and_rotation(tmp_path: Path) -> None:
    data = json.loads(TINY.read_text())
    data["portals"] = [{"position": {"x": 1, "y": 1}, "rotation": 0, "closed": False}]
    result = read_uvtt(write(tmp_path, data))
    (window,) = [w for w in result.walls or () if w.kind is WallKind.WINDOW]
    assert sorted([window.a, window.b]) == [(0.5, 1.0), (1.5, 1.0)]


def test_image_scaled_after_export_sets_the_cell_size(tmp_path: Path) -> None:
    data = json.loads(TINY.read_text())
    data["resolution"]["pixels_per_grid"] = 50  # but the 40 px image spans 4 cells
    assert read_uvtt(write(tmp_path, data)).pixels_per_cell == 10


def test_lights_far_outside_the_map_are_dropped(tmp_path: Path) -> None:
    data = json.loads(TINY.read_text())
    data["lights"].append({"position": {"x": 50, "y": 50}, "range": 3})
    data["lights"].append({"position": {"x": 6, "y": 1}, "range": 2})  # reaches x=4
    assert len(read_uvtt(write(tmp_path, data)).lights or ()) == 2


# --- bad input ---------------------------------------------------------------------------------


def write(tmp_path: Path, data: dict[str, Any] | str, name: str = "bad.dd2vtt") -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return path


def tiny_with(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(TINY.read_text())
    data.update(changes)
    return data


BAD_CASES: dict[str, tuple[dict[str, Any] | str, str]] = {
    "not json": ("{ this is not json", "Invalid JSON"),
    "no resolution": ({"format": 0.3, "image": "AAAA"}, "resolution: Field required"),
    "newer format": (tiny_with(format=1.1), "format: 1.1 is not a version read"),
    "huge declared map": (
        tiny_with(resolution={"map_size": {"x": 100000, "y": 5}, "pixels_per_grid": 10}),
        "resolution.map_size.x",
    ),
    "NaN coordinate": (
        json.dumps(tiny_with()).replace('"y": 6', '"y": NaN'),
        "line_of_sight.2.1.y: nan is not a finite number within ±10000",
    ),
    "absurd coordinate": (
        tiny_with(line_of_sight=[[{"x": 0, "y": 0}, {"x": 1e12, "y": 0}]]),
        "line_of_sight.0.1.x: 1e+12 is not a finite number within ±10000",
    ),
    "image not base64": (tiny_with(image="not base64!!"), "image: not valid base64"),
    "image not an image": (
        tiny_with(image=base64.b64encode(b"GIF89a" + bytes(20)).decode()),
        "image: not a PNG, JPEG or WEBP image",
    ),
    "bad light colour": (
        tiny_with(lights=[{"position": {"x": 1, "y": 1}, "range": 1, "color": "red"}]),
        "lights.0.color",
    ),
}


@pytest.mark.parametrize("case", BAD_CASES)
def test_bad_input_is_refused_with_a_message_naming_file_and_field(
    tmp_path: Path, case: str
) -> None:
    content, message = BAD_CASES[case]
    path = write(tmp_path, content)
    with pytest.raises(FileFormatError) as caught:
        read_uvtt(path)
    assert message in str(caught.value)
    assert str(path) in str(caught.value)


def test_decompression_bomb_is_refused_from_the_header(tmp_path: Path) -> None:
    # A valid PNG signature and IHDR declaring 60000 x 60000 pixels, and nothing else.
    header = b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\x0dIHDR" + (60000).to_bytes(4, "big") * 2
    path = write(tmp_path, tiny_with(image=base64.b64encode(header + bytes(20)).decode()))
    with pytest.raises(FileFormatError, match="60000x60000 pixels is larger than"):
        read_uvtt(path)


def test_missing_file_and_folder(tmp_path: Path) -> None:
    with pytest.raises(FileFormatError, match="no such file"):
        read_uvtt(tmp_path / "absent.dd2vtt")
    with pytest.raises(FileFormatError, match="is a folder"):
        read_uvtt(tmp_path)


def test_oversized_file_is_refused_before_reading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("battlemap.io.uvtt.MAX_UVTT_BYTES", 100)
    with pytest.raises(FileFormatError, match="more than the 100 allowed"):
        read_uvtt(TINY)


# --- never crash: any mangled file gives a result or a FileFormatError -------------------------

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**12), 10**12)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, item in value.items():
            if key != "image":
                found += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*prefix, index))
    return found


TINY_PATHS = _paths(json.loads(TINY.read_text()))


@settings(max_examples=150, deadline=None)
@given(where=st.sampled_from(TINY_PATHS), value=json_values)
def test_any_mangled_field_is_read_or_refused_with_a_file_format_error(
    tmp_path_factory: pytest.TempPathFactory, where: tuple[Any, ...], value: Any
) -> None:
    data = json.loads(TINY.read_text())
    target = data
    for key in where[:-1]:
        target = target[key]
    target[where[-1]] = value
    path = tmp_path_factory.mktemp("mangled") / "m.uvtt"
    path.write_text(json.dumps(data))
    try:
        read_uvtt(path)
    except FileFormatError as error:
        assert str(path) in str(error)
