"""The players' window with light (issue 20): the bench map (100 x 100 cells, 2,000 walls, 100
creatures, every token pictured) made dark, with 20 lights (each of the five party viewers
carries a torch, 15 lanterns and torches lie about the rooms), soft fog. One 1920 x 1080
frame with the whole map fitted and one at a TV's zoom; the light's rebuild after a torch
bearer moves (its lit area, the party's seen areas and the cells: once per move, not per
frame), with the lit areas kept per light and, for reference, all of them recomputed.

Goals from issue 20: a frame <= 8 ms, a torch bearer's move's rebuild <= 16 ms: one frame
(CPU time: ``make bench`` with ``--cpu``). The rebuild runs once per drop (a document change),
not per mouse move: a drag's feedback does not touch the players' light.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import cache
from itertools import count

from benchmarks.bench_players_look import (
    FRAME_SIZE,
    PARTY,
    PICTURES,
    _png,
    around_party,
    frame,
)

Case = tuple[str, Callable[[], Callable[[], object] | None]]

LIGHTS = 20
WHOLE = "players light: one frame, 1920x1080, whole bench map (20 lights, image tokens, soft fog)"
TV = "players light: one frame, 1920x1080, 30 cells tall (20 lights, image tokens, soft fog)"
MOVE = "players light: a torch bearer moves (lit areas and seen pieces kept)"
MOVE_DARKVISION = "players light: a torch bearer moves, one of the party with darkvision 60 ft"
MOVE_NEW = "players light: each torch bearer in turn steps to a new spot (a drag's drop)"
MOVE_ALL = (
    "players light: a torch bearer moves (all lit areas and seen pieces recomputed): reference"
)


def describe() -> str:
    return (
        f"players' light bench: bench map made dark, {LIGHTS} lights ({PARTY} carried by the "
        f"party), every token pictured, dynamic soft fog, frame {FRAME_SIZE[0]}x{FRAME_SIZE[1]}"
    )


def goals() -> dict[str, float]:
    # A move's rebuild fits one frame (60 Hz), the first move of a creature too.
    return {WHOLE: 8.0, TV: 8.0, MOVE: 16.0, MOVE_DARKVISION: 16.0, MOVE_NEW: 16.0}


@cache
def _window() -> tuple[object, object, object]:
    """The players' window showing the dark bench map, its document and its PartyFog."""
    from PySide6.QtWidgets import QApplication

    from battlemap.model import Document, LightLevel, MapLighting, Side
    from battlemap.model.fog import FogMode, FogOfWar
    from battlemap.model.light_commands import light_of_feet, torch
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
                "token_image": names[i % len(names)],
                "side": c.side if c.side is not Side.PARTY or c.id in party else Side.NEUTRAL,
            }
        )
        for i, c in enumerate(document.encounter.creatures)
    )
    cell_feet = document.encounter.grid.cell_feet
    carried = [torch((0, 0), cell_feet, carried_by=creature_id) for creature_id in party]
    lying = [
        light_of_feet((7.5 + 13 * (i % 5), 12.5 + 19 * (i // 5)), 30, 30, cell_feet, "lantern")
        if i % 2
        else torch((7.5 + 13 * (i % 5), 12.5 + 19 * (i // 5)), cell_feet)
        for i in range(LIGHTS - PARTY)
    ]
    encounter = document.encounter.model_copy(
        update={
            "creatures": creatures,
            "fog": FogOfWar(mode=FogMode.DYNAMIC),
            "lights": (*carried, *lying),
            "lighting": MapLighting(ambient=LightLevel.DARK),
        }
    )
    fog = PartyFog()
    encounter = encounter.model_copy(
        update={"fog": encounter.fog.model_copy(update={"explored": fog.visible(encounter)})}
    )
    document.encounter = encounter
    window = PlayerWindow(document)
    window.resize(*FRAME_SIZE)
    window.show()
    app.processEvents()
    light = fog.seen_light(encounter)
    window.show_view(
        project(
            encounter,
            fog.visible(encounter),
            None,
            None,
            fog.sight_areas(encounter),
            None if light is None else light.dim,
        )
    )
    return window, document, fog


def _draw(area: tuple[float, float, float, float] | None) -> Callable[[], object]:
    window, document, _ = _window()
    return frame(window, document, area)


def _around_party() -> tuple[float, float, float, float]:
    _, document, _ = _window()
    return around_party(document)


def _move(keep_lit_areas: bool, darkvision: bool = False) -> Callable[[], object]:
    """A torch bearer steps back and forth: its sight and lit area, the party's seen areas,
    the cells and the projection (the frame's drawing is timed above). ``darkvision``: the
    last of the party sees 60 ft in the dark (a sense that sees dim light bright, so the
    party's dim area is its seen area less its bright one, not each viewer's own)."""
    from battlemap.geometry.illumination import LitAreas, SeenMemo
    from battlemap.geometry.map_index import MapIndex
    from battlemap.model import Side
    from battlemap.model.statblock import Senses, StatBlock
    from battlemap.ui.players.party_fog import PartyFog
    from battlemap.ui.players.projection import project

    _, document, _ = _window()
    encounter = document.encounter  # type: ignore[attr-defined]
    if darkvision:
        elf = [c for c in encounter.creatures if c.side is Side.PARTY][-1]
        seer = StatBlock(name="Elf", senses=Senses(darkvision=60))
        encounter = encounter.replace_creature(elf.model_copy(update={"statblock": seer}))
    mover = next(c for c in encounter.creatures if c.side is Side.PARTY)
    steps = [
        encounter.replace_creature(mover.model_copy(update={"x": mover.x + dx})) for dx in (0, 1)
    ]
    index = MapIndex.build(encounter)  # the map does not change: the app keeps one index
    fog = PartyFog(lambda _encounter: index)
    for moved in steps:
        fog.visible(moved)
    turn = [0]

    def run() -> object:
        turn[0] ^= 1
        moved = steps[turn[0]]
        if not keep_lit_areas:
            fog.lit_areas, fog.seen_memo = LitAreas(), SeenMemo()
        light = fog.seen_light(moved)
        assert light is not None
        return project(moved, fog.visible(moved), None, None, fog.sight_areas(moved), light.dim)

    return run


def _move_new() -> Callable[[], object]:
    """Each party member in turn steps one cell (east for a round of the party, then west):
    every move is a creature's first from where it stands and to a spot it was not at, so
    nothing of the mover's own is kept (the two-spot move above keeps the others' union)."""
    from battlemap.geometry.map_index import MapIndex
    from battlemap.model import Side
    from battlemap.ui.players.party_fog import PartyFog
    from battlemap.ui.players.projection import project

    _, document, _ = _window()
    start = document.encounter  # type: ignore[attr-defined]
    party = [c.id for c in start.creatures if c.side is Side.PARTY]
    index = MapIndex.build(start)
    fog = PartyFog(lambda _encounter: index)
    fog.visible(start)
    state = {"encounter": start}
    turn = count()

    def run() -> object:
        step = next(turn)
        encounter = state["encounter"]
        mover = next(c for c in encounter.creatures if c.id == party[step % len(party)])
        dx = 1 if (step // len(party)) % 2 == 0 else -1
        moved = encounter.replace_creature(mover.model_copy(update={"x": mover.x + dx}))
        state["encounter"] = moved
        light = fog.seen_light(moved)
        assert light is not None
        return project(moved, fog.visible(moved), None, None, fog.sight_areas(moved), light.dim)

    return run


def cases() -> list[Case]:
    return [
        (WHOLE, lambda: _draw(None)),
        (TV, lambda: _draw(_around_party())),
        (MOVE, lambda: _move(True)),
        (MOVE_DARKVISION, lambda: _move(True, darkvision=True)),
        (MOVE_NEW, _move_new),
        (MOVE_ALL, lambda: _move(False)),
    ]
