"""Small widget helpers shared by the combat docks."""

from __future__ import annotations

from PySide6.QtWidgets import QTreeWidget, QTreeWidgetItem


def rows(tree: QTreeWidget) -> list[QTreeWidgetItem]:
    """The top-level rows of a tree, in order."""
    found = (tree.topLevelItem(i) for i in range(tree.topLevelItemCount()))
    return [item for item in found if item is not None]
