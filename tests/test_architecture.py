"""The layering rule: only ``battlemap/ui`` and the entry point may import Qt."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "battlemap"
QT_ALLOWED = {PACKAGE / "ui", PACKAGE / "app.py", PACKAGE / "__main__.py"}
QT_FREE_TESTS = [ROOT / "tests" / layer for layer in ("model", "geometry", "rules")]


def qt_imports(path: Path) -> list[str]:
    """Qt module names imported anywhere in the file, including inside functions."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.append(node.module)
    return [name for name in found if name.split(".")[0] in {"PySide6", "shiboken6", "pytestqt"}]


def allowed(path: Path) -> bool:
    return any(path == root or root in path.parents for root in QT_ALLOWED)


def test_no_qt_outside_ui() -> None:
    offenders = {
        str(path.relative_to(ROOT)): qt_imports(path)
        for path in PACKAGE.rglob("*.py")
        if not allowed(path) and qt_imports(path)
    }
    assert offenders == {}


def test_model_geometry_rules_tests_do_not_import_qt() -> None:
    offenders = {
        str(path.relative_to(ROOT)): qt_imports(path)
        for folder in QT_FREE_TESTS
        for path in folder.rglob("*.py")
        if qt_imports(path)
    }
    assert offenders == {}


def test_the_checker_sees_qt_imports(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("def f():\n    from PySide6.QtCore import QPointF\nimport shiboken6\n")
    assert sorted(qt_imports(sample)) == ["PySide6.QtCore", "shiboken6"]
