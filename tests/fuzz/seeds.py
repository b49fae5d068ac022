"""The real files mutations start from: the shared data, the demo encounter, the shipped
rulesets and the test fixtures, plus files made from them (encounters on the real maps).

Real Universal VTT maps carry images of megabytes; most seeds swap it for a tiny PNG so a
mutation lands on the walls and portals rather than in base64 (the full files stay, rarely
drawn). Each seed is ``(bytes, weight)``.
"""

from __future__ import annotations

import base64
import functools
import io
import json
import tempfile
from pathlib import Path
from typing import Any

import yaml

from battlemap.io.encounter_file import EncounterFile, write_battlemap
from battlemap.io.loader import encounter_from_map, load_demo_encounter
from battlemap.model.encounter import Background, Encounter
from battlemap.model.fog import FogMode, FogOfWar
from battlemap.rules.loader import ruleset_files, shipped_rulesets_dir
from tests.shared_data import SHARED_DATA

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "io" / "fixtures"
TINY_PNG = FIXTURES / "tiny.png"
RARE = 0.03
"""Weight of a seed that is slow to load (a full map image), against 1 for the others."""

Seed = tuple[bytes, float]


def _shared(pattern: str) -> list[Path]:
    return sorted(SHARED_DATA.glob(pattern)) if SHARED_DATA.is_dir() else []


def _uvtt_files() -> list[Path]:
    return [*_shared("*.dd2vtt"), FIXTURES / "tiny-format-0.2.uvtt"]


@functools.cache
def uvtt_seeds() -> tuple[Seed, ...]:
    tiny = base64.b64encode(TINY_PNG.read_bytes()).decode()
    seeds: list[Seed] = []
    for path in _uvtt_files():
        data = path.read_bytes()
        document = json.loads(data)
        document["image"] = tiny
        seeds += [(json.dumps(document, indent=1).encode(), 1.0), (data, RARE)]
    return tuple(seeds)


@functools.cache
def map_encounters() -> tuple[tuple[Encounter, dict[str, bytes]], ...]:
    """The demo encounter on each real map (small-image version), fog by the party's sight."""
    demo = load_demo_encounter()
    made: list[tuple[Encounter, dict[str, bytes]]] = [(demo, {})]
    for index, (data, weight) in enumerate(uvtt_seeds()):
        if weight != 1.0:
            continue
        path = Path(f"/nonexistent/map-{index}.dd2vtt")
        opened = _encounter_from_uvtt_bytes(data, path)
        fog = FogOfWar(mode=(FogMode.DYNAMIC, FogMode.BOTH)[index % 2], dark=index % 3 == 0)
        encounter = opened.encounter.model_copy(update={"creatures": demo.creatures, "fog": fog})
        made.append((encounter, dict(opened.images)))
    image = TINY_PNG.read_bytes()
    with_background = demo.model_copy(
        update={"background": Background(image="tiny.png", pixels_per_cell=10)}
    )
    made.append((with_background, {"tiny.png": image}))
    return tuple(made)


def _encounter_from_uvtt_bytes(data: bytes, path: Path) -> EncounterFile:
    with tempfile.TemporaryDirectory() as folder:
        file = Path(folder) / path.name
        file.write_bytes(data)
        return encounter_from_map(file)


@functools.cache
def encounter_json_seeds() -> tuple[Seed, ...]:
    return tuple((e.model_dump_json(indent=1).encode(), 1.0) for e, _ in map_encounters())


@functools.cache
def battlemap_seeds() -> tuple[Seed, ...]:
    seeds = []
    for encounter, images in map_encounters():
        stream = io.BytesIO()
        write_battlemap(stream, encounter, images)
        seeds.append((stream.getvalue(), 1.0))
    return tuple(seeds)


@functools.cache
def ruleset_seeds() -> tuple[Seed, ...]:
    return tuple((path.read_bytes(), 1.0) for path in ruleset_files(shipped_rulesets_dir()))


@functools.cache
def ruleset_trees() -> tuple[Any, ...]:
    """The shipped rulesets parsed (value mutations start from these)."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    return tuple(yaml.load(data, Loader=loader) for data, _ in ruleset_seeds())


@functools.cache
def monster_seeds() -> tuple[Seed, ...]:
    """Each SRD monster alone, a few short lists, and the whole file (rarely)."""
    files = _shared("5e-SRD-Monsters.json")
    if not files:
        return ((_MINIMAL_MONSTER, 1.0),)
    data = files[0].read_bytes()
    monsters = json.loads(data)
    seeds: list[Seed] = [(json.dumps(m, indent=1).encode(), 1.0) for m in monsters]
    seeds += [(json.dumps(monsters[i : i + 3]).encode(), 1.0) for i in range(0, 30, 3)]
    return (*seeds, (data, RARE / 10))


_MINIMAL_MONSTER = json.dumps(
    {
        "name": "Bat",
        "size": "Tiny",
        "type": "beast",
        "armor_class": [{"type": "natural", "value": 12}],
        "hit_points": 1,
        "strength": 2,
        "dexterity": 15,
        "constitution": 8,
        "intelligence": 2,
        "wisdom": 12,
        "charisma": 4,
        "challenge_rating": 0,
        "actions": [
            {"name": "Bite", "desc": "Melee Weapon Attack: +0 to hit, reach 5 ft., one creature."}
        ],
    }
).encode()


@functools.cache
def image_seeds() -> tuple[Seed, ...]:
    """The tiny PNG, the same picture as JPEG and WEBP (Qt writes them), and the real maps'
    images (rarely: they take tens of milliseconds to decode)."""
    from PySide6.QtCore import QBuffer, QIODevice
    from PySide6.QtGui import QImage

    tiny = TINY_PNG.read_bytes()
    seeds: list[Seed] = [(tiny, 1.0)]
    image = QImage.fromData(tiny)
    for fmt, quality in (("JPG", 80), ("JPG", 10), ("WEBP", 80), ("WEBP", 100)):
        buffer = QBuffer()
        buffer.open(QIODevice.OpenModeFlag.WriteOnly)
        image.save(buffer, fmt, quality)  # type: ignore[call-overload]  # str works, bytes not
        seeds.append((bytes(buffer.data().data()), 1.0))
    for path in _shared("*.dd2vtt"):
        seeds.append((base64.b64decode(json.loads(path.read_bytes())["image"]), RARE))
    return tuple(seeds)
