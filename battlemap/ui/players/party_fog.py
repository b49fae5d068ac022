"""The party's sight for the fog of war: what it sees now, and what it has explored.

Pure Python (no Qt). The map's spatial index is built once per change of the map and kept
between queries, as the geometry layer asks.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from shapely.geometry.base import BaseGeometry

from battlemap.geometry.illumination import (
    LitAreas,
    LitMap,
    SeenAreas,
    SeenMemo,
    lighting_drawn,
    seen_areas,
    viewer_of,
)
from battlemap.geometry.map_index import MapIndex, rasterise
from battlemap.geometry.party_sight import (
    CellGrid,
    PartySight,
    ViewerKey,
    grid_cells,
    viewer_centre,
    viewer_key,
)
from battlemap.geometry.sight import polygon_of_view
from battlemap.model.creature import Creature, Side
from battlemap.model.document import Command, ReplaceEncounterField
from battlemap.model.encounter import Encounter
from battlemap.model.fog import Cell
from battlemap.rules.schema_light import LightRules


def party_viewers(encounter: Encounter) -> list[Creature]:
    """Party members who can look around: on the party's side, conscious, and not hidden
    from the players (a hidden one's sight would show where it stands)."""
    return [c for c in encounter.creatures if c.side is Side.PARTY and c.hp > 0 and not c.hidden]


class PartyFog:
    """``index_for`` gives the map index of the encounter asked about; the UI passes the
    window's shared one (built once per map change for drag, targeting and fog alike);
    ``light_rules`` gives the ruleset's light rules (darkvision's reading comes from them)."""

    def __init__(
        self,
        index_for: Callable[[Encounter], MapIndex] = MapIndex.build,
        light_rules: Callable[[], LightRules] = LightRules,
    ) -> None:
        self.index_for = index_for
        self.light_rules = light_rules
        self.sight = PartySight()
        """Each viewer's cells, kept so a move recomputes only the viewers that moved."""
        self._areas: dict[ViewerKey, BaseGeometry] = {}
        self._areas_of: tuple[MapIndex, float | None] | None = None
        self.lit_areas = LitAreas()
        """Each light's lit area, kept until the light, its carrier or the map changes."""
        self.seen_memo = SeenMemo()
        """Each viewer's pieces of each light and their unions, kept while they are the same."""
        self._seen: tuple[tuple[object, ...], SeenAreas, frozenset[Cell]] | None = None
        self._area_cells: dict[int, tuple[BaseGeometry, MapIndex, CellGrid]] = {}

    def visible(self, encounter: Encounter) -> frozenset[Cell]:
        """The cells the party sees now: in its sight and, on a map that is not bright
        everywhere (``LitMap.drawn``), lit or within its darkvision or blindsight (a cell
        counts when its centre is); a viewer always sees the cells of its own space."""
        fog = encounter.fog
        radius = float(fog.sight_range_feet) if fog.dark else None
        index = self.index_for(encounter)
        cells = self.sight.visible(index, party_viewers(encounter), radius)
        light = self._light(encounter)
        return cells if light is None else cells & light[1]

    def seen_light(self, encounter: Encounter) -> SeenAreas | None:
        """What the party sees bright and dim on a map that is not bright everywhere (see
        ``visible``), or None where light changes nothing (bright, or baked: drawn as is)."""
        light = self._light(encounter)
        return None if light is None else light[0]

    def _light(self, encounter: Encounter) -> tuple[SeenAreas, frozenset[Cell]] | None:
        """``seen_light`` and the cells it sees, kept while the lit areas and the viewers'
        polygons are the same objects."""
        if not lighting_drawn(encounter.lighting):
            return None
        index = self.index_for(encounter)
        lit = LitMap.build(index, encounter, self.lit_areas)
        viewers = party_viewers(encounter)
        views = self._views(encounter)
        brightens = self.light_rules().darkvision_one_level_brighter
        senses = tuple(
            viewer_of(v, index.cell_feet, darkvision_brightens=brightens) for v in viewers
        )
        key: tuple[object, ...] = (index, *lit.areas, None, *views, None, *senses)
        if self._seen is not None and _same(self._seen[0], key):
            return self._seen[1], self._seen[2]
        seen = seen_areas(lit, senses, views, self.seen_memo)
        kept_cells = {id(area) for area in seen.each}
        self._area_cells = {k: v for k, v in self._area_cells.items() if k in kept_cells}
        grid = np.zeros((index.height, index.width), dtype=bool)
        for area in seen.each:  # each viewer's on its own: their union costs more
            grid |= self._cells_of(index, area)
        for viewer in viewers:
            x, y, side = viewer_key(index, viewer)
            rows = slice(max(0, math.floor(y)), max(0, math.ceil(y + side)))
            grid[rows, max(0, math.floor(x)) : max(0, math.ceil(x + side))] = True
        cells = grid_cells(grid)
        self._seen = (key, seen, cells)
        return seen, cells

    def _cells_of(self, index: MapIndex, area: BaseGeometry) -> CellGrid:
        """The cells whose centres ``area`` holds, kept while a viewer's seen area is the
        same object (``SeenMemo`` keeps it while its view and nearby lights are the same)."""
        kept = self._area_cells.get(id(area))
        if kept is not None and kept[0] is area and kept[1] is index:
            return kept[2]
        grid = np.zeros((index.height, index.width), dtype=bool)
        rasterise(area, grid)
        self._area_cells[id(area)] = (area, index, grid)  # the area kept alive: its id stays
        return grid

    def sight_areas(self, encounter: Encounter) -> tuple[BaseGeometry, ...]:
        """Each viewer's visibility polygon (cells), for the players' fog to follow (the
        drawing only: ``visible`` decides which cells are seen); on a map that is not bright
        everywhere, the part of it the viewer sees by light or its senses. Kept per viewer,
        so a move recomputes only the viewers that moved."""
        light = self._light(encounter)
        return self._views(encounter) if light is None else light[0].each

    def _views(self, encounter: Encounter) -> tuple[BaseGeometry, ...]:
        """Each viewer's visibility polygon, in ``party_viewers`` order."""
        fog = encounter.fog
        index = self.index_for(encounter)
        radius = float(fog.sight_range_feet) / index.cell_feet if fog.dark else None
        if self._areas_of is None or self._areas_of[0] is not index or self._areas_of[1] != radius:
            self._areas, self._areas_of = {}, (index, radius)  # a new map or sight range
        keys = [viewer_key(index, viewer) for viewer in party_viewers(encounter)]
        kept = self._areas
        self._areas = {k: kept[k] if k in kept else self._area(index, k, radius) for k in keys}
        return tuple(self._areas[k] for k in keys)

    def _area(self, index: MapIndex, key: ViewerKey, radius: float | None) -> BaseGeometry:
        """A viewer's visibility polygon, from the view its cells are marked by (one sweep)."""
        view = self.sight.view(index, key, radius)
        return polygon_of_view(index, viewer_centre(key), radius, view)

    def explore(self, before: Encounter, after: Encounter) -> Command | None:
        """The fog change that records what the party now sees as explored, or None.

        Asked after every command (a Document follow-up), so a move and the exploring it
        causes are one undo step.
        """
        fog = after.fog
        if not fog.mode.uses_sight:
            return None
        moved = before.creatures != after.creatures or before.walls != after.walls
        if not moved and before.fog.mode is fog.mode and before.grid == after.grid:
            return None
        explored = fog.explored | self.visible(after)
        if explored == fog.explored:
            return None
        new = fog.model_copy(update={"explored": explored})
        return ReplaceEncounterField("fog", fog, new, text="Explore")


def _same(old: tuple[object, ...], new: tuple[object, ...]) -> bool:
    """The same objects (frozen: the same content) in the same order."""
    return len(old) == len(new) and all(a is b or a == b for a, b in zip(old, new, strict=True))
