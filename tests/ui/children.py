"""Find a named child widget that a test needs to be there."""

from __future__ import annotations

from typing import TypeVar

from PySide6.QtCore import QObject

Child = TypeVar("Child", bound=QObject)


def child(parent: QObject, kind: type[Child], name: str) -> Child:
    """``parent``'s child of ``kind`` named ``name``; the test fails if there is none."""
    found = parent.findChild(kind, name)
    assert found is not None, f"no {kind.__name__} named {name!r}"
    return found
