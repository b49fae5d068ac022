"""Sight, party fog and the map index on issue 17's maps (``benchmarks/maps.py``).

Each timed call takes the next viewer spot (creatures of the map, in turn), so the median of
the runs is a median over viewers, not one lucky spot. The door rows open or close the next
of the cave's doors; the cover row beside them is the figure the door update is measured
against (issue 17: an update costs no more than one cover query).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import count

Case = tuple[str, Callable[[], Callable[[], object] | None]]

GOALS_MS = {
    "sight: visibility polygon, cave 140^2 (24k segments)": 3.0,
    "sight: visibility polygon, 400^2 (32k walls)": 30.0,
    "sight: party fog, 4 viewers, one moves (cave 140^2)": 12.0,
    "sight: party fog, 4 viewers, all move (cave 140^2)": 12.0,
    "index: door opens or closes (cave 140^2, painted terrain)": 5.0,
    "index: build 400^2 with terrain": 1000.0,
}


def goals() -> dict[str, float]:
    return GOALS_MS


def references() -> dict[str, tuple[str, float]]:
    """A wall edit is held to one cover query on the same map (issue 17)."""
    return {
        "index: a wall moves (cave 140^2, painted terrain)": (
            "index: cover 1 -> 99 on the cave (what a door update is held to)",
            1.0,
        )
    }


def _spots(name: str) -> list[tuple[float, float]]:
    """The centres of the map's first 16 creatures (on open floor)."""
    from benchmarks import maps

    bench = maps.cave_map() if name == "cave" else maps.large_map()
    return [b.space.centre for b in bench.bodies[:16]]


def _visibility(name: str) -> Callable[[], object]:
    from battlemap.geometry import visibility_polygon
    from benchmarks import maps

    index = (maps.cave_map() if name == "cave" else maps.large_map()).index()
    spots, turn = _spots(name), count()
    visibility_polygon(index, spots[0])

    def run() -> object:
        return visibility_polygon(index, spots[next(turn) % len(spots)])

    return run


def _party_fog(movers: int) -> Callable[[], object]:
    from battlemap.geometry.party_sight import PartySight
    from battlemap.model import Creature, EntityId, Side
    from benchmarks import maps

    index = maps.cave_map().index()
    bodies, turn = maps.cave_map().bodies[:16], count()
    party = [
        Creature(id=EntityId(f"p{i}"), name="P", side=Side.PARTY, x=b.x, y=b.y)
        for i, b in enumerate(bodies[:4])
    ]
    sight = PartySight()
    sight.visible(index, party)

    def run() -> object:
        step = next(turn)
        for i in range(movers):
            b = bodies[(4 + step * movers + i) % len(bodies)]
            party[i] = party[i].model_copy(update={"x": b.x, "y": b.y})
        return sight.visible(index, party)

    return run


def _door() -> Callable[[], object]:
    from battlemap.geometry import MapIndex
    from battlemap.model import WallKind
    from benchmarks import maps

    encounter = maps.cave_map().encounter()
    state = {"index": MapIndex.build(encounter), "encounter": encounter}
    doors = [i for i, w in enumerate(encounter.walls) if w.kind is WallKind.DOOR]
    turn = count()

    def run() -> object:
        walls = list(state["encounter"].walls)  # type: ignore[attr-defined]
        i = doors[next(turn) % len(doors)]
        walls[i] = walls[i].model_copy(update={"open": not walls[i].open})
        state["encounter"] = state["encounter"].model_copy(update={"walls": tuple(walls)})  # type: ignore[attr-defined]
        state["index"] = state["index"].updated(state["encounter"])  # type: ignore[attr-defined]
        return state["index"]

    return run


def _wall_moves() -> Callable[[], object]:
    """A wall of the cave moved by a quarter cell (the next wall each run, back and forth)."""
    from battlemap.geometry import MapIndex
    from benchmarks import maps

    encounter = maps.cave_map().encounter()
    state = {"index": MapIndex.build(encounter), "encounter": encounter}
    turn = count()

    def run() -> object:
        step = next(turn)
        walls = list(state["encounter"].walls)  # type: ignore[attr-defined]
        i = 1000 + 97 * (step // 2)
        x, y = walls[i].a
        shift = 0.25 if step % 2 == 0 else -0.25
        walls[i] = walls[i].model_copy(update={"a": (x + shift, y)})
        state["encounter"] = state["encounter"].model_copy(update={"walls": tuple(walls)})  # type: ignore[attr-defined]
        state["index"] = state["index"].updated(state["encounter"])  # type: ignore[attr-defined]
        return state["index"]

    return run


def _cover_on_the_cave() -> Callable[[], object]:
    from battlemap.geometry import cover_to_many
    from benchmarks import maps

    bench = maps.cave_map()
    index, bodies = bench.index(), list(bench.bodies)

    def run() -> object:
        return cover_to_many(index, bodies[0], bodies[1:], bodies)

    return run


def _build_large() -> Callable[[], object]:
    from battlemap.geometry import MapIndex
    from battlemap.model import Grid
    from benchmarks import maps

    bench = maps.large_map()
    grid = Grid(width=bench.cells, height=bench.cells)

    def run() -> object:
        return MapIndex(grid, bench.walls, (), bench.terrain)

    return run


def cases() -> list[Case]:
    return [
        ("sight: visibility polygon, cave 140^2 (24k segments)", lambda: _visibility("cave")),
        ("sight: visibility polygon, 400^2 (32k walls)", lambda: _visibility("large")),
        ("sight: party fog, 4 viewers, one moves (cave 140^2)", lambda: _party_fog(1)),
        ("sight: party fog, 4 viewers, all move (cave 140^2)", lambda: _party_fog(4)),
        ("index: door opens or closes (cave 140^2, painted terrain)", _door),
        ("index: a wall moves (cave 140^2, painted terrain)", _wall_moves),
        ("index: cover 1 -> 99 on the cave (what a door update is held to)", _cover_on_the_cave),
        ("index: build 400^2 with terrain", _build_large),
    ]
