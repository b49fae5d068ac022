"""Locate the data that ships with Battlemap (``assets/`` and ``rulesets/``).

The same lookup serves a source checkout (folders beside the package), an installed
wheel (folders copied inside the package) and a PyInstaller bundle (``sys._MEIPASS``).
"""

from __future__ import annotations

import sys
from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent


def _candidates(folder: str) -> list[Path]:
    bundle_root = getattr(sys, "_MEIPASS", None)
    found = [_PACKAGE_DIR / folder, _PACKAGE_DIR.parent / folder]
    if bundle_root is not None:
        found.insert(0, Path(bundle_root) / folder)
    return found


def resource_dir(folder: str) -> Path:
    """Return the directory of shipped data called ``folder`` ("assets" or "rulesets").

    Raises:
        FileNotFoundError: when no candidate location holds it, naming every place tried.
    """
    tried = _candidates(folder)
    for path in tried:
        if path.is_dir():
            return path
    raise FileNotFoundError(f"{folder}/ not found; looked in {', '.join(map(str, tried))}")


def asset_path(name: str) -> Path:
    """Path of a file in ``assets/``."""
    return resource_dir("assets") / name
