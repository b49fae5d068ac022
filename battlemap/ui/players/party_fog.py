"""The party's sight for the fog of war: what it sees now, and what it has explored.

Pure Python (no Qt). The map's spatial index is built once per change of the map and kept
between queries, as the geometry layer asks.
"""

from __future__ import annotations

from collections.abc import Callable

from shapely.geometry.base import BaseGeometry

from battlemap.geometry.map_index import MapIndex
from battlemap.geometry.party_sight import PartySight, ViewerKey, viewer_key
from battlemap.geometry.sight import visibility_polygon
from battlemap.model.creature import Creature, Side
from battlemap.model.document import Command, ReplaceEncounterField
from battlemap.model.encounter import Encounter
from battlemap.model.fog import Cell


def party_viewers(encounter: Encounter) -> list[Creature]:
    """Party members who can look around: on the party's side, conscious, and not hidden
    from the players (a hidden one's sight would show where it stands)."""
    return [c for c in encounter.creatures if c.side is Side.PARTY and c.hp > 0 and not c.hidden]


class PartyFog:
    """``index_for`` gives the map index of the encounter asked about; the UI passes the
    window's shared one (built once per map change for drag, targeting and fog alike)."""

    def __init__(self, index_for: Callable[[Encounter], MapIndex] = MapIndex.build) -> None:
        self.index_for = index_for
        self.sight = PartySight()
        """Each viewer's cells, kept so a move recomputes only the viewers that moved."""
        self._areas: dict[ViewerKey, BaseGeometry] = {}
        self._areas_of: tuple[MapIndex, float | None] | None = None

    def visible(self, encounter: Encounter) -> frozenset[Cell]:
        fog = encounter.fog
        radius = float(fog.sight_range_feet) if fog.dark else None
        index = self.index_for(encounter)
        return self.sight.visible(index, party_viewers(encounter), radius)

    def sight_areas(self, encounter: Encounter) -> tuple[BaseGeometry, ...]:
        """Each viewer's visibility polygon (cells), for the players' fog to follow (the
        drawing only: ``visible`` decides which cells are seen). Kept per viewer, so a move
        recomputes only the viewers that moved."""
        fog = encounter.fog
        index = self.index_for(encounter)
        radius = float(fog.sight_range_feet) / index.cell_feet if fog.dark else None
        if self._areas_of is None or self._areas_of[0] is not index or self._areas_of[1] != radius:
            self._areas, self._areas_of = {}, (index, radius)  # a new map or sight range
        keys = [viewer_key(index, viewer) for viewer in party_viewers(encounter)]
        kept = self._areas
        self._areas = {k: kept[k] if k in kept else _area(index, k, radius) for k in keys}
        return tuple(self._areas.values())

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


def _area(index: MapIndex, key: ViewerKey, radius: float | None) -> BaseGeometry:
    x, y, side = key
    return visibility_polygon(index, (x + side / 2, y + side / 2), radius)
