"""Light and vision (issue 20): where the map is bright, dim or dark, and what a viewer sees.

A light lights what it can see: its lit area is the visibility polygon from its centre
(``sight.visibility_polygon``, so walls, closed doors and pillars stop light as they stop
sight; windows and open doors let it through), cut to its dim radius, with the part within
its bright radius bright. Everywhere else the map has its ambient level. A point's level is
the brightest of the ambient level and every light reaching it.

Boundary rules (``light_level_at`` is exact; the polygons are for drawing and cells):
- a point exactly on a radius is inside it (bright at ``bright_cells``, dim at ``dim_cells``);
- a light reaches a point when the segment between them is not blocked
  (``barriers``' rule: grazing a wall's end or running along a wall does not block);
- a light carried by a creature shines from the centre of its carrier's space; one whose
  carrier is not on the map lies at its ``position``.

A viewer's senses (``perceive``): darkvision sees darkness as dim light and dim light as
bright within its range, when the ruleset says so (``viewer_of``'s ``darkvision_brightens``,
the ruleset's ``light.darkvision_one_level_brighter``: geometry does not decide it);
blindsight perceives everything within its range, whatever the light. Walls stop both, as
they stop sight. Ranges are closed, like radii.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property, partial

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from battlemap.geometry import overlay
from battlemap.geometry.map_index import MapIndex
from battlemap.geometry.metrics import PointXY
from battlemap.geometry.sight import visibility_polygon
from battlemap.model.creature import Creature
from battlemap.model.encounter import Encounter
from battlemap.model.features import Light, LightLevel, MapLighting
from battlemap.model.ids import EntityId

__all__ = [
    "LightLevel",
    "LitArea",
    "LitAreas",
    "LitMap",
    "PerceivedBy",
    "Perception",
    "SeenAreas",
    "SeenMemo",
    "Viewer",
    "light_centre",
    "light_level_at",
    "lighting_drawn",
    "lit_area",
    "perceive",
    "seen_areas",
    "viewer_of",
]

ON_RADIUS = 1e-9
"""Cells: a point this much past a radius still counts as on it (float noise)."""
CIRCLE_SEGMENTS = 45
"""Segments per quarter circle of the drawn radii (180 round, like the sight's rays)."""


def brighter(a: LightLevel, b: LightLevel) -> LightLevel:
    """The brighter of two levels."""
    return a if a.rank <= b.rank else b


def lighting_drawn(lighting: MapLighting) -> bool:
    """Whether light decides what the party sees and how the players' window draws it: not
    on a map bright everywhere, nor on a baked map (its picture shows its light already)."""
    return lighting.ambient is not LightLevel.BRIGHT and not lighting.baked_lighting


def light_centre(light: Light, encounter: Encounter) -> PointXY:
    """Where ``light`` shines from: its carrier's centre (cells), or its ``position``."""
    if light.carried_by is not None:
        for creature in encounter.creatures:
            if creature.id == light.carried_by:
                side = creature.space_cells(encounter.grid.cell_feet)
                return (creature.x + side / 2, creature.y + side / 2)
    return light.position


def _circle(centre: PointXY, radius: float) -> BaseGeometry:
    return shapely.Point(centre).buffer(radius, quad_segs=CIRCLE_SEGMENTS)


@dataclass(frozen=True, slots=True)
class LitArea:
    """What one light lights (cells): ``dim`` is all of it (its bright part included),
    ``bright`` the part within its bright radius. Both clipped to the map."""

    light_id: EntityId
    centre: PointXY
    bright_cells: float
    dim_cells: float
    bright: BaseGeometry
    dim: BaseGeometry


def lit_area(index: MapIndex, light: Light, centre: PointXY) -> LitArea:
    """The area ``light`` lights from ``centre``: its visibility polygon cut to its radii."""
    if light.dim_cells <= 0:
        empty = shapely.Polygon()
        return LitArea(light.id, centre, light.bright_cells, light.dim_cells, empty, empty)
    dim = visibility_polygon(index, centre, light.dim_cells)
    if light.bright_cells >= light.dim_cells:
        bright = dim
    elif light.bright_cells <= 0:
        bright = shapely.Polygon()
    else:
        bright = overlay.intersection(dim, _circle(centre, light.bright_cells))
    return LitArea(light.id, centre, light.bright_cells, light.dim_cells, bright, dim)


_AreaKey = tuple[EntityId, PointXY, float, float]


class LitAreas:
    """Lit areas kept between calls: a light's area is recomputed only when the map index
    (a wall or door change), the light, or its centre (a carrier's move) changes."""

    def __init__(self) -> None:
        self._index: MapIndex | None = None
        self._areas: dict[_AreaKey, LitArea] = {}
        self.computed = 0
        """Lit areas computed so far (each a visibility polygon)."""

    def areas(self, index: MapIndex, encounter: Encounter) -> tuple[LitArea, ...]:
        """Every light's area on ``encounter`` (in the order of ``encounter.lights``)."""
        if index is not self._index:
            self._index, self._areas = index, {}
        kept, self._areas = self._areas, {}
        for light in encounter.lights:
            centre = light_centre(light, encounter)
            key = (light.id, centre, light.bright_cells, light.dim_cells)
            area = kept.get(key)
            if area is None:
                area = lit_area(index, light, centre)
                self.computed += 1
            self._areas[key] = area
        return tuple(self._areas.values())


@dataclass(frozen=True)
class LitMap:
    """The light on one map: its ``lighting`` and the area of every light.

    ``polygons`` false: built by ``levels_only``, without the lit areas' polygons (empty);
    only ``level_at`` may be asked (it reads each light's centre and radii), and the
    polygons' readers refuse.
    """

    index: MapIndex
    lighting: MapLighting
    areas: tuple[LitArea, ...]
    polygons: bool = True

    @classmethod
    def build(cls, index: MapIndex, encounter: Encounter, cache: LitAreas | None = None) -> LitMap:
        areas = (cache or LitAreas()).areas(index, encounter)
        return cls(index, encounter.lighting, areas)

    @classmethod
    def levels_only(cls, index: MapIndex, encounter: Encounter) -> LitMap:
        """A map for ``level_at`` alone: no visibility sweep per light (20 torches: about
        45 ms per attack otherwise). It reads the same levels as ``build``'s (a test)."""
        empty = shapely.Polygon()
        areas = tuple(
            LitArea(
                light.id,
                light_centre(light, encounter),
                light.bright_cells,
                light.dim_cells,
                empty,
                empty,
            )
            for light in encounter.lights
        )
        return cls(index, encounter.lighting, areas, polygons=False)

    def polygon_areas(self) -> tuple[LitArea, ...]:
        """The lit areas, for a reader of their polygons (not on a ``levels_only`` map)."""
        if not self.polygons:
            raise ValueError("a levels-only LitMap has no lit areas' polygons: use build")
        return self.areas

    @property
    def drawn(self) -> bool:
        """``lighting_drawn`` for this map."""
        return lighting_drawn(self.lighting)

    def _map_box(self) -> BaseGeometry:
        return shapely.box(0, 0, self.index.width, self.index.height)

    @cached_property
    def lit_area(self) -> BaseGeometry:
        """Where the map is bright or dim (cells, within the map)."""
        if self.lighting.ambient is not LightLevel.DARK:
            return self._map_box()
        return overlay.union_all([a.dim for a in self.polygon_areas()])

    def level_at(self, point: PointXY) -> LightLevel:
        """The light at ``point`` (see the module's boundary rules). Reads each light's
        centre and radii and the walls, never the lit areas' polygons (``levels_only``)."""
        level = self.lighting.ambient
        if level is LightLevel.BRIGHT or not self.areas:
            return level
        centres = np.array([a.centre for a in self.areas], dtype=np.float64)
        reach = np.array([a.dim_cells for a in self.areas])
        distance = np.hypot(centres[:, 0] - point[0], centres[:, 1] - point[1])
        near = np.flatnonzero(distance <= reach + ON_RADIUS)
        if not len(near):
            return level
        lines = np.array([[centres[i], point] for i in near], dtype=np.float64)
        blocked = self.index.sight_walls.blocks(lines)
        for i, hidden in zip(near.tolist(), blocked.tolist(), strict=True):
            if hidden:
                continue
            lit = self.areas[i]
            on_bright = distance[i] <= lit.bright_cells + ON_RADIUS
            level = brighter(level, LightLevel.BRIGHT if on_bright else LightLevel.DIM)
            if level is LightLevel.BRIGHT:
                break
        return level


def light_level_at(index: MapIndex, encounter: Encounter, point: PointXY) -> LightLevel:
    """The light at ``point`` (cells) on ``encounter``'s map (see the module)."""
    return LitMap.build(index, encounter).level_at(point)


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who looks, from where (cells), with which senses (radii in cells)."""

    centre: PointXY
    darkvision_cells: float = 0.0
    blindsight_cells: float = 0.0


def viewer_of(creature: Creature, cell_feet: float, *, darkvision_brightens: bool) -> Viewer:
    """``creature`` looking from the centre of its space, with its stat block's senses (a
    creature without a stat block has none). ``darkvision_brightens`` is the ruleset's
    ``light.darkvision_one_level_brighter``: false, darkvision changes nothing, so the viewer
    has none."""
    side = creature.space_cells(cell_feet)
    senses = creature.statblock.senses if creature.statblock is not None else None
    return Viewer(
        centre=(creature.x + side / 2, creature.y + side / 2),
        darkvision_cells=senses.darkvision / cell_feet if senses and darkvision_brightens else 0.0,
        blindsight_cells=senses.blindsight / cell_feet if senses else 0.0,
    )


class PerceivedBy(StrEnum):
    """How a viewer perceives a point, or why it does not."""

    LIGHT = "light"
    """By the light there (bright or dim)."""
    DARKVISION = "darkvision"
    """By darkvision: in darkness (seen as dim) or dim light (seen as bright)."""
    BLINDSIGHT = "blindsight"
    """Within its blindsight, whatever the light."""
    DARKNESS = "darkness"
    """Not: darkness, and no darkvision or blindsight reaches it."""
    WALLS = "walls"
    """Not: a wall stands between."""


@dataclass(frozen=True, slots=True)
class Perception:
    """What a viewer makes of a point: the ``light`` there, the level it is ``seen`` at
    (dark: not seen) and the sense that decided it (``by``)."""

    light: LightLevel
    seen: LightLevel
    by: PerceivedBy

    @property
    def sees(self) -> bool:
        return self.seen is not LightLevel.DARK


def perceive(lit: LitMap, viewer: Viewer, point: PointXY) -> Perception:
    """How ``viewer`` perceives ``point``: walls first, then blindsight, then light and
    darkvision (the brighter reading wins; light wins a tie, as it needs no sense)."""
    light = lit.level_at(point)
    line = np.array([[viewer.centre, point]], dtype=np.float64)
    if bool(lit.index.sight_walls.blocks(line)[0]):
        return Perception(light, LightLevel.DARK, PerceivedBy.WALLS)
    distance = math.dist(viewer.centre, point)
    if light is LightLevel.BRIGHT:
        return Perception(light, light, PerceivedBy.LIGHT)
    if distance <= viewer.blindsight_cells + ON_RADIUS and viewer.blindsight_cells > 0:
        return Perception(light, LightLevel.BRIGHT, PerceivedBy.BLINDSIGHT)
    if distance <= viewer.darkvision_cells + ON_RADIUS and viewer.darkvision_cells > 0:
        seen = LightLevel.BRIGHT if light is LightLevel.DIM else LightLevel.DIM
        return Perception(light, seen, PerceivedBy.DARKVISION)
    if light is LightLevel.DIM:
        return Perception(light, light, PerceivedBy.LIGHT)
    return Perception(light, LightLevel.DARK, PerceivedBy.DARKNESS)


@dataclass(frozen=True)
class SeenAreas:
    """What viewers see (cells): ``bright`` seen as bright, ``dim`` seen as dim only, and
    ``each`` viewer's whole seen area (bright and dim), in the viewers' order."""

    bright: BaseGeometry
    dim: BaseGeometry
    each: tuple[BaseGeometry, ...]

    @property
    def seen(self) -> BaseGeometry:
        return overlay.union_all([self.bright, self.dim])


class SeenMemo:
    """Overlays kept between ``seen_areas`` calls, so a torch bearer's move recomputes only
    what it touched. Keyed by the identity of the shapes they came from (the lit areas
    ``LitAreas`` keeps per light, the views kept per viewer: frozen, so the same object is
    the same shape) and by value otherwise: a light that did not move keeps its piece of
    each view, a viewer whose view and nearby lights are the same keeps its seen area, and
    an unchanged party keeps the unions. What one call did not use is dropped after it."""

    def __init__(self) -> None:
        self._kept: dict[tuple[object, ...], tuple[tuple[object, ...], BaseGeometry]] = {}
        self._used: dict[tuple[object, ...], tuple[tuple[object, ...], BaseGeometry]] = {}
        self._last_parts: dict[str, tuple[BaseGeometry, ...]] = {}
        self._parts: dict[str, tuple[BaseGeometry, ...]] = {}
        self.computed = 0
        """Overlays computed so far (the ones not found kept)."""

    def get(self, parts: tuple[object, ...], make: Callable[[], BaseGeometry]) -> BaseGeometry:
        """The shape made of ``parts`` (shapes by identity, other values by value)."""
        key = tuple(id(p) if isinstance(p, BaseGeometry) else p for p in parts)
        hit = self._used.get(key) or self._kept.get(key)
        if hit is None:
            hit = (parts, make())  # the parts kept alive with it: their ids stay theirs
            self.computed += 1
        self._used[key] = hit
        return hit[1]

    def union(self, tag: str, parts: Sequence[BaseGeometry]) -> BaseGeometry:
        """The union of ``parts``, made incrementally: the parts also in the last call's
        ``tag`` union are unioned once and kept (a move changes one viewer's part: the
        others' union is kept from the second move on), then the new ones added to it."""
        last = self._last_parts.get(tag, ())
        self._parts[tag] = tuple(parts)
        old_ids = {id(p) for p in last}
        stable = tuple(p for p in parts if id(p) in old_ids)
        fresh = [p for p in parts if id(p) not in old_ids]
        whole = (tag, *parts)
        if not fresh or not stable:
            return self.get(whole, lambda: overlay.union_all(parts))
        base = self.get((tag, "stable", *stable), lambda: overlay.union_all(stable))
        return self.get(whole, lambda: overlay.union_all([base, *fresh]))

    def done(self) -> None:
        """End of one call: drop what it did not use."""
        self._kept, self._used = self._used, {}
        self._last_parts, self._parts = self._parts, {}


def seen_areas(
    lit: LitMap,
    viewers: Sequence[Viewer],
    views: Iterable[BaseGeometry],
    memo: SeenMemo | None = None,
) -> SeenAreas:
    """What ``viewers`` see on ``lit``'s map, each within its own visibility polygon
    (``views``, one per viewer: where walls let it look), read as ``perceive`` reads a point.
    ``memo`` keeps the overlays for the next call (see ``SeenMemo``).

    Each viewer's view is cut by each small source of sight on its own (a light's area, a
    sense's circle) rather than by their union across the map: GEOS clips an overlay to the
    overlap of the two shapes' boxes, so a torch's area costs a torch's worth of the view.
    """
    memo = memo or SeenMemo()
    ambient = lit.lighting.ambient
    areas = lit.polygon_areas()
    bright_parts: list[BaseGeometry] = []
    each: list[BaseGeometry] = []
    for viewer, view in zip(viewers, views, strict=True):
        darkvision = _sense(memo, viewer.centre, viewer.darkvision_cells)
        blindsight = _sense(memo, viewer.centre, viewer.blindsight_cells)
        if ambient is LightLevel.BRIGHT:
            bright_sources, seen_sources = [view], [view]
        else:
            bright_sources = [a.bright for a in areas] + blindsight
            if ambient is LightLevel.DIM:
                bright_sources += darkvision
            else:
                bright_sources += [
                    memo.get(
                        ("dim in", circle, a.dim), partial(overlay.intersection, circle, a.dim)
                    )
                    for circle in darkvision
                    for a in _near(areas, circle)
                ]
            seen_sources = (
                [view]
                if ambient is LightLevel.DIM
                else [a.dim for a in areas] + darkvision + blindsight
            )
        bright_parts.append(_union_in(memo, view, bright_sources))
        each.append(_union_in(memo, view, seen_sources))
    bright = _areal(memo.union("bright", bright_parts))
    if any(_brightens(ambient, viewer) for viewer in viewers):
        seen = memo.union("seen", each)
        dim = memo.get(("dim", seen, bright), partial(_less, seen, bright))
    else:
        # By light alone, a point one viewer sees dim no viewer sees bright (its light is
        # the same for all): the party's dim area is the union of each viewer's own, each
        # kept while that viewer's areas are (the difference of the party's whole areas
        # cost 3 to 4 ms a move on the players' light bench).
        own = [
            memo.get(("dim of", e, b), partial(_less, e, b))
            for e, b in zip(each, bright_parts, strict=True)
        ]
        dim = _areal(memo.union("dim", own))
    memo.done()
    return SeenAreas(bright=bright, dim=dim, each=tuple(each))


def _brightens(ambient: LightLevel, viewer: Viewer) -> bool:
    """Whether ``viewer`` may see bright by its senses what light alone shows it dim:
    within its blindsight, or its darkvision on a map not bright everywhere."""
    if viewer.blindsight_cells > 0:
        return True
    return viewer.darkvision_cells > 0 and ambient is not LightLevel.BRIGHT


def _less(a: BaseGeometry, b: BaseGeometry) -> BaseGeometry:
    """The polygons of ``a`` outside ``b``."""
    return _areal(overlay.difference(a, b))


def _sense(memo: SeenMemo, centre: PointXY, radius: float) -> list[BaseGeometry]:
    """The circle of a sense's range, or none."""
    if radius <= 0:
        return []
    return [memo.get(("circle", centre, radius), lambda: _circle(centre, radius))]


def _near(areas: Sequence[LitArea], shape: BaseGeometry) -> list[LitArea]:
    """The lit areas whose box meets ``shape``'s."""
    return [a for a in areas if _boxes_meet(a.dim.bounds, shape.bounds)]


def _boxes_meet(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return bool(a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3])


def _union_in(memo: SeenMemo, view: BaseGeometry, sources: Sequence[BaseGeometry]) -> BaseGeometry:
    """The union of ``view`` cut by each of ``sources`` (polygons only: see ``_areal``); the
    pieces and their union kept in ``memo``."""
    if not sources or view.is_empty:
        return shapely.Polygon()
    box = view.bounds
    near = [s for s in sources if s is view or (not s.is_empty and _boxes_meet(s.bounds, box))]
    if not near:
        return shapely.Polygon()
    if any(s is view for s in near):
        return _areal(view)
    return memo.get(("union in", view, *near), lambda: _union_of_pieces(memo, view, near))


def _union_of_pieces(
    memo: SeenMemo, view: BaseGeometry, near: Sequence[BaseGeometry]
) -> BaseGeometry:
    shapely.prepare(view)
    near_array = np.array(near, dtype=object)
    meeting = list(near_array[shapely.intersects(view, near_array)])  # most lights lie unseen
    pieces = [memo.get(("piece", view, s), partial(_piece, view, s)) for s in meeting]
    # Only areas: a light that only touches the view (behind its wall) leaves no piece, so
    # the union, down to its vertices' order, is the one without that light.
    pieces = [p for p in pieces if not p.is_empty]
    if not pieces:
        return shapely.Polygon()
    return _areal(overlay.union_all(pieces))


def _piece(view: BaseGeometry, source: BaseGeometry) -> BaseGeometry:
    """``view`` cut by ``source``. GEOS's overlay clips the view's edges to the source's box
    itself; ``clip_by_rect`` first, a little faster, is not exact: it kept a wedge 0.0075
    cells outside a view that grazes a wall's end (tests/geometry/test_seen_dim.py), a
    sliver of what lies behind the wall, and failed outright on others."""
    return _areal(overlay.intersection(view, source))


def _areal(geometry: BaseGeometry) -> BaseGeometry:
    """The polygons of ``geometry`` without the lines and points an intersection leaves
    where two areas only touch (a light's edge along the far side of a wall: a line there
    would tell the players the light is behind it). The parts of one overlay's result do
    not overlap, so they make a MultiPolygon as they are."""
    if isinstance(geometry, shapely.Polygon | shapely.MultiPolygon):
        return geometry
    parts = [
        polygon
        for part in shapely.get_parts(geometry)
        for polygon in shapely.get_parts(part)
        if isinstance(polygon, shapely.Polygon) and not polygon.is_empty
    ]
    if len(parts) == 1:
        return parts[0]
    return shapely.MultiPolygon(parts) if parts else shapely.Polygon()
