"""Encounters at the limits: the players' view with features reaching far off the map (cut
to its margin on load), and saving and opening 50,000 walls and obstacles."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

Case = tuple[str, Callable[[], Callable[[], object] | None]]


def _far_walls(count: int) -> Callable[[], object]:
    """Issue 18: ``count`` walls from the map to ~9,000 cells off it, dynamic fog, a party
    fighter in the middle; the players' view: the map index, the party's sight, the projection."""
    from battlemap.model import Encounter
    from battlemap.ui.players.party_fog import PartyFog
    from battlemap.ui.players.projection import project

    encounter = Encounter.model_validate(
        {
            "grid": {"width": 30, "height": 20},
            "walls": [{"a": [i % 30, i % 20], "b": [9000 - i, -9000 + i]} for i in range(count)],
            "creatures": [{"name": "Fighter", "side": "party", "x": 15, "y": 10}],
            "fog": {"mode": "dynamic"},
        }
    )
    # A fresh PartyFog each time: the map index and the sight are built anew, as after an edit.
    return lambda: project(encounter, PartyFog().visible(encounter))


def _big() -> object:
    from battlemap.model import Encounter, Grid, Obstacle, Wall

    walls = tuple(
        Wall(id=f"w{i}", a=(i % 1000, i // 1000), b=(i % 1000 + 1, i // 1000))  # type: ignore[arg-type]
        for i in range(50_000)
    )
    obstacles = tuple(
        Obstacle(id=f"o{i}", points=[(i % 999, 0), (i % 999 + 1, 0), (i % 999, 1)])  # type: ignore[arg-type]
        for i in range(50_000)
    )
    return Encounter(grid=Grid(width=1000, height=1000), walls=walls, obstacles=obstacles)


def _save_big() -> Callable[[], object]:
    from battlemap.io.encounter_file import save_battlemap

    encounter, path = _big(), Path(tempfile.mkdtemp()) / "big.battlemap"
    return lambda: save_battlemap(path, encounter, {})  # type: ignore[arg-type]


def _open_big() -> Callable[[], object]:
    from battlemap.io.encounter_file import load_battlemap, save_battlemap

    path = Path(tempfile.mkdtemp()) / "big.battlemap"
    save_battlemap(path, _big(), {})  # type: ignore[arg-type]
    return lambda: load_battlemap(path)


def cases() -> list[Case]:
    return [
        ("limits: players' view, 100 walls far off the map", lambda: _far_walls(100)),
        ("limits: players' view, 5000 walls far off the map", lambda: _far_walls(5000)),
        ("limits: save 50000 walls + 50000 obstacles", _save_big),
        ("limits: open 50000 walls + 50000 obstacles", _open_big),
    ]
