"""Every shipped ruleset loads, and each encodes its rows of the rules-sources table."""

from __future__ import annotations

import inspect
import json
from pathlib import Path
from typing import Any

import pytest

from battlemap.rules import enums
from battlemap.rules.docs import ruleset_json_schema, ruleset_reference
from battlemap.rules.enums import (
    AcFloor,
    CriticalDamage,
    DeathSaveNatural,
    DiagonalRule,
    DisengageDuration,
    DodgeEnd,
    EconomyPart,
    InitiativeMode,
    InitiativeTieBreak,
    KnockoutResult,
    KnockoutTiming,
    StabilizeMethod,
    SurpriseMode,
    TempHpStacking,
    TwoWeaponMode,
)
from battlemap.rules.loader import RulesetRegistry
from battlemap.rules.schema import Ruleset
from tests.rules.conftest import RULESET_IDS

ROOT = Path(__file__).resolve().parents[2]


def test_every_shipped_ruleset_loads(registry: RulesetRegistry) -> None:
    assert registry.problems == []
    assert set(RULESET_IDS) <= set(registry.ids())
    for ruleset_id in RULESET_IDS:
        assert registry.get(ruleset_id).schema_version == 1


def test_variants_extend_srd(registry: RulesetRegistry) -> None:
    for ruleset_id in RULESET_IDS[1:]:
        assert registry.sources[ruleset_id].extends == "srd-5e"
    assert registry.sources["srd-5e"].extends is None


def test_every_enum_value_has_a_description() -> None:
    doc_enums = [
        obj
        for obj in vars(enums).values()
        if inspect.isclass(obj) and issubclass(obj, enums.DocEnum) and obj is not enums.DocEnum
    ]
    assert len(doc_enums) > 20
    undocumented = [f"{e.__name__}.{m.name}" for e in doc_enums for m in e if not m.description]
    assert undocumented == []


def test_json_schema_documents_enum_values() -> None:
    schema = ruleset_json_schema()
    text = json.dumps(schema)
    assert schema["additionalProperties"] is False
    mode = schema["$defs"]["InitiativeRules"]["properties"]["mode"]
    assert {"const": "group-median", "description": InitiativeMode.GROUP_MEDIAN.description} in (
        mode["oneOf"]
    )
    assert "Ruleset" in schema["title"] and "schema_version" in text


def test_surprise_srd_vs_gms_den(rulesets: dict[str, Ruleset]) -> None:
    srd, den = rulesets["srd-5e"].surprise, rulesets["gms-den"].surprise
    assert srd.mode is SurpriseMode.INDIVIDUAL
    assert EconomyPart.BONUS_ACTION not in srd.denied_on_first_turn
    assert den.mode is SurpriseMode.GROUP_AVERAGE
    assert EconomyPart.BONUS_ACTION in den.denied_on_first_turn


def test_initiative_modes_per_ruleset(rulesets: dict[str, Ruleset]) -> None:
    assert rulesets["srd-5e"].initiative.ability == "dex"
    assert rulesets["srd-5e"].initiative.identical_monsters_share_roll
    hyrule = rulesets["legends-of-hyrule"].initiative
    assert (hyrule.mode, hyrule.ability, hyrule.tie_break) == (
        InitiativeMode.GROUP_MEDIAN,
        "wis",
        InitiativeTieBreak.REROLL,
    )
    den = rulesets["gms-den"].initiative
    assert den.tie_break is InitiativeTieBreak.DEX_SCORE and den.natural_20_extra_turn
    for ruleset_id in ("srd-5e", "final-fantasy-d20", "bloodied-brink"):
        assert not rulesets[ruleset_id].initiative.natural_20_extra_turn


def test_dash_disengage_dodge_per_ruleset(rulesets: dict[str, Ruleset]) -> None:
    assert rulesets["srd-5e"].economy.dash_stacks  # "the increase equals your speed"
    assert rulesets["legends-of-hyrule"].economy.dash_stacks
    assert rulesets["srd-5e"].economy.disengage_duration is DisengageDuration.END_OF_TURN
    assert (
        rulesets["legends-of-hyrule"].economy.disengage_duration
        is DisengageDuration.START_OF_GROUP_NEXT_TURN
    )
    assert rulesets["srd-5e"].economy.dodge_ends_when == (DodgeEnd.INCAPACITATED,)
    for ruleset_id in ("legends-of-hyrule", "gms-den"):
        assert DodgeEnd.SPEED_ZERO in rulesets[ruleset_id].economy.dodge_ends_when


def test_action_lists(rulesets: dict[str, Ruleset]) -> None:
    base = {"attack", "dash", "disengage", "dodge", "help", "hide", "ready", "search"}
    for ruleset in rulesets.values():
        assert base <= set(ruleset.actions)
        assert all(action.description for action in ruleset.actions.values())
    assert {"cast-a-spell", "grapple", "shove", "target-strike"} <= set(
        rulesets["legends-of-hyrule"].actions
    )
    den = set(rulesets["gms-den"].actions)
    assert {"disarm", "grapple-move", "offhand-attack", "drink-potion", "called-shot"} <= den
    assert rulesets["gms-den"].actions["drink-potion"].cost == "bonus-action"
    assert "called-shot" not in rulesets["srd-5e"].actions


def test_movement_rows(rulesets: dict[str, Ruleset]) -> None:
    assert rulesets["gms-den"].movement.diagonal is DiagonalRule.FIVE
    assert rulesets["srd-5e"].movement.diagonal is DiagonalRule.ALTERNATING
    assert rulesets["gms-den"].movement.jumping is not None
    assert rulesets["gms-den"].movement.climb_swim_without_speed is not None
    assert rulesets["legends-of-hyrule"].movement.squeezing is not None
    assert rulesets["legends-of-hyrule"].movement.flying_falls_when_prone_or_speed_zero
    assert rulesets["srd-5e"].movement.stand_up_fraction_of_speed == 0.5


def test_attack_rows(rulesets: dict[str, Ruleset]) -> None:
    assert rulesets["legends-of-hyrule"].attacks.ac_floor is AcFloor.TEN_PLUS_DEX
    den = rulesets["gms-den"].attacks
    assert den.critical_damage is CriticalDamage.MAX_PLUS_ROLL
    assert den.fumble_table is not None and den.fumble_table.lookup(15).result == "miss"
    assert den.fumble_table.lookup(20).result == "hit"
    assert den.flanking.enabled and den.called_shot is not None and den.called_shot.ac_bonus == 2
    for ruleset_id in ("srd-5e", "legends-of-hyrule", "final-fantasy-d20", "bloodied-brink"):
        assert not rulesets[ruleset_id].attacks.flanking.enabled
        assert rulesets[ruleset_id].attacks.fumble_table is None
    assert rulesets["legends-of-hyrule"].attacks.target_strike is not None
    assert rulesets["legends-of-hyrule"].attacks.two_weapon.mode is TwoWeaponMode.ADD_OFFHAND_DICE


def test_damage_rows(rulesets: dict[str, Ruleset]) -> None:
    assert len(rulesets["srd-5e"].damage.types) == 13
    ff = rulesets["final-fantasy-d20"].damage
    assert len(ff.types) == 17 and "slash" in ff.types and "slashing" not in ff.types
    assert ff.vulnerability_multiplier == 1.5
    assert rulesets["legends-of-hyrule"].damage.only_largest_reduction
    assert not rulesets["srd-5e"].damage.only_largest_reduction


def test_hit_points_and_death_rows(rulesets: dict[str, Ruleset]) -> None:
    brink = rulesets["bloodied-brink"]
    assert brink.hit_points.temp_hp_stacking is TempHpStacking.STACK_TO_CAP
    assert brink.hit_points.bloodied is not None and brink.hit_points.zero_hp_max_kills
    assert brink.hit_points.instant_death_fraction_of_max == 0.5
    assert brink.death_saves.failures_limit == 2 and not brink.death_saves.count_successes
    assert brink.death_saves.natural_1 is DeathSaveNatural.BRINK
    assert brink.death_saves.brink_of_death is not None
    assert brink.knockout.result is KnockoutResult.ONE_HP_UNCONSCIOUS_SHORT_REST
    assert brink.rests.short is not None and brink.rests.short.max_per_day == 2
    srd = rulesets["srd-5e"]
    assert srd.hit_points.temp_hp_stacking is TempHpStacking.KEEP_HIGHER
    assert srd.death_saves.failures_limit == 3 and srd.death_saves.brink_of_death is None
    assert rulesets["final-fantasy-d20"].death_saves.wounded is not None
    assert "wounded" in rulesets["final-fantasy-d20"].conditions
    den = rulesets["gms-den"]
    assert den.massive_damage is not None and den.massive_damage.table.lookup(1).result.startswith(
        "stunned"
    )
    assert StabilizeMethod.HEALERS_KIT in den.stabilizing.methods
    assert den.knockout.timing is KnockoutTiming.DECLARED_BEFORE_ATTACK
    assert rulesets["legends-of-hyrule"].stabilizing.stable_regains_1_hp == "after-short-rest"


def test_conditions_and_exhaustion(rulesets: dict[str, Ruleset]) -> None:
    den = rulesets["gms-den"]
    expected = {
        "blinded", "charmed", "deafened", "frightened", "grappled", "incapacitated",
        "invisible", "paralyzed", "petrified", "poisoned", "prone", "restrained",
        "stunned", "unconscious",
    }  # fmt: skip
    assert expected <= set(den.conditions)
    assert "incapacitated" in den.condition_effects("paralyzed")
    assert [row.level for row in den.exhaustion] == [1, 2, 3, 4, 5, 6]
    assert "last-breath" in rulesets["bloodied-brink"].conditions


def test_underwater_rows(rulesets: dict[str, Ruleset]) -> None:
    assert rulesets["srd-5e"].underwater is None
    hyrule, ff = rulesets["legends-of-hyrule"].underwater, rulesets["final-fantasy-d20"].underwater
    assert hyrule is not None and hyrule.immersed == "soaked"
    assert (
        ff is not None and ff.immersed == "fire-resistance" and "trident" in ff.melee_exempt_weapons
    )


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_ruleset_round_trips_through_json(rulesets: dict[str, Ruleset], ruleset_id: str) -> None:
    ruleset = rulesets[ruleset_id]
    assert Ruleset.model_validate_json(ruleset.model_dump_json()) == ruleset


def test_diagonal_rule_values_match_the_geometry_layer() -> None:
    metrics = pytest.importorskip("battlemap.geometry.metrics")
    assert {rule.value for rule in DiagonalRule} == {rule.value for rule in metrics.DiagonalRule}


def undescribed_properties(schema: dict[str, Any]) -> tuple[int, list[str]]:
    """(how many properties the schema has, the paths of those without a description)."""
    sections = [("Ruleset", schema), *schema["$defs"].items()]
    paths = [(f"{name}.{key}", prop) for name, sec in sections for key, prop in _props(sec)]
    return len(paths), [path for path, prop in paths if not prop.get("description")]


def _props(section: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    return list(section.get("properties", {}).items())


def test_every_field_of_the_json_schema_has_a_description() -> None:
    total, undescribed = undescribed_properties(ruleset_json_schema())
    assert total > 220  # every section's fields are walked, not just the top level
    assert undescribed == []


def test_the_description_check_sees_a_field_without_one() -> None:
    schema = {"properties": {"a": {"description": "x"}}, "$defs": {"S": {"properties": {"b": {}}}}}
    assert undescribed_properties(schema) == (2, ["S.b"])


def test_docs_rulesets_md_is_current() -> None:
    committed = (ROOT / "docs" / "rulesets.md").read_text(encoding="utf-8")
    assert committed == ruleset_reference(), "docs/rulesets.md is stale: run `make docs`"


def test_the_reference_lists_nested_sections_and_enum_values() -> None:
    text = ruleset_reference()
    assert "## `movement`" in text and "### `movement.squeezing`" in text
    assert "| `dash_stacks` | boolean | `false` |" in text
    assert "`group-median`: " + InitiativeMode.GROUP_MEDIAN.description in text
