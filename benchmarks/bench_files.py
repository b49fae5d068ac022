"""Saving and opening .battlemap files, and the cost of one undo step, small and large."""

from __future__ import annotations

import io
import random
import tempfile
from collections.abc import Callable
from pathlib import Path

Case = tuple[str, Callable[[], Callable[[], object] | None]]
BIG_IMAGE_BYTES = 20 * 1024 * 1024


def _large() -> tuple[object, dict[str, bytes]]:
    """2,000 creatures, 5,000 walls and a 20 MiB (incompressible) background image."""
    from battlemap.model import Background, Creature, Encounter, Grid, Wall

    creatures = tuple(
        Creature(id=f"c{i}", name=f"Goblin {i}", x=i % 200, y=i // 200) for i in range(2000)
    )
    walls = tuple(
        Wall(id=f"w{i}", a=(i % 300, i // 300), b=(i % 300 + 1, i // 300)) for i in range(5000)
    )
    encounter = Encounter(
        name="Large",
        grid=Grid(width=300, height=300),
        background=Background(image="big.png", pixels_per_cell=70),
        creatures=creatures,  # type: ignore[arg-type]
        walls=walls,
    )
    return encounter, {"big.png": random.Random(1).randbytes(BIG_IMAGE_BYTES)}


def _demo() -> tuple[object, dict[str, bytes]]:
    from battlemap.io.loader import load_demo_encounter

    return load_demo_encounter(), {}


def _save(make: Callable[[], tuple[object, dict[str, bytes]]]) -> Callable[[], object]:
    from battlemap.io.encounter_file import save_battlemap

    encounter, images = make()
    path = Path(tempfile.mkdtemp()) / "bench.battlemap"
    return lambda: save_battlemap(path, encounter, images)  # type: ignore[arg-type]


def _load(make: Callable[[], tuple[object, dict[str, bytes]]]) -> Callable[[], object]:
    from battlemap.io.encounter_file import load_battlemap, save_battlemap

    encounter, images = make()
    path = Path(tempfile.mkdtemp()) / "bench.battlemap"
    save_battlemap(path, encounter, images)  # type: ignore[arg-type]
    return lambda: load_battlemap(path)


def _serialise_only(make: Callable[[], tuple[object, dict[str, bytes]]]) -> Callable[[], object]:
    """The zip written to memory: the work the autosave worker does besides the disk."""
    from battlemap.io.encounter_file import write_battlemap

    encounter, images = make()
    return lambda: write_battlemap(io.BytesIO(), encounter, images)  # type: ignore[arg-type]


def _undo_redo_move(make: Callable[[], tuple[object, dict[str, bytes]]]) -> Callable[[], object]:
    from battlemap.model import Document
    from battlemap.model.document import MoveCreature

    encounter, _images = make()
    document = Document(encounter)  # type: ignore[arg-type]
    first = document.encounter.creatures[-1]
    move = MoveCreature(first.id, (first.x, first.y), (first.x + 1, first.y))

    def step() -> None:
        document.apply(move)
        document.revert(move)

    return step


def cases() -> list[Case]:
    result: list[Case] = []
    for label, make in (("demo", _demo), ("2000 creatures+20MiB image", _large)):
        result += [
            (f"files: save {label}", lambda make=make: _save(make)),
            (f"files: open {label}", lambda make=make: _load(make)),
            (f"files: zip in memory {label}", lambda make=make: _serialise_only(make)),
            (f"undo: move+undo {label}", lambda make=make: _undo_redo_move(make)),
        ]
    return result
