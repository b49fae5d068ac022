"""The loaders under fuzz: how each is called, and which errors are clean refusals.

A loader passes an input when it returns, or raises one of its ``refusals`` with the file's
name in the message. Anything else that escapes is a crash. ``run_one`` classifies one input.
"""

from __future__ import annotations

import functools
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from battlemap.io.errors import FileFormatError
from battlemap.io.hit_points import HitPoints
from battlemap.io.loader import encounter_from_map, load_encounter_file
from battlemap.io.monsters import creature_from_statblock, import_5e_monsters
from battlemap.io.roster_file import read_roster
from battlemap.rules.loader import (
    RulesetError,
    RulesetRegistry,
    RulesetSource,
    read_ruleset_file,
    ruleset_files,
    shipped_rulesets_dir,
)
from battlemap.ui.players.party_fog import PartyFog
from battlemap.ui.players.projection import project


class Verdict(StrEnum):
    LOADED = "loaded"
    REFUSED = "refused"
    CRASH = "crash"
    """An exception that is not the loader's error type, or a refusal not naming the file."""
    HANG = "hang"
    MEMORY = "memory"
    """MemoryError under the worker's limit, or the worker killed while over it."""


FAILURES = frozenset({Verdict.CRASH, Verdict.HANG, Verdict.MEMORY})
SLOW_SECONDS = 1.0
"""Loaded or refused, but slower than a loader should be (counted and kept, not failed)."""


@dataclass(frozen=True)
class Outcome:
    verdict: Verdict
    seconds: float
    signature: str = ""
    """For a failure: the exception type and the innermost battlemap frame, to group by."""
    detail: str = ""
    cpu_seconds: float = 0.0
    """The worker's CPU time on the input: on a shared machine ``seconds`` (wall) can be
    several times more."""


PLAYERS_RENDER_WIDTH = 160
"""Pixels across the players' scene is drawn at: enough to paint every item once."""


@dataclass(frozen=True)
class Target:
    name: str
    suffix: str
    load: Callable[[Path], object]
    refusals: tuple[type[BaseException], ...]


@functools.cache
def _shipped_sources() -> dict[str, RulesetSource]:
    return {s.id: s for s in map(read_ruleset_file, ruleset_files(shipped_rulesets_dir()))}


def load_ruleset(path: Path) -> object:
    """What the app does with a user's ruleset file: read it, then resolve its ``extends``
    chain over the shipped rulesets and validate it (``load_registry`` without re-reading
    the shipped files for every input)."""
    registry = RulesetRegistry(sources=dict(_shipped_sources()))
    source = read_ruleset_file(path)
    registry.add(source)
    return registry.get(source.id)


def import_monsters_to_map(path: Path) -> object:
    """A monster file imported into the library, then each monster put on the map, with
    its average and with rolled hit points, as the Library dock does."""
    blocks = import_5e_monsters(path)
    for hit_points in HitPoints:
        creatures = [creature_from_statblock(block, hit_points=hit_points) for block in blocks]
    return creatures


def open_image_map(path: Path) -> object:
    """An image opened as a map, then decoded by Qt as the map scene does."""
    from battlemap.ui.background_item import decode_image

    opened = encounter_from_map(path)
    (data,) = opened.images.values()
    return decode_image(data, str(path))


def open_for_players(path: Path) -> object:
    """An encounter file opened and shown on the players' window: the party's sight (when
    the fog uses it) over the map index, ``project``, then the players' scene built from the
    projection and drawn, small, as the TV would show it."""
    from PySide6.QtWidgets import QApplication

    from battlemap.model.document import Document
    from battlemap.ui.players.scene import PlayerScene
    from battlemap.ui.render import render_scene

    opened = load_encounter_file(path)
    encounter = opened.encounter
    sight = PartyFog().visible(encounter) if encounter.fog.mode.uses_sight else None
    view = project(encounter, sight)
    _ = QApplication.instance() or QApplication([])
    scene = PlayerScene(Document(encounter, dict(opened.images)))
    scene.show_view(view)
    return render_scene(scene, scene.sceneRect(), width=PLAYERS_RENDER_WIDTH)


def open_for_dm(path: Path) -> object:
    """An encounter file opened as ``battlemap --smoke FILE`` does: the DM window's scene built
    from it (tokens, walls, lights, terrain, the background image) and drawn, small; the
    window's docks are left out, as they show the same model in widgets."""
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QUndoStack
    from PySide6.QtWidgets import QApplication

    from battlemap.model.document import Document
    from battlemap.ui.map_scene import MapScene
    from battlemap.ui.render import render_scene
    from battlemap.ui.style import cell_to_scene

    opened = load_encounter_file(path)
    grid = opened.encounter.grid
    _ = QApplication.instance() or QApplication([])
    scene = MapScene(Document(opened.encounter, dict(opened.images)), QUndoStack())
    map_rect = QRectF(0, 0, cell_to_scene(grid.width), cell_to_scene(grid.height))
    return render_scene(scene, map_rect, width=PLAYERS_RENDER_WIDTH)


SUFFIXES = {
    "encounter-zip": ".battlemap",
    "encounter-json": ".json",
    "ruleset": ".yaml",
    "uvtt": ".dd2vtt",
    "image": ".png",
    "monsters": ".json",
    "players": ".json",
    "dm-window": ".battlemap",
    "roster": ".json",
}
"""The fuzzed loaders by name, with the suffix their input files get."""
TARGET_NAMES = tuple(SUFFIXES)


def target(name: str) -> Target:
    """The loader ``name`` (``image`` imports Qt: its decoder's error is a refusal too)."""
    if name == "image":
        from battlemap.ui.background_item import ImageDecodeError

        return Target(name, SUFFIXES[name], open_image_map, (FileFormatError, ImageDecodeError))
    load, refusal = {
        "encounter-zip": (load_encounter_file, FileFormatError),
        "encounter-json": (load_encounter_file, FileFormatError),
        "ruleset": (load_ruleset, RulesetError),
        "uvtt": (load_encounter_file, FileFormatError),
        "monsters": (import_monsters_to_map, FileFormatError),
        "players": (open_for_players, FileFormatError),
        "dm-window": (open_for_dm, FileFormatError),
        "roster": (read_roster, FileFormatError),
    }[name]
    return Target(name, SUFFIXES[name], load, (refusal,))


def _signature(error: BaseException) -> str:
    frames = [f for f in traceback.extract_tb(error.__traceback__) if "/battlemap/" in f.filename]
    where = f" at {Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else ""
    return f"{type(error).__name__}{where}"


def run_one(loader: Target, path: Path) -> Outcome:
    """Load ``path`` with ``loader`` and say how it went (never raises but for Ctrl+C)."""
    start, cpu = time.perf_counter(), time.process_time()
    verdict, signature, detail = _classify(loader, path)
    seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - cpu
    return Outcome(verdict, seconds, signature, detail, cpu_seconds)


def _classify(loader: Target, path: Path) -> tuple[Verdict, str, str]:
    try:
        loader.load(path)
    except loader.refusals as error:
        if path.name in str(error):
            return Verdict.REFUSED, "", ""
        message = f"refusal does not name the file: {str(error)[:300]}"
        return Verdict.CRASH, f"unnamed {_signature(error)}", message
    except MemoryError as error:
        return Verdict.MEMORY, _signature(error), ""
    except Exception as error:  # classifying what escapes is the point
        detail = "".join(traceback.format_exception(error, limit=-8))[-2000:]
        return Verdict.CRASH, _signature(error), detail
    return Verdict.LOADED, "", ""
