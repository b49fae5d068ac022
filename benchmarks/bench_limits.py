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


def _largest() -> object:
    """The encounter that reads slowest within the limits: 50,000 walls (the dearest values),
    obstacles up to ``MAX_ENCOUNTER_JSON_VALUES`` and the largest map fully explored."""
    from battlemap.io.encounter_file import encounter_json_bytes
    from battlemap.model import Encounter, Grid, Obstacle, Wall
    from battlemap.model.fog import FogOfWar
    from battlemap.model.limits import MAX_ENCOUNTER_JSON_VALUES, MAX_MAP_CELLS, MAX_WALLS

    side = MAX_MAP_CELLS
    walls = tuple(
        Wall(id=f"w{i}", a=(i % side, i // side % side), b=(i % side + 1, i // side % side))  # type: ignore[arg-type]
        for i in range(MAX_WALLS)
    )
    every = frozenset((x, y) for x in range(side) for y in range(side))
    encounter = Encounter(
        grid=Grid(width=side, height=side),
        walls=walls,
        fog=FogOfWar(revealed=every, explored=every),
    )
    room = MAX_ENCOUNTER_JSON_VALUES - encounter_json_bytes(encounter).count(b",")
    obstacles = tuple(
        Obstacle(id=f"o{i}", points=[(i % 399, 0), (i % 399 + 1, 0), (i % 399, 1)])  # type: ignore[arg-type]
        for i in range(room // 10)  # 10 commas an obstacle
    )
    return encounter.model_copy(update={"obstacles": obstacles})


def _saved_largest() -> Path:
    from battlemap.io.encounter_file import save_battlemap

    path = Path(tempfile.mkdtemp()) / "largest.battlemap"
    save_battlemap(path, _largest(), {})  # type: ignore[arg-type]
    return path


def _save_largest() -> Callable[[], object]:
    from battlemap.io.encounter_file import save_battlemap

    encounter, path = _largest(), Path(tempfile.mkdtemp()) / "largest.battlemap"
    return lambda: save_battlemap(path, encounter, {})  # type: ignore[arg-type]


def _open_largest() -> Callable[[], object]:
    from battlemap.io.encounter_file import load_battlemap

    path = _saved_largest()
    return lambda: load_battlemap(path)


def _refuse_largest_at_its_end() -> Callable[[], object]:
    """The largest encounter with its very last obstacle wrong: all of it is read first."""
    import zipfile

    from battlemap.io.encounter_file import ENCOUNTER_ENTRY, load_battlemap
    from battlemap.io.errors import FileFormatError

    source = _saved_largest()
    raw = zipfile.ZipFile(source).read(ENCOUNTER_ENTRY)
    cut = raw.rindex(b'"cover":"half"')
    broken = raw[:cut] + b'"cover":"most"' + raw[cut + len(b'"cover":"half"') :]
    path = source.with_name("refused.battlemap")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(ENCOUNTER_ENTRY, broken)

    def refuse() -> None:
        try:
            load_battlemap(path)
        except FileFormatError as error:
            assert "obstacles" in str(error) and "cover" in str(error), error
        else:
            raise AssertionError("the broken obstacle was not refused")

    return refuse


ONE_SECOND = 1000.0


def goals() -> dict[str, float]:
    """Issue 18: any file the limits admit is read, or refused, in under a second."""
    return {
        "limits: open the largest admitted encounter": ONE_SECOND,
        "limits: refuse it at its last field": ONE_SECOND,
    }


def cases() -> list[Case]:
    return [
        ("limits: players' view, 100 walls far off the map", lambda: _far_walls(100)),
        ("limits: players' view, 5000 walls far off the map", lambda: _far_walls(5000)),
        ("limits: save the largest admitted encounter", _save_largest),
        ("limits: open the largest admitted encounter", _open_largest),
        ("limits: refuse it at its last field", _refuse_largest_at_its_end),
    ]
