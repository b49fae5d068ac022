"""``battlemap rulesets check|schema|list``: validate, describe and list ruleset files.

No Qt: ``battlemap.app`` hands ``argv`` here before building its own parser.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from battlemap.rules.docs import ruleset_json_schema, ruleset_reference
from battlemap.rules.loader import (
    RulesetError,
    RulesetRegistry,
    load_registry,
    read_ruleset_file,
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="battlemap rulesets", description="Check, describe and list rulesets."
    )
    parser.add_argument(
        "--user-dir", type=Path, help="folder of the user's own rulesets (also checked)"
    )
    sub = parser.add_subparsers(dest="command", required=True)
    check = sub.add_parser("check", help="validate ruleset files (default: all installed)")
    check.add_argument("files", nargs="*", type=Path, metavar="FILE")
    sub.add_parser("schema", help="print the JSON Schema of ruleset files")
    sub.add_parser("docs", help="print the ruleset file reference (docs/rulesets.md)")
    sub.add_parser("list", help="list the installed rulesets")
    return parser


def main(argv: Sequence[str], out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run a ``rulesets`` subcommand; returns the exit code (0 ok, 1 problems found)."""
    out = out or sys.stdout
    err = err or sys.stderr
    args = build_parser().parse_args(list(argv))
    if args.command == "schema":
        print(json.dumps(ruleset_json_schema(), indent=2), file=out)
        return 0
    if args.command == "docs":
        out.write(ruleset_reference())
        return 0
    registry = load_registry(args.user_dir)
    if args.command == "list":
        return _list(registry, out, err)
    return _check(registry, args.files, out, err)


def _list(registry: RulesetRegistry, out: TextIO, err: TextIO) -> int:
    for ruleset_id in registry.ids():
        source = registry.sources[ruleset_id]
        try:
            name = registry.get(ruleset_id).name
        except RulesetError as error:
            print(str(error), file=err)
            continue
        base = f" (extends {source.extends})" if source.extends else ""
        print(f"{ruleset_id:20} {name}{base}  [{source.path}]", file=out)
    for problem in registry.problems:
        print(f"skipped: {problem}", file=err)
    return 0


def _check(registry: RulesetRegistry, files: list[Path], out: TextIO, err: TextIO) -> int:
    failed = False
    ids: list[tuple[str, Path]] = []
    for path in files:
        try:
            source = read_ruleset_file(path)
        except RulesetError as error:
            print(str(error), file=err)
            failed = True
            continue
        registry.add(source)
        ids.append((source.id, path))
    if not files:
        ids = [(i, registry.sources[i].path) for i in registry.ids()]
        for problem in registry.problems:
            print(str(problem), file=err)
            failed = True
    for ruleset_id, path in ids:
        try:
            ruleset = registry.get(ruleset_id)
        except RulesetError as error:
            print(str(error), file=err)
            failed = True
            continue
        print(f"ok: {path} ({ruleset.name})", file=out)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
