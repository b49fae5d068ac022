"""``battlemap.geometry`` re-exports its names lazily (PEP 562, issue 17): each public name
comes from its module on first use, and a module needing one part no longer imports all."""

from __future__ import annotations

import ast
import subprocess
import sys
from importlib import import_module
from pathlib import Path
from types import ModuleType

import battlemap.geometry as geometry


def test_every_public_name_resolves_to_the_object_its_module_defines() -> None:
    assert set(geometry.__all__) == set(geometry._HOMES)
    for name in geometry.__all__:
        value = getattr(geometry, name)
        assert not isinstance(value, ModuleType), name  # e.g. `cover` the module, not a name
        home = sys.modules[f"battlemap.geometry.{geometry._HOMES[name]}"]
        assert value is getattr(home, name)


def test_an_unknown_name_is_an_attribute_error() -> None:
    try:
        geometry.no_such_name  # noqa: B018
    except AttributeError as error:
        assert "no_such_name" in str(error)
    else:
        raise AssertionError("no error")


def test_importing_one_geometry_module_leaves_cover_sight_and_search_out() -> None:
    probe = (
        "import sys, battlemap.geometry.body, battlemap.geometry.metrics;"
        "print(sorted(m for m in sys.modules if m.startswith('battlemap.geometry.')))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    loaded = set(ast.literal_eval(done.stdout))  # a printed list of module names
    assert "battlemap.geometry.body" in loaded
    assert not loaded & {
        "battlemap.geometry.cover",
        "battlemap.geometry.sight",
        "battlemap.geometry.search",
        "battlemap.geometry.flanking",
    }


def test_no_module_imports_a_submodule_name_from_the_package() -> None:
    """``from battlemap.geometry import cover`` gives the module ``cover`` once it is loaded
    (Python binds it on the package): the function comes from ``battlemap.geometry.cover``."""
    stems = {path.stem for path in Path(geometry.__file__).parent.glob("*.py")}
    shadowed = {  # a module defining its own name: cover.cover, flanking.flanking
        stem for stem in stems if hasattr(import_module(f"battlemap.geometry.{stem}"), stem)
    }
    assert {"cover", "flanking"} <= shadowed
    root = Path(__file__).parents[2]
    found = []
    for path in [*root.glob("battlemap/**/*.py"), *root.glob("tests/**/*.py")]:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module == "battlemap.geometry":
                found += [f"{path}: {a.name}" for a in node.names if a.name in shadowed]
    assert found == []
