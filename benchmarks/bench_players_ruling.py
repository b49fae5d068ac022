"""The players' preview dock and a shown ruling (issue 20), on the players' look bench (the
bench map, every token pictured, soft fog: ``bench_players_look``) framed 30 cells tall.

The preview draws the players' scene into the dock's 360 x 240 picture once per change (at
most four a second): it must stay a small part of a frame. A frame with a ruling shown (four
corner lines, a reach ring, the card) must stay within the players' frame goal.
"""

from __future__ import annotations

from collections.abc import Callable

from benchmarks.bench_players_look import FRAME_SIZE, _around_party, _draw, _window

Case = tuple[str, Callable[[], Callable[[], object] | None]]

PREVIEW = "players' preview: one 360x240 picture of the players' window (bench map, TV zoom)"
RULING = "players: one frame, 1920x1080, 30 cells tall, a ruling shown"


def describe() -> str:
    return f"players' ruling bench: the players' look bench at {FRAME_SIZE[0]}x{FRAME_SIZE[1]}"


def goals() -> dict[str, float]:
    return {PREVIEW: 8.0, RULING: 8.0}


def _preview() -> Callable[[], object]:
    from PySide6.QtCore import QRectF, QSize

    from battlemap.ui.players.preview_dock import draw_preview
    from battlemap.ui.style import cell_to_scene

    window, _, _ = _window()
    window.show_area(QRectF(*(cell_to_scene(v) for v in _around_party())))  # type: ignore[attr-defined]
    size = QSize(360, 240)
    return lambda: draw_preview(window, size)  # type: ignore[arg-type]


def _ruling_frame() -> Callable[[], object]:
    from battlemap.ui.players.ruling import RulingKind, RulingLine, ShownRuling, Tone
    from battlemap.ui.players.ruling_layer import RulingLayer

    window, _, _ = _window()
    x, y, _, _ = _around_party()
    cx, cy = x + 26.7, y + 15
    ring = frozenset(
        (int(cx) + dx, int(cy) + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy
    )
    corner = (cx + 1, cy + 1)
    lines = tuple(
        RulingLine(corner, (cx + 6 + ex, cy + 4 + ey), blocked=bool(ex))
        for ex in (0, 1)
        for ey in (0, 1)
    )
    ruling = ShownRuling(
        kind=RulingKind.COVER,
        caption=(
            ("Thorin → Medium creature · 30 ft", Tone.PLAIN),
            ("half cover: +2 AC", Tone.WARN),
        ),
        anchor=(cx + 7, cy + 4),
        focus=(cx + 6, cy + 4, 1, 1),
        lines=lines,
        target_square=(cx + 6, cy + 4, 1),
        reach_cells=ring,
    )
    layer = RulingLayer(window.scene)  # type: ignore[attr-defined]
    layer.shown_ms = 10**9  # stays for the whole bench
    layer.show(ruling, window.view)  # type: ignore[attr-defined]
    return _draw(_around_party())


def cases() -> list[Case]:
    return [(PREVIEW, _preview), (RULING, _ruling_frame)]
