"""Universal VTT files from issue 18's fuzzing: each is refused by name or read, never a crash.

Speed is measured in ``benchmarks/bench_import.py``; these tests check what is read or said.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from battlemap.io.errors import FileFormatError
from battlemap.io.uvtt import read_uvtt
from battlemap.model import WallKind
from tests.test_cli import run

TINY = Path(__file__).parent / "fixtures" / "tiny-format-0.2.uvtt"


def tiny() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(TINY.read_text())
    return data


def write(tmp_path: Path, data: dict[str, Any] | str, name: str = "map.dd2vtt") -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return path


def with_map_size(cells: float) -> dict[str, Any]:
    data = tiny()
    data["resolution"]["map_size"] = {"x": cells, "y": cells}
    return data


# --- map_size: a pydantic traceback and exit 1 before --------------------------------------


@pytest.mark.parametrize("cells", [1e-9, 0.01, 0.999])
def test_a_map_smaller_than_a_cell_is_refused_naming_map_size(tmp_path: Path, cells: float) -> None:
    path = write(tmp_path, with_map_size(cells))
    with pytest.raises(FileFormatError) as caught:
        read_uvtt(path)
    assert str(path) in str(caught.value)
    assert "resolution.map_size.x: Input should be greater than or equal to 1" in str(caught.value)


def test_a_tiny_map_size_from_the_command_line_exits_2_naming_the_field(tmp_path: Path) -> None:
    path = write(tmp_path, with_map_size(1e-9))
    result = run(str(path), "--smoke")
    assert result.returncode == 2
    assert str(path) in result.stderr and "resolution.map_size.x" in result.stderr
    assert "Traceback" not in result.stderr


def test_an_image_too_fine_for_its_cells_is_refused_naming_map_size(tmp_path: Path) -> None:
    # The fixture's image is 40 pixels wide: over 1 cell, 40 pixels per cell (a background
    # may have up to 10,000; lowered here so the small fixture goes over it).
    path = write(tmp_path, with_map_size(1))
    assert read_uvtt(path).pixels_per_cell == 40
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("battlemap.io.uvtt.MAX_PIXELS_PER_CELL", 39)
        with pytest.raises(FileFormatError) as caught:
            read_uvtt(path)
    message = str(caught.value)
    assert str(path) in message and "resolution.map_size.x: an image 40 pixels wide" in message
    assert "40 pixels per cell, more than the 39 allowed" in message


# --- counted before parsed ---------------------------------------------------------------------


def test_too_many_json_objects_are_refused_before_parsing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("battlemap.io.uvtt.MAX_JSON_OBJECTS", 1000)
    data = tiny()
    data["line_of_sight"] = [[{"x": 0, "y": 0}, {"x": 1, "y": 1}]] * 500
    path = write(tmp_path, data)

    def never(*_: object) -> None:
        raise AssertionError("the file was parsed")

    monkeypatch.setattr("battlemap.io.uvtt._UvttFile.model_validate_json", never)
    with pytest.raises(FileFormatError, match=r"JSON objects .* more than the 1000 a map may have"):
        read_uvtt(path)


def test_too_many_json_values_are_refused_before_parsing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("battlemap.io.uvtt.MAX_JSON_VALUES", 1000)
    data = tiny() | {"environment": list(range(1001))}  # an ignored field still costs a parse
    with pytest.raises(FileFormatError, match="JSON values, more than the 1000 a map may have"):
        read_uvtt(write(tmp_path, data))


def test_a_huge_list_of_wrong_values_gives_one_problem_not_one_per_value(tmp_path: Path) -> None:
    data = tiny()
    data["line_of_sight"] = [list(range(100_000))]
    with pytest.raises(FileFormatError) as caught:
        read_uvtt(write(tmp_path, data))
    assert "line_of_sight.0.0: Input should be a valid dictionary" in str(caught.value)
    assert "more problems" not in str(caught.value)


# --- long polylines: GEOS's simplifier overflowed the stack (SIGSEGV) ----------------------------


def zig_zag(points: int, x0: float = 0.0) -> list[dict[str, float]]:
    """A line across the 4 x 3 map that steps 0.5 cells up and down at every point."""
    return [{"x": x0 + 4 * i / points, "y": 1 + 0.5 * (i % 2)} for i in range(points)]


def test_a_100_000_point_wall_is_read_and_kept_within_the_simplify_tolerance(
    tmp_path: Path,
) -> None:
    data = tiny()
    data["line_of_sight"] = [zig_zag(100_000)]
    data["portals"] = []
    walls = read_uvtt(write(tmp_path, data)).walls or ()
    kept = shapely.multilinestrings([[w.a, w.b] for w in walls])
    original = shapely.points([(p["x"], p["y"]) for p in data["line_of_sight"][0]])
    assert float(shapely.distance(original, kept).max()) <= 0.01 + 1e-6
    # The zig-zag's 0.5 cell steps are 0.00004 cells apart: within tolerance of fewer lines.
    assert 100 < len(walls) < 100_000 / 2


def test_a_long_straight_wall_with_tiny_steps_is_simplified_across_pieces(tmp_path: Path) -> None:
    data = tiny()
    data["line_of_sight"] = [[{"x": 4 * i / 5000, "y": 1 + 0.001 * (i % 2)} for i in range(5001)]]
    data["portals"] = []
    walls = read_uvtt(write(tmp_path, data)).walls or ()
    # Cut in pieces of 200 points, each simplified to one segment: 25 pieces, 25 segments.
    assert 1 <= len(walls) <= 5000 / 199 + 1
    assert sum(math.dist(w.a, w.b) for w in walls) == pytest.approx(4, abs=0.01)


def test_object_outlines_close_and_keep_their_place_after_the_lines(tmp_path: Path) -> None:
    data = tiny()
    data["objects_line_of_sight"] = [[{"x": 0.5, "y": 0.5}, {"x": 1.5, "y": 0.5}, {"x": 1, "y": 2}]]
    walls = read_uvtt(write(tmp_path, data)).walls or ()
    plain = [w for w in walls if w.kind is WallKind.WALL]
    assert [(w.a, w.b) for w in plain[-3:]] == [
        ((0.5, 0.5), (1.5, 0.5)),
        ((1.5, 0.5), (1.0, 2.0)),
        ((1.0, 2.0), (0.5, 0.5)),
    ]


# --- the fast clipping agrees with shapely, segment by segment ---------------------------------

coordinate = st.floats(-3, 7, allow_nan=False).map(lambda v: round(v, 2))
segment = st.tuples(coordinate, coordinate, coordinate, coordinate)


def rounded_ends(line: shapely.LineString) -> set[tuple[float, float]]:
    (x0, y0), (x1, y1) = np.round([line.coords[0], line.coords[-1]], 6).tolist()
    return {(x0, y0), (x1, y1)}


def test_clipped_walls_are_exactly_what_shapely_keeps_of_each_segment(tmp_path: Path) -> None:
    box = shapely.box(0, 0, 4, 3)
    seen: Counter[str] = Counter()

    @settings(max_examples=300, deadline=None)
    @given(segments=st.lists(segment, min_size=1, max_size=8))
    def check(segments: list[tuple[float, float, float, float]]) -> None:
        data = tiny()
        data["line_of_sight"] = [
            [{"x": ax, "y": ay}, {"x": bx, "y": by}] for ax, ay, bx, by in segments
        ]
        data["portals"] = []
        walls = read_uvtt(write(tmp_path, data)).walls or ()
        expected = []
        for ax, ay, bx, by in segments:
            line = shapely.LineString([(ax, ay), (bx, by)])
            part = line.intersection(box)
            seen["inside" if box.covers(line) else "outside" if part.is_empty else "crossing"] += 1
            if (
                isinstance(part, shapely.LineString)
                and not part.is_empty
                and len(rounded_ends(part)) == 2
            ):
                expected.append(rounded_ends(part))
        assert [{w.a, w.b} for w in walls] == expected

    check()
    assert min(seen[kind] for kind in ("inside", "crossing", "outside")) >= 50, seen
