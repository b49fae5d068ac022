"""Locate the data that ships with Battlemap (``assets/`` and ``rulesets/``).

One lookup serves every way the app is run, most specific first:

1. a PyInstaller bundle: the folders sit in ``sys._MEIPASS`` (``packaging/battlemap.spec``);
2. an installed wheel: ``setup.py`` copies them inside the package, ``battlemap/assets``;
3. a source checkout or editable install: the folders beside the package, at the top of the
   checkout (recognised by its ``pyproject.toml``, so an unrelated ``assets`` folder in
   ``site-packages`` is never taken for ours).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Literal

ResourceFolder = Literal["assets", "rulesets"]

_PACKAGE_DIR = Path(__file__).resolve().parent
_ICON_FILE = re.compile(r"battlemap-(\d+)\.png")


def _candidates(folder: ResourceFolder) -> list[Path]:
    found = []
    bundle_root = getattr(sys, "_MEIPASS", None)
    if bundle_root is not None:
        found.append(Path(bundle_root) / folder)
    found.append(_PACKAGE_DIR / folder)
    checkout = _PACKAGE_DIR.parent
    if (checkout / "pyproject.toml").is_file():
        found.append(checkout / folder)
    return found


def resource_dir(folder: ResourceFolder) -> Path:
    """Return the directory of shipped data called ``folder``.

    Raises:
        FileNotFoundError: when no candidate location holds it, naming every place tried.
    """
    tried = _candidates(folder)
    for path in tried:
        if path.is_dir():
            return path
    raise FileNotFoundError(f"{folder}/ not found; looked in {', '.join(map(str, tried))}")


def asset_path(name: str) -> Path:
    """Path of a file in ``assets/`` (``name`` may contain ``/``); existence is not checked."""
    return resource_dir("assets") / name


def app_icon_files() -> list[Path]:
    """The application icon's PNG renderings (``assets/icon/battlemap-<px>.png``), smallest first.

    Empty when the icon folder is missing, so a damaged install still starts, without an icon.
    """
    icon_dir = asset_path("icon")
    if not icon_dir.is_dir():
        return []
    sized = [
        (int(match.group(1)), path)
        for path in icon_dir.iterdir()
        if (match := _ICON_FILE.fullmatch(path.name))
    ]
    return [path for _, path in sorted(sized)]
