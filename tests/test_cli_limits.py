"""Issue 18: `battlemap --smoke FILE` on an encounter whose cell no map has exits 2 at once,
naming the file and the field (a 1e-300 ft cell crashed Qt with SIGSEGV; a 0.0001 ft one
spent over 30 s and ~2 GB in the players' projection); one at the bounds opens."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from battlemap.app import EXIT_BAD_INPUT
from battlemap.model.limits import (
    COORD_LIMIT,
    MAX_NAME,
    MAX_POSITION,
    MAX_SIGHT_RANGE_FEET,
    MIN_CELL_FEET,
    MIN_POSITION,
)
from tests.test_cli import run


@pytest.mark.parametrize("cell_feet", [1e-300, 0.0001])
def test_smoke_refuses_a_cell_no_map_has_naming_file_and_field(
    tmp_path: Path, cell_feet: float
) -> None:
    path = tmp_path / "tiny-cells.json"
    encounter = {
        "grid": {"cell_feet": cell_feet, "width": 20, "height": 15},
        "creatures": [{"name": "Orc", "x": 2, "y": 3}],
    }
    path.write_text(json.dumps(encounter))
    result = run("--smoke", str(path))
    assert result.returncode == EXIT_BAD_INPUT, result.stderr
    assert str(path) in result.stderr
    assert "grid.cell_feet" in result.stderr
    assert "greater than or equal to 0.5" in result.stderr


def test_smoke_opens_an_encounter_at_the_bounds(tmp_path: Path) -> None:
    # Features 9,999 cells off a 100 x 100 map hung this (over 2 minutes) before they were
    # cut to the map's margin on load; creatures at the position bounds, the smallest cell.
    creatures = [
        {"name": "G" * MAX_NAME, "size": "gargantuan", "x": x, "y": y, "side": side}
        for x in (MIN_POSITION, 0, MAX_POSITION)
        for y in (MIN_POSITION, 99, MAX_POSITION)
        for side in ("party", "hostile")
    ]
    far = COORD_LIMIT - 1
    encounter = {
        "grid": {"cell_feet": MIN_CELL_FEET, "width": 100, "height": 100},
        "creatures": creatures,
        "walls": [{"a": [-far, -far], "b": [far, far]}, {"a": [-5, -5], "b": [105, -5]}],
        "terrain": [{"points": [[0, 0], [far, 0], [far, far]]}],
        "obstacles": [{"points": [[-far, 50], [far, 50], [0, far]]}],
        "fog": {"mode": "dynamic", "dark": True, "sight_range_feet": MAX_SIGHT_RANGE_FEET},
    }
    path = tmp_path / "bounds.json"
    path.write_text(json.dumps(encounter))
    result = run("--smoke", str(path))
    assert result.returncode == 0, result.stderr
    assert "smoke: rendered 800x" in result.stdout
