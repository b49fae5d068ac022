"""The roster file (characters exported and imported, every bad file refused by name), and
characters with sheets saved in an encounter file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from battlemap.io.encounter_file import save_battlemap
from battlemap.io.errors import FileFormatError
from battlemap.io.loader import load_encounter_file
from battlemap.io.monsters import creature_from_statblock
from battlemap.io.roster_file import (
    MAX_ROSTER_BYTES,
    MAX_ROSTER_JSON_OBJECTS,
    ROSTER_VERSION,
    read_roster,
    roster_bytes,
    write_roster,
)
from battlemap.model.character import CharacterSheet, Skill
from battlemap.model.creature import Side
from battlemap.model.encounter import Encounter
from battlemap.model.limits import MAX_PARTY
from battlemap.model.statblock import (
    Ability,
    AbilityScores,
    StatBlock,
)
from tests.rules.characters import BRAKKA, LONGSWORD, VEX


def written(tmp_path: Path, document: object) -> Path:
    path = tmp_path / "party.json"
    path.write_text(json.dumps(document))
    return path


def good_document() -> dict[str, object]:
    document: dict[str, object] = json.loads(roster_bytes([BRAKKA, VEX]))
    return document


def test_a_written_roster_reads_back_the_same_characters(tmp_path: Path) -> None:
    path = tmp_path / "party.json"
    write_roster(path, [BRAKKA, VEX])
    assert read_roster(path) == (BRAKKA, VEX)
    document = json.loads(path.read_text())
    assert (document["format"], document["format_version"]) == ("battlemap-roster", 1)
    assert document["characters"][0]["character"]["save_proficiencies"] == [
        "constitution",
        "strength",
    ]


def test_the_same_characters_write_the_same_bytes() -> None:
    assert roster_bytes([BRAKKA, VEX]) == roster_bytes([BRAKKA, VEX])


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "battlemap-encounter"}, "not a roster file"),
        ({"format_version": ROSTER_VERSION + 1}, "format_version 2 is newer"),
        ({"format_version": 0}, "format_version"),
        ({"characters": "Brakka"}, "characters"),
        ({"extra": 1}, "extra: Extra inputs are not permitted"),
    ],
)
def test_a_bad_top_level_is_refused_naming_the_file_and_field(
    tmp_path: Path, change: dict[str, object], message: str
) -> None:
    path = written(tmp_path, {**good_document(), **change})
    with pytest.raises(FileFormatError, match=message) as caught:
        read_roster(path)
    assert caught.value.path == path and str(path) in str(caught.value)


@pytest.mark.parametrize(
    ("field", "value", "where"),
    [
        ("level", 31, "characters.0.level"),
        ("attacks_per_action", 0, "characters.0.attacks_per_action"),
        ("character", {"action_surge_uses": 9}, "characters.0.character.action_surge_uses"),
        ("character", {"skill_proficiencies": ["Juggling"]}, "characters.0.character.skill"),
        ("name", "", "characters.0.name"),
    ],
)
def test_a_bad_character_field_is_refused_by_its_path(
    tmp_path: Path, field: str, value: object, where: str
) -> None:
    document = good_document()
    characters = document["characters"]
    assert isinstance(characters, list)
    characters[0][field] = value
    with pytest.raises(FileFormatError, match=where):
        read_roster(written(tmp_path, document))


def test_two_characters_of_one_name_are_refused(tmp_path: Path) -> None:
    with pytest.raises(FileFormatError, match="two characters are named 'Brakka'"):
        read_roster(
            written(
                tmp_path,
                json.loads(roster_bytes([BRAKKA]))
                | {"characters": [BRAKKA.model_dump(mode="json")] * 2},
            )
        )


def test_hostile_bytes_are_refused_before_or_while_parsing(tmp_path: Path) -> None:
    path = tmp_path / "party.json"
    for data, message in (
        (b"\xff\xfe not utf-8", "not JSON"),
        (b"[" * 100_000 + b"]" * 100_000, "not JSON"),  # deep nesting: no RecursionError
        (b"{" * (MAX_ROSTER_JSON_OBJECTS + 1), "JSON objects"),
        (b"", "not JSON"),
        (b'{"format": "battlemap-roster", "format_version": 1, "characters": [1]}', "characters.0"),
    ):
        path.write_bytes(data)
        with pytest.raises(FileFormatError, match=message):
            read_roster(path)
    with path.open("wb") as handle:
        handle.truncate(MAX_ROSTER_BYTES + 1)
    with pytest.raises(FileFormatError, match="more than the"):
        read_roster(path)
    with pytest.raises(FileFormatError, match="no such file"):
        read_roster(tmp_path / "missing.json")


def test_the_documented_example_reads_as_a_level_5_fighter(tmp_path: Path) -> None:
    doc = (Path(__file__).parents[2] / "docs" / "characters.md").read_text()
    example = doc.split("```json\n", 1)[1].split("```", 1)[0]
    (brakka,) = read_roster(written(tmp_path, json.loads(example)))
    assert (brakka.level, brakka.proficiency, brakka.attacks_per_action) == (5, 3, 2)
    assert brakka.saving_throw(Ability.STR) == 6 and brakka.passive_perception == 14


def test_a_party_with_sheets_and_a_spent_surge_saves_and_reopens(tmp_path: Path) -> None:
    fighter = creature_from_statblock(BRAKKA, side=Side.PARTY).model_copy(
        update={"action_surges_used": 1}
    )
    encounter = Encounter(party=(BRAKKA, VEX), creatures=(fighter,))
    path = tmp_path / "fight.battlemap"
    save_battlemap(path, encounter, {})
    reopened = load_encounter_file(path).encounter
    assert reopened.party == (BRAKKA, VEX)
    assert reopened.creatures[0].action_surges_used == 1
    assert reopened.creatures[0].statblock == BRAKKA and reopened.creatures[0].level == 5


SHEETS = st.builds(
    CharacterSheet,
    save_proficiencies=st.frozensets(st.sampled_from(list(Ability))),
    skill_proficiencies=st.frozensets(st.sampled_from(list(Skill))),
    expertise=st.frozensets(st.sampled_from(list(Skill)), max_size=4),
    action_surge_uses=st.integers(0, 2),
    cunning_action=st.booleans(),
)
ROUND_TRIPS = 40


def test_any_character_the_form_can_make_reads_back_with_the_same_numbers(
    tmp_path: Path,
) -> None:
    checked: list[int] = []

    @settings(max_examples=ROUND_TRIPS, deadline=None, database=None, derandomize=True)
    @given(
        level=st.integers(1, 20),
        scores=st.lists(st.integers(1, 30), min_size=6, max_size=6),
        sheet=SHEETS,
        attacks=st.integers(1, 4),
    )
    def round_trip(level: int, scores: list[int], sheet: CharacterSheet, attacks: int) -> None:
        abilities = AbilityScores(**dict(zip([a.value for a in Ability], scores, strict=True)))
        block = StatBlock(
            name="Pc", level=level, abilities=abilities, character=sheet, attacks_per_action=attacks
        )
        path = tmp_path / "roster.json"
        write_roster(path, [block])
        (back,) = read_roster(path)
        assert back == block
        assert [back.saving_throw(a) for a in Ability] == [block.saving_throw(a) for a in Ability]
        assert back.passive_perception == block.passive_perception
        checked.append(1)

    round_trip()
    assert len(checked) == ROUND_TRIPS


def test_a_full_party_of_the_largest_characters_exports_and_imports(tmp_path: Path) -> None:
    # The form's limits: 100 characters in a party, 50 attack rows each (one damage roll).
    largest = BRAKKA.model_copy(update={"attacks": (LONGSWORD,) * 50})
    party = [largest.model_copy(update={"name": f"Fighter {i}"}) for i in range(MAX_PARTY)]
    path = tmp_path / "party.json"
    write_roster(path, party)
    assert read_roster(path) == tuple(party)
