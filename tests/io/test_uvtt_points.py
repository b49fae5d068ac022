"""Universal VTT polylines are read and checked in numpy (300,000 points as pydantic models
took over a second): malformed points are still named down to the coordinate, outlines are
closed, long lines are cut and simplified, and the walls read are valid models."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from battlemap.io.errors import FileFormatError
from battlemap.io.uvtt import MAX_PORTALS, read_uvtt
from battlemap.model import Wall, WallKind

TINY = Path(__file__).parent / "fixtures" / "tiny-format-0.2.uvtt"


def uvtt(tmp_path: Path, **fields: Any) -> Path:
    data: dict[str, Any] = json.loads(TINY.read_text())
    data.update({"portals": [], "lights": [], "line_of_sight": [], **fields})
    path = tmp_path / "map.dd2vtt"
    path.write_text(json.dumps(data))
    return path


def wall_ends(path: Path) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    return [(w.a, w.b) for w in read_uvtt(path).walls or ()]


@pytest.mark.parametrize(
    ("second_point", "message"),
    [
        ([1, 1], "line_of_sight.1.1: Input should be a valid dictionary"),
        ({"x": 1}, "line_of_sight.1.1.y: Field required"),
        ({"x": "wide", "y": 1}, "line_of_sight.1.1.x: Input should be a valid number"),
        ({"x": [1, 2], "y": 1}, "line_of_sight.1.1.x: Input should be a valid number"),
        ({"x": 10**400, "y": 1}, "line_of_sight.1.1.x:"),
        ({"x": None, "y": 1}, "line_of_sight.1.1.x:"),
        ({"x": 1, "y": -20_000}, "line_of_sight.1.1.y: -20000 is not a finite number within"),
    ],
)
def test_a_malformed_point_is_named_down_to_its_coordinate(
    tmp_path: Path, second_point: object, message: str
) -> None:
    lines = [[{"x": 0, "y": 0}, {"x": 1, "y": 0}], [{"x": 0, "y": 1}, second_point]]
    path = uvtt(tmp_path, line_of_sight=lines)
    with pytest.raises(FileFormatError) as caught:
        read_uvtt(path)
    assert caught.value.path == path
    assert caught.value.problem.startswith(message)


@pytest.mark.parametrize("line", ["not a line", {"x": 1, "y": 2}, 7])
def test_a_polyline_that_is_not_a_list_of_points_is_named(tmp_path: Path, line: object) -> None:
    path = uvtt(tmp_path, line_of_sight=[[{"x": 0, "y": 0}, {"x": 1, "y": 0}], line])
    with pytest.raises(FileFormatError) as caught:
        read_uvtt(path)
    assert caught.value.problem.startswith("line_of_sight.1")


def test_numbers_written_as_text_read_as_the_numbers(tmp_path: Path) -> None:
    as_text = uvtt(tmp_path, line_of_sight=[[{"x": "0.5", "y": 0}, {"x": "1.5", "y": 1}]])
    assert wall_ends(as_text) == [((0.5, 0.0), (1.5, 1.0))]


def test_an_open_object_outline_is_closed_and_a_closed_one_not_doubled(tmp_path: Path) -> None:
    triangle = [{"x": 0, "y": 0}, {"x": 2, "y": 0}, {"x": 2, "y": 2}]
    opened = uvtt(tmp_path, objects_line_of_sight=[triangle])
    ends = wall_ends(opened)
    assert len(ends) == 3 and ((2.0, 2.0), (0.0, 0.0)) in ends
    closed = uvtt(tmp_path, objects_line_of_sight=[[*triangle, triangle[0]]])
    assert sorted(wall_ends(closed)) == sorted(ends)


def test_lines_keep_the_file_order_with_outlines_after_them(tmp_path: Path) -> None:
    lines = [[{"x": 3, "y": 0}, {"x": 3, "y": 1}], [{"x": 0, "y": 2}, {"x": 1, "y": 2}]]
    outline = [{"x": 0, "y": 0}, {"x": 1, "y": 0}, {"x": 1, "y": 1}]
    path = uvtt(tmp_path, line_of_sight=lines, objects_line_of_sight=[outline])
    ends = wall_ends(path)
    assert ends[:2] == [((3.0, 0.0), (3.0, 1.0)), ((0.0, 2.0), (1.0, 2.0))]
    assert len(ends) == 5


def test_a_long_straight_line_is_cut_in_pieces_each_simplified(tmp_path: Path) -> None:
    # 1,000 points on one line: pieces of 200 points sharing their ends, each one wall.
    line = [{"x": 4 * i / 999, "y": 1} for i in range(1000)]
    ends = wall_ends(uvtt(tmp_path, line_of_sight=[line]))
    assert len(ends) == 6  # ceil(999 / 199)
    assert ends[0][0] == (0.0, 1.0) and ends[-1][1] == (4.0, 1.0)
    assert all(a[1] == b[1] == 1.0 for a, b in ends)
    assert all(ends[i][1] == ends[i + 1][0] for i in range(len(ends) - 1))


def test_a_line_of_one_point_or_none_gives_no_wall(tmp_path: Path) -> None:
    path = uvtt(tmp_path, line_of_sight=[[], [{"x": 1, "y": 1}]], objects_line_of_sight=[[]])
    assert wall_ends(path) == []


def test_the_walls_read_are_valid_models_with_distinct_ids(tmp_path: Path) -> None:
    lines = [[{"x": i / 1000, "y": 0}, {"x": i / 1000, "y": 1}] for i in range(1, 4000)]
    walls = read_uvtt(uvtt(tmp_path, line_of_sight=lines)).walls
    assert walls is not None and len(walls) == 3999
    assert len({w.id for w in walls}) == len(walls)
    assert all(Wall.model_validate(w.model_dump()) == w for w in walls)
    assert {w.kind for w in walls} == {WallKind.WALL}


def test_more_portals_than_a_map_may_have_are_refused_before_reading_them(
    tmp_path: Path,
) -> None:
    portal = {"position": {"x": 1, "y": 1}, "rotation": 0, "closed": True}
    path = uvtt(tmp_path, portals=[portal] * (MAX_PORTALS + 1))
    with pytest.raises(FileFormatError) as caught:
        read_uvtt(path)
    assert caught.value.problem == (
        f"portals: {MAX_PORTALS + 1} in the file, more than the {MAX_PORTALS} a map may have"
    )
    assert len(read_uvtt(uvtt(tmp_path, portals=[portal] * 3)).walls or ()) == 3
