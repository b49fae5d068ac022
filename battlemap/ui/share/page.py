"""The players' page as one HTML document, and the colours it paints with.

``assets/share/`` holds the page as three files (HTML, CSS, JavaScript) to edit; they are
put together once when sharing starts, so the server answers ``/`` with fixed bytes and
serves no other file.
"""

from __future__ import annotations

from battlemap.model.creature import Side
from battlemap.resources import asset_path
from battlemap.ui import style
from battlemap.ui.drag.items import CARD_BACK, PATH_OK, REACH_EDGE, REACH_FILL
from battlemap.ui.players.light_layer import DIM_LIGHT
from battlemap.ui.players.projection import HealthState
from battlemap.ui.players.ruling_layer import TONES
from battlemap.ui.players.scene import HEALTH_RING, HEALTH_RING_BACK, HEALTH_RING_COLOURS
from battlemap.ui.share.payload import Palette
from battlemap.ui.targeting.overlay import LINE_BLOCKED, LINE_CLEAR, TARGET_EDGE

PAGE_FILES = ("share/page.html", "share/page.css", "share/page.js")
CSS_MARK, JS_MARK = "/*PAGE_CSS*/", "/*PAGE_JS*/"


def page_bytes() -> bytes:
    """The page with its style sheet and script inlined.

    Raises:
        FileNotFoundError: a page file is missing from the installation (names it).
    """
    html, css, script = (asset_path(name).read_text(encoding="utf-8") for name in PAGE_FILES)
    # The script must not end its own <script> element early; it has no reason to say so.
    if "</script" in script.lower() or "</style" in css.lower():
        raise ValueError(f"{asset_path(PAGE_FILES[2])}: contains a closing tag")
    return html.replace(CSS_MARK, css).replace(JS_MARK, script).encode()


def _css(colour: object) -> str:
    """A QColor as a CSS colour (alpha kept)."""
    red, green, blue, alpha = colour.getRgb()  # type: ignore[attr-defined]
    return f"rgba({red}, {green}, {blue}, {alpha / 255:.3f})"


def players_palette() -> Palette:
    """The players' window's colours (``battlemap.ui.style`` and the players' scene; the
    darker shades as ``PlayerTokenItem.paint`` makes them)."""
    return Palette(
        sides={side.value: style.SIDE_COLOURS[side].name() for side in Side},
        side_outlines={side.value: style.SIDE_COLOURS[side].darker(160).name() for side in Side},
        sides_down={side.value: style.SIDE_COLOURS[side].darker(250).name() for side in Side},
        health_rings={
            state.value: None if HEALTH_RING[state] is None else HEALTH_RING[state].name()  # type: ignore[union-attr]
            for state in HealthState
        },
        walls={
            "wall": style.WALL.name(),
            "door": style.DOOR_CLOSED.name(),
            "door_open": style.DOOR_OPEN.name(),
            "window": style.WINDOW.name(),
        },
        terrain={kind: _css(colour) for kind, colour in style.TERRAIN_FILL.items()},
        obstacle=_css(style.OBSTACLE_FILL),
        paper=style.MAP_BACKGROUND.name(),
        grid_line=style.GRID_LINE.name(),
        health_left=[_css(HEALTH_RING_BACK), *(colour.name() for colour in HEALTH_RING_COLOURS)],
        dim_light=_css(DIM_LIGHT),
        ruling={
            "clear": LINE_CLEAR.name(),
            "blocked": LINE_BLOCKED.name(),
            "path": PATH_OK.name(),
            "target": TARGET_EDGE.name(),
            "reach_fill": _css(REACH_FILL),
            "reach_edge": _css(REACH_EDGE),
            "card": _css(CARD_BACK),
            **{tone.value: colour.name() for tone, colour in TONES.items()},
        },
    )
