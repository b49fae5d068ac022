"""`battlemap FILE` and `battlemap --smoke FILE` with .battlemap files, run as a user would."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

from battlemap.io.encounter_file import save_battlemap
from battlemap.io.loader import load_demo_encounter
from battlemap.io.migrations import CURRENT_FORMAT_VERSION
from tests.test_cli import run


def test_smoke_loads_and_renders_a_battlemap_file(tmp_path: Path) -> None:
    path = tmp_path / "ambush.battlemap"
    save_battlemap(path, load_demo_encounter().model_copy(update={"name": "Saved ambush"}), {})
    result = run("--smoke", str(path))
    assert result.returncode == 0, result.stderr
    assert "smoke: rendered 800x" in result.stdout and "'Saved ambush'" in result.stdout


def test_a_newer_battlemap_file_is_refused_naming_both_versions(tmp_path: Path) -> None:
    path = tmp_path / "future.battlemap"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("encounter.json", json.dumps({"format_version": 9, "encounter": {}}))
    result = run("--smoke", str(path))
    assert result.returncode == 2
    assert str(path) in result.stderr
    assert "format version 9" in result.stderr
    assert f"up to {CURRENT_FORMAT_VERSION}" in result.stderr
    assert "Traceback" not in result.stderr
