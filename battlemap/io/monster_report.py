"""``battlemap monsters report [FILE]``: which stat-block actions the app plays itself.

For the bundled SRD library (or a 5e-database JSON file given), per monster and in total:
the automated actions (attacks, Multiattack options, save actions, legendary actions that
make an attack or a save, Legendary Resistance) and the text-only ones (kept as text for the
DM: reactions, spellcasting, limited-use traits, other legendary and lair actions). Uses of
Recharge and N/day actions are tracked either way and counted apart. No Qt.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from battlemap.io.errors import FileFormatError
from battlemap.io.monsters import import_5e_monsters, load_library
from battlemap.model.statblock import StatBlock
from battlemap.model.statblock_actions import ActionSource
from battlemap.resources import asset_path


@dataclass
class ActionCounts:
    """One stat block's actions: what the app automates, what stays text, tracked uses."""

    name: str
    automated: list[str] = field(default_factory=list)
    text_only: list[str] = field(default_factory=list)
    tracked_uses: int = 0


def action_counts(block: StatBlock) -> ActionCounts:
    """Sort the stat block's actions into automated and text-only (each action once)."""
    counts = ActionCounts(block.name)
    attack_names = {a.name for a in block.attacks}
    counts.automated += [f"attack: {a.name}" for a in block.attacks]
    if block.multiattack:
        counts.automated.append(f"Multiattack ({len(block.multiattack)} options)")
    counts.automated += [f"save: {s.name}" for s in block.save_actions]
    counts.tracked_uses += len({s.uses_key for s in block.save_actions if s.usage is not None})
    for text in block.text_actions:
        if text.usage is not None:
            counts.tracked_uses += 1
        if text.source is ActionSource.ACTION and text.name in attack_names:
            continue  # an attack with limited uses: counted with the attacks
        counts.text_only.append(f"{text.source.value}: {text.name}")
    legendary = block.legendary
    if legendary is not None:
        for action in legendary.actions:
            kind = "automated" if action.automated else "text_only"
            getattr(counts, kind).append(f"legendary: {action.name}")
        if legendary.resistances:
            counts.automated.append(f"Legendary Resistance ({legendary.resistances}/day)")
            counts.tracked_uses += 1
    counts.text_only += [f"lair: {a.name}" for a in block.lair_actions]
    return counts


def report(blocks: Iterable[StatBlock]) -> list[str]:
    """The report's lines: one per monster, then the totals."""
    lines: list[str] = []
    automated = text_only = uses = monsters = all_automated = 0
    for block in blocks:
        counts = action_counts(block)
        monsters += 1
        automated += len(counts.automated)
        text_only += len(counts.text_only)
        uses += counts.tracked_uses
        all_automated += not counts.text_only
        texts = f": {', '.join(counts.text_only)}" if counts.text_only else ""
        lines.append(
            f"{counts.name}: {len(counts.automated)} automated, {len(counts.text_only)}"
            f" text-only{texts}"
        )
    total = automated + text_only
    share = f" ({100 * automated / total:.1f}% automated)" if total else ""
    lines.append(
        f"Total: {monsters} monsters, {total} actions: {automated} automated, {text_only}"
        f" text-only{share}; {uses} limited uses tracked; {all_automated} monsters fully"
        " automated"
    )
    return lines


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="battlemap monsters", description="Report on stat-block actions."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("report", help="automated vs text-only actions, per monster and total")
    run.add_argument(
        "file", nargs="?", type=Path, help="a 5e-database monster JSON (default: the SRD library)"
    )
    return parser


def main(argv: Sequence[str], out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run a ``monsters`` subcommand; 0 when done, 2 when the file can't be read."""
    out = out or sys.stdout
    err = err or sys.stderr
    args = build_parser().parse_args(list(argv))
    try:
        if args.file is None:
            blocks: Sequence[StatBlock] = load_library(asset_path("srd-monsters.json")).monsters
        else:
            blocks = import_5e_monsters(args.file)
    except (FileFormatError, OSError) as error:
        print(f"battlemap monsters: {error}", file=err)
        return 2
    for line in report(blocks):
        print(line, file=out)
    return 0
