"""Hypothesis strategies, one per format, that build files field by field: mostly plausible
values so inputs reach deep into each loader, with hostile numbers, strings and counts
mixed in (the limits are where loaders break)."""

from __future__ import annotations

import base64
import io
import json
import struct
import zipfile
import zlib
from typing import Any

import yaml
from hypothesis import strategies as st

from tests.fuzz import mutate, seeds

Json = Any

hostile_numbers = st.sampled_from(mutate.HOSTILE_NUMBERS)
hostile_strings = st.sampled_from(mutate.HOSTILE_STRINGS)
any_float = st.floats(allow_nan=True, allow_infinity=True)


def number(low: float, high: float) -> st.SearchStrategy[float]:
    """A float in ``[low, high]`` most of the time, otherwise anything."""
    plausible = st.floats(low, high, allow_nan=False)
    return st.one_of(plausible, plausible, plausible, hostile_numbers, any_float)


hostile_integers = st.sampled_from([n for n in mutate.HOSTILE_NUMBERS if isinstance(n, int)])


def integer(low: int, high: int) -> st.SearchStrategy[int]:
    plausible = st.integers(low, high)
    return st.one_of(plausible, plausible, plausible, hostile_integers, st.integers())


def text(max_size: int = 30) -> st.SearchStrategy[str]:
    return st.one_of(st.text(min_size=1, max_size=max_size), hostile_strings)


def point(low: float, high: float) -> st.SearchStrategy[list[float]]:
    return st.lists(number(low, high), min_size=2, max_size=2)


def json_scalars() -> st.SearchStrategy[Json]:
    return st.one_of(st.none(), st.booleans(), hostile_numbers, st.integers(), any_float, text())


def json_values() -> st.SearchStrategy[Json]:
    return st.recursive(
        json_scalars(),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(text(10), inner, max_size=4),
        max_leaves=12,
    )


def maybe(strategy: st.SearchStrategy[Json]) -> st.SearchStrategy[Json]:
    """The field, or a value of any type in its place (about one in ten)."""
    return st.one_of(*[strategy] * 9, json_values())


def _dump(value: Json) -> bytes:
    return json.dumps(value, allow_nan=True).encode()


# --- encounters ------------------------------------------------------------------------


sizes = st.sampled_from(["tiny", "small", "medium", "large", "huge", "gargantuan", "colossal"])
sides = st.sampled_from(["party", "hostile", "neutral", "ally", ""])
fog_modes = st.sampled_from(["off", "manual", "dynamic", "both", "dynamic", "sideways"])


def creature(index: int) -> st.SearchStrategy[Json]:
    return st.fixed_dictionaries(
        {
            "id": st.just(f"creature-{index}") | text(),
            "name": maybe(text(90)),
            "size": maybe(sizes),
            "side": maybe(sides),
            "x": maybe(number(-5, 60)),
            "y": maybe(number(-5, 60)),
            "hp": maybe(integer(0, 100)),
            "max_hp": maybe(integer(0, 100)),
            "hidden": maybe(st.booleans()),
        },
        optional={"reach": integer(0, 30), "name_shown_to_players": st.booleans()},
    )


def wall() -> st.SearchStrategy[Json]:
    return st.fixed_dictionaries(
        {"a": maybe(point(-20, 80)), "b": maybe(point(-20, 80))},
        optional={
            "kind": st.sampled_from(["wall", "door", "window", "portcullis"]),
            "open": st.booleans(),
        },
    )


def polygon() -> st.SearchStrategy[Json]:
    return st.fixed_dictionaries({"points": st.lists(point(-20, 80), max_size=8)})


def cells() -> st.SearchStrategy[Json]:
    return st.lists(st.lists(integer(-5, 60), min_size=2, max_size=2), max_size=30)


@st.composite
def encounters(draw: st.DrawFn) -> Json:
    """An encounter document: grid, creatures, walls, obstacles, terrain, lights and fog."""
    count = draw(st.integers(0, 6))
    encounter = {
        "name": draw(maybe(text(250))),
        "grid": draw(
            st.fixed_dictionaries(
                {},
                optional={
                    "cell_feet": number(0.5, 30),
                    "width": integer(1, 60),
                    "height": integer(1, 60),
                },
            )
        ),
        "creatures": [draw(creature(i)) for i in range(count)],
        "walls": draw(st.lists(wall(), max_size=12)),
        "obstacles": draw(st.lists(polygon(), max_size=3)),
        "terrain": draw(st.lists(polygon(), max_size=3)),
        "lights": draw(
            st.lists(
                st.fixed_dictionaries({"position": point(-5, 60), "range_cells": number(0, 30)}),
                max_size=3,
            )
        ),
        "fog": draw(
            st.fixed_dictionaries(
                {"mode": fog_modes},
                optional={
                    "revealed": cells(),
                    "explored": cells(),
                    "dark": st.booleans(),
                    "sight_range_feet": integer(0, 120),
                },
            )
        ),
    }
    extra = draw(
        st.dictionaries(
            st.sampled_from(["ruleset", "notes", "background", "x"]), json_values(), max_size=1
        )
    )
    return encounter | extra


encounter_json_files = encounters().map(_dump)


# --- .battlemap zips ---------------------------------------------------------------------

entry_names = st.one_of(
    st.just("images/tiny.png"),
    st.just("encounter.json"),
    st.sampled_from(["../evil", "/abs", "images/../../x", "C:x", "a\\b", "images/.hidden", ""]),
    st.text(max_size=20),
)


@st.composite
def battlemap_files(draw: st.DrawFn) -> bytes:
    """A zip with an ``encounter.json`` envelope (any format version) and image entries."""
    encounter = draw(encounters())
    if draw(st.booleans()):
        encounter["background"] = {"image": "tiny.png", "pixels_per_cell": draw(number(1, 200))}
    envelope = {
        "format_version": draw(maybe(st.sampled_from([1, 2, 2, 2, 3, 0, -1]))),
        "encounter": encounter,
    } | draw(st.dictionaries(st.sampled_from(["saved_by", "extra"]), json_values(), max_size=1))
    entries = [("encounter.json", _dump(envelope))]
    entries += draw(
        st.lists(
            st.tuples(entry_names, st.just(seeds.TINY_PNG.read_bytes()) | st.binary(max_size=64)),
            max_size=3,
        )
    )
    stream = io.BytesIO()
    with zipfile.ZipFile(stream, "w") as archive:
        for name, data in entries:
            method = draw(
                st.sampled_from(
                    [zipfile.ZIP_DEFLATED, zipfile.ZIP_STORED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA]
                )
            )
            archive.writestr(zipfile.ZipInfo(name or "x"), data, compress_type=method)
    data = bytearray(stream.getvalue())
    if draw(st.booleans()):  # lie about a size or a flag in a header
        at = draw(st.integers(0, len(data) - 4))
        data[at : at + 4] = struct.pack("<I", draw(st.integers(0, 2**32 - 1)))
    return bytes(data)


# --- rulesets --------------------------------------------------------------------------


@st.composite
def ruleset_files(draw: st.DrawFn) -> bytes:
    """A shipped ruleset with some of its fields set to other values, or a small variant
    that ``extends`` another (possibly itself, or one that does not exist)."""
    base = yaml.safe_load(draw(st.sampled_from([data for data, _ in seeds.ruleset_seeds()])))
    if draw(st.booleans()):
        tree: Json = {"extends": draw(st.sampled_from(["srd-5e", "gms-den", "fuzzed", "nope", 5]))}
        tree |= {"name": draw(text()), "schema_version": draw(maybe(st.just(1)))}
    else:
        tree = json.loads(json.dumps(base))
    paths = [p for p in mutate._paths(base) if p]
    for path in draw(st.lists(st.sampled_from(paths), max_size=6)):
        parent = tree
        for part in path[:-1]:
            if not isinstance(parent, dict) or part not in parent:
                parent = None
                break
            parent = parent[part]
        if isinstance(parent, dict):
            parent[path[-1]] = draw(json_values())
    return mutate.dump_yaml(tree)


# --- Universal VTT ------------------------------------------------------------------------


def uvtt_point(low: float, high: float) -> st.SearchStrategy[Json]:
    return st.fixed_dictionaries({"x": maybe(number(low, high)), "y": maybe(number(low, high))})


def polyline(size: int) -> st.SearchStrategy[Json]:
    return st.lists(uvtt_point(-5, 40), max_size=size)


@st.composite
def long_polyline(draw: st.DrawFn) -> Json:
    """A polyline of thousands of points (a traced outline; counts are bounded by the loader)."""
    count = draw(st.sampled_from([1_000, 10_000, 100_000, 1_000_001]))
    step = draw(number(0.001, 1))
    return [{"x": (i * step) % 40, "y": (i * step * 7) % 40} for i in range(count)]


@st.composite
def uvtt_files(draw: st.DrawFn) -> bytes:
    tiny = base64.b64encode(seeds.TINY_PNG.read_bytes()).decode()
    image = draw(
        st.sampled_from([tiny, tiny, tiny, "data:image/png;base64," + tiny, "", "!!", tiny[:-4]])
    )
    document = {
        "format": draw(maybe(st.sampled_from([0.2, 0.3, 0.3, 1.0, 0.1, 2]))),
        "resolution": {
            "map_origin": draw(uvtt_point(-10, 10)),
            "map_size": draw(uvtt_point(1, 40)),
            "pixels_per_grid": draw(number(10, 300)),
        },
        "line_of_sight": draw(st.lists(polyline(8), max_size=6)),
        "objects_line_of_sight": draw(st.lists(polyline(8), max_size=4)),
        "portals": draw(
            st.lists(
                st.fixed_dictionaries(
                    {"position": uvtt_point(0, 40)},
                    optional={
                        "bounds": st.lists(uvtt_point(0, 40), max_size=3),
                        "rotation": number(-7, 7),
                        "closed": maybe(st.booleans()),
                        "freestanding": st.booleans(),
                    },
                ),
                max_size=4,
            )
        ),
        "lights": draw(
            st.lists(
                st.fixed_dictionaries(
                    {
                        "position": uvtt_point(0, 40),
                        "range": number(0, 20),
                        "color": st.sampled_from(["ffeccd8b", "#fff", "zz", "ffffff"]),
                    }
                ),
                max_size=3,
            )
        ),
        "image": image,
    }
    if draw(st.integers(0, 9)) == 0:
        key = draw(st.sampled_from(["line_of_sight", "objects_line_of_sight"]))
        document[key] = [*document[key], draw(long_polyline())]
    return _dump(document)


# --- images ---------------------------------------------------------------------------------


def _png_chunk(kind: bytes, body: bytes, good_crc: bool) -> bytes:
    crc = zlib.crc32(kind + body) if good_crc else 0
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)


@st.composite
def png_files(draw: st.DrawFn) -> bytes:
    width, height = draw(integer(1, 64)), draw(integer(1, 64))
    depth = draw(st.sampled_from([1, 2, 4, 8, 16, 3]))
    colour = draw(st.sampled_from([0, 2, 3, 4, 6, 5]))
    good_crc = draw(st.integers(0, 4)) > 0
    header = struct.pack(">IIBBBBB", width % 2**32, height % 2**32, depth, colour, 0, 0, 0)
    rows = draw(st.integers(0, 64)) * (1 + max(1, draw(st.integers(1, 64)) * 4))
    pixels = zlib.compress(bytes(rows) + draw(st.binary(max_size=32)))
    chunks = [_png_chunk(b"IHDR", header, good_crc)]
    if colour == 3:
        chunks.append(_png_chunk(b"PLTE", draw(st.binary(max_size=48)), good_crc))
    chunks += [_png_chunk(b"IDAT", pixels, good_crc), _png_chunk(b"IEND", b"", good_crc)]
    return b"\x89PNG\r\n\x1a\n" + b"".join(chunks)


@st.composite
def jpeg_files(draw: st.DrawFn) -> bytes:
    width, height = draw(integer(1, 64)) % 65536, draw(integer(1, 64)) % 65536
    marker = draw(st.sampled_from([0xC0, 0xC1, 0xC2, 0xC3, 0xC4, 0xC9, 0xCC, 0xDB, 0xDA]))
    frame = struct.pack(">BHHB", 8, height, width, 1) + b"\x01\x11\x00"
    length = draw(st.sampled_from([len(frame) + 2, 0, 1, 2, 65535]))
    segments = [b"\xff\xd8", b"\xff" + bytes([marker]) + struct.pack(">H", length) + frame]
    return b"".join(segments) + draw(st.binary(max_size=200)) + b"\xff\xd9"


@st.composite
def webp_files(draw: st.DrawFn) -> bytes:
    chunk = draw(st.sampled_from([b"VP8 ", b"VP8L", b"VP8X", b"ALPH"]))
    body = bytearray(draw(st.binary(min_size=10, max_size=80)))
    if chunk == b"VP8 ":
        body[3:10] = b"\x9d\x01\x2a" + struct.pack("<HH", draw(integer(1, 64)) % 65536, 16)
    elif chunk == b"VP8L":
        body[0:5] = b"\x2f" + struct.pack("<I", draw(st.integers(0, 2**32 - 1)))
    payload = b"WEBP" + chunk + struct.pack("<I", len(body)) + bytes(body)
    size = draw(st.sampled_from([len(payload), 0, 2**32 - 1]))
    return b"RIFF" + struct.pack("<I", size) + payload


image_files = st.one_of(png_files(), jpeg_files(), webp_files())


# --- monsters -------------------------------------------------------------------------------

ability_names = ["strength", "dexterity", "constitution", "intelligence", "wisdom", "charisma"]
proficiency_indexes = st.one_of(
    st.sampled_from(
        [
            "saving-throw-dex",
            "saving-throw-wis",
            "saving-throw-xyz",
            "saving-throw-",
            "skill-stealth",
        ]
    ),
    text(),
)
attack_texts = st.one_of(
    st.builds(
        lambda kind, bonus, reach, rng: (
            f"{kind} Weapon Attack: {bonus} to hit, reach {reach} ft., range {rng} ft., one target."
        ),
        st.sampled_from(["Melee", "Ranged", "Melee or Ranged", "melee", "Spell"]),
        st.sampled_from(["+4", "-1", "+ 4", "+99999999999999999999", "+x"]),
        st.sampled_from(["5", "0", "99999999999999999999", ""]),
        st.sampled_from(["80/320", "30", "99999999999999999999/1", "x"]),
    ),
    text(60),
)


@st.composite
def monsters(draw: st.DrawFn) -> Json:
    monster: Json = {
        "name": draw(maybe(text(90))),
        "size": draw(maybe(sizes.map(str.title))),
        "type": draw(maybe(st.sampled_from(["beast", "dragon", ""]))),
        "armor_class": draw(
            maybe(
                st.lists(
                    st.fixed_dictionaries({"type": st.just("natural"), "value": integer(0, 30)}),
                    max_size=2,
                )
            )
        ),
        "hit_points": draw(maybe(integer(1, 300))),
        "speed": draw(
            maybe(
                st.dictionaries(
                    st.sampled_from(["walk", "fly", "hover", "swim"]),
                    st.one_of(text(), st.booleans()),
                    max_size=3,
                )
            )
        ),
        "senses": draw(
            maybe(
                st.dictionaries(
                    st.sampled_from(["darkvision", "passive_perception", "blindsight"]),
                    st.one_of(text(), integer(0, 30)),
                    max_size=3,
                )
            )
        ),
        "proficiencies": draw(
            maybe(
                st.lists(
                    st.fixed_dictionaries(
                        {
                            "value": integer(-5, 15),
                            "proficiency": st.fixed_dictionaries(
                                {"index": proficiency_indexes, "name": text()}
                            ),
                        }
                    ),
                    max_size=3,
                )
            )
        ),
        "challenge_rating": draw(maybe(number(0, 30))),
        "actions": draw(
            maybe(
                st.lists(
                    st.fixed_dictionaries(
                        {"name": text(), "desc": attack_texts},
                        optional={
                            "attack_bonus": integer(-5, 15),
                            "damage": st.lists(
                                st.fixed_dictionaries(
                                    {
                                        "damage_dice": text(12),
                                        "damage_type": st.fixed_dictionaries({"index": text()}),
                                    }
                                ),
                                max_size=2,
                            ),
                        },
                    ),
                    max_size=3,
                )
            )
        ),
    }
    for ability in ability_names:
        monster[ability] = draw(maybe(integer(1, 30)))
    return monster


monster_files = st.one_of(monsters(), st.lists(monsters(), max_size=3)).map(_dump)


def strategy(target: str) -> st.SearchStrategy[bytes]:
    """The structured strategy that makes files for ``target``."""
    return {
        "encounter-zip": battlemap_files(),
        "encounter-json": encounter_json_files,
        "players": encounter_json_files,
        "ruleset": ruleset_files(),
        "uvtt": uvtt_files(),
        "image": image_files,
        "monsters": monster_files,
    }[target]
