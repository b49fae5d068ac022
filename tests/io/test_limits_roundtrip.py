"""Issue 18's rule: whatever the app lets a DM create, it saves and reopens, equal.

Encounters are built at the limits of ``battlemap.model.limits`` (the longest names, the
largest and smallest grids and cells, positions and numbers at their bounds, every
collection at its count) through the paths the app uses (constructors, and the wall
commands that cut walls to the map), saved as ``.battlemap`` and reopened. One item past a
count limit is refused on save, naming the field, instead of writing a file that would not
open again.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from battlemap.io.encounter_file import (
    MAX_JSON_BYTES,
    encounter_json_bytes,
    load_battlemap,
    save_battlemap,
)
from battlemap.io.errors import FileFormatError
from battlemap.model import Creature, Encounter, Grid, Light, Obstacle, Size, Speeds, Wall
from battlemap.model.combat import CombatEvent
from battlemap.model.encounter import Background
from battlemap.model.features import TerrainRegion, WallKind
from battlemap.model.fog import FogOfWar
from battlemap.model.limits import (
    COORD_LIMIT,
    MAX_AC,
    MAX_CELL_FEET,
    MAX_CHARACTER_LEVEL,
    MAX_CREATURES,
    MAX_ENCOUNTER_JSON_VALUES,
    MAX_ENCOUNTER_NAME,
    MAX_EVENT_TEXT,
    MAX_HP,
    MAX_IMAGE_NAME,
    MAX_LIGHT_INTENSITY,
    MAX_LIGHT_RANGE_CELLS,
    MAX_LIGHTS,
    MAX_LOG,
    MAX_MAP_CELLS,
    MAX_NAME,
    MAX_NOTES,
    MAX_PARTY,
    MAX_PIXELS_PER_CELL,
    MAX_POSITION,
    MAX_REACH_FEET,
    MAX_RULESET_ID,
    MAX_SIGHT_RANGE_FEET,
    MAX_SPEED_FEET,
    MAX_WALLS,
    MIN_CELL_FEET,
    MIN_POSITION,
)
from battlemap.model.map_commands import AddWalls
from battlemap.model.statblock import StatBlock

PNG = (Path(__file__).parent / "fixtures" / "tiny.png").read_bytes()
IMAGE = "i" * (MAX_IMAGE_NAME - len(".png")) + ".png"
"""The longest image name a file may carry."""


def reopened(tmp_path: Path, encounter: Encounter, name: str = "limits") -> Encounter:
    path = tmp_path / f"{name}.battlemap"
    images = {IMAGE: PNG} if encounter.background else {}
    save_battlemap(path, encounter, images)
    loaded = load_battlemap(path)
    assert dict(loaded.images) == images
    return loaded.encounter


# --- single values at their bounds ------------------------------------------------------

# Letters of 1 to 4 UTF-8 bytes: a name's limit counts characters, not bytes.
letters = st.sampled_from(["a", "é", "語", "🐉", " ", '"', "\\"])


def texts(limit: int) -> st.SearchStrategy[str]:
    """The longest text (``limit`` characters) or a one-letter one."""
    return st.sampled_from([1, limit]).flatmap(lambda n: st.text(letters, min_size=n, max_size=n))


def bound(low: float, high: float) -> st.SearchStrategy[float]:
    return st.sampled_from([low, high])


def int_bound(low: int, high: int) -> st.SearchStrategy[int]:
    return st.sampled_from([low, high])


@st.composite
def creatures(draw: st.DrawFn) -> Creature:
    max_hp = draw(int_bound(0, MAX_HP))
    return Creature(
        name=draw(texts(MAX_NAME).filter(str.strip)),
        size=draw(st.sampled_from(list(Size))),
        x=draw(bound(MIN_POSITION, MAX_POSITION)),
        y=draw(bound(MIN_POSITION, MAX_POSITION)),
        speeds=Speeds(**{mode: draw(int_bound(0, MAX_SPEED_FEET)) for mode in ("walk", "fly")}),
        reach=draw(int_bound(0, MAX_REACH_FEET)),
        max_hp=max_hp,
        hp=draw(int_bound(0, max_hp)),
        temp_hp=draw(int_bound(0, MAX_HP)),
        ac=draw(int_bound(0, MAX_AC)),
        level=draw(st.sampled_from([None, 1, MAX_CHARACTER_LEVEL])),
    )


corner = st.sampled_from([-COORD_LIMIT, 0.0, COORD_LIMIT])


@st.composite
def encounters(draw: st.DrawFn) -> Encounter:
    grid = Grid(
        width=draw(int_bound(1, MAX_MAP_CELLS)),
        height=draw(int_bound(1, MAX_MAP_CELLS)),
        cell_feet=draw(bound(MIN_CELL_FEET, MAX_CELL_FEET)),
    )
    encounter = Encounter(
        name=draw(texts(MAX_ENCOUNTER_NAME)),
        ruleset=draw(texts(MAX_RULESET_ID)),
        notes=draw(st.sampled_from(["", "n" * MAX_NOTES])),
        grid=grid,
        background=draw(
            st.sampled_from(
                [None, Background(image=IMAGE, pixels_per_cell=MAX_PIXELS_PER_CELL, offset_x=-5)]
            )
        ),
        creatures=tuple(draw(st.lists(creatures(), max_size=3))),
        obstacles=(Obstacle(name="o" * MAX_NAME, points=[(-COORD_LIMIT, 0), (0, 0), (0, 1)]),),
        terrain=(TerrainRegion(points=[(0, 0), (COORD_LIMIT, COORD_LIMIT), (0, COORD_LIMIT)]),),
        lights=(
            Light(
                position=(draw(corner), draw(corner)),
                bright_cells=draw(bound(0, MAX_LIGHT_RANGE_CELLS)),
                dim_cells=MAX_LIGHT_RANGE_CELLS,
                intensity=draw(bound(0, MAX_LIGHT_INTENSITY)),
            ),
        ),
        party=(StatBlock(name="p" * MAX_NAME, hit_points=MAX_HP, level=MAX_CHARACTER_LEVEL),),
        fog=FogOfWar(
            sight_range_feet=draw(int_bound(0, MAX_SIGHT_RANGE_FEET)),
            explored=frozenset({(0, 0), (grid.width - 1, grid.height - 1)}),
        ),
    )
    # Walls the way a DM's edit adds them: cut to the map's margin by the command.
    ends = st.tuples(corner, corner)
    drawn = draw(st.lists(st.tuples(ends, ends).filter(lambda ab: ab[0] != ab[1]), max_size=4))
    kinds = list(WallKind)
    walls = tuple(Wall(a=a, b=b, kind=kinds[i % 3]) for i, (a, b) in enumerate(drawn))
    return AddWalls(walls).apply(encounter) if walls else encounter


def test_encounters_at_the_bounds_save_and_reopen_equal(tmp_path: Path) -> None:
    ran: list[Encounter] = []

    @settings(max_examples=40, suppress_health_check=[HealthCheck.too_slow])
    @given(encounters())
    def check(encounter: Encounter) -> None:
        ran.append(encounter)
        assert reopened(tmp_path, encounter) == encounter

    check()
    assert len(ran) == 40
    assert any(e.grid.width == MAX_MAP_CELLS for e in ran)
    assert any(len(c.name) == MAX_NAME for e in ran for c in e.creatures)
    assert any(e.walls for e in ran)


# --- every collection at its count limit --------------------------------------------------


SIDE = MAX_MAP_CELLS


def _walls(count: int) -> tuple[Wall, ...]:
    return tuple(
        Wall(id=f"w{i}", a=(i % SIDE, i // SIDE % SIDE), b=(i % SIDE + 1, i // SIDE % SIDE))
        for i in range(count)
    )


FULL: dict[str, Callable[[int], tuple[BaseModel, ...]]] = {
    "creatures": lambda n: tuple(Creature(name=f"c{i}", x=i % SIDE, y=i // SIDE) for i in range(n)),
    "walls": _walls,
    "obstacles": lambda n: tuple(
        Obstacle(id=f"o{i}", points=[(i % SIDE, 0), (i % SIDE + 1, 0), (i % SIDE, 1)])
        for i in range(n)
    ),
    "terrain": lambda n: tuple(
        TerrainRegion(id=f"t{i}", points=[(0, i % SIDE), (1, i % SIDE), (0, i % SIDE + 1)])
        for i in range(n)
    ),
    "lights": lambda n: tuple(
        Light(position=(i % SIDE, 1), bright_cells=2, dim_cells=2) for i in range(n)
    ),
    "party": lambda n: tuple(StatBlock(name=f"pc {i}") for i in range(n)),
    "log": lambda n: tuple(CombatEvent(round=0, kind="note", text=f"line {i}") for i in range(n)),
}
LIMIT = {
    "creatures": MAX_CREATURES,
    "walls": MAX_WALLS,
    "obstacles": MAX_WALLS,
    "terrain": MAX_WALLS,
    "lights": MAX_LIGHTS,
    "party": MAX_PARTY,
    "log": MAX_LOG,
}


@pytest.mark.slow  # 50,000 walls, obstacles or terrain regions: a few seconds each
@pytest.mark.parametrize("field", FULL)
def test_a_collection_at_its_limit_reopens_and_one_more_is_refused_on_save(
    tmp_path: Path, field: str
) -> None:
    limit = LIMIT[field]
    full = FULL[field](limit + 1)
    base = Encounter(grid=Grid(width=MAX_MAP_CELLS, height=MAX_MAP_CELLS))
    at_limit = base.model_copy(update={field: full[:limit]})
    assert reopened(tmp_path, at_limit) == at_limit
    past = base.model_copy(update={field: full})  # a command's copy is not validated
    path = tmp_path / "past.battlemap"
    with pytest.raises(FileFormatError, match=rf"{field}: {limit + 1} items, more than"):
        save_battlemap(path, past, {})
    assert not path.exists()


def test_a_fully_explored_largest_map_with_every_wall_fits_in_a_file() -> None:
    # Format 2 kept the fog as lists: 20 MB and 4 million values at 1,000 x 1,000 cells.
    every = frozenset((x, y) for x in range(MAX_MAP_CELLS) for y in range(MAX_MAP_CELLS))
    grid = Grid(width=MAX_MAP_CELLS, height=MAX_MAP_CELLS)
    fog = FogOfWar(revealed=every, explored=every)
    data = encounter_json_bytes(Encounter(grid=grid, fog=fog, walls=_walls(MAX_WALLS)))
    assert len(data) < MAX_JSON_BYTES / 4
    assert data.count(b",") < 0.6 * MAX_ENCOUNTER_JSON_VALUES  # room left for the rest


def test_a_save_larger_than_a_file_may_hold_is_refused_naming_the_size(tmp_path: Path) -> None:
    # MAX_LOG lines of MAX_EVENT_TEXT four-byte letters would take 160 MB: such a save is
    # refused, not written as a file that then does not open. Here 8,389 lines of 2,000.
    line = CombatEvent(round=0, kind="note", text="🐉" * MAX_EVENT_TEXT)
    count = MAX_JSON_BYTES // (4 * MAX_EVENT_TEXT) + 1
    assert count <= MAX_LOG
    big = Encounter(log=(line,) * count)
    path = tmp_path / "big.battlemap"
    with pytest.raises(FileFormatError, match=rf"more than the {MAX_JSON_BYTES} a file may hold"):
        save_battlemap(path, big, {})
    assert not path.exists()
