"""Format 3 -> 4: a creature's spent limited uses move from its combatant to the creature
(issue 16: 1/Day uses and Legendary Resistance outlive the combat)."""

from __future__ import annotations

import copy
import json
import zipfile
from pathlib import Path

from battlemap.io.encounter_file import ENCOUNTER_ENTRY, load_battlemap
from battlemap.io.migrations import migrate_3_to_4
from battlemap.model.combat import Combatant, CombatState, DiceState
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from tests.rules.fighters import creature, encounter_of

DRAGON, HERO = EntityId("dragon"), EntityId("hero")


def _version_3_fight() -> dict[str, object]:
    """A version-3 file as that Battlemap wrote it: the dragon's combatant holds its uses."""
    enc = encounter_of(creature("dragon"), creature("hero"))
    combat = CombatState(
        ruleset="srd-5e",
        dice=DiceState(seed=1),
        combatants=(
            Combatant(creature_id=DRAGON, group="a", initiative=20),
            Combatant(creature_id=HERO, group="b", initiative=10),
        ),
    )
    data = json.loads(enc.model_copy(update={"combat": combat}).model_dump_json())
    data["combat"]["combatants"][0]["spent_uses"] = [
        {"key": "Legendary Resistance", "spent": 2},
        {"key": "Fire Breath", "spent": 1},
    ]
    return {"format_version": 3, "encounter": data}


def test_3_to_4_moves_the_combatant_s_spent_uses_to_its_creature() -> None:
    version_3 = _version_3_fight()
    before = copy.deepcopy(version_3)
    migrated = migrate_3_to_4(version_3)
    assert version_3 == before, "a migration must not change its argument"
    assert migrated["format_version"] == 4
    opened = Encounter.model_validate(migrated["encounter"])
    assert [(s.key, s.spent) for s in opened.creature(DRAGON).spent_uses] == [
        ("Legendary Resistance", 2),
        ("Fire Breath", 1),
    ]
    assert opened.creature(HERO).spent_uses == ()


def test_3_to_4_leaves_an_encounter_without_a_combat_as_it_was() -> None:
    plain = {"format_version": 3, "encounter": {"name": "x", "combat": None}}
    assert migrate_3_to_4(plain) == {**plain, "format_version": 4}
    assert migrate_3_to_4({"format_version": 3, "encounter": [3]})["encounter"] == [3]


def test_a_version_3_battlemap_file_opens_with_the_uses_on_the_creature(tmp_path: Path) -> None:
    path = tmp_path / "v3.battlemap"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(ENCOUNTER_ENTRY, json.dumps(_version_3_fight()))
    opened = load_battlemap(path).encounter
    assert {s.key for s in opened.creature(DRAGON).spent_uses} == {
        "Legendary Resistance",
        "Fire Breath",
    }


def test_a_version_2_file_goes_through_both_steps(tmp_path: Path) -> None:
    version_2 = {**_version_3_fight(), "format_version": 2}
    path = tmp_path / "v2.battlemap"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(ENCOUNTER_ENTRY, json.dumps(version_2))
    assert load_battlemap(path).encounter.creature(DRAGON).spent_uses
