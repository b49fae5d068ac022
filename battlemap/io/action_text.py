"""What a stat block's action text says in its common forms: the area of a save ("60-foot
cone", "30-foot line that is 5 feet wide", "each creature within 10 feet of the dragon"),
uses written in a name ("(Recharge 5-6)", "(3/Day)"), a legendary action's cost ("(Costs 2
Actions)") and a Multiattack's attacks ("makes three attacks: one with its bite and two with
its claws"). Each parser returns None (or nothing) for text it does not recognise.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from battlemap.model.statblock_actions import (
    MAX_AREA_FEET,
    MAX_ATTACKS_PER_ACTION,
    AreaShape,
    SaveArea,
    Usage,
    UsageKind,
)

_NUMBERS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "twice": 2,
}
_FEET = r"(\d{1,4})(?:-| )(?:foot|feet|ft\.?)"
_LINE_WIDE = re.compile(_FEET + r"(?:-long)? line that is (\d{1,4}) (?:feet|ft\.?) wide", re.I)
_LINE_LONG = re.compile(
    r"line that is (\d{1,4}) (?:feet|ft\.?) long and (\d{1,4}) (?:feet|ft\.?) wide", re.I
)
_SHAPED = re.compile(_FEET + r"[- ](?:radius[- ])?(cone|line|cube|sphere|cylinder)", re.I)
_RADIUS = re.compile(_FEET + r"[- ]radius", re.I)
_AROUND = re.compile(r"within (\d{1,4}) (?:feet|ft\.?) of (?:the|it|him|her|them)\b", re.I)
_RECHARGE = re.compile(r"\(\s*recharge (\d)(?:\s*[-–]\s*6)?\s*\)", re.I)
_PER_DAY = re.compile(r"\(\s*(\d{1,2})\s*/\s*day(?: each)?\s*\)", re.I)
_PER_REST = re.compile(r"\(\s*recharges after a (?:short or )?long rest\s*\)", re.I)
_COSTS = re.compile(r"\(\s*costs (\d) actions?\s*\)", re.I)
_PARENTHESIS = re.compile(r"\s*\([^)]*\)")
SRD_CONDITIONS = (
    "blinded",
    "charmed",
    "deafened",
    "frightened",
    "grappled",
    "incapacitated",
    "paralyzed",
    "petrified",
    "poisoned",
    "prone",
    "restrained",
    "stunned",
    "unconscious",
)
_CONDITION = re.compile(
    r"\b(?:be|become|becomes|is|are|fall|falls|knocked)\s+(?:magically\s+)?"
    rf"({'|'.join(SRD_CONDITIONS)})\b",
    re.I,
)


def _feet(text: str) -> int | None:
    value = int(text)
    return value if 1 <= value <= MAX_AREA_FEET else None


def area_from_text(text: str) -> SaveArea | None:
    """The area a save action's text gives, or None when it names none it can read."""
    line = _LINE_WIDE.search(text)
    if line:
        size, width = _feet(line.group(1)), _feet(line.group(2))
        if size and width:
            return SaveArea(shape=AreaShape.LINE, size_feet=size, width_feet=width)
    line = _LINE_LONG.search(text)
    if line:
        size, width = _feet(line.group(1)), _feet(line.group(2))
        if size and width:
            return SaveArea(shape=AreaShape.LINE, size_feet=size, width_feet=width)
    shaped = _SHAPED.search(text)
    if shaped:
        size = _feet(shaped.group(1))
        if size:
            return SaveArea(shape=AreaShape(shaped.group(2).lower()), size_feet=size)
    radius = _RADIUS.search(text)
    if radius and (size := _feet(radius.group(1))):
        return SaveArea(shape=AreaShape.SPHERE, size_feet=size)
    around = _AROUND.search(text)
    if around and (size := _feet(around.group(1))):
        return SaveArea(shape=AreaShape.AROUND, size_feet=size)
    return None


def condition_from_text(text: str) -> str:
    """The condition a save's text gives on a failure ("or become frightened", "knocked
    prone", "fall unconscious"); empty when it names none."""
    found = _CONDITION.search(text)
    return found.group(1).lower() if found else ""


def usage_from_name(name: str) -> Usage | None:
    """Uses written in an action's name: "(Recharge 5-6)", "(Recharge 6)", "(3/Day)",
    "(Recharges after a Short or Long Rest)"."""
    if "(" not in name:
        return None  # most names: no regex needed
    recharge = _RECHARGE.search(name)
    if recharge and 2 <= int(recharge.group(1)) <= 6:
        return Usage(kind=UsageKind.RECHARGE, recharge_on=int(recharge.group(1)))
    per_day = _PER_DAY.search(name)
    if per_day and 1 <= int(per_day.group(1)) <= 10:
        return Usage(kind=UsageKind.PER_DAY, times=int(per_day.group(1)))
    if _PER_REST.search(name):
        return Usage(kind=UsageKind.PER_REST)
    return None


def legendary_cost(name: str) -> tuple[str, int]:
    """A legendary action's name without "(Costs N Actions)", and N (1 when not written)."""
    cost = _COSTS.search(name)
    if cost is None:
        return name.strip(), 1
    return _COSTS.sub("", name).strip(), int(cost.group(1))


def bare_name(name: str) -> str:
    """A name to compare: lower case, without parentheses or a plural s ("Claws (Vampire
    Form Only)" -> "claw")."""
    bare = _PARENTHESIS.sub("", name).strip().casefold()
    return bare[:-1] if bare.endswith("s") and len(bare) > 3 else bare


@dataclass(frozen=True)
class MultiattackText:
    """One way a Multiattack's text makes its attacks: ``named`` (attack name as written,
    count) and ``total`` (None: not stated)."""

    named: tuple[tuple[str, int], ...]
    total: int | None


_MAKES = re.compile(
    r"makes (\w+) (?:(?:melee|ranged|weapon) )*(?:([a-z][\w' -]*?) )?attacks?\b", re.I
)
_WITH = re.compile(
    r"\b(one|two|three|four|five|six|a|an) (?:attack )?with (?:its|his|her|their|a|an) "
    r"([a-z][\w' -]*?)(?=,|;|\.| and | or |$)",
    re.I,
)
_ALTERNATIVE = re.compile(r"(?:\.\s+|,\s+)(?:or|alternatively,?)\s+", re.I)


def multiattack_from_text(text: str) -> tuple[MultiattackText, ...]:
    """The Multiattack's options in its text ("... Or the captain makes two ranged attacks
    with its daggers." is a second option); empty when no sentence says how many attacks."""
    options: list[MultiattackText] = []
    for part in _ALTERNATIVE.split(text):
        makes = _MAKES.search(part)
        total = _NUMBERS.get(makes.group(1).lower()) if makes else None
        named = [(m.group(2).strip(), _NUMBERS[m.group(1).lower()]) for m in _WITH.finditer(part)]
        if makes and makes.group(2) and not named:  # "makes two longsword attacks"
            named = [(makes.group(2).strip(), total or 1)]
        if makes and total is not None and not named and " with its " in part:
            weapon = part.split(" with its ", 1)[1].split(".")[0].strip()
            named = [(weapon, total)]  # "makes two attacks with its claws"
        if total is None and not named:
            continue
        if total is not None and not 1 <= total <= MAX_ATTACKS_PER_ACTION:
            continue
        options.append(MultiattackText(tuple(named), total))
    return tuple(options)
