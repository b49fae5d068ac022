"""The command line: --smoke, --screenshot, --version and bad files, run as a user would."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import battlemap

ENV = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "battlemap", *args],
        capture_output=True,
        text=True,
        env=ENV,
        timeout=120,
        check=False,
    )


def test_smoke_renders_the_demo_and_exits_0() -> None:
    result = run("--smoke")
    assert result.returncode == 0, result.stderr
    assert "smoke: rendered 800x" in result.stdout


def test_version() -> None:
    result = run("--version")
    assert result.returncode == 0
    assert result.stdout.strip() == f"Battlemap {battlemap.__version__}"


def test_screenshot_writes_a_png_of_the_window(tmp_path: Path) -> None:
    from PySide6.QtGui import QImage

    out = tmp_path / "shot.png"
    result = run("--screenshot", str(out))
    assert result.returncode == 0, result.stderr
    image = QImage(str(out))
    assert image.width() >= 800 and image.height() >= 600


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (None, "no such file"),
        ("{not json", "Invalid JSON"),
        ('{"creatures": [{"name": "Orc", "size": "colossal"}]}', "creatures.0.size"),
        ('{"grid": {"width": "wide"}}', "grid.width"),
        ('{"mystery": 1}', "mystery: Extra inputs are not permitted"),
    ],
)
def test_bad_files_give_a_clear_message_and_exit_2(
    tmp_path: Path, content: str | None, expected: str
) -> None:
    path = tmp_path / "broken.json"
    if content is not None:
        path.write_text(content)
    result = run(str(path), "--smoke")
    assert result.returncode == 2
    assert str(path) in result.stderr
    assert expected in result.stderr
    assert "Traceback" not in result.stderr


def test_unknown_file_type_is_named(tmp_path: Path) -> None:
    path = tmp_path / "map.docx"
    path.write_text("x")
    result = run(str(path))
    assert result.returncode == 2
    assert "unknown file type '.docx'" in result.stderr
