"""The Qt-free layers the app imports before PySide6 (``app.QT_FREE_FIRST``, issue 17) exist
and stay Qt-free: one that pulled Qt in would bring back the source scans it is there to
avoid."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from battlemap.app import QT_FREE_FIRST

PROBE = """
import importlib, sys
from battlemap.app import QT_FREE_FIRST
for name in QT_FREE_FIRST:
    importlib.import_module(name)
print(sorted(name for name in sys.modules if name.startswith(("PySide6", "shiboken6"))))
"""


def test_the_layers_imported_before_qt_exist_and_import_no_qt() -> None:
    assert len(QT_FREE_FIRST) == len(set(QT_FREE_FIRST))
    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=Path(__file__).parents[1],
    )
    assert done.returncode == 0, done.stderr[-2000:]  # a removed module fails here
    assert done.stdout.strip().splitlines()[-1] == "[]"
