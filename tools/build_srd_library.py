"""Generate ``assets/srd-monsters.json`` from the 5e-database monster JSON.

    .venv/bin/python tools/build_srd_library.py [../shared/data/5e-SRD-Monsters.json]

Only facts and numbers are kept, and the text of the actions the app does not play itself
(attacks are numbers only); the SRD's CC-BY-4.0 attribution is written into the file. The
output is sorted by name and stable, so regenerating it from the same input gives the same
bytes.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from battlemap.io.errors import FileFormatError  # noqa: E402
from battlemap.io.monsters import (  # noqa: E402
    LIBRARY_FORMAT_VERSION,
    SRD_ATTRIBUTION,
    MonsterLibrary,
    import_5e_monsters,
)

DEFAULT_INPUT = ROOT.parent / "shared" / "data" / "5e-SRD-Monsters.json"
DEFAULT_OUTPUT = ROOT / "assets" / "srd-monsters.json"


def build(source: Path) -> MonsterLibrary:
    monsters = sorted(import_5e_monsters(source), key=lambda block: block.name)
    digest = hashlib.sha256(source.read_bytes()).hexdigest()
    return MonsterLibrary(
        format_version=LIBRARY_FORMAT_VERSION,
        attribution=SRD_ATTRIBUTION,
        source=f"5e-bits/5e-database src/2014/en/5e-SRD-Monsters.json, sha256 {digest}",
        monsters=tuple(monsters),
    )


def to_json(library: MonsterLibrary) -> str:
    """The library as JSON with one monster per line: small, and diffs show which changed.
    Defaults are written out so the file's meaning never depends on the model's defaults."""
    header = library.model_dump(mode="json", exclude={"monsters"})
    lines = [block.model_dump_json() for block in library.monsters]
    head = json.dumps(header, indent=1)[:-2]  # without the closing "\n}"
    return head + ',\n "monsters": [\n  ' + ",\n  ".join(lines) + "\n ]\n}\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", nargs="?", type=Path, default=DEFAULT_INPUT)
    parser.add_argument("-o", "--output", type=Path, default=DEFAULT_OUTPUT)
    args = parser.parse_args(argv)
    try:
        library = build(args.source)
    except FileFormatError as error:
        print(f"build_srd_library: {error}", file=sys.stderr)
        return 2
    text = to_json(library)
    args.output.write_text(text, encoding="utf-8")
    print(f"wrote {len(library.monsters)} monsters to {args.output} ({len(text)} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
