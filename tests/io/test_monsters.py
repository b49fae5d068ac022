"""The 5e-database monster importer, the bundled SRD library and creatures made from it."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from battlemap.io.errors import FileFormatError
from battlemap.io.hit_points import HitPoints
from battlemap.io.monsters import (
    attack_from_text,
    creature_from_statblock,
    import_5e_monsters,
    load_library,
    numbered_names,
)
from battlemap.model import Side, Size
from battlemap.model.statblock import Ability, AttackKind, StatBlock
from battlemap.resources import asset_path
from tests.shared_data import SHARED_DATA, shared_file

ROOT = Path(__file__).resolve().parents[2]
SOURCE = SHARED_DATA / "5e-SRD-Monsters.json"
LIBRARY = asset_path("srd-monsters.json")


def source() -> Path:
    return shared_file(SOURCE.name)


def bundled() -> dict[str, StatBlock]:
    return {block.name: block for block in load_library(LIBRARY).monsters}


# --- the bundled library -------------------------------------------------------------------


def test_every_bundled_monster_validates_and_round_trips() -> None:
    library = load_library(LIBRARY)
    assert len(library.monsters) >= 300
    assert "Creative Commons Attribution 4.0" in library.attribution
    for block in library.monsters:
        assert StatBlock.model_validate_json(block.model_dump_json()) == block
    names = [block.name for block in library.monsters]
    assert len(set(names)) == len(names)


def test_bundled_library_is_what_the_script_generates_from_the_source() -> None:
    import sys

    sys.path.insert(0, str(ROOT / "tools"))
    try:
        from build_srd_library import build, to_json  # type: ignore[import-not-found]  # tools/, a script
    finally:
        sys.path.remove(str(ROOT / "tools"))
    assert to_json(build(source())) == LIBRARY.read_text(encoding="utf-8")


def test_bundled_library_holds_no_description_prose() -> None:
    text = LIBRARY.read_text(encoding="utf-8")
    assert '"desc"' not in text
    assert "Weapon Attack" not in text and "Hit:" not in text


def test_goblin_facts() -> None:
    goblin = bundled()["Goblin"]
    assert (goblin.size, goblin.type, goblin.subtype) == (Size.SMALL, "humanoid", "goblinoid")
    assert (goblin.cr_text, goblin.xp) == ("1/4", 50)
    assert (goblin.armor_class, goblin.hit_points, goblin.hit_dice) == (15, 7, "2d6")
    assert goblin.speeds.walk == 30 and goblin.speeds.fly == 0
    assert goblin.abilities.dexterity == 14 and goblin.abilities.modifier(Ability.DEX) == 2
    assert goblin.saving_throw(Ability.WIS) == -1  # Wis 8, not proficient
    assert (goblin.senses.passive_perception, goblin.senses.darkvision) == (9, 60)
    assert goblin.skills == {"Stealth": 6}
    scimitar, shortbow = goblin.attacks
    assert (scimitar.kind, scimitar.to_hit, scimitar.reach) == (AttackKind.MELEE, 4, 5)
    assert (scimitar.damage[0].dice, scimitar.damage[0].type) == ("1d6+2", "slashing")
    assert (shortbow.kind, shortbow.range_normal, shortbow.range_long) == (
        AttackKind.RANGED,
        80,
        320,
    )
    assert shortbow.reach is None


def test_dragon_reach_saves_immunities_and_two_damage_types() -> None:
    dragon = bundled()["Adult Red Dragon"]
    reaches = {attack.name: attack.reach for attack in dragon.attacks}
    assert reaches == {"Bite": 10, "Claw": 5, "Tail": 15}
    assert dragon.reach == 15
    assert dragon.saving_throws[Ability.DEX] == 6
    assert dragon.damage_immunities == ("fire",)
    assert [d.type for d in dragon.attacks[0].damage] == ["piercing", "fire"]
    assert dragon.size is Size.HUGE and dragon.speeds.fly == 80


def test_resistances_vulnerabilities_and_condition_immunities_survive() -> None:
    library = bundled().values()
    data = json.loads(source().read_text())
    for field in ("damage_resistances", "damage_vulnerabilities", "damage_immunities"):
        assert sum(bool(getattr(b, field)) for b in library) == sum(bool(m[field]) for m in data)
    ci = sum(bool(m["condition_immunities"]) for m in data)
    assert sum(bool(b.condition_immunities) for b in library) == ci


def test_every_reach_and_range_in_the_attack_text_is_parsed() -> None:
    library = bundled()
    checked = 0
    for monster in json.loads(source().read_text()):
        attacks = {a.name: a for a in library[monster["name"]].attacks}
        for action in monster.get("actions", []):
            reach = re.search(r"reach (\d+) ft", action["desc"])
            ranged = re.search(r"range (\d+)(?:/(\d+))? ft", action["desc"])
            if "to hit" not in action["desc"] or action["name"] not in attacks:
                continue
            attack = attacks[action["name"]]
            if reach:
                assert attack.reach == int(reach.group(1)), (monster["name"], action["name"])
            if ranged:
                assert attack.range_normal == int(ranged.group(1))
            checked += 1
    assert checked > 500


# --- attack text ------------------------------------------------------------------------------


def test_thrown_weapon_has_reach_and_range() -> None:
    text = "Melee or Ranged Weapon Attack: +4 to hit, reach 5 ft. or range 20/60 ft., one target."
    attack = attack_from_text("Dagger", text, None, ())
    assert attack is not None
    assert (attack.kind, attack.to_hit, attack.reach) == (AttackKind.MELEE_OR_RANGED, 4, 5)
    assert (attack.range_normal, attack.range_long) == (20, 60)


def test_spell_attack_with_one_range_and_negative_bonus() -> None:
    attack = attack_from_text("Ray", "Ranged Spell Attack: -1 to hit, range 120 ft.", None, ())
    assert attack is not None and attack.spell
    assert (attack.to_hit, attack.range_normal, attack.range_long) == (-1, 120, None)


def test_non_attack_text_is_not_an_attack() -> None:
    assert attack_from_text("Ink Cloud", "A 5-foot-radius cloud of ink...", 0, ()) is None


# --- bad files --------------------------------------------------------------------------------


def goblin_json() -> dict[str, Any]:
    for monster in json.loads(source().read_text()):
        if monster["name"] == "Goblin":
            return dict(monster)
    raise AssertionError("no goblin")


def write(tmp_path: Path, content: object) -> Path:
    path = tmp_path / "monsters.json"
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    return path


def test_one_monster_object_is_accepted(tmp_path: Path) -> None:
    (goblin,) = import_5e_monsters(write(tmp_path, goblin_json()))
    assert goblin.name == "Goblin"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"armor_class": []}, "monster 0 (Goblin): armor_class: List should have at least 1"),
        ({"size": "Colossal"}, "monster 0 (Goblin): size: Input should be"),
        ({"speed": {"walk": "fast"}}, "speed.walk: 'fast' is not a distance in feet"),
        ({"strength": 99}, "strength: Input should be less than or equal to 30"),
        ({"hit_points": None}, "hit_points: Input should be a valid integer"),
        ({"challenge_rating": float("nan")}, "challenge_rating: Input should be a finite"),
    ],
)
def test_bad_monster_is_refused_naming_monster_and_field(
    tmp_path: Path, change: dict[str, Any], message: str
) -> None:
    path = write(tmp_path, [goblin_json() | change])
    with pytest.raises(FileFormatError) as caught:
        import_5e_monsters(path)
    assert message in str(caught.value) and str(path) in str(caught.value)


@pytest.mark.parametrize(
    ("content", "message"),
    [("[{", "not JSON"), ("42", "expected a list of monsters"), ("[1]", "monster 0: ")],
)
def test_bad_files_are_refused(tmp_path: Path, content: str, message: str) -> None:
    with pytest.raises(FileFormatError, match=re.escape(message)):
        import_5e_monsters(write(tmp_path, content))


def test_too_many_monsters_and_too_large_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("battlemap.io.monsters.MAX_MONSTERS", 2)
    with pytest.raises(FileFormatError, match="3 monsters, more than 2"):
        import_5e_monsters(write(tmp_path, [{}, {}, {}]))
    monkeypatch.setattr("battlemap.io.monsters.MAX_MONSTER_FILE_BYTES", 10)
    with pytest.raises(FileFormatError, match="more than the 10 allowed"):
        import_5e_monsters(write(tmp_path, [{}, {}, {}]))


# --- creatures --------------------------------------------------------------------------------


def test_creature_from_statblock_average_hp() -> None:
    ogre = bundled()["Ogre"]
    creature = creature_from_statblock(ogre, name="Ogre 1", position=(3, 4))
    assert (creature.name, creature.size, creature.side) == ("Ogre 1", Size.LARGE, Side.HOSTILE)
    assert (creature.hp, creature.max_hp, creature.ac) == (ogre.hit_points, 59, 11)
    assert (creature.x, creature.y, creature.reach) == (3, 4, 5)
    assert creature.speeds == ogre.speeds
    assert creature.stats is not None and creature.stats.strength == 19
    assert creature.stats.passive_perception_score() == 8
    assert creature.statblock is ogre  # attacks and resistances travel with the creature
    assert creature.statblock.attacks[0].name == "Greatclub"


def test_creature_stats_carry_stealth_and_perception_for_the_turn_engine() -> None:
    goblin = creature_from_statblock(bundled()["Goblin"])
    assert goblin.stats is not None
    assert (goblin.stats.stealth_bonus(), goblin.stats.passive_perception_score()) == (6, 9)
    assert goblin.stats.modifier("dex") == 2


def test_rolled_hp_uses_the_hit_dice_and_never_drops_below_one() -> None:
    goblin = bundled()["Goblin"]
    rolled = creature_from_statblock(goblin, hit_points=HitPoints.ROLLED, roll=lambda d: 11)
    assert rolled.hp == rolled.max_hp == 11
    assert creature_from_statblock(goblin, hit_points=HitPoints.ROLLED, roll=lambda d: -3).hp == 1


@given(st.integers(min_value=0, max_value=50))
def test_rolled_goblin_hp_is_within_its_dice(_: int) -> None:
    goblin = bundled()["Goblin"]  # 2d6
    assert 2 <= creature_from_statblock(goblin, hit_points=HitPoints.ROLLED).hp <= 12


def test_numbered_names_continue_after_existing_numbers() -> None:
    assert numbered_names("Goblin", 3, []) == ["Goblin 1", "Goblin 2", "Goblin 3"]
    existing = ["Goblin 1", "Goblin 3", "Goblin Boss 7", "Goblin"]
    assert numbered_names("Goblin", 2, existing) == ["Goblin 4", "Goblin 5"]


# --- never crash: any mangled monster is read or refused with a FileFormatError -----------------

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**12), 10**12)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=10,
)
GOOSE: dict[str, Any] = {
    "name": "Cave Goose",
    "size": "Small",
    "type": "beast",
    "armor_class": [{"type": "natural", "value": 12}],
    "hit_points": 9,
    "hit_points_roll": "2d6+2",
    "speed": {"walk": "30 ft.", "fly": "40 ft.", "hover": True},
    "strength": 8, "dexterity": 14, "constitution": 12,
    "intelligence": 2, "wisdom": 10, "charisma": 5,
    "proficiencies": [{"value": 4, "proficiency": {"index": "saving-throw-dex", "name": "x"}}],
    "senses": {"passive_perception": 12, "darkvision": "60 ft."},
    "condition_immunities": [{"index": "charmed", "name": "Charmed"}],
    "challenge_rating": 0.125,
    "actions": [
        {
            "name": "Beak",
            "desc": "Melee Weapon Attack: +4 to hit, reach 5 ft., one target.",
            "attack_bonus": 4,
            "damage": [{"damage_dice": "1d4+2", "damage_type": {"index": "piercing"}}],
        }
    ],
}  # fmt: skip


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*prefix, index))
    return found


@settings(max_examples=300, deadline=None)
@given(where=st.sampled_from(_paths(GOOSE)), value=json_values)
def test_any_mangled_monster_is_read_or_refused_with_a_file_format_error(
    tmp_path_factory: pytest.TempPathFactory, where: tuple[Any, ...], value: Any
) -> None:
    monster = json.loads(json.dumps(GOOSE))
    target = monster
    for key in where[:-1]:
        target = target[key]
    target[where[-1]] = value
    path = tmp_path_factory.mktemp("mangled") / "monsters.json"
    path.write_text(json.dumps([monster]))
    try:
        import_5e_monsters(path)
    except FileFormatError as error:
        assert str(path) in str(error)


# --- hostile input (issue 18): refused by name, never an exception of another type ------------


def goose_with_proficiency(index: str) -> dict[str, Any]:
    proficiency = {"value": 3, "proficiency": {"index": index, "name": "Saving Throw: ?"}}
    return GOOSE | {"proficiencies": [*GOOSE.get("proficiencies", []), proficiency]}


@pytest.mark.parametrize("index", ["saving-throw-xyz", "saving-throw-", "saving-throw-s"])
def test_an_unknown_saving_throw_is_refused_naming_the_monster_and_field(
    tmp_path: Path, index: str
) -> None:
    # "saving-throw-" used to match strength (every name starts with ""), "-xyz" raised
    # "generator raised StopIteration".
    path = write(tmp_path, [goose_with_proficiency(index)])
    with pytest.raises(FileFormatError) as caught:
        import_5e_monsters(path)
    message = str(caught.value)
    assert str(path) in message and f"monster 0 ({GOOSE['name']})" in message
    assert f"proficiency.index: '{index}' is not a saving throw" in message


def test_every_known_saving_throw_index_still_reads() -> None:
    blocks = import_5e_monsters(source())
    saves = {ability for block in blocks for ability in block.saving_throws}
    assert saves == set(Ability)


@pytest.mark.parametrize(
    "content",
    ["[" * 100_000 + "]" * 100_000, '[{"name": ' + '{"a": ' * 50_000 + "1" + "}" * 50_001 + "]"],
    ids=["deep list", "deep object in a monster"],
)
def test_deep_nesting_is_refused_as_not_json(tmp_path: Path, content: str) -> None:
    # json.loads raised RecursionError out of the loader.
    path = write(tmp_path, content)
    with pytest.raises(FileFormatError, match="not JSON: recursion limit exceeded") as caught:
        import_5e_monsters(path)
    assert str(path) in str(caught.value)


def test_text_that_is_not_utf8_is_refused_as_not_json(tmp_path: Path) -> None:
    path = tmp_path / "monsters.json"
    path.write_bytes(b'[{"name": "\xff\xfe"}]')
    with pytest.raises(FileFormatError, match="not JSON"):
        import_5e_monsters(path)


def test_too_many_json_objects_or_values_are_refused_before_parsing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 15 million numbers took 2.4 s to parse just to be told they were not 5,000 monsters.
    def never(*_: object) -> None:
        raise AssertionError("the file was parsed")

    monkeypatch.setattr("battlemap.io.bounded.pydantic_core.from_json", never)
    monkeypatch.setattr("battlemap.io.monsters.MAX_MONSTER_JSON_OBJECTS", 5)
    with pytest.raises(FileFormatError, match=r"6 JSON objects, more than the 5 a file of "):
        import_5e_monsters(write(tmp_path, [{}] * 6))
    monkeypatch.setattr("battlemap.io.monsters.MAX_MONSTER_JSON_VALUES", 100)
    with pytest.raises(FileFormatError, match=r"101 JSON values, more than the 100 a file of "):
        import_5e_monsters(write(tmp_path, list(range(102))))


def test_the_srd_file_is_well_inside_the_counts() -> None:
    from battlemap.io import monsters

    data = source().read_bytes()
    count = len(import_5e_monsters(source()))
    # Per monster, the SRD uses under half of what the limits allow each of MAX_MONSTERS.
    assert data.count(b"{") / count < monsters.MAX_MONSTER_JSON_OBJECTS / monsters.MAX_MONSTERS / 2
    assert data.count(b",") / count < monsters.MAX_MONSTER_JSON_VALUES / monsters.MAX_MONSTERS / 2
