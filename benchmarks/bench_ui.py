"""The DM's window on the geometry bench map (``bench_geometry``'s generator: 100 x 100 cells,
2,000 wall segments, 100 creatures): one frame of the scene at 1920 x 1080, one mouse move of
a token drag (geometry and overlay), and the wall time from start to the first frame.

Goals from issues 7 and 17: a frame <= 8 ms, also right after a zoom step; start to first
frame <= 0.6 s; a drag move must fit in one frame (16 ms at 60 Hz). Runs offscreen (``make
bench`` sets ``QT_QPA_PLATFORM``).

Frames are drawn as the view paints its viewport (its ``paintEvent``, into an image the
size of the screen: Qt's item caches and the zoom preview apply). The cases: the whole map
fitted, repeated (tokens and plates copied from Qt's pixmaps of them, grid lines and walls
from their pixmaps per zoom bucket, as in every redraw while the DM drags or pans); the
same right after a zoom step too small to see (x1.0005 in and out in turn, through
``zoom_by`` as the wheel and a pinch: the view's transform changes every frame and the
view shows its last sharp frame scaled, ``ui/zoom_preview.py``); a wheel step (x1.15) to a
zoom never drawn before, during a gesture; for comparison, no goal: the first step of a
gesture when the view holds no frame (it grabs one), and the sharp frame when a step to a
new zoom settles (every pixmap painted again); and a view zoomed in to 40 cells tall,
where walls are a few pixels wide. Another is the fitted map mid-combat: turn ring, dead,
dying and bloodied looks and condition icons (issue 15).

Start to first frame is the whole ``battlemap --screenshot`` process: Python starting, the
imports, the window with its docks, one frame drawn and saved as PNG, and the exit. The
reference beside it is the same for a bare window: Python, PySide6 and the app's
dependencies imported, one empty main window shown, grabbed and saved. The timed runs find
the bytecode compiled (one untimed start before them writes it to a private
``PYTHONPYCACHEPREFIX``), as every start after the first does for an installed app or ``make
run``, even where the environment sets ``PYTHONDONTWRITEBYTECODE``. The "bytecode not
cached" case (no goal) compiles the app's own modules at every start, as in a checkout with
``PYTHONDONTWRITEBYTECODE`` set and no ``__pycache__``, or a first start.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from functools import cache
from pathlib import Path

from benchmarks import wall_clock
from benchmarks.bench_geometry import CREATURES, MAP_CELLS, WALLS, _walls, _world

Case = tuple[str, Callable[[], Callable[[], object] | None]]

FRAME_SIZE = (1920, 1080)
ZOOMED_CELLS = 40
SETTLED_AFTER_PRERENDER = (
    "ui: sharp frame when a new zoom settles after its idle pre-render, 1920x1080 (bench map)"
)
GOALS_MS = {
    "ui: one frame of the DM's scene, 1920x1080 (bench map)": 8.0,
    "ui: one frame of the DM's scene mid-combat, 1920x1080 (bench map, states, icons)": 8.0,
    "ui: drag start (reachable area + shading, bench map)": 16.0,
    "ui: drag mouse move to a new cell (geometry + overlay, bench map)": 16.0,
    "ui: one frame right after a zoom step, 1920x1080 (bench map, gesture, same buckets)": 8.0,
    "ui: one frame after a zoom step to a new zoom, 1920x1080 (bench map, gesture)": 8.0,
    "ui: one frame zoomed in (40 cells tall), 1920x1080 (bench map)": 8.0,
    SETTLED_AFTER_PRERENDER: 8.0,
    "ui: start to first frame (wall time, demo map)": 600.0,
}
BARE_WINDOW = """
import sys
import numpy, pydantic, shapely, yaml  # not d20: the app imports it at the first roll
from PySide6.QtWidgets import QApplication, QMainWindow
app = QApplication(sys.argv[:1])
window = QMainWindow()
window.resize(1280, 800)
window.show()
app.processEvents()
window.grab().save(sys.argv[1])
"""
"""The start-up reference: the app's dependencies and a bare window, drawn once and saved."""


def describe() -> str:
    return (
        f"ui bench map: {MAP_CELLS} x {MAP_CELLS} cells, {WALLS} wall segments, "
        f"{CREATURES} creatures, frame {FRAME_SIZE[0]}x{FRAME_SIZE[1]}"
    )


def goals() -> dict[str, float]:
    return GOALS_MS


def _app() -> object:
    from PySide6.QtWidgets import QApplication

    return QApplication.instance() or QApplication(sys.argv[:1])


def _encounter() -> object:
    """The bench map as an encounter: the same walls and creatures as the geometry bench."""
    from battlemap.model import Creature, Encounter, Grid

    _, bodies = _world()
    creatures = tuple(
        Creature(id=b.id, name=f"Creature {i}", size=b.size, side=b.side, x=b.x, y=b.y)  # type: ignore[attr-defined]
        for i, b in enumerate(bodies)
    )
    return Encounter(
        grid=Grid(width=MAP_CELLS, height=MAP_CELLS),
        walls=tuple(_walls()),
        creatures=creatures,
    )


@cache
def _scene() -> tuple[object, object]:
    """A DM scene and a 1920 x 1080 view of it, the whole map fitted (everything drawn)."""
    return _scene_of(_encounter())


@cache
def _combat_scene() -> tuple[object, object]:
    """The bench map mid-combat (issue 15: the DM's tokens show their state): a turn ring,
    every tenth creature dead, every seventh dying, two in three with one or two condition
    icons (bloodied-brink: the bloodied rings too), as the combat feature shows them."""
    from battlemap.model.combat import (
        ActiveCondition,
        Combatant,
        CombatState,
        DeathState,
        DiceState,
        TurnSlot,
    )
    from battlemap.rules.loader import load_registry
    from battlemap.ui.token_state import token_states

    plain = _encounter()
    names = ("poisoned", "prone", "frightened")
    creatures = tuple(
        c.model_copy(update={"hp": 0 if i % 7 == 0 or i % 10 == 0 else (3 if i % 4 else 10)})
        for i, c in enumerate(plain.creatures)  # type: ignore[attr-defined]
    )
    combatants = tuple(
        Combatant(
            creature_id=c.id,
            group=c.id,
            initiative=i,
            death=DeathState(dead=i % 10 == 0),
            conditions=tuple(ActiveCondition(name=n) for n in names[: i % 3]),
        )
        for i, c in enumerate(creatures)
    )
    state = CombatState(
        ruleset="bloodied-brink",
        round=1,
        order=tuple(TurnSlot(creature_id=c.creature_id) for c in combatants),
        combatants=combatants,
        dice=DiceState(seed=1),
    )
    fight = plain.model_copy(  # type: ignore[attr-defined]
        update={"creatures": creatures, "combat": state, "ruleset": "bloodied-brink"}
    )
    scene, view = _scene_of(fight)
    ruleset = load_registry().get("bloodied-brink")
    scene.token_states = lambda encounter: token_states(encounter, ruleset)  # type: ignore[attr-defined]
    scene.show_states()  # type: ignore[attr-defined]
    return scene, view


def _scene_of(encounter: object) -> tuple[object, object]:
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QUndoStack
    from PySide6.QtWidgets import QApplication

    from battlemap.model import Document
    from battlemap.ui.map_scene import MapScene
    from battlemap.ui.map_view import MapView
    from battlemap.ui.style import cell_to_scene

    _app()
    document = Document(encounter)  # type: ignore[arg-type]
    stack = QUndoStack()
    scene = MapScene(document, stack)
    scene._bench_stack = stack  # type: ignore[attr-defined]  # keep it alive with the scene
    view = MapView(scene)
    view.resize(*FRAME_SIZE)
    view.show()  # an unshown view has no real viewport size
    QApplication.processEvents()
    side = cell_to_scene(MAP_CELLS)
    view.fit_map(QRectF(0, 0, side, side))
    return scene, view


def _draw(view: object) -> Callable[[], object]:
    """One frame as the view paints its viewport (its ``paintEvent``: Qt's item caches and
    the zoom preview apply), into an image the size of the screen."""
    from PySide6.QtGui import QImage

    image = QImage(FRAME_SIZE[0], FRAME_SIZE[1], QImage.Format.Format_ARGB32_Premultiplied)

    def run() -> object:
        view.viewport().render(image)  # type: ignore[attr-defined]
        return image

    return run


def _frame() -> Callable[[], object]:
    return _draw(_scene()[1])


def _frame_in_combat() -> Callable[[], object]:
    return _draw(_combat_scene()[1])


@cache
def _zoomed_view() -> object:
    """A second 1920 x 1080 view of the bench scene, 40 cells tall around the map's centre
    (walls ~2.6 px wide on screen: stroked, not the zoomed-out lines)."""
    from PySide6.QtWidgets import QApplication

    from battlemap.ui.map_view import MapView
    from battlemap.ui.style import cell_to_scene

    scene, _ = _scene()
    view = MapView(scene)  # type: ignore[arg-type]
    view.resize(*FRAME_SIZE)
    view.show()
    QApplication.processEvents()
    scale = view.viewport().height() / cell_to_scene(ZOOMED_CELLS)
    view.scale(scale, scale)
    view.centerOn(cell_to_scene(MAP_CELLS / 2), cell_to_scene(MAP_CELLS / 2))
    return view


def _frame_zoomed_in() -> Callable[[], object]:
    return _draw(_zoomed_view())


def _frame_after_zoom() -> Callable[[], object]:
    """A frame after a zoom step too small to see (x1.0005 in and out in turn), a gesture
    under way: the view's transform changes every frame, as in a pinch."""
    _, view = _scene()
    draw = _frame()
    steps = iter(range(10**9))

    def run() -> object:
        factor = 1.0005 if next(steps) % 2 == 0 else 1 / 1.0005
        view.zoom_by(factor)  # type: ignore[attr-defined]  # as the wheel and a pinch do
        return draw()

    return run


def _gesture_start() -> Callable[[], object]:
    """The first frame of a zoom gesture when the view holds no frame to scale (a zoom
    within ``IDLE_GRAB_MS`` of the last sharp paint): it grabs one first."""
    _, view = _scene()
    draw = _frame()
    steps = iter(range(10**9))

    def run() -> object:
        preview = getattr(view, "zoom_preview", None)
        if preview is not None:
            preview.end()
            preview.sharp_frame_painted()  # the frame held is dropped
        view.zoom_by(1.0005 if next(steps) % 2 == 0 else 1 / 1.0005)  # type: ignore[attr-defined]
        return draw()

    return run


@cache
def _feedback() -> tuple[object, object]:
    """Drag feedback on the bench scene and a Medium mover in an open room (41, 44)."""
    from battlemap.model import Creature, EntityId, Side
    from battlemap.model.document import AddCreature
    from battlemap.rules.loader import load_registry
    from battlemap.rules.move_resolution import Choice
    from battlemap.ui.drag.controller import DragFeedback
    from battlemap.ui.map_index_cache import IndexCache

    scene, view = _scene()
    document = scene.document  # type: ignore[attr-defined]
    mover_id = EntityId("bench-mover")
    document.apply(AddCreature(Creature(id=mover_id, name="Runner", side=Side.PARTY, x=41, y=44)))
    ruleset = load_registry().get(document.encounter.ruleset)
    index = IndexCache(document)
    index.get()  # built once per map change, not per drag
    feedback = DragFeedback(
        scene,  # type: ignore[arg-type]
        view,  # type: ignore[arg-type]
        lambda: ruleset,
        index,
        lambda *_: Choice.SKIP,
    )
    return feedback, mover_id


def _at(x: int, y: int) -> object:
    from PySide6.QtCore import QPointF

    from battlemap.ui.style import cell_to_scene

    return QPointF(cell_to_scene(x), cell_to_scene(y))


def _new_zoom_view(gesture: bool = True) -> tuple[object, Callable[[int], None]]:
    """A third view of the bench scene and a wheel step (x1.15) to a zoom never drawn
    before: from fitted to ~19 cells tall in 12 steps, then fitted again and a little
    further in, so the steps never return to a zoom drawn."""
    from PySide6.QtCore import QRectF
    from PySide6.QtWidgets import QApplication

    from battlemap.ui.map_view import MapView
    from battlemap.ui.style import cell_to_scene

    scene, _ = _scene()
    view = MapView(scene)  # type: ignore[arg-type]
    view.resize(*FRAME_SIZE)
    view.show()
    QApplication.processEvents()
    side = cell_to_scene(MAP_CELLS)

    def step(n: int) -> None:
        if n % 12 == 0:  # x1.15^12 = 5.35: from fitted to ~19 cells tall, then again
            view.fit_map(QRectF(0, 0, side, side))
            nudge = 1 + 0.003 * (n // 12 + 1)  # each round starts from a zoom not seen
            view.scale(nudge, nudge)
        if gesture:
            view.zoom_by(1.15)  # as the wheel does: the preview holds the frame it had
        else:
            view.scale(1.15, 1.15)  # the step itself only: its grab was made in idle time

    return view, step


def _frame_at_new_zoom() -> Callable[[], object]:
    """A frame right after a wheel step to a new zoom, a gesture under way."""
    view, step = _new_zoom_view()
    draw = _draw(view)
    steps = iter(range(10**9))

    def run() -> object:
        step(next(steps))
        return draw()

    return run


def _sharp_at_new_zoom() -> Callable[[], object]:
    """The sharp frame when a wheel step to a new zoom settles: every token's and plate's
    pixmap, the grid's and the walls' are painted again."""
    view, step = _new_zoom_view(gesture=False)
    draw = _draw(view)
    steps = iter(range(10**9))

    def run() -> object:
        step(next(steps))
        return draw()

    return run


def _settled_after_prerender(timed: str) -> Callable[[], Callable[[], object]]:
    """A wheel step to a new zoom during a gesture, then the idle pre-render of that zoom
    (``ui/zoom_preview.py``: the pieces run while the scaled frame shows, before the steps
    settle), then the sharp frame. ``timed``: "sharp" times the sharp frame alone (the step
    and the pre-render before it untimed), "pieces" every pre-render piece together."""

    def setup() -> Callable[[], object]:
        view, step = _new_zoom_view()
        draw = _draw(view)
        preview = view.zoom_preview  # type: ignore[attr-defined]
        steps = iter(range(10**9))

        def prerender() -> None:
            while preview.prerender_pending():
                preview.prerender_piece()

        def settle() -> object:
            preview.end()  # as the settle timer does
            return draw()

        def prepare_sharp() -> None:
            step(next(steps))
            prerender()

        def prepare_pieces() -> None:
            settle()
            step(next(steps))

        run: Callable[[], object] = settle if timed == "sharp" else prerender
        wrapped = _Timed(run, prepare_sharp if timed == "sharp" else prepare_pieces)
        return wrapped

    return setup


class _Timed:
    """A run with an untimed ``prepare`` before each (``benchmarks/__main__.py``)."""

    def __init__(self, run: Callable[[], object], prepare: Callable[[], None]) -> None:
        self.run, self.prepare = run, prepare

    def __call__(self) -> object:
        return self.run()


def _drag_start() -> Callable[[], object]:
    from PySide6.QtCore import Qt

    feedback, mover_id = _feedback()

    def run() -> object:
        feedback.end()  # type: ignore[attr-defined]
        feedback.move(mover_id, _at(42, 44), Qt.KeyboardModifier(0))  # type: ignore[attr-defined]
        return feedback

    return run


def _drag_move() -> Callable[[], object]:
    from PySide6.QtCore import Qt

    feedback, mover_id = _feedback()
    # A 12-cell drag like the geometry bench's; each run moves to the next cell, uncached.
    cells = [(42 + i, 44 + (i // 4)) for i in range(12)]
    turn = iter(range(10**9))

    def run() -> object:
        x, y = cells[next(turn) % len(cells)]
        if feedback.plan is None:  # type: ignore[attr-defined]
            feedback.move(mover_id, _at(41, 44), Qt.KeyboardModifier(0))  # type: ignore[attr-defined]
        feedback.plan._cache.clear()  # type: ignore[attr-defined]  # a real drag's cells are new
        feedback.cursor = None  # type: ignore[attr-defined]
        feedback.move(mover_id, _at(x, y), Qt.KeyboardModifier(0))  # type: ignore[attr-defined]
        return feedback.last  # type: ignore[attr-defined]

    return run


def _start(bytecode_cached: bool) -> Callable[[], object] | None:
    """``battlemap --screenshot``: start Python, build the window, draw it once, save it."""
    folder = Path(tempfile.mkdtemp(prefix="bench-ui-"))
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "HOME": str(folder)}
    if bytecode_cached:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(folder / "pycache")
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        env.pop("PYTHONPYCACHEPREFIX", None)
    command = [sys.executable, "-m", "battlemap", "--screenshot", str(folder / "first.png")]

    def run() -> object:
        done = subprocess.run(command, env=env, capture_output=True, check=False, timeout=60)
        if done.returncode != 0:
            raise RuntimeError(done.stderr.decode(errors="replace")[-500:])
        return done

    return wall_clock(run)  # the runner's untimed warm-up run compiles and caches the bytecode


def _bare_window() -> Callable[[], object] | None:
    """The start-up reference, timed as ``_start``'s runs are (bytecode cached)."""
    folder = Path(tempfile.mkdtemp(prefix="bench-ui-bare-"))
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "HOME": str(folder)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(folder / "pycache")
    command = [sys.executable, "-c", BARE_WINDOW, str(folder / "bare.png")]

    def run() -> object:
        done = subprocess.run(command, env=env, capture_output=True, check=False, timeout=60)
        if done.returncode != 0:
            raise RuntimeError(done.stderr.decode(errors="replace")[-500:])
        return done

    return wall_clock(run)  # the runner's untimed warm-up run compiles and caches the bytecode


def cases() -> list[Case]:
    return [
        ("ui: one frame of the DM's scene, 1920x1080 (bench map)", _frame),
        (
            "ui: one frame of the DM's scene mid-combat, 1920x1080 (bench map, states, icons)",
            _frame_in_combat,
        ),
        (
            "ui: one frame right after a zoom step, 1920x1080 (bench map, gesture, same buckets)",
            _frame_after_zoom,
        ),
        (
            "ui: one frame after a zoom step to a new zoom, 1920x1080 (bench map, gesture)",
            _frame_at_new_zoom,
        ),
        (
            "ui: first frame of a zoom gesture, no frame held, 1920x1080 (bench map, grab)",
            _gesture_start,
        ),
        (
            "ui: sharp frame when a zoom to a new zoom settles, 1920x1080 (bench map, repainted)",
            _sharp_at_new_zoom,
        ),
        (SETTLED_AFTER_PRERENDER, _settled_after_prerender("sharp")),
        (
            "ui: idle pre-render of a new zoom, all 9 pieces together (bench map, gesture)",
            _settled_after_prerender("pieces"),
        ),
        ("ui: one frame zoomed in (40 cells tall), 1920x1080 (bench map)", _frame_zoomed_in),
        ("ui: drag start (reachable area + shading, bench map)", _drag_start),
        ("ui: drag mouse move to a new cell (geometry + overlay, bench map)", _drag_move),
        ("ui: start to first frame (wall time, demo map)", lambda: _start(True)),
        (
            "ui: start to first frame, reference: PySide6 + deps + bare window (wall time)",
            _bare_window,
        ),
        (
            "ui: start to first frame, bytecode not cached (wall time, demo map)",
            lambda: _start(False),
        ),
    ]
