"""Read Universal VTT maps (``.dd2vtt`` from Dungeondraft, ``.df2vtt`` from DungeonFog,
``.uvtt`` from Dungeon Alchemist, Arkenforge and others) into a ``MapImport``.

The format is JSON: ``format`` (0.2, 0.3 or 1.0), ``resolution`` (``map_origin``, ``map_size``
in grid cells, ``pixels_per_grid``), ``line_of_sight`` and (0.3) ``objects_line_of_sight``
polylines, ``portals`` (doors and windows), ``lights``, ``environment`` (``ambient_light``
and ``baked_lighting``) and the map ``image`` in base64. A light's ``range`` is its bright
radius, its dim light reaching twice as far (``model.features.uvtt_light_radii``).
Format 1.0 (Arkenforge) has the same fields; its ``image`` may instead be the path of an image
file, relative to the map file (see ``read_uvtt``'s ``find_image``).
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

Files are untrusted: the file size, the number of JSON objects and values (counted in the
bytes before parsing), the declared map size, the cell size and the image's pixel count (read
from its header before decoding) are all bounded, and NaN, infinite or absurd coordinates are
refused with a message naming the file and the field. Polylines are cut into pieces before
GEOS simplifies them (its recursive simplifier overflows the stack on a 100,000-point line).
"""

from __future__ import annotations

import base64
import binascii
import itertools
import math
import operator
from collections.abc import Callable
from pathlib import Path, PureWindowsPath
from typing import Annotated, Any

import numpy as np
import numpy.typing as npt
import pydantic_core
import shapely
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError
from typing_extensions import TypedDict

from battlemap.io.bounded import check_json_size, read_bounded
from battlemap.io.errors import FileFormatError, describe_validation_error
from battlemap.io.images import ImageInfo, read_image_file, sniff_image
from battlemap.io.json_kind import MAX_UVTT_BYTES as MAX_UVTT_BYTES  # its home: see there
from battlemap.io.map_import import IMAGE_SUFFIXES, MapImport
from battlemap.model.encounter import MAX_WALLS
from battlemap.model.features import (
    COORD_LIMIT,
    Coordinate,
    Light,
    LightLevel,
    MapLighting,
    Point,
    Wall,
    WallKind,
    uvtt_light_radii,
)
from battlemap.model.grid import MAX_MAP_CELLS, Grid
from battlemap.model.ids import new_ids
from battlemap.model.limits import (
    MAX_LIGHT_INTENSITY,
    MAX_LIGHT_RANGE_CELLS,
    MAX_LIGHTS,
    MAX_PIXELS_PER_CELL,
)

MAX_JSON_OBJECTS = 300_000
"""Most ``{...}`` objects in one file: every wall point is one, a portal four, a light two.
The drawing may be far bigger than the exported map, so this is well above the walls an
encounter keeps; it also keeps the parse of any file admitted under a second."""
MAX_JSON_VALUES = 4 * MAX_JSON_OBJECTS
"""Most commas (so JSON values) in one file: a point has two, the base64 image none."""
MAX_PORTALS = 10_000
"""Most doors and windows in a file: real maps have tens. Each is read as a model, so this
keeps a file of them under a second; lights are bounded by the lights an encounter keeps."""
SUPPORTED_FORMATS = (0.2, 0.3, 1.0)
MIN_MAP_CELLS = 1.0
SIMPLIFY_TOLERANCE_CELLS = 0.01
"""Polylines are simplified by at most this distance (under a pixel at any zoom), which
drops duplicate points and the hundreds of tiny steps of traced object outlines."""
SIMPLIFY_PIECE_POINTS = 200
"""Polylines are simplified in pieces of at most this many points (sharing their ends):
Douglas-Peucker is quadratic on a zig-zag and GEOS recurses once per point."""
DEFAULT_PORTAL_WIDTH_CELLS = 1.0
WINDOW_MAX_CELLS = 0.9
"""In format 0.2 files, a closed portal in a wall shorter than this is a window."""
MAX_IMAGE_NAME_CHARS = 1000
BORDER_SNAP_CELLS = 1e-4
"""Wall ends this close to the map's border are on it: exporters that compute in 32-bit
floats (Arkenforge) write 4.0000005 for the east wall of a 4-cell map, which would lie
outside the map and be dropped."""

FindImage = Callable[[Path, str], Path | None]
"""Asked for the image file of a map whose ``image`` names a file that is not there: gets the
map file and the name written in it, returns the image file to use or None to give up."""


class _Xy(TypedDict):
    """A polyline point, for the message when the fast check finds a malformed one."""

    x: Coordinate
    y: Coordinate


_Polyline = Annotated[list[_Xy], Field(fail_fast=True)]
_POLYLINES = TypeAdapter(Annotated[list[_Polyline], Field(fail_fast=True)])
_xy = operator.itemgetter("x", "y")

Points = tuple[npt.NDArray[np.float64], npt.NDArray[np.intp]]
"""Polylines as all their points, ``(n, 2)``, and each polyline's number of points."""


_Point = _Xy  # a dict, not a model: reading 10,000 portals' 40,000 points as models is slow


def _shifted(point: _Point, origin: _Point) -> Point:
    return (point["x"] - origin["x"], point["y"] - origin["y"])


class _MapSize(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)
    x: float = Field(ge=MIN_MAP_CELLS, le=MAX_MAP_CELLS, allow_inf_nan=False)
    y: float = Field(ge=MIN_MAP_CELLS, le=MAX_MAP_CELLS, allow_inf_nan=False)


class _Resolution(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)
    map_origin: _Point = Field(default_factory=lambda: _Point(x=0, y=0))
    map_size: _MapSize
    pixels_per_grid: float = Field(gt=0, le=MAX_PIXELS_PER_CELL, allow_inf_nan=False)


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
    range: float = Field(default=0.0, ge=0, le=MAX_LIGHT_RANGE_CELLS, allow_inf_nan=False)
    intensity: float = Field(default=1.0, ge=0, le=MAX_LIGHT_INTENSITY, allow_inf_nan=False)
    color: str = Field(default="ffffffff", pattern=r"^#?([0-9a-fA-F]{6}|[0-9a-fA-F]{8})$")


class _Environment(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)
    baked_lighting: bool = False
    ambient_light: str = Field(default="ffffffff", pattern=r"^#?([0-9a-fA-F]{6}|[0-9a-fA-F]{8})$")


AMBIENT_BRIGHT_LUMINANCE = 0.6
AMBIENT_DIM_LUMINANCE = 0.2
"""An ambient light colour whose relative luminance (sRGB weights, times its alpha) is at
least 0.6 lights the map bright (white, daylight), at least 0.2 dim (dusk, a lit cave); below
it the map is dark (night, an unlit dungeon)."""


def _lighting(environment: _Environment) -> MapLighting:
    """The map's light from ``environment`` (colours are ``aarrggbb`` or ``rrggbb``)."""
    argb = environment.ambient_light.removeprefix("#").lower().rjust(8, "f")
    alpha, red, green, blue = (int(argb[i : i + 2], 16) / 255 for i in range(0, 8, 2))
    luminance = alpha * (0.2126 * red + 0.7152 * green + 0.0722 * blue)
    if luminance >= AMBIENT_BRIGHT_LUMINANCE:
        ambient = LightLevel.BRIGHT
    elif luminance >= AMBIENT_DIM_LUMINANCE:
        ambient = LightLevel.DIM
    else:
        ambient = LightLevel.DARK
    return MapLighting(ambient=ambient, baked_lighting=environment.baked_lighting)


class _UvttFile(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)
    format: float = Field(allow_inf_nan=False)
    resolution: _Resolution
    # Checked with numpy by _polyline_points: 300,000 points as models take over a second.
    line_of_sight: list[Any] = []
    objects_line_of_sight: list[Any] = []
    portals: list[_Portal] = Field(default=[], fail_fast=True)
    lights: list[_Light] = Field(default=[], fail_fast=True)
    image: str = Field(min_length=1)
    environment: _Environment = Field(default_factory=lambda: _Environment())


def read_uvtt(path: Path, find_image: FindImage | None = None) -> MapImport:
    """Read a Universal VTT file.

    Args:
        find_image: for a file whose ``image`` is a file name (format 1.0) that is found
            neither as written (relative to the map's folder) nor by its bare name beside the
            map: asked for the image file (the UI shows a file dialog). Without it, or when
            it returns None, the map is refused naming the missing image.

    Returns:
        The grid (``map_size`` cells, rounded up), walls, doors and windows clipped to the
        map, the lights whose range reaches the map, and the image.

    Raises:
        FileFormatError: naming the file and the field: unreadable, too large, too many JSON
            objects or values, not JSON, an unsupported ``format``, a missing or out-of-range
            field, NaN or absurd coordinates, an image that is not a PNG/JPEG/WEBP, has too
            many pixels or too many for one cell, an image file that is not there.
    """
    data = read_bounded(path, MAX_UVTT_BYTES)
    check_json_size(
        data,
        path,
        max_objects=MAX_JSON_OBJECTS,
        max_values=MAX_JSON_VALUES,
        holder="a map",
        objects="wall points, portals, lights",
    )
    try:
        parsed = pydantic_core.from_json(data)
    except ValueError as error:
        raise FileFormatError(path, f"Invalid JSON: {error}") from None
    del data
    _check_counts(parsed, path)
    try:
        raw = _UvttFile.model_validate(parsed)
    except ValidationError as error:
        raise FileFormatError(path, describe_validation_error(error)) from None
    return _convert(raw, path, find_image)


def _check_counts(parsed: object, path: Path) -> None:
    """Refuse more portals or lights than a map may have before reading them as models (a
    second per 20,000 or so)."""
    if not isinstance(parsed, dict):
        return  # the model says what it should be
    for field, limit, holder in (
        ("portals", MAX_PORTALS, "a map may have"),
        ("lights", MAX_LIGHTS, "an encounter keeps"),
    ):
        items = parsed.get(field)
        if isinstance(items, list) and len(items) > limit:
            raise FileFormatError(
                path, f"{field}: {len(items)} in the file, more than the {limit} {holder}"
            )


def _convert(raw: _UvttFile, path: Path, find_image: FindImage | None) -> MapImport:
    if not any(math.isclose(raw.format, known) for known in SUPPORTED_FORMATS):
        known = ", ".join(str(f) for f in SUPPORTED_FORMATS)
        raise FileFormatError(path, f"format: {raw.format} is not a version read ({known})")
    resolution = raw.resolution
    image_file = _image_file_name(raw.image)
    # An embedded image is checked before the walls, so a bad one is refused at once; the DM
    # is asked for an image file only once the rest of the map has been read.
    embedded = None if image_file else _embedded_image(raw.image, path)
    grid = Grid(
        width=math.ceil(resolution.map_size.x - 1e-9),
        height=math.ceil(resolution.map_size.y - 1e-9),
    )
    origin = resolution.map_origin
    box = (0.0, 0.0, resolution.map_size.x, resolution.map_size.y)
    segments = _segments(
        _polyline_points(raw.line_of_sight, "line_of_sight", path),
        _closed(_polyline_points(raw.objects_line_of_sight, "objects_line_of_sight", path)),
        origin,
    )
    lines, _ = _clip_segments(segments, box)
    portal_ends = [_ends(p, origin) for p in raw.portals]
    portals, kept = _clip_segments(_as_segments(portal_ends), box)
    if len(lines) + len(portals) > MAX_WALLS:
        raise FileFormatError(
            path,
            f"{len(lines) + len(portals)} wall segments on the map, more than the "
            f"{MAX_WALLS} allowed",
        )
    kinds = [WallKind.WALL] * len(lines)
    for index in kept.tolist():
        length = math.dist(*portal_ends[index])
        kinds.append(_portal_kind(raw.portals[index], length, format_version=raw.format))
    walls = _walls(np.concatenate([lines, portals]).reshape(-1, 2, 2), kinds)
    image, info = embedded or _image_from_file(path, image_file or "", find_image)
    lights = [
        Light(
            position=_shifted(light.position, origin),
            bright_cells=bright,
            dim_cells=dim,
            intensity=light.intensity,
            color="#" + light.color.removeprefix("#").lower().rjust(8, "f"),
        )
        for light in raw.lights
        for bright, dim in [uvtt_light_radii(light.range)]
        if _reaches(_shifted(light.position, origin), dim, box)
    ]
    return MapImport(
        source=path,
        grid=grid,
        pixels_per_cell=_image_pixels_per_cell(info.width, resolution, path),
        image=image,
        image_info=info,
        walls=tuple(walls),
        lights=tuple(lights),
        lighting=_lighting(raw.environment),
    )


_WALLS = TypeAdapter(list[Wall])


def _walls(segments: Segments, kinds: list[WallKind]) -> list[Wall]:
    """Walls along ``segments``, validated in one call to pydantic's core (50,000 one by one
    take most of a second)."""
    ids = new_ids("wall", len(kinds))
    return _WALLS.validate_python(
        [
            {"id": wall_id, "a": (ax, ay), "b": (bx, by), "kind": kind}
            for wall_id, ((ax, ay), (bx, by)), kind in zip(
                ids, segments.tolist(), kinds, strict=True
            )
        ]
    )


def _image_pixels_per_cell(image_width: int, resolution: _Resolution, path: Path) -> float:
    """``pixels_per_grid``, unless the image was scaled after export: the image always spans
    ``map_size`` cells, so when its width disagrees by more than 1% the cell size is the
    image width over the map width."""
    measured = image_width / resolution.map_size.x
    if abs(measured - resolution.pixels_per_grid) <= 0.01 * resolution.pixels_per_grid:
        return resolution.pixels_per_grid
    if measured > MAX_PIXELS_PER_CELL:
        raise FileFormatError(
            path,
            f"resolution.map_size.x: an image {image_width} pixels wide over "
            f"{resolution.map_size.x:g} cells is {measured:.0f} pixels per cell, more than "
            f"the {MAX_PIXELS_PER_CELL:.0f} allowed",
        )
    return measured


def _embedded_image(text: str, path: Path) -> tuple[bytes, ImageInfo]:
    data = _decode_image(text, path)
    return data, sniff_image(data, path, field="image")


def _image_from_file(
    path: Path, name: str, find_image: FindImage | None
) -> tuple[bytes, ImageInfo]:
    """The image (format 1.0) in the file ``name`` that the map ``path`` names."""
    image_path = _image_file(path, name, find_image)
    try:
        return read_image_file(image_path)
    except FileFormatError as error:
        raise FileFormatError(path, f"image: {image_path}: {error.problem}") from None


def _image_file_name(text: str) -> str | None:
    """The file name ``image`` holds instead of data, or None. A name ends in an image
    suffix; base64 never holds a dot."""
    name = text.strip()
    if len(name) <= MAX_IMAGE_NAME_CHARS and name.lower().endswith(IMAGE_SUFFIXES):
        return name
    return None


def _image_file(path: Path, name: str, find_image: FindImage | None) -> Path:
    """The image file ``name`` beside the map ``path``: as written if that stays inside the
    map's folder, else by its bare file name there (a Windows path from another machine);
    otherwise whatever ``find_image`` answers. Absolute paths and paths leaving the folder
    are never read unasked: a downloaded map must not show a private picture on the TV."""
    folder = path.parent.resolve()
    written = (folder / name).resolve()
    for candidate in (written, folder / PureWindowsPath(name).name):
        if candidate.is_relative_to(folder) and candidate.is_file():
            return candidate
    chosen = find_image(path, name) if find_image is not None else None
    if chosen is None:
        raise FileFormatError(
            path,
            f"image: the map's image file '{name[:200]}' is not in {folder}; put it there, "
            "or import the map from File > Import map, which asks for it",
        )
    return chosen


def _decode_image(text: str, path: Path) -> bytes:
    if text.startswith("data:"):  # some exporters write a data URL
        text = text.partition(",")[2]
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise FileFormatError(path, "image: not valid base64") from None


Segments = npt.NDArray[np.float64]
"""Segments as an ``(n, 2, 2)`` array: segment, end (a or b), coordinate (x or y)."""


def _polyline_points(lines: list[Any], field: str, path: Path) -> Points:
    """The points of the polylines ``lines`` (lists of ``{"x": ..., "y": ...}``) as arrays,
    checked in numpy: every coordinate a finite number within ``COORD_LIMIT``.

    Raises:
        FileFormatError: naming the field down to the point and coordinate
            (``line_of_sight.3.17.x``) and what is wrong.
    """
    try:
        sizes = np.fromiter(map(len, lines), dtype=np.intp, count=len(lines))
        points = map(_xy, itertools.chain.from_iterable(lines))
        flat = np.fromiter(
            itertools.chain.from_iterable(points), dtype=float, count=2 * sizes.sum()
        )
    except (TypeError, KeyError, ValueError, OverflowError):
        # Something not a list of points of numbers: pydantic says where and what.
        try:
            lines = _POLYLINES.validate_python(lines)
        except ValidationError as error:
            problem = error.errors()[0]
            where = ".".join(str(part) for part in (field, *problem["loc"]))
            raise FileFormatError(path, f"{where}: {problem['msg']}") from None
        return _polyline_points(lines, field, path)  # numbers pydantic reads and numpy did not
    coords = flat.reshape(-1, 2)
    good = np.isfinite(coords) & (np.abs(coords) <= COORD_LIMIT)
    if not good.all():
        point, axis = np.argwhere(~good)[0]
        line = int(np.searchsorted(np.cumsum(sizes), point, side="right"))
        index = point - (np.cumsum(sizes)[line] - sizes[line])
        raise FileFormatError(
            path,
            f"{field}.{line}.{index}.{'xy'[axis]}: {float(coords[point, axis]):g} is not a finite "
            f"number within ±{COORD_LIMIT:g}",
        )
    return coords, sizes


def _closed(outlines: Points) -> Points:
    """Object outlines as closed rings: exporters may leave off the closing point."""
    coords, sizes = outlines
    starts = np.cumsum(sizes) - sizes
    rings = np.flatnonzero(sizes >= 3)
    first, last = coords[starts[rings]], coords[starts[rings] + sizes[rings] - 1]
    opened = rings[np.any(first != last, axis=1)]
    ends = starts[opened] + sizes[opened]
    closed_sizes = sizes.copy()
    closed_sizes[opened] += 1
    return np.insert(coords, ends, coords[starts[opened]], axis=0), closed_sizes


def _segments(lines: Points, outlines: Points, origin: _Point) -> Segments:
    """Consecutive point pairs of every polyline after simplifying it, shifted by ``origin``,
    in the file's order (``lines``, then ``outlines``); zero-length ones dropped; polylines of
    fewer than two points dropped.

    Polylines are cut in pieces of at most ``SIMPLIFY_PIECE_POINTS`` points sharing their
    ends; pieces of two points are segments already, the others go to GEOS in one call."""
    coords = np.concatenate([lines[0], outlines[0]]).reshape(-1, 2) - (origin["x"], origin["y"])
    sizes = np.concatenate([lines[1], outlines[1]]).astype(np.intp)
    step = SIMPLIFY_PIECE_POINTS - 1
    starts = np.cumsum(sizes) - sizes
    counts = np.where(sizes >= 2, (sizes - 2) // step + 1, 0)
    of_line = np.repeat(np.arange(len(sizes)), counts)
    nth = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
    piece_starts = starts[of_line] + step * nth
    piece_sizes = np.minimum(step + 1, sizes[of_line] - step * nth)
    short = np.flatnonzero(piece_sizes == 2)
    long = np.flatnonzero(piece_sizes > 2)
    long_sizes = piece_sizes[long]
    offsets = np.arange(long_sizes.sum()) - np.repeat(
        np.cumsum(long_sizes) - long_sizes, long_sizes
    )
    points = np.repeat(piece_starts[long], long_sizes) + offsets
    pieces = shapely.linestrings(
        coords[points], indices=np.repeat(np.arange(len(long)), long_sizes)
    )
    # Douglas-Peucker: preserving topology costs seconds on a zig-zag and guards nothing here
    # (a wall crossing itself is still a wall).
    simplified = shapely.simplify(pieces, SIMPLIFY_TOLERANCE_CELLS, preserve_topology=False)
    kept, index = shapely.get_coordinates(simplified, return_index=True)
    same_piece = index[1:] == index[:-1]
    a = np.concatenate([coords[piece_starts[short]], kept[:-1][same_piece]])
    b = np.concatenate([coords[piece_starts[short] + 1], kept[1:][same_piece]])
    order = np.argsort(np.concatenate([short, long[index[:-1][same_piece]]]), kind="stable")
    a, b = a[order], b[order]
    moves = np.any(a != b, axis=1)
    return np.stack([a[moves], b[moves]], axis=1)


def _as_segments(ends: list[tuple[Point, Point]]) -> Segments:
    return np.asarray(ends, dtype=float).reshape(-1, 2, 2)


def _ends(portal: _Portal, origin: _Point) -> tuple[Point, Point]:
    """A portal's two ends: its bounds, or one cell along its rotation around its position."""
    if len(portal.bounds) == 2 and portal.bounds[0] != portal.bounds[1]:
        return _shifted(portal.bounds[0], origin), _shifted(portal.bounds[1], origin)
    x, y = _shifted(portal.position, origin)
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
    segments: Segments, box: tuple[float, float, float, float]
) -> tuple[Segments, npt.NDArray[np.intp]]:
    """The parts of ``segments`` inside the closed rectangle ``box`` (a segment along the
    border is kept; one that only touches it in a point is dropped), endpoints rounded to
    1e-6 cells to remove the intersection's float noise, with the index of the segment each
    part came from. Only segments that cross the border go to GEOS. Ends within
    ``BORDER_SNAP_CELLS`` of the border are moved onto it first."""
    segments = segments.copy()
    for axis, low, high in ((0, box[0], box[2]), (1, box[1], box[3])):
        values = segments[:, :, axis]
        values[np.abs(values - low) <= BORDER_SNAP_CELLS] = low
        values[np.abs(values - high) <= BORDER_SNAP_CELLS] = high
    x, y = segments[:, :, 0], segments[:, :, 1]
    away = np.all(x < box[0], axis=1) | np.all(x > box[2], axis=1)
    away |= np.all(y < box[1], axis=1) | np.all(y > box[3], axis=1)
    inside = np.all((x >= box[0]) & (x <= box[2]) & (y >= box[1]) & (y <= box[3]), axis=1)
    a, b, keep = segments[:, 0].copy(), segments[:, 1].copy(), inside.copy()
    crossing = np.flatnonzero(~inside & ~away)
    lines = shapely.linestrings(segments[crossing])
    clipped = np.asarray(shapely.intersection(lines, shapely.box(*box)))
    is_line = (shapely.get_type_id(clipped) == 1) & ~shapely.is_empty(clipped)
    rows = crossing[is_line]
    if len(rows):
        coords, index = shapely.get_coordinates(clipped[is_line], return_index=True)
        first = np.r_[0, np.flatnonzero(np.diff(index)) + 1]
        last = np.r_[first[1:] - 1, len(index) - 1]
        a[rows], b[rows], keep[rows] = coords[first], coords[last], True
    a, b = np.round(a, 6), np.round(b, 6)
    kept = np.flatnonzero(keep & np.any(a != b, axis=1))
    return np.stack([a[kept], b[kept]], axis=1), kept


def _reaches(position: Point, range_cells: float, box: tuple[float, float, float, float]) -> bool:
    """True when a light's circle touches or overlaps the map rectangle."""
    nearest_x = min(max(position[0], box[0]), box[2])
    nearest_y = min(max(position[1], box[1]), box[3])
    return math.hypot(position[0] - nearest_x, position[1] - nearest_y) <= range_cells
