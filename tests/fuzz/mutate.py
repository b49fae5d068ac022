"""Mutations of seed files: raw bytes, and JSON/YAML values swapped for hostile ones.

Every mutation is drawn from a ``random.Random`` so a (seed, index) pair gives the same input
again (the runner names both when it reports a crash).
"""

from __future__ import annotations

import copy
import json
import random
import re
from collections.abc import Sequence
from typing import Any

import yaml

MAX_COPIED_BYTES = 4_000_000
"""Most bytes one copying mutation makes (else the input, not the loader, eats the memory)."""
_DEEP_MARK = "__fuzz_deep_"
_YAML_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)

HOSTILE_NUMBERS: tuple[float | int, ...] = (
    0,
    -1,
    1,
    2,
    0.5,
    -0.0,
    1e-300,
    1e-9,
    0.0001,
    0.01,
    1e9,
    1e300,
    -1e300,
    255,
    256,
    65535,
    65536,
    2**31 - 1,
    2**31,
    2**32,
    2**53 + 1,
    2**63,
    2**64,
    -(2**63),
    10**30,
    10_000,
    100_000,
    1_000_001,
    3.5,
    1000,
    1001,
)
HOSTILE_STRINGS: tuple[str, ...] = (
    "",
    " ",
    "x" * 81,
    "x" * 10_000,
    "<img src='/etc/passwd'>",
    "<b>bold</b>",
    "&amp;",
    "\x00",
    "..",
    "../../etc/passwd",
    "/abs/path.png",
    "C:\\evil",
    "\u202e\u0627\u200b",
    "💀" * 50,
    "1e308",
    "NaN",
    "-inf",
    "null",
    "true",
    "10 ft",
    "reach 999999999999 ft",
    "+99999999999 to hit",
    "1d100000000",
    "99999d99999",
    "d",
    "#zzzzzz",
    "images/../x.png",
    "medium",
    "huge",
)
JSON_TOKENS: tuple[bytes, ...] = (
    b"[",
    b"]",
    b"{",
    b"}",
    b'"',
    b",",
    b":",
    b"null",
    b"true",
    b"-",
    b"1e400",
    b"NaN",
    b"Infinity",
    b"-Infinity",
    b"0",
    b"-1",
    b"1e-300",
    b"99999999999999999999999",
    b"\\u0000",
    b"\\ud800",
    b"\xff\xfe",
    b"\xc3\x28",
    b"[" * 5000,
    b'{"a":' * 3000,
)
YAML_TOKENS: tuple[bytes, ...] = (
    b"&a ",
    b"*a",
    b"!!python/object:os.system ",
    b"!!binary ",
    b"? ",
    b"- ",
    b": ",
    b"\t",
    b"<<: ",
    b"---\n",
    b"...\n",
    b"%YAML 1.1\n",
    b"|\n",
    b">\n",
    b"~",
    b".inf",
    b".nan",
    b"0x",
    b"0o777",
    b"1_000",
    b"2001-12-14",
    b"[" * 3000,
    b"{a: " * 2000,
    b"'",
    b'"',
    b"#",
)


def mutate_bytes(
    data: bytes,
    rng: random.Random,
    tokens: Sequence[bytes] = JSON_TOKENS,
    others: Sequence[bytes] = (),
) -> bytes:
    """``data`` after 1 to 8 byte-level edits: bit flips, interesting bytes, inserted tokens,
    deleted or repeated spans, truncation, or a splice from another seed."""
    buffer = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        if not buffer:
            buffer += rng.choice(tokens)
            continue
        at = rng.randrange(len(buffer))
        edit = rng.randrange(9)
        if edit == 0:
            buffer[at] ^= 1 << rng.randrange(8)
        elif edit == 1:
            buffer[at] = rng.choice((0, 0xFF, 0x7F, 0x80, 0x20, 0x0A, 0x22, 0x30, 0x39, 0x2D))
        elif edit == 2:
            buffer[at:at] = rng.choice(tokens)
        elif edit == 3:
            del buffer[at : at + rng.randint(1, 64)]
        elif edit == 4:
            span = bytes(buffer[at : at + rng.randint(1, 256)])
            buffer[at:at] = span * rng.randint(1, 64)
        elif edit == 5:
            del buffer[rng.randrange(len(buffer) + 1) :]
        elif edit == 6 and others:
            other = rng.choice(others)
            start = rng.randrange(len(other) + 1)
            buffer[at:] = other[start : start + rng.randint(1, 4096)]
        elif edit == 7:
            buffer[at : at + 4] = rng.randbytes(4)
        else:
            digits = str(rng.choice(HOSTILE_NUMBERS)).encode()
            buffer[at : at + len(digits)] = digits
    return bytes(buffer)


def _copies(rng: random.Random, size: int) -> int:
    return min(rng.choice((2, 100, 10_000)), max(1, MAX_COPIED_BYTES // max(1, size)))


def _hostile_value(rng: random.Random, old: Any, tree: Any) -> Any:
    kind = rng.randrange(12)
    if kind <= 2:
        return rng.choice(HOSTILE_NUMBERS) * (1 if rng.random() < 0.8 else -1)
    if kind <= 4:
        return rng.choice(HOSTILE_STRINGS)
    if kind == 5:
        return rng.choice((None, True, False, [], {}, float("nan"), float("inf")))
    if kind == 6:  # deep nesting (RecursionError in a loader?), written out by the dumps
        return f"{_DEEP_MARK}{rng.choice((50, 1000, 5000, 50_000))}__"
    if kind == 7 and isinstance(old, list) and old:  # many copies: counts before parsing?
        return old * _copies(rng, len(json.dumps(old)))
    if kind == 8 and isinstance(old, list):
        return [*old, *rng.sample(old, min(len(old), 3))]
    if kind == 9:  # another part of the document, copied (a reference could make a cycle)
        return copy.deepcopy(_random_node(rng, tree))
    if kind == 10 and isinstance(old, (int, float)) and not isinstance(old, bool):
        return old * rng.choice((-1, 0.5, 2, 1e6, 1e-6, 1e300))
    if kind == 11 and isinstance(old, str) and old:
        return old * _copies(rng, len(old))
    return rng.choice((None, 0, "", [], {}))


def _paths(tree: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    paths = [prefix]
    if isinstance(tree, dict):
        for key, value in tree.items():
            paths += _paths(value, (*prefix, key))
    elif isinstance(tree, list):
        for index, value in enumerate(tree):
            paths += _paths(value, (*prefix, index))
    return paths


def _random_node(rng: random.Random, tree: Any) -> Any:
    node = tree
    for part in rng.choice(_paths(tree)):
        node = node[part]
    return node


def mutate_tree(tree: Any, rng: random.Random) -> Any:
    """A copy of a parsed JSON/YAML document with 1 to 5 nodes replaced, deleted or renamed."""
    tree = json.loads(json.dumps(tree))  # a private copy (and YAML's dates become strings)
    paths = _paths(tree)
    for _ in range(rng.randint(1, 5)):
        path = rng.choice(paths)
        if not path:
            tree = _hostile_value(rng, tree, tree)
            paths = _paths(tree)
            continue
        parent = tree
        try:
            for part in path[:-1]:
                parent = parent[part]
            old = parent[path[-1]]
        except (KeyError, IndexError, TypeError):
            continue  # an earlier edit removed this node
        if not isinstance(parent, (dict, list)):
            continue  # ... or made its parent a string
        action = rng.randrange(10)
        if action == 0:
            del parent[path[-1]]
        elif action == 1 and isinstance(parent, dict):
            parent[f"{path[-1]}_x"] = parent.pop(path[-1])
        else:
            parent[path[-1]] = _hostile_value(rng, old, tree)
    return tree


MAX_DEEPENED = 4
"""Deep-nesting marks written out per input; copies of a marked list beyond these become 0
(thousands of 50,000-deep copies would eat the worker's memory before the loader runs)."""


def _deepen(text: str, quoted: bool) -> str:
    mark = re.escape(_DEEP_MARK) + r"(\d+)__"
    pattern = f'"{mark}"' if quoted else f"'?{mark}'?"
    deep = re.sub(
        pattern,
        lambda m: "[" * int(m.group(1)) + "0" + "]" * int(m.group(1)),
        text,
        count=MAX_DEEPENED,
    )
    return re.sub(pattern, "0", deep)


def dump_json(tree: Any, rng: random.Random) -> bytes:
    text = json.dumps(tree, indent=rng.choice((None, 1)), allow_nan=True)
    return _deepen(text, quoted=True).encode()


def dump_yaml(tree: Any) -> bytes:
    text = yaml.dump(
        tree, Dumper=_YAML_DUMPER, sort_keys=False, allow_unicode=True, width=1_000_000
    )
    return _deepen(text, quoted=False).encode()
