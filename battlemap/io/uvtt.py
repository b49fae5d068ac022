"""Read Universal VTT maps (``.dd2vtt`` from Dungeondraft, ``.df2vtt`` from DungeonFog,
``.uvtt`` from Dungeon Alchemist and others) into a ``MapImport``.

The format is JSON: ``format`` (0.2 or 0.3), ``resolution`` (``map_origin``, ``map_size`` in
grid cells, ``pixels_per_grid``), ``line_of_sight`` and (0.3) ``objects_line_of_sight``
polylines, ``portals`` (doors and windows), ``lights`` and the map ``image`` in base64.
All coordinates in the file are in grid cells of the *whole* drawing; a cropped export keeps
every wall of the drawing and says where the exported part starts in ``map_origin``. The
reader therefore subtracts the origin, then clips walls, doors and windows to the map
rectangle ``[0, width] x [0, height]`` (a wall lying on the border is kept).

Portals: ``closed: true`` portals become closed doors (block movement and sight);
``closed: false`` portals become windows (block movement, not sight), which is how
Dungeondraft exports windows from format 0.3 on (``closed`` is its "block light" switch).
Format 0.2 exports mark every portal closed, so there a portal in a wall that is shorter than
``WINDOW_MAX_CELLS`` is read as a window: Dungeondraft's doors fill their cell, its window
frames are about three quarters of one (the DM can flip any portal, see ``SwapDoorWindow``).
A portal's ``bounds`` give its two ends; without them the door is one cell wide, centred on
``position`` and turned by ``rotation`` radians.

Files are untrusted: the file size, the declared map size, the number of points and the
image's pixel count (read from its header before decoding) are all bounded, and NaN,
infinite or absurd coordinates are refused with a message naming the file and the field.
"""

from __future__ import annotations

import base64
import binascii
import itertools
import math
from pathlib import Path
from typing import Annotated

import numpy as np
import shapely
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from battlemap.io.bounded import read_bounded
from battlemap.io.errors import FileFormatError, describe_validation_error
from battlemap.io.images import sniff_image
from battlemap.io.map_import import MapImport
from battlemap.model.encounter import MAX_WALLS
from battlemap.model.features import COORD_LIMIT, Light, Point, Wall, WallKind
from battlemap.model.grid import MAX_MAP_CELLS, Grid

MAX_UVTT_BYTES = 128 * 1024 * 1024
"""Largest file read: a base64 image of about 96 MB plus walls."""
MAX_POINTS = 1_000_000
"""Most wall, object and portal points read from one file (the drawing may be far bigger
than the exported map, so this is well above the walls an encounter keeps)."""
SUPPORTED_FORMATS = (0.2, 0.3)
SIMPLIFY_TOLERANCE_CELLS = 0.01
"""Polylines are simplified by at most this distance (under a pixel at any zoom), which
drops duplicate points and the hundreds of tiny steps of traced object outlines."""
DEFAULT_PORTAL_WIDTH_CELLS = 1.0
WINDOW_MAX_CELLS = 0.9
"""In format 0.2 files, a closed portal in a wall shorter than this is a window."""

Coordinate = Annotated[float, Field(allow_inf_nan=False, ge=-COORD_LIMIT, le=COORD_LIMIT)]


class _Point(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)
    x: Coordinate
    y: Coordinate

    def shifted(self, origin: _Point) -> Point:
        return (self.x - origin.x, self.y - origin.y)


class _MapSize(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)
    x: float = Field(gt=0, le=MAX_MAP_CELLS, allow_inf_nan=False)
    y: float = Field(gt=0, le=MAX_MAP_CELLS, allow_inf_nan=False)


class _Resolution(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)
    map_origin: _Point = _Point(x=0, y=0)
    map_size: _MapSize
    pixels_per_grid: float = Field(gt=0, le=10_000, allow_inf_nan=False)


class _Portal(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)
    position: _Point
    bounds: list[_Point] = Field(default=[], max_length=2)
    rotation: float = Field(default=0.0, allow_inf_nan=False, ge=-1000, le=1000)
    closed: bool = True
    freestanding: bool = False


class _Light(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)
    position: _Point
    range: float = Field(default=0.0, ge=0, le=1000, allow_inf_nan=False)
    intensity: float = Field(default=1.0, ge=0, le=100, allow_inf_nan=False)
    color: str = Field(default="ffffffff", pattern=r"^#?([0-9a-fA-F]{6}|[0-9a-fA-F]{8})$")


class _UvttFile(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)
    format: float = Field(allow_inf_nan=False)
    resolution: _Resolution
    line_of_sight: list[list[_Point]] = []
    objects_line_of_sight: list[list[_Point]] = []
    portals: list[_Portal] = []
    lights: list[_Light] = []
    image: str = Field(min_length=1)


def read_uvtt(path: Path) -> MapImport:
    """Read a Universal VTT file.

    Returns:
        The grid (``map_size`` cells, rounded up), walls, doors and windows clipped to the
        map, the lights whose range reaches the map, and the embedded image.

    Raises:
        FileFormatError: naming the file and the field: unreadable, too large, not JSON, an
            unsupported ``format``, a missing or out-of-range field, NaN or absurd
            coordinates, an image that is not a PNG/JPEG/WEBP or has too many pixels.
    """
    data = read_bounded(path, MAX_UVTT_BYTES)
    try:
        raw = _UvttFile.model_validate_json(data)
    except ValidationError as error:
        raise FileFormatError(path, describe_validation_error(error)) from None
    del data
    return _convert(raw, path)


def _convert(raw: _UvttFile, path: Path) -> MapImport:
    if not any(math.isclose(raw.format, known) for known in SUPPORTED_FORMATS):
        known = " or ".join(str(f) for f in SUPPORTED_FORMATS)
        raise FileFormatError(path, f"format: {raw.format} is not a version read ({known})")
    points = sum(len(line) for line in (*raw.line_of_sight, *raw.objects_line_of_sight))
    points += 2 * len(raw.portals)
    if points > MAX_POINTS:
        raise FileFormatError(path, f"{points} wall points, more than the {MAX_POINTS} allowed")
    resolution = raw.resolution
    grid = Grid(
        width=math.ceil(resolution.map_size.x - 1e-9),
        height=math.ceil(resolution.map_size.y - 1e-9),
    )
    origin = resolution.map_origin
    lines = [[p.shifted(origin) for p in line] for line in raw.line_of_sight]
    lines += [_closed([p.shifted(origin) for p in line]) for line in raw.objects_line_of_sight]
    box = (0.0, 0.0, resolution.map_size.x, resolution.map_size.y)
    walls = [Wall(a=a, b=b) for a, b in _clip_segments(_segments(lines), box)]
    for portal in raw.portals:
        ends = _ends(portal, origin)
        kind = _portal_kind(portal, math.dist(*ends), format_version=raw.format)
        walls += [Wall(a=a, b=b, kind=kind) for a, b in _clip_segments([ends], box)]
    if len(walls) > MAX_WALLS:
        raise FileFormatError(
            path, f"{len(walls)} wall segments on the map, more than the {MAX_WALLS} allowed"
        )
    lights = [
        Light(
            position=light.position.shifted(origin),
            range_cells=light.range,
            intensity=light.intensity,
            color="#" + light.color.removeprefix("#").lower().rjust(8, "f"),
        )
        for light in raw.lights
        if _reaches(light.position.shifted(origin), light.range, box)
    ]
    image = _decode_image(raw.image, path)
    info = sniff_image(image, path, field="image")
    return MapImport(
        source=path,
        grid=grid,
        pixels_per_cell=_image_pixels_per_cell(info.width, resolution),
        image=image,
        image_info=info,
        walls=tuple(walls),
        lights=tuple(lights),
    )


def _image_pixels_per_cell(image_width: int, resolution: _Resolution) -> float:
    """``pixels_per_grid``, unless the image was scaled after export: the image always spans
    ``map_size`` cells, so when its width disagrees by more than 1% the cell size is the
    image width over the map width."""
    measured = image_width / resolution.map_size.x
    if abs(measured - resolution.pixels_per_grid) > 0.01 * resolution.pixels_per_grid:
        return measured
    return resolution.pixels_per_grid


def _decode_image(text: str, path: Path) -> bytes:
    if text.startswith("data:"):  # some exporters write a data URL
        text = text.partition(",")[2]
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise FileFormatError(path, "image: not valid base64") from None


def _closed(points: list[Point]) -> list[Point]:
    """An object outline as a closed ring (exporters may leave off the closing point)."""
    if len(points) >= 3 and points[0] != points[-1]:
        return [*points, points[0]]
    return points


def _segments(lines: list[list[Point]]) -> list[tuple[Point, Point]]:
    """Consecutive point pairs of every polyline, after simplifying it."""
    segments: list[tuple[Point, Point]] = []
    for line in lines:
        if len(line) < 2:
            continue
        simplified = shapely.simplify(shapely.linestrings(line), SIMPLIFY_TOLERANCE_CELLS)
        coords = [(float(x), float(y)) for x, y in shapely.get_coordinates(simplified)]
        segments += [(a, b) for a, b in itertools.pairwise(coords) if a != b]
    return segments


def _ends(portal: _Portal, origin: _Point) -> tuple[Point, Point]:
    """A portal's two ends: its bounds, or one cell along its rotation around its position."""
    if len(portal.bounds) == 2 and portal.bounds[0] != portal.bounds[1]:
        return portal.bounds[0].shifted(origin), portal.bounds[1].shifted(origin)
    x, y = portal.position.shifted(origin)
    half = DEFAULT_PORTAL_WIDTH_CELLS / 2
    dx, dy = half * math.cos(portal.rotation), half * math.sin(portal.rotation)
    return (x - dx, y - dy), (x + dx, y + dy)


def _portal_kind(portal: _Portal, length_cells: float, format_version: float) -> WallKind:
    """Door or window (see the module docstring: format 0.2 marks every portal closed)."""
    if not portal.closed:
        return WallKind.WINDOW
    reads_light_blocking = format_version > 0.2 + 1e-9
    if reads_light_blocking or portal.freestanding or length_cells >= WINDOW_MAX_CELLS:
        return WallKind.DOOR
    return WallKind.WINDOW


def _clip_segments(
    segments: list[tuple[Point, Point]], box: tuple[float, float, float, float]
) -> list[tuple[Point, Point]]:
    """The parts of ``segments`` inside the closed rectangle ``box`` (a segment along the
    border is kept; one that only touches it in a point is dropped), endpoints rounded to
    1e-6 cells to remove the intersection's float noise."""
    if not segments:
        return []
    lines = shapely.linestrings(np.asarray(segments, dtype=float))
    clipped = np.asarray(shapely.intersection(lines, shapely.box(*box)))
    kept: list[tuple[Point, Point]] = []
    for part in shapely.get_parts(clipped[~shapely.is_empty(clipped)]):
        if not isinstance(part, shapely.LineString):
            continue
        coords = shapely.get_coordinates(part)
        a = (round(float(coords[0][0]), 6), round(float(coords[0][1]), 6))
        b = (round(float(coords[-1][0]), 6), round(float(coords[-1][1]), 6))
        if a != b:
            kept.append((a, b))
    return kept


def _reaches(position: Point, range_cells: float, box: tuple[float, float, float, float]) -> bool:
    """True when a light's circle touches or overlaps the map rectangle."""
    nearest_x = min(max(position[0], box[0]), box[2])
    nearest_y = min(max(position[1], box[1]), box[3])
    return math.hypot(position[0] - nearest_x, position[1] - nearest_y) <= range_cells
