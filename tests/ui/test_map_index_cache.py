"""One geometry index per map change, shared by every feature of the window."""

from __future__ import annotations

import pytest

from battlemap.geometry.map_index import MapIndex
from battlemap.model import Wall
from battlemap.model.document import ReplaceEncounterField
from battlemap.model.encounter import Encounter
from battlemap.model.fog import FogMode
from battlemap.ui.main_window import MainWindow
from battlemap.ui.map_index_cache import window_index
from battlemap.ui.undo import push


def test_a_map_change_builds_the_index_once_for_fog_and_drag(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    built: list[int] = []
    real_build, real_update = MapIndex.build, MapIndex.updated

    def counting_build(encounter: Encounter) -> MapIndex:
        built.append(1)
        return real_build(encounter)

    def counting_update(index: MapIndex, encounter: Encounter) -> MapIndex:
        built.append(1)  # a build, or an edit of the index for a few walls
        with monkeypatch.context() as inner:
            inner.setattr(MapIndex, "build", real_build)
            return real_update(index, encounter)

    monkeypatch.setattr(MapIndex, "build", counting_build)
    monkeypatch.setattr(MapIndex, "updated", counting_update)
    window.players.set_fog_mode(FogMode.DYNAMIC)  # the fog reads the index now
    built.clear()
    push(
        window.undo_stack,
        window.document,
        ReplaceEncounterField("walls", (), (Wall(a=(1, 1), b=(1, 5)),)),
    )
    assert window.players.last_view is not None  # fog refreshed after the change
    shared = window_index(window)
    assert window_index(window) is shared  # kept on the window, not made again
    shared.get()  # the drag, targeting, attack dialog and template ask here too
    assert len(built) == 1
