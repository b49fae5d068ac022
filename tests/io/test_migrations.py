"""Format migrations: one test per step, the chain, and the refusal of newer files."""

from __future__ import annotations

import copy
import json
import zipfile
from pathlib import Path

import pytest

from battlemap.io.encounter_file import ENCOUNTER_ENTRY, load_battlemap, save_battlemap
from battlemap.io.errors import FileFormatError
from battlemap.io.loader import DEMO_ENCOUNTER, load_demo_encounter
from battlemap.io.migrations import (
    CURRENT_FORMAT_VERSION,
    MIGRATIONS,
    NewerFormatError,
    format_version_of,
    migrate,
    migrate_0_to_1,
    migrate_1_to_2,
    migrate_2_to_3,
)
from battlemap.model import Encounter
from battlemap.model.combat import CombatEvent
from battlemap.model.limits import MAX_LOG
from battlemap.resources import asset_path


def version_0_demo() -> dict[str, object]:
    """The demo encounter as shipped: the plain version-0 layout."""
    data: dict[str, object] = json.loads(asset_path(DEMO_ENCOUNTER).read_text(encoding="utf-8"))
    return data


def test_every_version_below_the_current_one_has_a_step() -> None:
    assert sorted(MIGRATIONS) == list(range(CURRENT_FORMAT_VERSION))


@pytest.mark.parametrize("version", sorted(MIGRATIONS))
def test_each_step_raises_the_version_by_exactly_one(version: int) -> None:
    # Every step's own test below feeds it a real document; this only checks the bookkeeping.
    version_1 = migrate_0_to_1(version_0_demo())
    version_2 = migrate_1_to_2(version_1)
    version_3 = migrate_2_to_3(version_2)
    samples = {0: version_0_demo(), 1: version_1, 2: version_2, 3: version_3}
    samples[4] = MIGRATIONS[3](version_3)
    result = MIGRATIONS[version](samples[version])
    assert format_version_of(result, "sample") == version + 1


def test_0_to_1_wraps_the_plain_encounter_in_the_envelope() -> None:
    plain = version_0_demo()
    before = copy.deepcopy(plain)
    migrated = migrate_0_to_1(plain)
    assert plain == before, "a migration must not change its argument"
    assert migrated == {"format_version": 1, "encounter": before}
    assert Encounter.model_validate(migrated["encounter"]) == load_demo_encounter()


def test_0_to_1_keeps_unknown_fields_for_the_model_to_report() -> None:
    migrated = migrate_0_to_1({"name": "x", "mystery": 3})
    assert migrated["encounter"] == {"name": "x", "mystery": 3}


def test_1_to_2_gives_the_encounter_an_empty_log_and_keeps_the_rest() -> None:
    version_1 = {"format_version": 1, "saved_by": "Battlemap 0.1.0", "encounter": {"name": "x"}}
    before = copy.deepcopy(version_1)
    migrated = migrate_1_to_2(version_1)
    assert version_1 == before, "a migration must not change its argument"
    assert migrated == {
        "format_version": 2,
        "saved_by": "Battlemap 0.1.0",
        "encounter": {"name": "x", "log": []},
    }
    assert Encounter.model_validate(migrated["encounter"]).log == ()


def test_1_to_2_leaves_a_malformed_encounter_for_the_model_to_report() -> None:
    assert migrate_1_to_2({"format_version": 1, "encounter": [3]}) == {
        "format_version": 2,
        "encounter": [3],
    }


def test_a_version_1_file_with_a_log_is_refused_naming_the_field() -> None:
    # Version 1 had no session log: a file saying version 1 and carrying one was not written
    # by Battlemap, and opened files are untrusted.
    version_1 = {"format_version": 1, "encounter": {"name": "x", "log": []}}
    with pytest.raises(FileFormatError) as caught:
        migrate(version_1, "odd.battlemap")
    assert str(caught.value) == (
        "odd.battlemap: encounter.log: not part of format version 1 (added in format version 2)"
    )


def test_a_version_0_document_may_carry_a_log() -> None:
    # Version 0 is the model's own layout (the shipped demo encounter has a ``log``).
    plain = version_0_demo()
    assert "log" in plain
    assert migrate(plain, "demo")["encounter"]["log"] == plain["log"]


def test_a_version_1_battlemap_file_opens_with_an_empty_log(tmp_path: Path) -> None:
    path = tmp_path / "v1.battlemap"
    version_1 = migrate_0_to_1(version_0_demo())
    del version_1["encounter"]["log"]  # the demo's empty one: version 1 had no log
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(ENCOUNTER_ENTRY, json.dumps(version_1))
    opened = load_battlemap(path).encounter
    assert opened == load_demo_encounter() and opened.log == ()


def test_the_session_log_is_saved_and_opened_again(tmp_path: Path) -> None:
    line = CombatEvent(round=0, kind="damage", creature_id=None, text="Goblin takes 7 fire")
    encounter = load_demo_encounter().with_log([line])
    path = tmp_path / "logged.battlemap"
    save_battlemap(path, encounter, {})
    saved = json.loads(zipfile.ZipFile(path).read(ENCOUNTER_ENTRY))
    assert saved["format_version"] == CURRENT_FORMAT_VERSION >= 2
    assert load_battlemap(path).encounter.log == (line,)


def test_a_document_without_a_version_is_version_0() -> None:
    assert format_version_of({"name": "x"}, "f") == 0
    assert format_version_of({"format_version": 1}, "f") == 1


def test_the_current_version_passes_through_unchanged() -> None:
    current = {"format_version": CURRENT_FORMAT_VERSION, "encounter": {"name": "x"}}
    assert migrate(current, "f") == current


def test_the_chain_opens_a_version_0_battlemap_file(tmp_path: Path) -> None:
    path = tmp_path / "old.battlemap"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(ENCOUNTER_ENTRY, json.dumps(version_0_demo()))
    assert load_battlemap(path).encounter == load_demo_encounter()


def test_a_newer_version_is_refused_naming_both_versions() -> None:
    with pytest.raises(NewerFormatError) as caught:
        migrate({"format_version": CURRENT_FORMAT_VERSION + 1}, "future.battlemap")
    message = str(caught.value)
    assert message.startswith("future.battlemap: ")
    assert f"format version {CURRENT_FORMAT_VERSION + 1}" in message
    assert f"format versions up to {CURRENT_FORMAT_VERSION}" in message
    assert isinstance(caught.value, FileFormatError) and isinstance(caught.value, ValueError)


def _lines(count: int) -> list[dict[str, object]]:
    return [{"round": 0, "kind": "note", "text": f"line {i}"} for i in range(count)]


def test_2_to_3_keeps_the_newest_lines_of_every_log_and_nothing_else_changes() -> None:
    # Format 2 kept 100,000 lines a log; format 3 keeps MAX_LOG (20,000), the newest.
    combat = {"round": 3, "log": _lines(MAX_LOG + 5), "rolls": list(range(MAX_LOG + 2))}
    version_2 = {
        "format_version": 2,
        "encounter": {"name": "x", "log": _lines(MAX_LOG + 1), "combat": combat},
    }
    before = copy.deepcopy(version_2)
    migrated = migrate_2_to_3(version_2)
    assert version_2 == before, "a migration must not change its argument"
    encounter = migrated["encounter"]
    assert migrated["format_version"] == 3 and encounter["name"] == "x"
    assert encounter["log"] == _lines(MAX_LOG + 1)[1:]
    assert encounter["combat"]["log"] == _lines(MAX_LOG + 5)[5:]
    assert encounter["combat"]["rolls"] == list(range(2, MAX_LOG + 2))
    assert encounter["combat"]["round"] == 3


def test_a_version_2_file_with_a_long_log_and_fog_as_lists_opens(tmp_path: Path) -> None:
    path = tmp_path / "v2.battlemap"
    fog = {"mode": "manual", "revealed": [[0, 0], [3, 4]], "explored": [[1, 1]]}
    version_2 = {"format_version": 2, "encounter": {"log": _lines(MAX_LOG + 3), "fog": fog}}
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(ENCOUNTER_ENTRY, json.dumps(version_2))
    opened = load_battlemap(path).encounter
    assert len(opened.log) == MAX_LOG and opened.log[0].text == "line 3"
    assert opened.fog.revealed == {(0, 0), (3, 4)} and opened.fog.explored == {(1, 1)}
