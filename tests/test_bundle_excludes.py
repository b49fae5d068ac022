"""The bundle leaves modules out (packaging/battlemap.spec ``excludes``) to stay under 180 MB.
The app must never import one of them: the bundle would fail only when that code runs."""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SPEC = ROOT / "packaging" / "battlemap.spec"

# As in the bundle, importing an excluded module (or one inside it) fails; then every module
# of the package and the libraries the app imports lazily must still import.
_PROBE = """
import importlib, importlib.abc, json, pkgutil, sys
excluded = json.loads(sys.argv[1])

class LeftOut(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if any(name == gone or name.startswith(gone + ".") for gone in excluded):
            raise ModuleNotFoundError(f"No module named {name!r} (left out of the bundle)")
        return None

sys.meta_path.insert(0, LeftOut())
import battlemap
failed = []
for module in pkgutil.walk_packages(battlemap.__path__, "battlemap."):
    if not module.name.endswith("__main__"):
        try:
            importlib.import_module(module.name)
        except ImportError as error:
            failed.append(f"{module.name}: {error}")
import d20, segno, shapely, tcod, websockets, yaml
print(json.dumps(failed))
"""


def _spec_excludes() -> list[str]:
    for node in ast.walk(ast.parse(SPEC.read_text(encoding="utf-8"))):
        if isinstance(node, ast.keyword) and node.arg == "excludes":
            assert isinstance(node.value, ast.List)
            return [ast.literal_eval(item) for item in node.value.elts]
    raise AssertionError(f"{SPEC}: no excludes= list")


def test_the_spec_leaves_out_numpy_parts_and_openssl() -> None:
    excludes = _spec_excludes()
    assert {"numpy.random", "numpy.fft", "_ssl", "_hashlib", "PySide6.QtNetwork"} <= set(excludes)


def test_the_app_imports_whole_without_the_modules_the_bundle_leaves_out() -> None:
    excludes = _spec_excludes()
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    result = subprocess.run(
        [sys.executable, "-c", _PROBE, json.dumps(excludes)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    failed = json.loads(result.stdout.strip().splitlines()[-1])
    assert failed == [], f"modules that need what the bundle leaves out: {failed}"


def test_no_code_reaches_a_left_out_numpy_part_by_attribute() -> None:
    """``np.random.default_rng()`` imports numpy.random on first use, past the import check."""
    parts = [name.removeprefix("numpy.") for name in _spec_excludes() if name.startswith("numpy.")]
    pattern = re.compile(rf"\b(?:np|numpy)\.({'|'.join(parts)})\b")
    uses = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sorted((ROOT / "battlemap").rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]
    assert parts and uses == []
