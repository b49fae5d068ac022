"""Hostile Universal VTT maps and monster files (issue 18): reading, refusing and drawing them.

Every refusal must take under a second for any file the size limits admit (the goal of the
rows below that read or refuse the largest files admitted); the files are made in a temporary
folder when the case is set up.
"""

from __future__ import annotations

import atexit
import json
import os
import random
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TINY = ROOT / "tests" / "io" / "fixtures" / "tiny-format-0.2.uvtt"
Case = tuple[str, Callable[[], Callable[[], object] | None]]
_folder: list[Path] = []


def _write(name: str, content: str) -> Path:
    if not _folder:
        _folder.append(Path(tempfile.mkdtemp(prefix="bench-hostile-")))
        atexit.register(shutil.rmtree, _folder[0], True)
    path = _folder[0] / name
    path.write_text(content)
    return path


def _map(**fields: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(TINY.read_text())
    data.update({"portals": [], "lights": [], **fields})
    return data


def _zig_zag_wall() -> list[dict[str, float]]:
    return [{"x": 4 * i / 100_000, "y": 1 + 0.5 * (i % 2)} for i in range(100_000)]


def _crossing_walls(cells: int = 40, points: int = 10_000) -> list[list[dict[str, float]]]:
    """One polyline of ``points`` random points over a ``cells`` square map: 9,999 walls
    about 18 cells long, crossing each other everywhere."""
    rng = random.Random(1)
    line = [{"x": rng.uniform(1, cells - 1), "y": rng.uniform(1, cells - 1)} for _ in range(points)]
    return [line]


def _read_or_refuse(reader: Callable[[Path], object], path: Path) -> Callable[[], object]:
    """Read ``path`` with ``reader``: what it read, or the refusal (both are timed)."""
    from battlemap.io.errors import FileFormatError

    def read() -> object:
        try:
            return reader(path)
        except FileFormatError as error:
            return error

    return read


def _read(name: str, data: dict[str, Any] | str) -> Callable[[], object]:
    from battlemap.io.uvtt import read_uvtt

    return _read_or_refuse(
        read_uvtt, _write(name, data if isinstance(data, str) else json.dumps(data))
    )


def _read_hundred_thousand_walls() -> Callable[[], object]:
    lines = [[{"x": i / 25_000, "y": 0}, {"x": 0, "y": 1}] for i in range(100_000)]
    return _read("many.dd2vtt", _map(line_of_sight=lines))


def _largest_admitted_refused_at_its_image() -> Callable[[], object]:
    from battlemap.io.uvtt import MAX_JSON_OBJECTS

    line = [{"x": i % 4, "y": (i // 4) % 3} for i in range(MAX_JSON_OBJECTS - 10)]
    return _read("largest.dd2vtt", _map(line_of_sight=[line], image="bm90IGFuIGltYWdl"))


def _crossing_walls_encounter() -> Any:
    from battlemap.io.loader import encounter_from_map

    data = _map(line_of_sight=_crossing_walls())
    data["resolution"]["map_size"] = {"x": 40, "y": 40}
    data["resolution"]["pixels_per_grid"] = 1  # the 40 px image spans the 40 cells
    return encounter_from_map(_write("crossing.dd2vtt", json.dumps(data)))


def _projection_under_fog() -> Callable[[], object]:
    from battlemap.model.fog import FogMode, FogOfWar
    from battlemap.ui.players.projection import project

    opened = _crossing_walls_encounter()
    explored = frozenset((c, r) for c in range(20) for r in range(40))
    fog = FogOfWar(mode=FogMode.DYNAMIC, explored=explored)
    encounter = opened.encounter.model_copy(update={"fog": fog})
    visible = frozenset((c, r) for c in range(20, 30) for r in range(10))
    return lambda: project(encounter, visible)


def _first_frame() -> Callable[[], object]:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from battlemap.model.document import Document
    from battlemap.ui.main_window import MainWindow
    from battlemap.ui.render import render_scene

    QApplication.instance() or QApplication([])
    opened = _crossing_walls_encounter()
    window = MainWindow(Document(opened.encounter, dict(opened.images)))
    return lambda: render_scene(window.scene, window.map_rect(), width=800)


def _largest_admitted_refused_at_its_last_point() -> Callable[[], object]:
    from battlemap.io.uvtt import MAX_JSON_OBJECTS

    line: list[dict[str, float]] = [
        {"x": i % 4, "y": (i // 4) % 3} for i in range(MAX_JSON_OBJECTS - 10)
    ]
    line[-1]["x"] = 1e9
    return _read("last-point.dd2vtt", _map(line_of_sight=[line]))


def _most_walls_a_map_keeps() -> Callable[[], object]:
    from battlemap.model.limits import MAX_WALLS

    lines = [
        [{"x": (i % 4000) / 1000, "y": 0}, {"x": 0, "y": 1 + i / MAX_WALLS}]
        for i in range(MAX_WALLS - 1)  # and the fixture's door
    ]
    return _read("most-walls.dd2vtt", _map(line_of_sight=lines))


def _most_portals() -> Callable[[], object]:
    from battlemap.io.uvtt import MAX_PORTALS

    portals = [
        {
            "position": {"x": i % 4, "y": 1},
            "bounds": [{"x": i % 4, "y": 1}, {"x": i % 4, "y": 1 + (i % 100 + 1) / 100}],
            "closed": i % 2 == 0,
        }
        for i in range(MAX_PORTALS)
    ]
    return _read("most-portals.dd2vtt", _map(portals=portals))


def _most_lights() -> Callable[[], object]:
    from battlemap.model.limits import MAX_LIGHTS

    lights = [{"position": {"x": i % 4, "y": 1}, "range": 3} for i in range(MAX_LIGHTS)]
    return _read("most-lights.dd2vtt", _map(lights=lights))


ONE_SECOND = 1000.0
WORST_ADMITTED = {
    "hostile uvtt: read 100,000 two-point walls": _read_hundred_thousand_walls,
    "hostile uvtt: refuse the largest file admitted (300,000 objects) at its image": (
        _largest_admitted_refused_at_its_image
    ),
    "hostile uvtt: refuse the largest file admitted at its last point": (
        _largest_admitted_refused_at_its_last_point
    ),
    "hostile uvtt: read 50,000 walls, the most a map keeps": _most_walls_a_map_keeps,
    "hostile uvtt: read 10,000 doors and windows, the most a file may have": _most_portals,
    "hostile uvtt: read 10,000 lights, the most an encounter keeps": _most_lights,
}
"""The largest files the limits admit: each is read or refused in under ``ONE_SECOND``."""


def goals() -> dict[str, float]:
    return dict.fromkeys(WORST_ADMITTED, ONE_SECOND)


def _deep_monsters() -> Callable[[], object]:
    from battlemap.io.monsters import import_5e_monsters

    return _read_or_refuse(import_5e_monsters, _write("deep.json", "[" * 10**6 + "]" * 10**6))


def cases() -> list[Case]:
    return [
        (
            "hostile uvtt: read a 100,000-point zig-zag wall",
            lambda: _read("zig.dd2vtt", _map(line_of_sight=[_zig_zag_wall()])),
        ),
        (
            "hostile uvtt: refuse 1.1 million points (counted before parsing)",
            lambda: _read("huge.dd2vtt", _map(line_of_sight=[[{"x": 1, "y": 1}] * 1_100_000])),
        ),
        *WORST_ADMITTED.items(),
        (
            "hostile uvtt: players' projection of 10,000 crossing walls under fog",
            _projection_under_fog,
        ),
        ("hostile uvtt: first frame of 10,000 crossing walls, fitted to 800 px", _first_frame),
        ("hostile monsters: refuse 1,000,000 nested lists", _deep_monsters),
    ]
