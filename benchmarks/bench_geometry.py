"""Geometry on the bench map (``benchmarks.maps.bench_map``): 100 x 100 cells, 2,000 wall
segments, about 1,500 difficult cells, 100 creatures.

The index is built once, outside the timings, as the app does per map change. Goals are from
issue 3. The path search and the reachable area are in ``bench_path``.
"""

from __future__ import annotations

from collections.abc import Callable

from benchmarks import wall_clock
from benchmarks.maps import bench_map

Case = tuple[str, Callable[[], Callable[[], object] | None]]

MAP_CELLS = 100
WALLS = 2_000
CREATURES = 100

GOALS_MS = {
    "geometry: drag update (12-cell path + OAs)": 1.0,
    "geometry: cover 1 -> 99": 5.0,
    "geometry: cover all pairs (9,900)": 500.0,
    "geometry: visibility polygon": 10.0,
}


def describe() -> str:
    return f"geometry {bench_map().describe()}"


def goals() -> dict[str, float]:
    return GOALS_MS


def _walls() -> list[object]:
    return list(bench_map().walls)


def _world() -> tuple[object, list[object]]:
    """The bench map's index (built once) and its creatures."""
    return bench_map().index(), list(bench_map().bodies)


def _open_spot() -> tuple[object, object, list[object]]:
    """A mover in the middle of a room with hostiles near its 12-cell path."""
    from battlemap.geometry import Body
    from battlemap.model import EntityId, Side, Size

    index, bodies = _world()
    mover = Body(EntityId("mover"), Size.MEDIUM, Side.PARTY, 41, 44)
    guards = [
        Body(EntityId("g1"), Size.MEDIUM, Side.HOSTILE, 40, 44),
        Body(EntityId("g2"), Size.MEDIUM, Side.HOSTILE, 44, 43),
        Body(EntityId("g3"), Size.LARGE, Side.HOSTILE, 47, 46),
    ]
    others = [b for b in bodies if not b.space.overlaps(mover.space)] + guards  # type: ignore[attr-defined]
    return index, mover, others


def _drag() -> Callable[[], object]:
    from battlemap.geometry import DiagonalRule, move_with_opportunity_attacks

    index, mover, others = _open_spot()
    path = [(42 + i, 44 + (i // 4)) for i in range(12)]

    def run() -> object:
        result = move_with_opportunity_attacks(
            index,
            mover,
            path,
            others,
            DiagonalRule.FIVE_TEN_FIVE,
            60,  # type: ignore[arg-type]
        )
        assert len(result.steps) > 0
        return result

    return run


def _drag_large() -> Callable[[], object]:
    """A Large mover: its move context also needs the squeeze cores (kept by the index)."""
    from battlemap.geometry import Body, DiagonalRule, move_with_opportunity_attacks
    from battlemap.model import EntityId, Side, Size

    index, mover, others = _open_spot()
    ogre = Body(EntityId("ogre"), Size.LARGE, Side.PARTY, mover.x, mover.y)  # type: ignore[attr-defined]
    others = [b for b in others if not b.space.overlaps(ogre.space)]  # type: ignore[attr-defined]
    path = [(42 + i, 44) for i in range(6)]

    def run() -> object:
        return move_with_opportunity_attacks(
            index,
            ogre,
            path,
            others,
            DiagonalRule.FIVE_TEN_FIVE,
            60,  # type: ignore[arg-type]
        )

    return run


def _cover_one() -> Callable[[], object]:
    from battlemap.geometry import cover_to_many

    index, bodies = _world()

    def run() -> object:
        return cover_to_many(index, bodies[0], bodies[1:], bodies)  # type: ignore[arg-type]

    return run


def _cover_one_off_grid() -> Callable[[], object]:
    """The same map with every wall moved off the grid lines (as an imported map's walls may
    be): nothing for cover's numpy grid-line pre-check, every line is checked wall by wall."""
    from battlemap.geometry import MapIndex, cover_to_many
    from battlemap.model import Grid, Wall

    _, bodies = _world()
    moved = [
        w.model_copy(
            update={"a": (w.a[0] + 0.013, w.a[1] + 0.007), "b": (w.b[0] + 0.013, w.b[1] + 0.007)}
        )
        for w in _walls()
        if isinstance(w, Wall)
    ]
    index = MapIndex(Grid(width=MAP_CELLS, height=MAP_CELLS), moved)

    def run() -> object:
        return cover_to_many(index, bodies[0], bodies[1:], bodies)  # type: ignore[arg-type]

    return run


def _cover_all() -> Callable[[], object]:
    from battlemap.geometry import cover_all_pairs

    index, bodies = _world()

    def run() -> object:
        result = cover_all_pairs(index, bodies)  # type: ignore[arg-type]
        assert len(result) == CREATURES * (CREATURES - 1)
        return result

    return wall_clock(run)  # its batches run in threads


def _visibility() -> Callable[[], object]:
    from battlemap.geometry import visibility_polygon

    index, _ = _world()

    def run() -> object:
        return visibility_polygon(index, (45.5, 45.5))  # type: ignore[arg-type]

    return run


def _visibility_dark() -> Callable[[], object]:
    from battlemap.geometry import visibility_polygon

    index, _ = _world()

    def run() -> object:
        return visibility_polygon(index, (45.5, 45.5), 12.0)  # type: ignore[arg-type]

    return run


def _build() -> Callable[[], object]:
    from battlemap.geometry import MapIndex
    from battlemap.model import Grid

    walls = _walls()

    def run() -> object:
        return MapIndex(Grid(width=MAP_CELLS, height=MAP_CELLS), walls)  # type: ignore[arg-type]

    return run


def cases() -> list[Case]:
    return [
        ("geometry: map index build (per map change)", _build),
        ("geometry: drag update (12-cell path + OAs)", _drag),
        ("geometry: drag update, Large mover (6-cell path)", _drag_large),
        ("geometry: cover 1 -> 99", _cover_one),
        ("geometry: cover 1 -> 99, walls off the grid lines", _cover_one_off_grid),
        ("geometry: cover all pairs (9,900)", _cover_all),
        ("geometry: visibility polygon", _visibility),
        ("geometry: visibility polygon, 60 ft sight (fog)", _visibility_dark),
    ]
