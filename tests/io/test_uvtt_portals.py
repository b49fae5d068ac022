"""Universal VTT portals: doors or windows, by format version (see ``battlemap.io.uvtt``).

Format 0.2 exports (headmasters-quarters in the vtt-maps collection is one) mark every portal
``closed: true``: its six window frames, 0.754 cells long in a wall with gaps for them, came
in as closed doors that blocked the party's sight. The map below has the same shape: a wall
along y = 1 with three 0.754-cell window gaps, a diagonal window in the corner and one door
that fills its cell.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from battlemap.io.uvtt import read_uvtt
from battlemap.model import Wall, WallKind

TINY = Path(__file__).parent / "fixtures" / "tiny-format-0.2.uvtt"
WINDOW_HALF = 0.377  # Dungeondraft's window frame: 0.754 cells


def point(x: float, y: float) -> dict[str, float]:
    return {"x": x, "y": y}


def portal(a: tuple[float, float], b: tuple[float, float], **flags: Any) -> dict[str, Any]:
    centre = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    return {
        "position": point(*centre),
        "bounds": [point(*a), point(*b)],
        "rotation": 0,
        "closed": True,
        "freestanding": False,
        **flags,
    }


def headmasters_like(format_version: float) -> dict[str, Any]:
    """A 10 x 10 room: three window frames and a door in the wall at y = 1, one diagonal
    window frame in the corner, all ``closed: true`` as format 0.2 exports them."""
    data: dict[str, Any] = json.loads(TINY.read_text())
    windows = [portal((x - WINDOW_HALF, 1), (x + WINDOW_HALF, 1)) for x in (3.5, 4.5, 5.5)]
    corner = portal((0.233454, 2.766546), (0.766546, 2.233454), rotation=-0.785398)
    door = portal((7, 1), (8, 1))
    data.update(
        format=format_version,
        resolution={"map_origin": point(0, 0), "map_size": point(10, 10), "pixels_per_grid": 10},
        line_of_sight=[[point(0, 1), point(3.5 - WINDOW_HALF, 1)], [point(8, 1), point(10, 1)]],
        portals=[*windows, corner, door],
        lights=[],
    )
    data.pop("objects_line_of_sight", None)
    return data


def read(tmp_path: Path, data: dict[str, Any]) -> tuple[Wall, ...]:
    path = tmp_path / "headmasters.dd2vtt"
    path.write_text(json.dumps(data))
    walls = read_uvtt(path).walls
    assert walls is not None
    return walls


def portals(walls: tuple[Wall, ...]) -> list[tuple[WallKind, float]]:
    """(kind, left end's x) of each door and window, left to right."""
    found = [w for w in walls if w.kind is not WallKind.WALL]
    return sorted((w.kind, round(min(w.a[0], w.b[0]), 3)) for w in found)


def test_format_0_2_short_closed_portals_are_windows_and_a_full_cell_one_a_door(
    tmp_path: Path,
) -> None:
    walls = read(tmp_path, headmasters_like(0.2))
    assert portals(walls) == [
        (WallKind.DOOR, 7.0),
        (WallKind.WINDOW, 0.233),
        (WallKind.WINDOW, 3.123),
        (WallKind.WINDOW, 4.123),
        (WallKind.WINDOW, 5.123),
    ]
    window = next(w for w in walls if w.kind is WallKind.WINDOW)
    assert window.blocks_movement and not window.blocks_sight


def test_format_0_3_closed_means_block_light_so_every_closed_portal_is_a_door(
    tmp_path: Path,
) -> None:
    kinds = {kind for kind, _ in portals(read(tmp_path, headmasters_like(0.3)))}
    assert kinds == {WallKind.DOOR}


def test_format_0_2_open_and_freestanding_portals(tmp_path: Path) -> None:
    data = headmasters_like(0.2)
    data["portals"] = [
        portal((1, 5), (2, 5), closed=False),  # a full-cell portal left open: a window
        portal((4, 5), (4.754, 5), freestanding=True),  # a short door standing on its own
    ]
    assert portals(read(tmp_path, data)) == [(WallKind.DOOR, 4.0), (WallKind.WINDOW, 1.0)]
