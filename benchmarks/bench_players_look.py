"""The players' window as the table sees it (issue 20): every token with a picture and the
soft fog along the party's visibility polygons, on the bench map (100 x 100 cells, 2,000
walls, 100 creatures; five of them the party, looking). One 1920 x 1080 frame with the whole
map fitted, one at a TV's zoom (30 cells tall around the party), and the fog's rebuild after
the party moves (the soft mask and the cell paths; once per move, not per frame).

Goal from issue 20: a frame <= 8 ms.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import cache

Case = tuple[str, Callable[[], Callable[[], object] | None]]

FRAME_SIZE = (1920, 1080)
PARTY = 5
PICTURES = ("#b03030", "#3060c0", "#30a050", "#c0a030")
WHOLE = "players: one frame, 1920x1080, whole bench map (image tokens, soft fog)"
TV = "players: one frame, 1920x1080, 30 cells tall (image tokens, soft fog)"
REBUILD = "players: soft fog rebuilt after a move (bench map, 5 viewers)"
PLAIN = "players: one frame, 1920x1080, whole bench map (plain discs, cell fog): reference"


def describe() -> str:
    return (
        f"players' look bench: bench map, every token pictured ({len(PICTURES)} images), "
        f"{PARTY} party viewers, dynamic fog, frame {FRAME_SIZE[0]}x{FRAME_SIZE[1]}"
    )


def goals() -> dict[str, float]:
    return {WHOLE: 8.0, TV: 8.0}


def references() -> dict[str, tuple[str, float]]:
    """Timed in turns with the same window before issue 20's look (discs, fog along cell
    edges): on a loaded machine the ratio says more than the milliseconds."""
    return {WHOLE: (PLAIN, 1.5)}


def _png(colour: str) -> bytes:
    from PySide6.QtCore import QBuffer, QIODevice
    from PySide6.QtGui import QColor, QImage, QPainter

    image = QImage(256, 256, QImage.Format.Format_RGB32)
    image.fill(QColor(colour))
    painter = QPainter(image)
    painter.fillRect(64, 64, 128, 128, QColor("#f0f0f0"))  # a face to crop around
    painter.end()
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")  # type: ignore[call-overload]  # PySide6 takes str
    return bytes(buffer.data().data())


@cache
def _window(pictured: bool = True) -> tuple[object, object, object]:
    """The players' window showing the bench map, its document and its PartyFog; without
    ``pictured``, the look before issue 20 (discs, cell-edge fog) for the reference."""
    from PySide6.QtWidgets import QApplication

    from battlemap.model import Document, Side
    from battlemap.model.fog import FogMode, FogOfWar
    from battlemap.ui.players.party_fog import PartyFog
    from battlemap.ui.players.projection import project
    from battlemap.ui.players.window import PlayerWindow
    from benchmarks.maps import bench_map

    app = QApplication.instance() or QApplication(sys.argv[:1])
    document = Document(bench_map().encounter())
    names = [document.add_image(_png(colour), ".png") for colour in PICTURES]
    party = [c.id for c in document.encounter.creatures if c.side is Side.PARTY][:PARTY]
    creatures = tuple(
        c.model_copy(
            update={
                "token_image": names[i % len(names)] if pictured else None,
                "side": c.side if c.side is not Side.PARTY or c.id in party else Side.NEUTRAL,
            }
        )
        for i, c in enumerate(document.encounter.creatures)
    )
    encounter = document.encounter.model_copy(
        update={"creatures": creatures, "fog": FogOfWar(mode=FogMode.DYNAMIC)}
    )
    fog = PartyFog()
    encounter = encounter.model_copy(
        update={"fog": encounter.fog.model_copy(update={"explored": fog.visible(encounter)})}
    )
    document.encounter = encounter
    window = PlayerWindow(document)
    window.scene.fog_item.soft = pictured
    window.resize(*FRAME_SIZE)
    window.show()
    app.processEvents()
    window.show_view(
        project(encounter, fog.visible(encounter), None, None, fog.sight_areas(encounter))
    )
    return window, document, fog


def _draw(
    area: tuple[float, float, float, float] | None, pictured: bool = True
) -> Callable[[], object]:
    window, document, _ = _window(pictured)
    return frame(window, document, area)


def frame(
    window: object, document: object, area: tuple[float, float, float, float] | None
) -> Callable[[], object]:
    """One 1920 x 1080 frame of the players' ``window`` showing ``area`` (cells; None: the
    whole map of ``document``), drawn into an image as the screen would be."""
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QImage, QPainter

    from battlemap.ui.style import cell_to_scene

    view = window.view  # type: ignore[attr-defined]
    grid = document.encounter.grid  # type: ignore[attr-defined]
    if area is None:
        window.show_area(QRectF(0, 0, cell_to_scene(grid.width), cell_to_scene(grid.height)))  # type: ignore[attr-defined]
    else:
        window.show_area(QRectF(*(cell_to_scene(v) for v in area)))  # type: ignore[attr-defined]
    image = QImage(*FRAME_SIZE, QImage.Format.Format_ARGB32_Premultiplied)

    def run() -> object:
        painter = QPainter(image)
        painter.setRenderHints(view.renderHints())
        view.render(painter, QRectF(image.rect()), view.viewport().rect())
        painter.end()
        return image

    return run


def _around_party() -> tuple[float, float, float, float]:
    _, document, _ = _window()
    return around_party(document)


def around_party(document: object) -> tuple[float, float, float, float]:
    """A TV's zoom, 30 cells tall, round the first party member of ``document``."""
    from battlemap.model import Side

    party = [c for c in document.encounter.creatures if c.side is Side.PARTY]  # type: ignore[attr-defined]
    x, y = party[0].x, party[0].y
    return (x - 26.7, y - 15, 53.3, 30)


def _rebuild() -> Callable[[], object]:
    from battlemap.model import Side
    from battlemap.ui.players.projection import project

    window, document, fog = _window()
    encounter = document.encounter  # type: ignore[attr-defined]
    mover = next(c for c in encounter.creatures if c.side is Side.PARTY)
    views = []
    for dx in (0, 1):
        moved = encounter.replace_creature(mover.model_copy(update={"x": mover.x + dx}))
        areas = fog.sight_areas(moved)  # type: ignore[attr-defined]
        views.append(project(moved, fog.visible(moved), None, None, areas))  # type: ignore[attr-defined]
    fog_item = window.scene.fog_item  # type: ignore[attr-defined]
    turn = [0]

    def run() -> object:
        turn[0] ^= 1
        fog_item.show_view(views[turn[0]])
        return fog_item

    return run


def cases() -> list[Case]:
    return [
        (WHOLE, lambda: _draw(None)),
        (TV, lambda: _draw(_around_party())),
        (REBUILD, _rebuild),
        (PLAIN, lambda: _draw(None, pictured=False)),
    ]
