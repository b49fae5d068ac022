"""One geometry index of the map per window, updated only when the map changes.

The drag feedback, the targeting overlay, the attack dialog, the area template and the
players' fog all ask the same ``IndexCache`` (``window_index``), so a map change costs one
``MapIndex.updated`` (a door: its layer only; a few walls: an edit of the index; anything
else: ``MapIndex.build``), not one per feature.
"""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from battlemap.geometry.map_index import MapIndex
from battlemap.model.document import Change, Document


class IndexCache:
    """The index of the document's map, brought up to date on first use after a map change."""

    def __init__(self, document: Document) -> None:
        self._document = document
        self._index: MapIndex | None = None
        self._stale = False
        document.subscribe(self._on_change)

    def _on_change(self, change: Change) -> None:
        self._stale = self._stale or change.map or change.replaced

    def get(self) -> MapIndex:
        if self._index is None:
            self._index = MapIndex.build(self._document.encounter)
        elif self._stale:
            self._index = self._index.updated(self._document.encounter)
        self._stale = False
        return self._index


def window_index(window: QWidget) -> IndexCache:
    """The window's one ``IndexCache``, made by whichever feature asks first."""
    index: IndexCache | None = getattr(window, "geometry_index", None)
    if index is None:
        index = IndexCache(window.document)  # type: ignore[attr-defined]
        window.geometry_index = index  # type: ignore[attr-defined]
    return index
