"""The map's drawn features in a scene, updated item by item rather than rebuilt.

Both the DM's and the players' scenes keep one ``MapLayer``. A change to one obstacle or
terrain region replaces that feature's item only; all walls share one item, restroked when
any wall changes, so drawing and redrawing a map with thousands of walls stays quick.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtWidgets import QGraphicsItem, QGraphicsScene

from battlemap.model.features import Obstacle, TerrainRegion, Wall
from battlemap.model.grid import Grid
from battlemap.model.ids import EntityId
from battlemap.ui.map_items import GridItem, WallsItem, obstacle_item, terrain_item

Feature = Obstacle | TerrainRegion


class MapLayer:
    def __init__(self, scene: QGraphicsScene, tooltips: bool = True) -> None:
        self.scene = scene
        self.tooltips = tooltips
        self.grid_item: GridItem | None = None
        self.walls_item = WallsItem()
        scene.addItem(self.walls_item)
        self._walls: tuple[Wall, ...] = ()
        self._features: dict[EntityId, tuple[Feature, QGraphicsItem]] = {}

    def sync(
        self,
        grid: Grid,
        paper: bool,
        terrain: Sequence[TerrainRegion],
        obstacles: Sequence[Obstacle],
        walls: Sequence[Wall],
    ) -> None:
        """Make the scene show exactly these features, touching only what changed."""
        redraw_walls = False
        if self.grid_item is None or (self.grid_item.grid, self.grid_item.paper) != (grid, paper):
            if self.grid_item is not None:
                self.scene.removeItem(self.grid_item)
            self.grid_item = GridItem(grid, paper=paper)
            self.scene.addItem(self.grid_item)
            redraw_walls = True
        if tuple(walls) != self._walls:
            self._walls = tuple(walls)
            self.walls_item.set_walls(self._walls)
            redraw_walls = True
        # With nothing stacked between them, the grid draws the walls into its own pixmaps.
        merged = not terrain and not obstacles
        if redraw_walls or merged != (self.grid_item.walls is not None):
            self.grid_item.draw_walls(self.walls_item if merged else None)
            self.walls_item.setVisible(not merged)
        builders: list[tuple[Sequence[Feature], Callable[..., QGraphicsItem]]] = [
            (terrain, terrain_item),
            (obstacles, obstacle_item),
        ]
        wanted: dict[EntityId, Feature] = {}
        for features, _ in builders:
            wanted.update((feature.id, feature) for feature in features)
        for feature_id in list(self._features):
            kept = wanted.get(feature_id)
            if kept is None or kept != self._features[feature_id][0]:
                self.scene.removeItem(self._features.pop(feature_id)[1])
        for features, build in builders:
            for feature in features:
                if feature.id not in self._features:
                    item = build(feature)
                    if not self.tooltips:
                        item.setToolTip("")
                    self.scene.addItem(item)
                    self._features[feature.id] = (feature, item)

    def item_for(self, feature_id: EntityId) -> QGraphicsItem | None:
        """The item drawing an obstacle or terrain region (walls share ``walls_item``)."""
        entry = self._features.get(feature_id)
        return entry[1] if entry else None
