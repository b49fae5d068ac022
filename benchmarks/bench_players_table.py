"""The players' window at the table (issue 20): the bench map's 100 creatures with their
plates turned to the nearest edge of a 1920 x 1080 screen. One frame at a TV's zoom (30
cells tall around the party) with every plate facing its edge, beside the same frame upright;
and a one-cell pan of the players' camera (each plate's edge found again, and the plates laid
out again when one turned), which runs on every step of the DM's view the players follow.

Goal: the frame within the issue's 8 ms; a pan well inside one 60 Hz frame (16 ms).
"""

from __future__ import annotations

from collections.abc import Callable

from benchmarks.bench_players_look import FRAME_SIZE, _around_party, _draw, _window

Case = tuple[str, Callable[[], Callable[[], object] | None]]

TURNED = "players: one frame, 1920x1080, 30 cells tall, plates facing the nearest edge"
UPRIGHT = "players: one frame, 1920x1080, 30 cells tall, plates upright: reference"
PAN = "players: a one-cell pan, 100 plates facing the nearest edge"


def describe() -> str:
    return f"players' table bench: bench map, 100 creatures, frame {FRAME_SIZE[0]}x{FRAME_SIZE[1]}"


def goals() -> dict[str, float]:
    return {TURNED: 8.0, PAN: 16.0}


def _facing(name: str) -> None:
    from battlemap.ui.players.facing import Facing

    window, _, _ = _window()
    window.set_facing(Facing(name))  # type: ignore[attr-defined]


def _frame(facing: str) -> Callable[[], object]:
    draw = _draw(_around_party())
    _facing(facing)  # the cases share one window, each timed on its own after its set-up
    return draw


def _pan() -> Callable[[], object]:
    from PySide6.QtCore import QRectF

    from battlemap.ui.style import cell_to_scene

    window, _, _ = _window()
    _facing("nearest")
    x, y, width, height = _around_party()
    areas = [QRectF(*(cell_to_scene(v) for v in (x + dx, y, width, height))) for dx in (0, 1)]
    turn = [0]

    def run() -> object:
        turn[0] ^= 1
        window.show_area(areas[turn[0]])  # type: ignore[attr-defined]
        return window

    return run


def cases() -> list[Case]:
    return [
        (TURNED, lambda: _frame("nearest")),
        (UPRIGHT, lambda: _frame("bottom")),
        (PAN, _pan),
    ]
