"""Issue 18: `battlemap --smoke FILE` on an encounter whose cell no map has exits 2 at once,
naming the file and the field (a 1e-300 ft cell crashed Qt with SIGSEGV; a 0.0001 ft one
spent over 30 s and ~2 GB in the players' projection)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from battlemap.app import EXIT_BAD_INPUT
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
