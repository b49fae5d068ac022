"""The main window builds every part that ``FeatureWindow`` promises the feature installers.

mypy checks the types where ``MainWindow`` assigns each part; this checks that it assigns them
all (a declared part the window never builds would fail only when a feature reached for it).
"""

from __future__ import annotations

from battlemap.ui.feature_window import FeatureWindow
from battlemap.ui.main_window import MainWindow


def test_the_main_window_builds_every_declared_part(window: MainWindow) -> None:
    declared = list(FeatureWindow.__annotations__)
    assert len(declared) >= 19  # document ... combat: the list is really there
    missing = [name for name in declared if getattr(window, name, None) is None]
    assert missing == []


def test_the_declared_methods_are_the_main_windows_own(window: MainWindow) -> None:
    for name in ("fit_map", "refresh_undo_action"):
        assert getattr(type(window), name) is not getattr(FeatureWindow, name), name
    window.refresh_undo_action()
    assert window.undo_action.text() == "&Undo"  # nothing to undo yet
