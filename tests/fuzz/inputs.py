"""Mutation sources for each target: a name and a function of a ``random.Random`` that makes
one input file's bytes from the target's seeds."""

from __future__ import annotations

import io
import json
import random
import struct
import zipfile
from collections.abc import Callable
from dataclasses import dataclass

from tests.fuzz import mutate, seeds
from tests.fuzz.roster_inputs import roster_seeds

Make = Callable[[random.Random], bytes]


@dataclass(frozen=True)
class Source:
    name: str
    make: Make
    weight: float = 1.0
    """Share of the target's mutated inputs, against the other sources' weights."""


LONG_LINE_POINTS = (10_000, 50_000, 100_000, 300_000, 1_000_001)
"""Points in the one long wall of a large UVTT input (the loader's limit is 1,000,000)."""


def _long_line(rng: random.Random, count: int) -> str:
    """A polyline of ``count`` points zigzagging across a 40-cell map, as JSON text (a
    million points drawn one by one would take longer than loading them)."""
    step = rng.choice((0.01, 0.37, 1.7))
    pattern = [f'{{"x":{(i * step) % 40:.3f},"y":{(i * step * 7) % 40:.3f}}}' for i in range(97)]
    return "[" + ",".join(pattern * (count // 97) + pattern[: count % 97]) + "]"


def _uvtt_large(rng: random.Random) -> bytes:
    """A real map with one wall (or object outline) of tens of thousands of points added."""
    document = json.loads(_pick(rng, seeds.uvtt_seeds()))
    key = rng.choice(("line_of_sight", "objects_line_of_sight"))
    document[key] = [*document.get(key, []), "__fuzz_long_line__"]
    text = json.dumps(document).replace(
        '"__fuzz_long_line__"', _long_line(rng, rng.choice(LONG_LINE_POINTS))
    )
    return text.encode()


def _pick(rng: random.Random, found: tuple[seeds.Seed, ...]) -> bytes:
    return rng.choices([data for data, _ in found], [weight for _, weight in found])[0]


def _others(found: tuple[seeds.Seed, ...]) -> list[bytes]:
    return [data for data, weight in found if weight == 1.0]


def _byte_source(find: Callable[[], tuple[seeds.Seed, ...]], tokens: tuple[bytes, ...]) -> Source:
    def make(rng: random.Random) -> bytes:
        found = find()
        return mutate.mutate_bytes(_pick(rng, found), rng, tokens, _others(found))

    return Source("bytes", make)


def _json_values(find: Callable[[], tuple[seeds.Seed, ...]]) -> Source:
    def make(rng: random.Random) -> bytes:
        return mutate.dump_json(mutate.mutate_tree(json.loads(_pick(rng, find())), rng), rng)

    return Source("values", make)


def _yaml_values(rng: random.Random) -> bytes:
    return mutate.dump_yaml(mutate.mutate_tree(rng.choice(seeds.ruleset_trees()), rng))


def _zip_values(rng: random.Random) -> bytes:
    """The encounter inside a ``.battlemap`` mutated, the zip written again around it."""
    original = zipfile.ZipFile(io.BytesIO(_pick(rng, seeds.battlemap_seeds())))
    stream = io.BytesIO()
    with original, zipfile.ZipFile(stream, "w", zipfile.ZIP_DEFLATED) as rewritten:
        for info in original.infolist():
            data = original.read(info)
            if info.filename == "encounter.json":
                data = mutate.dump_json(mutate.mutate_tree(json.loads(data), rng), rng)
            rewritten.writestr(info.filename, data)
    return stream.getvalue()


def _image_header(rng: random.Random) -> bytes:
    """Hostile numbers written over the header, where sizes and lengths live."""
    data = bytearray(_pick(rng, seeds.image_seeds()))
    for _ in range(rng.randint(1, 3)):
        at = rng.randrange(min(len(data), 64))
        number = int(abs(rng.choice(mutate.HOSTILE_NUMBERS))) % 2**32
        packed = struct.pack(rng.choice((">I", "<I")), number)[rng.choice((0, 2)) :]
        data[at : at + len(packed)] = packed
    return bytes(data)


def first_seed(target: str) -> bytes:
    """A real file for ``target``, unmutated."""
    found = {
        "encounter-json": seeds.encounter_json_seeds,
        "players": seeds.encounter_json_seeds,
        "encounter-zip": seeds.battlemap_seeds,
        "dm-window": seeds.battlemap_seeds,
        "ruleset": seeds.ruleset_seeds,
        "uvtt": seeds.uvtt_seeds,
        "monsters": seeds.monster_seeds,
        "image": seeds.image_seeds,
        "roster": roster_seeds,
    }[target]()
    return found[0][0]


def sources(target: str) -> tuple[Source, ...]:
    """The mutation sources of ``target`` (the hypothesis strategy is the other source)."""
    if target in ("encounter-json", "players"):
        find = seeds.encounter_json_seeds
        return (_byte_source(find, mutate.JSON_TOKENS), _json_values(find))
    if target in ("encounter-zip", "dm-window"):
        return (
            _byte_source(seeds.battlemap_seeds, mutate.JSON_TOKENS),
            Source("values", _zip_values),
        )
    if target == "ruleset":
        return (
            _byte_source(seeds.ruleset_seeds, mutate.YAML_TOKENS),
            Source("values", _yaml_values),
        )
    if target == "uvtt":
        return (
            _byte_source(seeds.uvtt_seeds, mutate.JSON_TOKENS),
            _json_values(seeds.uvtt_seeds),
            Source("large", _uvtt_large, weight=0.03),
        )
    if target == "monsters":
        find = seeds.monster_seeds
        return (_byte_source(find, mutate.JSON_TOKENS), _json_values(find))
    if target == "roster":
        return (_byte_source(roster_seeds, mutate.JSON_TOKENS), _json_values(roster_seeds))
    if target == "image":
        return (
            _byte_source(seeds.image_seeds, (b"\x00", b"\xff", b"\xff\xd8", b"IDAT", b"VP8 ")),
            Source("header", _image_header),
        )
    raise KeyError(target)
