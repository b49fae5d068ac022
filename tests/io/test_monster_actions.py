"""Stat-block actions read from the 5e-database JSON: Multiattack options (structured and
from text), save actions with their areas, uses, legendary actions and resistances, lair
actions; bad action data kept as text with a note; saved and reopened."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from battlemap.io.encounter_file import load_battlemap, save_battlemap
from battlemap.io.monsters import creature_from_statblock, import_5e_monsters
from battlemap.model.encounter import Encounter
from battlemap.model.statblock import Ability, StatBlock
from battlemap.model.statblock_actions import (
    AreaShape,
    AttackCount,
    MultiattackOption,
    SaveArea,
    Usage,
    UsageKind,
)
from tests.io.test_monsters import bundled, source

BITE = {
    "name": "Bite",
    "desc": "Melee Weapon Attack: +4 to hit, reach 5 ft., one target. Hit: 7 (1d8 + 3) piercing.",
    "attack_bonus": 4,
    "damage": [{"damage_type": {"index": "piercing"}, "damage_dice": "1d8+3"}],
}
CLAWS = {**BITE, "name": "Claws"}


def _monster(**fields: Any) -> dict[str, Any]:
    return {
        "name": "Test Beast",
        "size": "Large",
        "type": "beast",
        "armor_class": [{"type": "natural", "value": 13}],
        "hit_points": 30,
        "strength": 16,
        "dexterity": 12,
        "constitution": 14,
        "intelligence": 2,
        "wisdom": 10,
        "charisma": 5,
        "challenge_rating": 2,
        **fields,
    }


def _read(tmp_path: Path, **fields: Any) -> StatBlock:
    path = tmp_path / "beast.json"
    path.write_text(json.dumps(_monster(**fields)), encoding="utf-8")
    (block,) = import_5e_monsters(path)
    return block


def test_every_srd_monster_loads_and_every_multiattack_is_read() -> None:
    blocks = import_5e_monsters(source())
    assert len(blocks) == 334
    with_multiattack = [b for b in blocks if b.multiattack]
    picked_by_dm = [b for b in blocks if any(t.name == "Multiattack" for t in b.text_actions)]
    assert len(with_multiattack) + len(picked_by_dm) == 148  # the SRD's Multiattacks
    assert len(with_multiattack) == 148
    assert sum(1 for b in blocks if b.legendary and b.legendary.actions) == 32
    raw = json.loads(source().read_text(encoding="utf-8"))
    recharging = {
        m["name"]
        for m in raw
        for a in m.get("actions") or []
        if (a.get("usage") or {}).get("type") == "recharge on roll"
    }
    tracked = {
        b.name
        for b in blocks
        for u in [s.usage for s in b.save_actions] + [t.usage for t in b.text_actions]
        if u is not None and u.kind is UsageKind.RECHARGE
    }
    assert tracked == recharging and len(recharging) > 50


def test_bandit_captain_multiattack_options() -> None:
    captain = bundled()["Bandit Captain"]
    assert captain.multiattack == (
        MultiattackOption(
            attacks=(AttackCount(name="Scimitar", count=2), AttackCount(name="Dagger"))
        ),
        MultiattackOption(attacks=(AttackCount(name="Dagger", count=2),)),
    )
    assert [o.total for o in captain.multiattack] == [3, 2]
    (parry,) = captain.text_actions
    assert (parry.name, parry.source.value) == ("Parry", "reaction")


def test_adult_red_dragon_fire_breath_multiattack_and_legendary_actions() -> None:
    dragon = bundled()["Adult Red Dragon"]
    (option,) = dragon.multiattack
    assert option.other_actions == ("Frightful Presence",)
    assert option.attacks == (AttackCount(name="Bite"), AttackCount(name="Claw", count=2))
    saves = {s.name: s for s in dragon.save_actions}
    breath = saves["Fire Breath"]
    assert (breath.ability, breath.dc, breath.half_on_success) == (Ability.DEX, 21, True)
    assert [(d.dice, d.type) for d in breath.damage] == [("18d6", "fire")]
    assert breath.area == SaveArea(shape=AreaShape.CONE, size_feet=60)
    assert breath.usage == Usage(kind=UsageKind.RECHARGE, recharge_on=5)
    fear = saves["Frightful Presence"]
    assert (fear.ability, fear.dc, fear.damage, fear.half_on_success) == (
        Ability.WIS,
        19,
        (),
        False,
    )
    assert fear.area == SaveArea(shape=AreaShape.AROUND, size_feet=120)
    assert (fear.on_failure, breath.on_failure) == ("frightened", "")
    legendary = dragon.legendary
    assert legendary is not None and (legendary.per_round, legendary.resistances) == (3, 3)
    detect, tail, wing = legendary.actions
    assert (detect.name, detect.cost, detect.automated) == ("Detect", 1, False)
    assert (tail.name, tail.cost, tail.attack) == ("Tail Attack", 1, "Tail")
    assert (wing.name, wing.cost) == ("Wing Attack", 2)
    assert wing.save is not None and (wing.save.ability, wing.save.dc) == (Ability.DEX, 22)
    assert wing.save.area == SaveArea(shape=AreaShape.AROUND, size_feet=10)
    assert wing.save.on_failure == "prone"  # "take 15 (2d6 + 8) ... and be knocked prone"


def test_a_brass_dragons_breath_weapons_share_one_recharge() -> None:
    saves = {s.name: s for s in bundled()["Adult Brass Dragon"].save_actions}
    fire, sleep = saves["Fire Breath"], saves["Sleep Breath"]
    assert fire.area == SaveArea(shape=AreaShape.LINE, size_feet=60, width_feet=5)
    assert sleep.area == SaveArea(shape=AreaShape.CONE, size_feet=60)
    assert fire.uses_key == sleep.uses_key == "Breath Weapons"
    assert not sleep.damage and not sleep.half_on_success


def test_multiattack_from_text_only(tmp_path: Path) -> None:
    named = _read(
        tmp_path,
        actions=[
            {
                "name": "Multiattack",
                "desc": "The beast makes two attacks: one with its bite and one with its claws.",
            },
            BITE,
            CLAWS,
        ],
    )
    assert named.multiattack == (
        MultiattackOption(attacks=(AttackCount(name="Bite"), AttackCount(name="Claws"))),
    )
    melee = _read(
        tmp_path,
        actions=[{"name": "Multiattack", "desc": "The beast makes three melee attacks."}, BITE],
    )
    assert melee.multiattack == (MultiattackOption(any_attacks=3),)
    unread = _read(
        tmp_path,
        actions=[{"name": "Multiattack", "desc": "The beast attacks in a frenzy."}, BITE],
    )
    assert unread.multiattack == ()
    (note,) = unread.text_actions
    assert note.name == "Multiattack" and "the DM picks the attacks" in note.note


def test_save_areas_and_uses_from_text(tmp_path: Path) -> None:
    block = _read(
        tmp_path,
        actions=[
            {
                "name": "Acid Spray (Recharge 6)",
                "desc": "The beast spits acid in a line that is 30 ft. long and 5 ft. wide. Each "
                "creature in that line must make a DC 13 Dexterity saving throw, taking 10 (3d6) "
                "acid damage on a failed save, or half as much damage on a successful one.",
                "dc": {"dc_type": {"index": "dex"}, "dc_value": 13, "success_type": "none"},
                "damage": [{"damage_type": {"index": "acid"}, "damage_dice": "3d6"}],
            }
        ],
    )
    (spray,) = block.save_actions
    assert spray.area == SaveArea(shape=AreaShape.LINE, size_feet=30, width_feet=5)
    assert spray.usage == Usage(kind=UsageKind.RECHARGE, recharge_on=6)
    assert spray.half_on_success and spray.usage.text == "Recharge 6"


def test_malformed_action_data_is_kept_as_text_with_a_note(tmp_path: Path) -> None:
    block = _read(
        tmp_path,
        actions=[
            {
                "name": "Multiattack",
                "multiattack_type": "actions",
                "actions": "bite twice",
                "desc": "The beast makes two attacks with its bite.",
            },
            BITE,
            {"name": "Roar", "desc": "Roars.", "dc": {"dc_type": "loud", "dc_value": 99}},
            {"name": "Spit", "desc": "Spits.", "usage": {"type": "when angry"}},
        ],
        legendary_actions=[{"desc": "no name"}, 7, {"name": "Stomp", "desc": "Stomps."}],
        reactions=[["not", "an", "object"]],
    )
    assert block.multiattack == (MultiattackOption(attacks=(AttackCount(name="Bite", count=2),)),)
    notes = {t.name: t.note for t in block.text_actions}
    assert "saving throw not read" in notes["Roar"]
    assert "usage 'when angry' not read" in notes["Spit"]
    assert "not read" in notes["a legendary"] and "not read" in notes["a reaction"]
    assert block.legendary is not None
    assert [a.name for a in block.legendary.actions] == ["Stomp"]


def test_lair_actions_are_read_and_everything_saves_and_reopens(tmp_path: Path) -> None:
    block = _read(
        tmp_path,
        actions=[BITE],
        lair_actions=[{"name": "Tremor", "desc": "The ground shakes."}],
        special_abilities=[
            {
                "name": "Legendary Resistance (2/Day)",
                "desc": "It can succeed instead.",
                "usage": {"type": "per day", "times": 2},
            }
        ],
    )
    assert [a.name for a in block.lair_actions] == ["Tremor"]
    assert block.legendary is not None and block.legendary.resistances == 2
    dragon = bundled()["Adult Red Dragon"]
    encounter = Encounter(
        creatures=(creature_from_statblock(dragon), creature_from_statblock(block))
    )
    path = tmp_path / "fight.battlemap"
    save_battlemap(path, encounter, {})
    reopened = load_battlemap(path).encounter
    assert reopened.creatures == encounter.creatures


def test_a_stat_block_without_the_new_fields_loads_and_saves_as_before() -> None:
    old = {"name": "Goblin", "attacks": []}
    block = StatBlock.model_validate(old)
    assert block.multiattack == () and block.legendary is None and not block.save_actions
    dumped = block.model_dump()
    for name in ("multiattack", "save_actions", "text_actions", "legendary", "lair_actions"):
        assert name not in dumped


# --- never refused for its actions: mangled action data is kept as text ------------------------

LENIENT_KEYS = {"dc", "usage", "multiattack_type", "actions", "action_options", "options"}
LENIENT_SECTIONS = {"legendary_actions", "special_abilities", "reactions", "lair_actions"}


def _srd(name: str) -> dict[str, Any]:
    raw = json.loads(source().read_text(encoding="utf-8"))
    found: dict[str, Any] = next(m for m in raw if m["name"] == name)
    return found


def _lenient_paths(value: Any, prefix: tuple[Any, ...]) -> list[tuple[Any, ...]]:
    """Every path inside the monster's lenient action data."""
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _lenient_paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _lenient_paths(item, (*prefix, index))
    return found


def test_mangled_action_data_never_refuses_the_monster(tmp_path: Path) -> None:
    checked = 0
    for name in ("Adult Red Dragon", "Bandit Captain", "Adult Brass Dragon"):
        monster = _srd(name)
        paths = [
            path
            for section in LENIENT_SECTIONS & monster.keys()
            for path in _lenient_paths(monster[section], (section,))
        ]
        paths += [
            path
            for index, action in enumerate(monster.get("actions") or [])
            for key in LENIENT_KEYS & action.keys()
            for path in _lenient_paths(action[key], ("actions", index, key))
        ]
        for path in paths:
            for value in (None, "x", [{"name": 3}], {"from": {"options": [5]}}):
                mangled = json.loads(json.dumps(monster))
                target = mangled
                for key in path[:-1]:
                    target = target[key]
                target[path[-1]] = value
                file = tmp_path / "monster.json"
                file.write_text(json.dumps(mangled), encoding="utf-8")
                (block,) = import_5e_monsters(file)  # never a FileFormatError
                assert block.name == name
                checked += 1
    assert checked > 700  # every path inside the three monsters' action data, four values each
