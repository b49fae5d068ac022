"""A map read from a file (Universal VTT or a plain image) and the command that applies it.

Importing is two steps so the io layer stays pure: a reader returns a ``MapImport`` value
(grid, background, walls, lights and the image bytes); the UI stores the bytes with
``Document.add_image`` and pushes the ``ReplaceMap`` command that ``MapImport.command`` builds,
so one undo step takes the whole import back.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from battlemap.io.errors import FileFormatError
from battlemap.io.images import ImageInfo, read_image_file
from battlemap.model.document import Command
from battlemap.model.encounter import Background, Encounter
from battlemap.model.features import Light, MapLighting, Wall
from battlemap.model.grid import Grid
from battlemap.model.limits import (
    MAX_LIGHTS,
    MAX_MAP_CELLS,
    MAX_PIXELS_PER_CELL,
    MAX_WALLS,
    MIN_PIXELS_PER_CELL,
)
from battlemap.model.map_margin import clip_walls, cut_features

DEFAULT_IMAGE_PIXELS_PER_CELL = 100
"""Cell size guessed for a plain image until the DM aligns the grid (Roll20 uses 70,
Dungeondraft 256, many battle-map artists 100 or 140)."""

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp")
UVTT_SUFFIXES = (".dd2vtt", ".uvtt", ".df2vtt")


@dataclass(frozen=True)
class ReplaceMap(Command):
    """Replace several map fields of the encounter at once (grid, background, walls...).

    ``fields`` holds ``(name, old, new)`` triples; apply sets every ``new``, revert every
    ``old``. Creatures are left where they are.
    """

    fields: tuple[tuple[str, object, object], ...]
    text: str = "Import map"

    def apply(self, encounter: Encounter) -> Encounter:
        return encounter.model_copy(update={name: new for name, _old, new in self.fields})

    def revert(self, encounter: Encounter) -> Encounter:
        return encounter.model_copy(update={name: old for name, old, _new in self.fields})


@dataclass(frozen=True)
class MapImport:
    """A map read from ``source``, ready to become part of an encounter.

    ``walls`` and ``lights`` are None for a plain image: importing it keeps the encounter's
    walls, obstacles, terrain and lights and only lays the picture under a resized grid.
    """

    source: Path
    grid: Grid
    pixels_per_cell: float
    image: bytes
    image_info: ImageInfo
    walls: tuple[Wall, ...] | None = None
    lights: tuple[Light, ...] | None = None
    lighting: MapLighting | None = None
    """The map's ambient light and baked lighting (Universal VTT); None: keep the encounter's."""

    def __post_init__(self) -> None:
        """Refuse, naming the file and the field, a map more than an encounter keeps: it
        would import and save, and then the saved file would not reopen.

        Raises:
            FileFormatError: too many walls or lights on the map, or cells of fewer or more image
                pixels than a background keeps.
        """
        for field_name, items, limit in (
            ("walls", self.walls, MAX_WALLS),
            ("lights", self.lights, MAX_LIGHTS),
        ):
            if items is not None and len(items) > limit:
                raise FileFormatError(
                    self.source,
                    f"{field_name}: {len(items)} on the map, more than the {limit} an "
                    "encounter keeps",
                )
        if not MIN_PIXELS_PER_CELL <= self.pixels_per_cell <= MAX_PIXELS_PER_CELL:
            raise FileFormatError(
                self.source,
                f"resolution: a cell of {self.pixels_per_cell:g} image pixels; cells may be "
                f"{MIN_PIXELS_PER_CELL:g} to {MAX_PIXELS_PER_CELL:g} pixels",
            )

    def background(self, image_name: str) -> Background:
        """The background for this map once its image is stored under ``image_name``."""
        return Background(image=image_name, pixels_per_cell=self.pixels_per_cell)

    def command(self, encounter: Encounter, image_name: str) -> ReplaceMap:
        """The undoable command that puts this map into ``encounter``.

        A Universal VTT import replaces the walls and lights and clears the obstacles and
        terrain drawn for the old map; an image import replaces only grid and background
        (and cuts walls, obstacles and terrain past the new map's margin).
        The grid keeps the encounter's ``cell_feet``.
        """
        grid = self.grid.model_copy(update={"cell_feet": encounter.grid.cell_feet})
        new: dict[str, object] = {"grid": grid, "background": self.background(image_name)}
        if self.walls is not None:
            new |= {"walls": clip_walls(self.walls, grid), "obstacles": (), "terrain": ()}
        else:  # a smaller map cuts the features past its margin, as on load
            new |= cut_features(encounter.walls, encounter.obstacles, encounter.terrain, grid)
        if self.lights is not None:
            new["lights"] = self.lights
        if self.lighting is not None:
            new["lighting"] = self.lighting
        fields = tuple((name, getattr(encounter, name), value) for name, value in new.items())
        return ReplaceMap(fields, text=f"Import map {self.source.name}")


def grid_for_image(width: int, height: int, pixels_per_cell: float) -> Grid:
    """The grid that covers an image of ``width`` x ``height`` pixels.

    A partial cell at the right or bottom edge counts as a cell (rounded up), and each side
    is clamped to ``1..MAX_MAP_CELLS``.
    """

    def cells(pixels: int) -> int:
        return max(1, min(MAX_MAP_CELLS, -(-pixels // max(1, round(pixels_per_cell)))))

    return Grid(width=cells(width), height=cells(height))


def import_image_map(
    path: Path, pixels_per_cell: float = DEFAULT_IMAGE_PIXELS_PER_CELL
) -> MapImport:
    """Read a PNG, JPEG or WEBP file as a map background.

    Raises:
        FileFormatError: unreadable file, not an image, or an image too large (checked from
            its header before any decoding).
    """
    data, info = read_image_file(path)
    return MapImport(
        source=path,
        grid=grid_for_image(info.width, info.height, pixels_per_cell),
        pixels_per_cell=pixels_per_cell,
        image=data,
        image_info=info,
    )


MIN_ALIGNED_PIXELS_PER_CELL = 4.0


def align_grid(
    background: Background,
    image_size: tuple[int, int],
    first: tuple[float, float],
    second: tuple[float, float],
    cells: int,
    grid: Grid,
) -> tuple[Background, Grid]:
    """The background and grid that put grid corners on two clicked image pixels.

    Args:
        first, second: two grid corners the DM clicked, in image pixels.
        cells: how many cells lie between them along the axis where they are further apart;
            along the other axis the count is whatever the resulting cell size makes it
            (0 when they are on one grid line, which then gives no size information).
        grid: the current grid; its ``cell_feet`` is kept.

    Returns:
        ``pixels_per_cell`` = the mean cell size measured on the axes that have cells
        between the corners; ``offset_x/y`` = the first grid line at or right of / below the
        image's edge (in ``[0, pixels_per_cell)``); a grid covering the image from there,
        a partial cell of 5% or less at the right/bottom edge dropped.

    Raises:
        ValueError: ``cells`` < 1, or a cell smaller than ``MIN_ALIGNED_PIXELS_PER_CELL``.
    """
    if cells < 1:
        raise ValueError(f"cells between the corners must be at least 1, not {cells}")
    spans = (abs(second[0] - first[0]), abs(second[1] - first[1]))
    major = max(spans)
    rough = major / cells
    if rough < MIN_ALIGNED_PIXELS_PER_CELL:
        raise ValueError(
            f"the corners are {major:.0f} pixels apart: less than "
            f"{MIN_ALIGNED_PIXELS_PER_CELL:.0f} pixels per cell"
        )
    sizes = [span / round(span / rough) for span in spans if round(span / rough) >= 1]
    pixels_per_cell = sum(sizes) / len(sizes)
    offset_x, offset_y = (first[0] % pixels_per_cell, first[1] % pixels_per_cell)

    def cells_across(pixels: int, offset: float) -> int:
        count = math.ceil((pixels - offset) / pixels_per_cell - 0.05)
        return max(1, min(MAX_MAP_CELLS, count))

    aligned = background.model_copy(
        update={"pixels_per_cell": pixels_per_cell, "offset_x": offset_x, "offset_y": offset_y}
    )
    new_grid = grid.model_copy(
        update={
            "width": cells_across(image_size[0], offset_x),
            "height": cells_across(image_size[1], offset_y),
        }
    )
    return aligned, new_grid
