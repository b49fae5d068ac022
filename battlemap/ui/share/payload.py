"""The JSON the phones get: the players' projection, and nothing else.

Built from a ``PlayerView`` alone (never from the encounter), so the players' window and the
phones show the same filtered data; a creature's id is replaced by an opaque key (an id such
as "assassin-2" would say what a masked "Medium creature" is). Plain data in, plain data
out: the colours come in as strings (``page.players_palette``), the initials and badges are
the players' window's own (``token_look``).

A token's ``image`` is its picture's content hash (never a file name), served at
``/image?n=`` while a token of the view shows it; ``health_left`` is the ring's share in
eighths (``HealthShown.RING``) or null. ``lights`` lists the light the party sees that the
page draws: the area seen in dim light only (``PlayerView.dim_light``, inside the party's
sight), as polygons of rings in cells; never a light's position.

A shown ruling (``ruling_json``) goes as its own message, the players' window's
``ShownRuling`` as it is (already cut to what the players may know), or null once the
players' window takes it down.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import shapely

from battlemap.model.ids import EntityId
from battlemap.ui.players.projection import PlayerToken, PlayerView
from battlemap.ui.players.ruling import ShownRuling
from battlemap.ui.token_look import condition_badges, initials

SCHEMA = 1
UNSEEN, EXPLORED, VISIBLE = "0", "1", "2"
"""One character per cell in ``fog.cells``, row by row."""


@dataclass(frozen=True)
class Camera:
    """The part of the map the players' window frames, in cells."""

    x: float
    y: float
    width: float
    height: float

    def as_json(self) -> dict[str, float]:
        return {"x": self.x, "y": self.y, "width": self.width, "height": self.height}


@dataclass(frozen=True)
class MapImage:
    """The served copy of the map image: its version (part of its address) and placement.

    ``pixels_per_cell`` and ``offset_x/y`` are in the served (downscaled, cropped) image's
    pixels: the page needs no other scale.
    """

    version: int
    width: int
    height: int
    pixels_per_cell: float
    offset_x: float
    offset_y: float


@dataclass(frozen=True)
class Palette:
    """Colours as CSS strings, so the page paints like the players' window."""

    sides: Mapping[str, str]
    side_outlines: Mapping[str, str]
    sides_down: Mapping[str, str]
    """A down or dead creature's darker fill."""
    health_rings: Mapping[str, str | None]
    walls: Mapping[str, str]
    terrain: Mapping[str, str]
    obstacle: str
    paper: str
    grid_line: str
    health_left: Sequence[str] = ()
    """The health ring's back, then its colours above half, to a quarter, below."""
    dim_light: str = "rgba(0, 0, 0, 0.431)"
    """The veil over what the party sees in dim light (``light_layer.DIM_LIGHT``)."""
    ruling: Mapping[str, str] = field(default_factory=dict)
    """A shown ruling's colours: ``clear``, ``blocked``, ``path``, ``target``, ``reach_fill``,
    ``reach_edge``, ``card``, and one per caption tone (``plain``, ``good``...)."""


class OpaqueKeys:
    """Stable, meaningless keys for creature ids: the same id gives the same key all session
    (so the page can animate a token), and the key says nothing about the id."""

    def __init__(self, secret: bytes) -> None:
        self._secret = secret

    def key(self, creature_id: EntityId) -> str:
        digest = hmac.new(self._secret, creature_id.encode(), hashlib.sha256).hexdigest()
        return "t" + digest[:16]


def fog_cells(view: PlayerView) -> str | None:
    """The fog as one character per cell, row by row; None when there is no fog. Cells
    outside the grid are left out."""
    if view.visible is None:
        return None
    width, height = view.grid.width, view.grid.height
    cells = bytearray(UNSEEN.encode() * (width * height))
    for marks, mark in ((view.explored, EXPLORED), (view.visible, VISIBLE)):
        code = ord(mark)
        for column, row in marks:
            if 0 <= column < width and 0 <= row < height:
                cells[row * width + column] = code
    return cells.decode("ascii")


def token_json(token: PlayerToken, keys: OpaqueKeys) -> dict[str, Any]:
    return {
        "key": keys.key(token.key),
        "label": token.label,
        "initials": initials(token.label),
        "badges": condition_badges(token.conditions),
        "side": token.side.value,
        "size": token.size.value,
        "x": token.x,
        "y": token.y,
        "space": token.space_cells,
        "health": token.health.value,
        "conditions": list(token.conditions),
        "acting": token.acting_now,
        "unseen": bool(getattr(token, "unseen", False)),
        "image": token.image,
        "shape": token.shape.value,
        "health_left": token.health_left,
    }


MAP_FEATURES = ("walls", "obstacles", "terrain")
"""The parts of a state that change only when the map is edited (``StateEncoder`` keeps
their JSON text)."""


def map_features_json(view: PlayerView) -> dict[str, list[Any]]:
    return {
        "walls": [
            {"a": list(w.a), "b": list(w.b), "kind": w.kind.value, "open": w.open}
            for w in view.walls
        ],
        "obstacles": [[list(p) for p in o.points] for o in view.obstacles],
        "terrain": [
            {"kind": t.kind.value, "points": [list(p) for p in t.points]} for t in view.terrain
        ],
    }


def _state_without_map_features(
    view: PlayerView, keys: OpaqueKeys, palette: Palette, map_image: MapImage | None
) -> dict[str, Any]:
    grid = view.grid
    turn = None
    if view.turn is not None:
        turn = {
            "round": view.turn.round,
            "acting": view.turn.acting_label,
            "order": list(view.turn.order),
        }
    return {
        "type": "state",
        "schema": SCHEMA,
        "grid": {"width": grid.width, "height": grid.height, "cell_feet": grid.cell_feet},
        "map": None
        if map_image is None
        else {
            "version": map_image.version,
            "width": map_image.width,
            "height": map_image.height,
            "pixels_per_cell": map_image.pixels_per_cell,
            "offset_x": map_image.offset_x,
            "offset_y": map_image.offset_y,
        },
        "tokens": [token_json(token, keys) for token in view.tokens],
        "fog": None if view.visible is None else {"cells": fog_cells(view)},
        "turn": turn,
        "lights": lights_json(view),
        "palette": {
            "sides": dict(palette.sides),
            "side_outlines": dict(palette.side_outlines),
            "sides_down": dict(palette.sides_down),
            "health_rings": dict(palette.health_rings),
            "walls": dict(palette.walls),
            "terrain": dict(palette.terrain),
            "obstacle": palette.obstacle,
            "paper": palette.paper,
            "grid_line": palette.grid_line,
            "health_left": list(palette.health_left),
            "dim_light": palette.dim_light,
            "ruling": dict(palette.ruling),
        },
    }


LIGHT_DECIMALS = 3
"""Cells are sent to a thousandth: a pixel at any zoom a phone shows."""


def lights_json(view: PlayerView) -> list[dict[str, Any]]:
    """The dim-light area of ``view`` as ``[{"level": "dim", "polygons": [[ring, hole...]]}]``
    (each ring a list of ``[x, y]`` in cells); empty without one."""
    area = view.dim_light
    if area is None or area.is_empty:
        return []
    polygons = [
        [
            np.round(shapely.get_coordinates(ring), LIGHT_DECIMALS).tolist()
            for ring in (part.exterior, *part.interiors)
        ]
        for part in shapely.get_parts(area)
        if isinstance(part, shapely.Polygon) and not part.is_empty
    ]
    return [{"level": "dim", "polygons": polygons}]


def state_json(
    view: PlayerView,
    keys: OpaqueKeys,
    palette: Palette,
    map_image: MapImage | None,
) -> dict[str, Any]:
    """Everything the page draws, as JSON-ready data (see the module docstring)."""
    return {
        **_state_without_map_features(view, keys, palette, map_image),
        **map_features_json(view),
    }


class StateEncoder:
    """``encode(state_json(...))``, with the map features' text kept while they are the
    same objects (a drop or a turn re-projects them but rarely changes them: on a map of
    2,000 walls they are most of the text and of the time)."""

    def __init__(self, keys: OpaqueKeys, palette: Palette) -> None:
        self.keys = keys
        self.palette = palette
        self._features: tuple[tuple[tuple[object, ...], ...], str] | None = None

    def encode(self, view: PlayerView, map_image: MapImage | None) -> str:
        head = encode(_state_without_map_features(view, self.keys, self.palette, map_image))
        return f"{head[:-1]},{self._features_text(view)}}}"

    def _features_text(self, view: PlayerView) -> str:
        parts = (view.walls, view.obstacles, view.terrain)
        if self._features is not None and _same_items(self._features[0], parts):
            return self._features[1]
        text = encode(map_features_json(view))[1:-1]  # the members, without the braces
        self._features = (parts, text)
        return text


def _same_items(old: tuple[tuple[object, ...], ...], new: tuple[tuple[object, ...], ...]) -> bool:
    """The same objects in the same order, part by part (frozen models: same object, same
    content)."""
    return all(
        len(a) == len(b) and all(x is y for x, y in zip(a, b, strict=True))
        for a, b in zip(old, new, strict=True)
    )


def camera_json(camera: Camera) -> dict[str, Any]:
    return {"type": "camera", "camera": camera.as_json()}


def ruling_json(ruling: ShownRuling | None, shown_ms: int, fade_ms: int) -> dict[str, Any]:
    """The ruling the players' window shows now (drawn ``shown_ms``, fading over the last
    ``fade_ms``), or null: it was taken down."""
    if ruling is None:
        return {"type": "ruling", "ruling": None}
    return {
        "type": "ruling",
        "ruling": {
            "kind": ruling.kind.value,
            "lines": [
                {"a": list(line.start), "b": list(line.end), "blocked": line.blocked}
                for line in ruling.lines
            ],
            "target_square": None if ruling.target_square is None else list(ruling.target_square),
            "reach_cells": sorted([x, y] for x, y in ruling.reach_cells),
            "path": [list(point) for point in ruling.path],
            "footprint": ruling.footprint,
            "caption": [[text, tone.value] for text, tone in ruling.caption],
            "anchor": list(ruling.anchor),
            "shown_ms": shown_ms,
            "fade_ms": fade_ms,
        },
    }


def encode(data: Mapping[str, Any]) -> str:
    """Compact JSON text (no spaces): what goes over the WebSocket."""
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
