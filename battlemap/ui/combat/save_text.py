"""The words of a saving throw in its row: before the roll (bonus, mode), after it (the faces,
the total, saved or failed) and the reasons, for ``save_rows`` and the Saving throw dialog."""

from __future__ import annotations

import html

from battlemap.rules.attacks import RollMode
from battlemap.rules.combat_ops import signed
from battlemap.rules.enums import Ability
from battlemap.rules.saves import SaveReport, SaveResult
from battlemap.ui.combat.widgets import BAD, GOOD, tone
from battlemap.ui.plain_text import plain_tooltip


def report_line(report: SaveReport, dc: int) -> str:
    """Before the roll: "Dexterity save +4 vs DC 15 (disadvantage)" or the automatic failure."""
    if report.auto_fail is not None:
        return f"<span style='color:{tone(BAD)}'><b>fails automatically</b></span>"
    mode = "" if report.roll.mode is RollMode.NORMAL else f" ({report.roll.mode.value})"
    return f"{report.ability.description} save {signed(report.bonus)} vs DC {dc}{mode}"


def result_line(result: SaveResult) -> str:
    """After the roll: "d20 14 +4 = 18 vs DC 15: saved" (both faces at advantage)."""
    if result.report.auto_fail is not None:
        return (
            f"<span style='color:{tone(BAD)}'><b>fails automatically</b></span> vs DC {result.dc}"
        )
    faces = "/".join(str(face) for face in result.faces)
    kept = f" → {result.natural}" if len(result.faces) > 1 else ""
    colour, word = (tone(GOOD), "saved") if result.success else (tone(BAD), "failed")
    return (
        f"d20 {faces}{kept} {signed(result.report.bonus)} = <b>{result.total}</b>"
        f" vs DC {result.dc}: <span style='color:{colour}'><b>{word}</b></span>"
    )


def reasons_of(report: SaveReport, situation: tuple[str, ...]) -> list[str]:
    """Automatic failure, roll mode and cover, each with its reason.

    The cover bonus is its part of the bonus ("half cover +2"; where it comes from is in the
    tooltip); cover that gives a Dex save no bonus (total cover, a ruleset without it) says so.
    """
    if report.auto_fail is not None:  # no roll: mode and bonus don't matter
        return [report.auto_fail]
    reasons: list[str] = []
    reasons.extend(f"advantage: {r}" for r in report.roll.advantages)
    reasons.extend(f"disadvantage: {r}" for r in report.roll.disadvantages)
    if report.roll.cancelled:
        reasons.append("advantage and disadvantage cancel: a normal roll")
    reasons.extend(report.parts[1:])  # after the creature's own bonus: the cover bonus
    if len(report.parts) == 1 and situation and report.ability is Ability.DEX:
        reasons.extend(f"{where}: no bonus to this save" for where in situation)
    return reasons


def reason_lines(report: SaveReport, situation: tuple[str, ...]) -> list[str]:
    return [
        f"<small>· {html.escape(r, quote=False)}</small>" for r in reasons_of(report, situation)
    ]


def tooltip(report: SaveReport, situation: tuple[str, ...]) -> str:
    lines = [f"{report.ability.description} save: {', '.join(report.parts[:1])}"]
    lines.extend(reasons_of(report, situation))
    lines.extend(where for where in situation if where not in "\n".join(lines))
    return plain_tooltip("\n".join(lines))
