"""Small builders for geometry tests: bodies, walls and indexes in a line each."""

from __future__ import annotations

from battlemap.geometry import Body, MapIndex
from battlemap.model import (
    CoverDegree,
    EntityId,
    Grid,
    Obstacle,
    Side,
    Size,
    Speeds,
    TerrainKind,
    TerrainRegion,
    Wall,
    WallKind,
)


def body(
    name: str,
    x: float,
    y: float,
    size: Size = Size.MEDIUM,
    side: Side = Side.PARTY,
    **flags: object,
) -> Body:
    """A body with id ``name`` at (x, y) cells on a 5-ft grid."""
    return Body(EntityId(name), size, side, x, y, **flags)  # type: ignore[arg-type]


def foe(name: str, x: float, y: float, size: Size = Size.MEDIUM, **flags: object) -> Body:
    return body(name, x, y, size, Side.HOSTILE, **flags)


def wall(a: tuple[float, float], b: tuple[float, float], name: str = "", **kw: object) -> Wall:
    return Wall(id=EntityId(name or f"wall-{a}-{b}"), a=a, b=b, **kw)


def door(
    a: tuple[float, float], b: tuple[float, float], *, open_: bool, name: str = "door"
) -> Wall:
    return Wall(id=EntityId(name), a=a, b=b, kind=WallKind.DOOR, open=open_)


def window(a: tuple[float, float], b: tuple[float, float], name: str = "window") -> Wall:
    return Wall(id=EntityId(name), a=a, b=b, kind=WallKind.WINDOW)


def box_points(x0: float, y0: float, x1: float, y1: float) -> list[tuple[float, float]]:
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]


def obstacle(
    name: str, x0: float, y0: float, x1: float, y1: float, cover: CoverDegree, moves: bool = True
) -> Obstacle:
    return Obstacle(
        id=EntityId(name), points=box_points(x0, y0, x1, y1), cover=cover, blocks_movement=moves
    )


def terrain(kind: TerrainKind, x0: float, y0: float, x1: float, y1: float) -> TerrainRegion:
    return TerrainRegion(
        id=EntityId(f"{kind}-{x0}-{y0}"), kind=kind, points=box_points(x0, y0, x1, y1)
    )


def index(
    *walls: Wall,
    obstacles: tuple[Obstacle, ...] = (),
    terrain_regions: tuple[TerrainRegion, ...] = (),
    width: int = 30,
    height: int = 30,
) -> MapIndex:
    return MapIndex(Grid(width=width, height=height), walls, obstacles, terrain_regions)


__all__ = [
    "Speeds",
    "body",
    "box_points",
    "door",
    "foe",
    "index",
    "obstacle",
    "terrain",
    "wall",
    "window",
]
