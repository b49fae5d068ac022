"""Monsters: the 5e-database JSON format in, ``StatBlock`` values and map creatures out.

``import_5e_monsters`` reads the format of https://github.com/5e-bits/5e-database
(``5e-SRD-Monsters.json``: a list of monster objects, or one object) so a DM can load their
own; ``load_library`` reads the bundled ``assets/srd-monsters.json`` that
``tools/build_srd_library.py`` generates with it. Reach and range only exist in the attack
text ("Melee Weapon Attack: +4 to hit, reach 5 ft." / "range 80/320 ft."), so they are
parsed from it; everything else comes from the structured fields. Multiattack, save
actions, uses, legendary and lair actions are read by ``battlemap.io.monster_actions``; only
the text of actions the app does not play itself is kept.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from battlemap.io.bounded import read_bounded, read_bounded_json
from battlemap.io.errors import FileFormatError, describe_validation_error
from battlemap.io.hit_points import HitPoints
from battlemap.io.monster_json import ActionJson, Ref, damage_from_json, dice_text
from battlemap.model.character import Skill
from battlemap.model.creature import CombatStats, Creature, Side, Size, Speeds
from battlemap.model.statblock import (
    Ability,
    AbilityScores,
    Attack,
    AttackKind,
    Damage,
    Senses,
    StatBlock,
)

MAX_MONSTER_FILE_BYTES = 16 * 1024 * 1024
MAX_MONSTERS = 2_000
"""Most monsters in one file (the SRD has 334): reading one took ~0.25 ms, ~0.4 ms since its
actions are read too (Multiattack, saves, legendary), so a file of them all is refused or
read within about a second."""
MAX_MONSTER_JSON_OBJECTS = 100 * MAX_MONSTERS
"""An SRD monster is 23 JSON objects on average, 46 at most (a vampire)."""
MAX_MONSTER_JSON_VALUES = 400 * MAX_MONSTERS
"""An SRD monster has 85 commas on average, 189 at most."""
LIBRARY_FORMAT_VERSION = 1
SRD_ATTRIBUTION = (
    'This work includes material taken from the System Reference Document 5.1 ("SRD 5.1") by '
    "Wizards of the Coast LLC and available at "
    "https://dnd.wizards.com/resources/systems-reference-document. The SRD 5.1 is licensed "
    "under the Creative Commons Attribution 4.0 International License available at "
    "https://creativecommons.org/licenses/by/4.0/legalcode."
)

_ATTACK_TEXT = re.compile(
    r"^\s*(?P<kind>Melee or Ranged|Melee|Ranged) (?P<source>Weapon|Spell) Attack:"
    r"\s*(?P<to_hit>[+-]\s*\d+) to hit",
    re.IGNORECASE,
)
_REACH_TEXT = re.compile(r"reach (\d+) ?ft", re.IGNORECASE)
_RANGE_TEXT = re.compile(r"range (\d+)(?:/(\d+))? ?ft", re.IGNORECASE)
_FEET_TEXT = re.compile(r"^\s*(\d+)\s*(?:ft|feet)")


class _ArmorClass(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)
    type: str = Field(default="", max_length=40)
    value: int = Field(ge=0, le=50)
    armor: list[Ref] = Field(default=[], max_length=10)
    spell: Ref | None = None
    condition: Ref | None = None

    def note(self) -> str:
        parts = [self.type] if self.type in ("natural", "armor") else []
        parts += [armor.name.lower() for armor in self.armor]
        parts += [f"with {ref.name.lower()}" for ref in (self.spell, self.condition) if ref]
        return ", ".join(part for part in parts if part and part != "armor")


class _Proficiency(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)
    value: int = Field(ge=-10, le=40)
    proficiency: Ref


class _Monster(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)
    name: str = Field(min_length=1, max_length=80)
    size: Size
    type: str = Field(min_length=1, max_length=200)
    subtype: str | None = Field(default=None, max_length=200)
    alignment: str = Field(default="", max_length=200)
    armor_class: list[_ArmorClass] = Field(min_length=1, max_length=10)
    hit_points: int = Field(ge=1, le=100_000)
    hit_dice: str = Field(default="", max_length=20)
    hit_points_roll: str | None = Field(default=None, max_length=20)
    speed: dict[str, str | bool] = Field(default={}, max_length=10)
    strength: int = Field(ge=1, le=30)
    dexterity: int = Field(ge=1, le=30)
    constitution: int = Field(ge=1, le=30)
    intelligence: int = Field(ge=1, le=30)
    wisdom: int = Field(ge=1, le=30)
    charisma: int = Field(ge=1, le=30)
    proficiencies: list[_Proficiency] = Field(default=[], max_length=50)
    damage_vulnerabilities: list[str] = Field(default=[], max_length=30)
    damage_resistances: list[str] = Field(default=[], max_length=30)
    damage_immunities: list[str] = Field(default=[], max_length=30)
    condition_immunities: list[Ref] = Field(default=[], max_length=30)
    senses: dict[str, str | int] = Field(default={}, max_length=10)
    languages: str = Field(default="", max_length=200)
    challenge_rating: float = Field(ge=0, le=30, allow_inf_nan=False)
    proficiency_bonus: int = Field(default=2, ge=0, le=10)
    xp: int = Field(default=0, ge=0, le=1_000_000)
    actions: list[ActionJson] = Field(default=[], max_length=50)
    # Read leniently (battlemap.io.monster_actions): a bad entry is kept as text with a note.
    legendary_actions: object = None
    special_abilities: object = None
    reactions: object = None
    lair_actions: object = None


class MonsterLibrary(BaseModel):
    """The bundled library file: attribution, source and the stat blocks."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    format_version: int = Field(ge=1, le=LIBRARY_FORMAT_VERSION)
    attribution: str = Field(max_length=2000)
    source: str = Field(max_length=2000)
    monsters: tuple[StatBlock, ...] = Field(max_length=MAX_MONSTERS)


# --- reading ---------------------------------------------------------------------------------


def import_5e_monsters(path: Path) -> tuple[StatBlock, ...]:
    """Read monsters in the 5e-database JSON format (a list of monsters, or one monster).

    Raises:
        FileFormatError: naming the file, the monster (position and name) and the field:
            unreadable, too large, too many JSON objects or values, not JSON, too many
            monsters, a missing or bad field.
    """
    parsed = read_bounded_json(
        path,
        max_bytes=MAX_MONSTER_FILE_BYTES,
        max_objects=MAX_MONSTER_JSON_OBJECTS,
        max_values=MAX_MONSTER_JSON_VALUES,
        holder=f"a file of {MAX_MONSTERS} monsters",
    )
    entries = [parsed] if isinstance(parsed, dict) else parsed
    if not isinstance(entries, list):
        raise FileFormatError(path, "expected a list of monsters or one monster object")
    if len(entries) > MAX_MONSTERS:
        raise FileFormatError(path, f"{len(entries)} monsters, more than {MAX_MONSTERS}")
    return tuple(_read_one(entry, index, path) for index, entry in enumerate(entries))


def _read_one(entry: object, index: int, path: Path) -> StatBlock:
    name = entry.get("name") if isinstance(entry, dict) else None
    where = f"monster {index}" + (f" ({name})" if isinstance(name, str) else "")
    if isinstance(entry, dict) and isinstance(entry.get("size"), str):
        entry = {**entry, "size": entry["size"].lower()}
    try:
        return statblock_from_5e(_Monster.model_validate(entry))
    except ValidationError as error:
        raise FileFormatError(path, f"{where}: {describe_validation_error(error)}") from None
    except ValueError as error:
        raise FileFormatError(path, f"{where}: {error}") from None


def _feet(text: str | int | bool, field: str) -> int:
    if isinstance(text, bool):
        raise ValueError(f"{field}: expected a distance in feet, got {text}")
    if isinstance(text, int):
        return text
    match = _FEET_TEXT.match(text)
    if match is None:
        raise ValueError(f"{field}: '{text[:40]}' is not a distance in feet")
    return int(match.group(1))


def _speeds(speed: dict[str, str | bool]) -> Speeds:
    modes = {"walk", "fly", "swim", "climb", "burrow"}
    values: dict[str, int | bool] = {
        mode: _feet(value, f"speed.{mode}") for mode, value in speed.items() if mode in modes
    }
    values.setdefault("walk", 0)
    values["hover"] = speed.get("hover") is True
    return Speeds.model_validate(values)


def _senses(senses: dict[str, str | int]) -> Senses:
    kinds = {"darkvision", "blindsight", "truesight", "tremorsense"}
    values = {
        kind: _feet(value, f"senses.{kind}") for kind, value in senses.items() if kind in kinds
    }
    perception = senses.get("passive_perception", 10)
    if not isinstance(perception, int):
        raise ValueError(f"senses.passive_perception: '{perception}' is not a number")
    return Senses(passive_perception=perception, **values)


def attack_from_text(
    name: str, text: str, to_hit: int | None, damage: tuple[Damage, ...]
) -> Attack | None:
    """An ``Attack`` from an action's text, or None when the text is not an attack.

    Reach comes from "reach N ft.", range from "range N/M ft." (normal/long) or "range N ft."
    (normal only). ``to_hit`` overrides the bonus written in the text when given.
    """
    match = _ATTACK_TEXT.match(text)
    if match is None:
        return None
    kind = AttackKind(match.group("kind").lower())
    reach = _REACH_TEXT.search(text)
    ranged = _RANGE_TEXT.search(text)
    return Attack(
        name=name,
        kind=kind,
        spell=match.group("source").lower() == "spell",
        to_hit=to_hit if to_hit is not None else int(match.group("to_hit").replace(" ", "")),
        reach=int(reach.group(1)) if reach else (5 if kind is not AttackKind.RANGED else None),
        range_normal=int(ranged.group(1)) if ranged else None,
        range_long=int(ranged.group(2)) if ranged and ranged.group(2) else None,
        damage=damage,
    )


_SAVING_THROWS = {ability.value[:3]: ability for ability in Ability}
"""The 5e-database's saving throw indexes end in the ability's first three letters."""


def _saving_throw(index: str, position: int) -> Ability:
    short = index.removeprefix("saving-throw-")
    if short not in _SAVING_THROWS:
        raise ValueError(
            f"proficiencies.{position}.proficiency.index: '{index[:40]}' is not a saving throw "
            f"(saving-throw-{', saving-throw-'.join(_SAVING_THROWS)})"
        )
    return _SAVING_THROWS[short]


def statblock_from_5e(monster: _Monster) -> StatBlock:
    """Convert one validated 5e-database monster; raises ValueError naming the field."""
    # The action-text parsers (many regular expressions) only for a 5e-database import: the
    # bundled library, read at start-up, holds stat blocks already (issue 17).
    from battlemap.io.monster_actions import read_actions

    saves: dict[Ability, int] = {}
    skills: dict[str, int] = {}
    for position, item in enumerate(monster.proficiencies):
        index = item.proficiency.index
        if index.startswith("saving-throw-"):
            saves[_saving_throw(index, position)] = item.value
        elif index.startswith("skill-"):
            skills[item.proficiency.name.removeprefix("Skill: ")] = item.value
    attacks = []
    for action in monster.actions:
        attack = attack_from_text(
            action.name, action.desc, action.attack_bonus, damage_from_json(action.damage)
        )
        if attack is not None:
            attacks.append(attack)
    more = read_actions(
        attacks,
        monster.actions,
        monster.legendary_actions,
        monster.special_abilities,
        monster.reactions,
        monster.lair_actions,
    )
    base_ac, *other_ac = monster.armor_class
    notes = [base_ac.note()] + [f"{ac.value} {ac.note()}".strip() for ac in other_ac]
    return StatBlock(
        name=monster.name,
        size=monster.size,
        type=monster.type,
        subtype=monster.subtype or "",
        alignment=monster.alignment,
        challenge_rating=monster.challenge_rating,
        xp=monster.xp,
        proficiency_bonus=monster.proficiency_bonus,
        armor_class=base_ac.value,
        armor_notes="; ".join(note for note in notes if note)[:200],
        hit_points=monster.hit_points,
        hit_dice=dice_text(monster.hit_points_roll or monster.hit_dice or "1d8"),
        speeds=_speeds(monster.speed),
        abilities=AbilityScores(
            strength=monster.strength,
            dexterity=monster.dexterity,
            constitution=monster.constitution,
            intelligence=monster.intelligence,
            wisdom=monster.wisdom,
            charisma=monster.charisma,
        ),
        saving_throws=saves,
        skills=skills,
        senses=_senses(monster.senses),
        languages=monster.languages,
        damage_resistances=tuple(monster.damage_resistances),
        damage_immunities=tuple(monster.damage_immunities),
        damage_vulnerabilities=tuple(monster.damage_vulnerabilities),
        condition_immunities=tuple(ref.index for ref in monster.condition_immunities),
        attacks=tuple(attacks),
        multiattack=tuple(more.multiattack[:10]),
        save_actions=tuple(more.save_actions),
        text_actions=tuple(more.text_actions),
        legendary=more.legendary,
        lair_actions=tuple(more.lair_actions),
    )


def load_library(path: Path) -> MonsterLibrary:
    """Read a library file written by ``tools/build_srd_library.py``.

    Raises:
        FileFormatError: unreadable, too large, or not a valid library (naming the field).
    """
    data = read_bounded(path, MAX_MONSTER_FILE_BYTES)
    try:
        return MonsterLibrary.model_validate_json(data)
    except ValidationError as error:
        raise FileFormatError(path, describe_validation_error(error)) from None


# --- creatures from stat blocks --------------------------------------------------------------


def roll_dice(expression: str) -> int:
    """Roll dice notation with d20 (``2d6+4``)."""
    import d20  # type: ignore[import-untyped]  # no type hints; imported late: its grammar is slow to build

    return int(d20.roll(expression).total)


def creature_from_statblock(
    block: StatBlock,
    *,
    name: str | None = None,
    hit_points: HitPoints = HitPoints.AVERAGE,
    side: Side = Side.HOSTILE,
    position: tuple[float, float] = (0.0, 0.0),
    roll: Callable[[str], int] = roll_dice,
) -> Creature:
    """A creature on the map made from a stat block.

    Args:
        hit_points: AVERAGE uses the printed average; ROLLED rolls ``block.hit_dice`` with
            ``roll`` and keeps at least 1 hit point (``2d6-4`` can roll below 1).
        position: top-left corner of its space, in cells.

    The creature's ``stats`` carry the ability scores, the Stealth skill bonus (None: the
    Dex modifier applies) and passive Perception for the turn engine; a character's level
    goes with it.
    """
    hp = block.hit_points if hit_points is HitPoints.AVERAGE else max(1, roll(block.hit_dice))
    return Creature(
        name=name or block.name,
        size=block.size,
        side=side,
        x=position[0],
        y=position[1],
        speeds=block.speeds,
        reach=block.reach,
        max_hp=hp,
        hp=hp,
        ac=block.armor_class,
        stats=CombatStats(
            **block.abilities.model_dump(),
            stealth=block.trained_skill(Skill.STEALTH),
            passive_perception=block.passive_perception,
        ),
        statblock=block,
        level=block.level,
    )


def numbered_names(base: str, count: int, existing: Iterable[str]) -> list[str]:
    """``count`` names ``base 1``, ``base 2``... continuing after the highest number already
    used by ``existing`` names (so adding 2 goblins to "Goblin 1..3" gives "Goblin 4, 5")."""
    pattern = re.compile(rf"^{re.escape(base)} (\d+)$")
    used = [int(m.group(1)) for name in existing if (m := pattern.match(name))]
    start = max(used, default=0) + 1
    return [f"{base} {number}" for number in range(start, start + count)]
