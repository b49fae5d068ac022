"""Hypothesis strategies, one per format, that build files field by field: mostly plausible
values so inputs reach deep into each loader, with hostile numbers, strings and counts
mixed in (the limits are where loaders break)."""

from __future__ import annotations

import base64
import io
import json
import struct
import warnings
import zipfile
import zlib
from typing import Any

from hypothesis import strategies as st

from tests.fuzz import mutate, seeds

Json = Any

hostile_numbers = st.sampled_from(mutate.HOSTILE_NUMBERS)
hostile_integers = st.sampled_from([n for n in mutate.HOSTILE_NUMBERS if isinstance(n, int)])
hostile_strings = st.sampled_from(mutate.HOSTILE_STRINGS)
any_float = st.floats(allow_nan=True, allow_infinity=True)
HOSTILE_ONE_IN = 100
"""How often one field holds a hostile value instead of a plausible one: rarely, so that
most documents stay valid enough to reach the code behind the schema."""
_DICE = st.integers(0, HOSTILE_ONE_IN - 1)


def _hostile_now(draw: st.DrawFn) -> bool:
    # A value mid-range: hypothesis draws the ends of a range far more often than 1 in 100.
    return draw(_DICE) == HOSTILE_ONE_IN // 2


@st.composite
def _rarely(
    draw: st.DrawFn, plausible: st.SearchStrategy[Any], hostile: st.SearchStrategy[Any]
) -> Any:
    return draw(hostile) if _hostile_now(draw) else draw(plausible)


def number(low: float, high: float) -> st.SearchStrategy[float]:
    """A float in ``[low, high]``, now and then any float or a hostile number."""
    return _rarely(st.floats(low, high, allow_nan=False), hostile_numbers | any_float)


def integer(low: int, high: int) -> st.SearchStrategy[int]:
    return _rarely(st.integers(low, high), hostile_integers | st.integers())


def text(max_size: int = 30) -> st.SearchStrategy[str]:
    return _rarely(st.text(min_size=1, max_size=max_size), hostile_strings)


def point(low: float, high: float) -> st.SearchStrategy[list[float]]:
    return st.lists(number(low, high), min_size=2, max_size=2)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | hostile_numbers | st.integers() | any_float | hostile_strings,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=8,
)


def maybe(strategy: st.SearchStrategy[Json]) -> st.SearchStrategy[Json]:
    """The field, or now and then a value of any type in its place."""
    return _rarely(strategy, JSON_VALUES)


def _dump(value: Json) -> bytes:
    return json.dumps(value, allow_nan=True).encode()


# --- encounters ------------------------------------------------------------------------


sizes = st.sampled_from(["tiny", "small", "medium", "large", "huge", "gargantuan"])
sides = st.sampled_from(["party", "hostile", "neutral", "party"])
fog_modes = st.sampled_from(["off", "manual", "dynamic", "both", "dynamic"])


def _creature() -> st.SearchStrategy[Json]:
    return st.fixed_dictionaries(
        {
            "id": _rarely(st.sampled_from([f"creature-{i}" for i in range(8)]), text()),
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
            "kind": maybe(st.sampled_from(["wall", "door", "window"])),
            "open": st.booleans(),
        },
    )


def polygon() -> st.SearchStrategy[Json]:
    return st.fixed_dictionaries({"points": st.lists(point(-20, 80), min_size=3, max_size=8)})


def cells() -> st.SearchStrategy[Json]:
    return st.lists(st.lists(integer(-5, 60), min_size=2, max_size=2), max_size=30)


CREATURES = st.lists(_creature(), max_size=6)
WALLS = st.lists(wall(), max_size=12)
POLYGONS = st.lists(polygon(), max_size=3)
LIGHTS = st.lists(
    st.fixed_dictionaries(
        {"position": point(-5, 60), "bright_cells": number(0, 15), "dim_cells": number(15, 30)}
    ),
    max_size=3,
)
FOG = st.fixed_dictionaries(
    {"mode": fog_modes},
    optional={
        "revealed": cells(),
        "explored": cells(),
        "dark": st.booleans(),
        "sight_range_feet": integer(0, 120),
    },
)
GRID = st.fixed_dictionaries(
    {},
    optional={"cell_feet": number(0.5, 30), "width": integer(1, 60), "height": integer(1, 60)},
)
EXTRA_FIELDS = st.dictionaries(
    st.sampled_from(["ruleset", "notes", "background", "x"]), JSON_VALUES, max_size=1
)


@st.composite
def encounters(draw: st.DrawFn) -> Json:
    """An encounter document: grid, creatures, walls, obstacles, terrain, lights and fog."""
    encounter = {
        "name": draw(maybe(text(250))),
        "grid": draw(GRID),
        "creatures": draw(CREATURES),
        "walls": draw(WALLS),
        "obstacles": draw(POLYGONS),
        "terrain": draw(POLYGONS),
        "lights": draw(LIGHTS),
        "fog": draw(FOG),
    }
    extra = draw(
        st.dictionaries(
            st.sampled_from(["ruleset", "notes", "background", "x"]), JSON_VALUES, max_size=1
        )
    )
    return encounter | extra


encounter_json_files = encounters().map(_dump)


# --- .battlemap zips ---------------------------------------------------------------------

ENTRY_NAMES = _rarely(
    st.sampled_from(["images/other.png", "images/left-over.webp", "notes.txt", "images/"]),
    st.sampled_from(
        ["encounter.json", "../evil", "/abs", "images/../../x", "C:x", "a\\b", "images/.hidden"]
    )
    | st.text(max_size=20),
)
ENTRY_BYTES = _rarely(st.just(seeds.TINY_PNG.read_bytes()), st.binary(max_size=64))
ENVELOPE_EXTRAS = st.dictionaries(st.sampled_from(["saved_by", "extra"]), JSON_VALUES, max_size=1)
COMPRESSION = _rarely(
    st.sampled_from([zipfile.ZIP_DEFLATED, zipfile.ZIP_STORED]),
    st.sampled_from([zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA]),
)
FORMAT_VERSION = _rarely(st.just(2), st.sampled_from([1, 3, 0, -1]) | JSON_VALUES)


@st.composite
def battlemap_files(draw: st.DrawFn) -> bytes:
    """A zip with an ``encounter.json`` envelope (any format version) and image entries,
    now and then with a header that lies about a size or a flag."""
    encounter = draw(encounters())
    envelope = {"format_version": draw(FORMAT_VERSION), "encounter": encounter}
    if draw(st.integers(0, 9)) == 5:
        envelope |= draw(ENVELOPE_EXTRAS)
    entries = [("encounter.json", _dump(envelope))]
    if draw(st.booleans()):
        encounter["background"] = {"image": "tiny.png", "pixels_per_cell": draw(number(1, 200))}
        entries.append(("images/tiny.png", draw(ENTRY_BYTES)))
    entries += draw(st.lists(st.tuples(ENTRY_NAMES, ENTRY_BYTES), max_size=2))
    stream = io.BytesIO()
    with warnings.catch_warnings(), zipfile.ZipFile(stream, "w") as archive:
        warnings.simplefilter("ignore")  # "Duplicate name": such zips are wanted here
        for name, data in entries:
            info = zipfile.ZipInfo(name or "x")
            archive.writestr(info, data, compress_type=draw(COMPRESSION))
    written = bytearray(stream.getvalue())
    if draw(st.integers(0, 9)) == 5:
        at = draw(st.integers(0, len(written) - 4))
        written[at : at + 4] = struct.pack("<I", draw(st.integers(0, 2**32 - 1)))
    return bytes(written)


# --- rulesets --------------------------------------------------------------------------


@st.composite
def ruleset_files(draw: st.DrawFn) -> bytes:
    """A shipped ruleset with some of its fields set to other values, or a small variant
    that ``extends`` another (possibly itself, or one that does not exist)."""
    base = draw(st.sampled_from(seeds.ruleset_trees()))
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
            parent[path[-1]] = draw(JSON_VALUES)
    return mutate.dump_yaml(tree)


# --- Universal VTT ------------------------------------------------------------------------


def uvtt_point(low: float, high: float) -> st.SearchStrategy[Json]:
    return st.fixed_dictionaries({"x": maybe(number(low, high)), "y": maybe(number(low, high))})


def polyline(size: int) -> st.SearchStrategy[Json]:
    return st.lists(uvtt_point(-5, 40), max_size=size)


@st.composite
def uvtt_files(draw: st.DrawFn) -> bytes:
    """A Universal VTT document (``inputs`` makes the ones with huge walls)."""
    tiny = base64.b64encode(seeds.TINY_PNG.read_bytes()).decode()
    image = draw(
        st.sampled_from([tiny, tiny, tiny, "data:image/png;base64," + tiny, "", "!!", tiny[:-4]])
    )
    document = {
        "format": draw(_rarely(st.sampled_from([0.2, 0.3]), st.sampled_from([1.0, 0.1, 2]))),
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
                        "bounds": st.lists(uvtt_point(0, 40), max_size=2),
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
    return _dump(document)


# --- images ---------------------------------------------------------------------------------


def _png_chunk(kind: bytes, body: bytes, good_crc: bool) -> bytes:
    crc = zlib.crc32(kind + body) if good_crc else 0
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)


PNG_ODD_TYPES = st.tuples(st.sampled_from([1, 2, 4, 8, 16, 3]), st.sampled_from([0, 3, 4, 5]))


@st.composite
def png_files(draw: st.DrawFn) -> bytes:
    """A PNG whose header, pixel rows and checksums are right, unless drawn otherwise."""
    width, height = draw(integer(1, 64)) % 2**32, draw(integer(1, 64)) % 2**32
    depth, colour = draw(_rarely(st.sampled_from([(8, 2), (8, 6)]), PNG_ODD_TYPES))
    good_crc = draw(st.integers(0, 9)) != 5
    header = struct.pack(">IIBBBBB", width, height, depth, colour, 0, 0, 0)
    row = 1 + min(width, 64) * (3 if colour == 2 else 4)
    rows = draw(st.binary()) if draw(st.integers(0, 9)) == 5 else bytes(row * min(height, 64))
    pixels = zlib.compress(rows)
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


FEET = st.sampled_from(["30 ft.", "60 ft.", "0 ft.", "120 ft. (blind beyond)"])


@st.composite
def monsters(draw: st.DrawFn) -> Json:
    monster: Json = {
        "name": draw(maybe(text(90))),
        "size": draw(maybe(sizes.map(str.title))),
        "type": draw(maybe(st.sampled_from(["beast", "dragon", "humanoid"]))),
        "armor_class": draw(
            maybe(
                st.lists(
                    st.fixed_dictionaries({"type": st.just("natural"), "value": integer(0, 30)}),
                    min_size=1,
                    max_size=2,
                )
            )
        ),
        "hit_points": draw(maybe(integer(1, 300))),
        "speed": draw(
            maybe(
                st.dictionaries(
                    st.sampled_from(["walk", "fly", "hover", "swim"]),
                    _rarely(FEET, text() | st.booleans()),
                    max_size=3,
                )
            )
        ),
        "senses": draw(
            maybe(
                st.dictionaries(
                    st.sampled_from(["darkvision", "blindsight"]),
                    _rarely(FEET, text() | integer(0, 30)),
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
    from tests.fuzz import roster_inputs  # it builds on this module's helpers

    return {
        "encounter-zip": battlemap_files(),
        "dm-window": battlemap_files(),
        "encounter-json": encounter_json_files,
        "players": encounter_json_files,
        "ruleset": ruleset_files(),
        "uvtt": uvtt_files(),
        "image": image_files,
        "monsters": monster_files,
        "roster": roster_inputs.roster_files,
    }[target]
