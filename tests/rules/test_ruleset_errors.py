"""Broken ruleset files: each case names the file, the line and what is wrong."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from battlemap.rules.cli import main as rulesets_main
from battlemap.rules.loader import (
    MAX_RULESET_BYTES,
    RulesetError,
    load_registry,
    read_ruleset_file,
)

VARIANT_HEAD = "schema_version: 1\nextends: srd-5e\nname: Test variant\n"


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def problems_of(tmp_path: Path, name: str, text: str) -> list[str]:
    """Register the file with the shipped rulesets and resolve it; the problem lines."""
    path = write(tmp_path, name, text)
    registry = load_registry()
    try:
        registry.add(read_ruleset_file(path))
        registry.get(path.stem)
    except RulesetError as error:
        return [str(p) for p in error.problems]
    return []


def test_bad_enum_value_names_file_line_field_and_choices(tmp_path: Path) -> None:
    text = VARIANT_HEAD + "initiative:\n  mode: dexx\n"
    [problem] = problems_of(tmp_path, "x.yaml", text)
    assert problem == (
        f"{tmp_path / 'x.yaml'}:5: initiative.mode: 'dexx' is not one of "
        "individual, group-median, manual"
    )


def test_malformed_rest_dice(tmp_path: Path) -> None:
    text = VARIANT_HEAD + "rests:\n  short: {hours: 1, hp_dice_per_level: d8}\n"
    [problem] = problems_of(tmp_path, "x.yaml", text)
    assert problem.startswith(f"{tmp_path / 'x.yaml'}:5: rests.short.hp_dice_per_level: ")


def test_unknown_key(tmp_path: Path) -> None:
    text = VARIANT_HEAD + "economy:\n  dash_stacks: true\n  dahs_stacks: true\n"
    assert problems_of(tmp_path, "x.yaml", text) == [
        f"{tmp_path / 'x.yaml'}:6: economy.dahs_stacks: unknown key (not in the ruleset schema)"
    ]


def test_wrong_type(tmp_path: Path) -> None:
    text = VARIANT_HEAD + "movement:\n  stand_up_fraction_of_speed: half\n"
    [problem] = problems_of(tmp_path, "x.yaml", text)
    assert problem.startswith(f"{tmp_path / 'x.yaml'}:5: movement.stand_up_fraction_of_speed: ")
    assert "number" in problem


def test_error_in_a_list_item_points_at_the_item(tmp_path: Path) -> None:
    text = VARIANT_HEAD + "economy:\n  dodge_ends_when:\n    - incapacitated\n    - asleep\n"
    [problem] = problems_of(tmp_path, "x.yaml", text)
    assert problem.startswith(f"{tmp_path / 'x.yaml'}:7: economy.dodge_ends_when.1: 'asleep'")


def test_cross_reference_error_is_located(tmp_path: Path) -> None:
    text = VARIANT_HEAD + "stabilizing:\n  uses: first-aid\n"
    [problem] = problems_of(tmp_path, "x.yaml", text)
    assert problem == f"{tmp_path / 'x.yaml'}:5: stabilizing.uses: unknown action 'first-aid'"


def test_missing_required_field_in_a_base_file(tmp_path: Path) -> None:
    problems = problems_of(tmp_path, "x.yaml", "schema_version: 1\nname: Lonely\n")
    path = tmp_path / "x.yaml"
    assert f"{path}:1: damage: required field is missing" in problems
    assert f"{path}:1: actions: required field is missing" in problems


def test_wrong_schema_version(tmp_path: Path) -> None:
    text = VARIANT_HEAD.replace("schema_version: 1", "schema_version: 2")
    [problem] = problems_of(tmp_path, "x.yaml", text)
    assert problem == f"{tmp_path / 'x.yaml'}:1: schema_version: 2 is not one of 1"


def test_malformed_yaml(tmp_path: Path) -> None:
    path = write(tmp_path, "x.yaml", VARIANT_HEAD + "initiative: [dex\n")
    with pytest.raises(RulesetError) as caught:
        read_ruleset_file(path)
    assert str(caught.value).startswith(f"{path}:5: malformed YAML: ")


def test_top_level_must_be_a_mapping(tmp_path: Path) -> None:
    path = write(tmp_path, "x.yaml", "- 1\n- 2\n")
    with pytest.raises(RulesetError, match=r"x.yaml:1: expected a mapping"):
        read_ruleset_file(path)


def test_aliases_are_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "x.yaml", VARIANT_HEAD + "a: &big [1, 2]\nb: *big\n")
    with pytest.raises(RulesetError, match=r"x.yaml:5: YAML aliases"):
        read_ruleset_file(path)


def test_oversized_file_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "x.yaml", "#" * (MAX_RULESET_BYTES + 1))
    with pytest.raises(RulesetError, match=r"x.yaml:1: file is \d+ bytes"):
        read_ruleset_file(path)


def test_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "x.yaml"
    path.write_bytes(b"name: \xff\xfe\n")
    with pytest.raises(RulesetError, match="not UTF-8"):
        read_ruleset_file(path)


def test_unknown_base(tmp_path: Path) -> None:
    text = VARIANT_HEAD.replace("srd-5e", "srd-6e")
    [problem] = problems_of(tmp_path, "x.yaml", text)
    assert problem.startswith(f"{tmp_path / 'x.yaml'}:2: extends: unknown base ruleset 'srd-6e'")


def test_extends_cycle(tmp_path: Path) -> None:
    write(tmp_path, "a.yaml", "schema_version: 1\nextends: b\nname: A\n")
    write(tmp_path, "b.yaml", "schema_version: 1\nextends: a\nname: B\n")
    registry = load_registry(user_dir=tmp_path)
    assert "a" not in registry.ids() and "b" not in registry.ids()
    messages = [str(e) for e in registry.problems]
    assert any(m.endswith(":2: extends: extends cycle: a -> b -> a") for m in messages)


def test_override_inherits_and_error_is_blamed_on_the_variant(tmp_path: Path) -> None:
    write(tmp_path, "mine.yaml", VARIANT_HEAD + "economy:\n  dash_stacks: true\n")
    registry = load_registry(user_dir=tmp_path)
    mine = registry.get("mine")
    assert mine.economy.dash_stacks and mine.actions == registry.get("srd-5e").actions


def test_broken_user_file_is_reported_and_skipped(tmp_path: Path) -> None:
    write(tmp_path, "good.yaml", VARIANT_HEAD)
    write(tmp_path, "broken.yaml", VARIANT_HEAD + "initiative:\n  mode: dexx\n")
    write(tmp_path, "garbage.yaml", "{{{{")
    write(tmp_path, "srd-5e.yaml", VARIANT_HEAD)
    write(tmp_path, "child-of-broken.yaml", "schema_version: 1\nextends: broken\nname: C\n")
    registry = load_registry(user_dir=tmp_path)
    assert "good" in registry.ids()
    assert not {"broken", "garbage", "child-of-broken"} & set(registry.ids())
    text = "\n".join(str(e) for e in registry.problems)
    assert "broken.yaml:5: initiative.mode" in text
    assert "garbage.yaml" in text and "is a shipped ruleset" in text
    assert "child-of-broken.yaml:2: extends: unknown base ruleset 'broken'" in text


def run_cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = rulesets_main(list(argv), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def test_cli_check_exit_codes(tmp_path: Path) -> None:
    good = write(tmp_path, "good.yaml", VARIANT_HEAD)
    bad = write(tmp_path, "bad.yaml", VARIANT_HEAD + "initiative:\n  mode: dexx\n")
    assert run_cli("check", str(good))[0] == 0
    code, out, err = run_cli("check", str(good), str(bad))
    assert code == 1 and f"ok: {good}" in out and f"{bad}:5: initiative.mode" in err
    code, out, _ = run_cli("check")
    assert code == 0 and out.count("ok: ") >= 5


def test_cli_list_and_schema() -> None:
    code, out, _ = run_cli("list")
    assert code == 0 and "legends-of-hyrule" in out and "(extends srd-5e)" in out
    code, out, _ = run_cli("schema")
    assert code == 0 and '"schema_version"' in out


def test_duplicate_keys_are_refused(tmp_path: Path) -> None:
    path = write(
        tmp_path, "x.yaml", VARIANT_HEAD + "economy:\n  dash_stacks: true\n  dash_stacks: false\n"
    )
    with pytest.raises(RulesetError) as caught:
        read_ruleset_file(path)
    assert str(caught.value) == f"{path}:6: economy.dash_stacks: duplicate key"


def test_extends_must_be_a_ruleset_id(tmp_path: Path) -> None:
    path = write(tmp_path, "x.yaml", "schema_version: 1\nextends: [srd-5e]\nname: X\n")
    with pytest.raises(RulesetError, match=r"x.yaml:2: extends: must be the id of a ruleset"):
        read_ruleset_file(path)


@pytest.mark.parametrize(
    ("key", "text"),
    [
        ("never_negative", "damage:\n  never_negative: true\n"),
        ("only_best_degree", "attacks:\n  cover:\n    only_best_degree: true\n"),
        ("bonus_action_requires_feature", "economy:\n  bonus_action_requires_feature: true\n"),
        ("declared_before_roll", "attacks:\n  called_shot:\n    declared_before_roll: true\n"),
    ],
)
def test_retired_keys_say_why_they_went(tmp_path: Path, key: str, text: str) -> None:
    # Files written before these were removed may still set them; the message says why.
    (problem,) = problems_of(tmp_path, "old.yaml", VARIANT_HEAD + text)
    assert f"{key}: no longer a ruleset setting" in problem and problem.endswith("remove this key")


def test_controlled_mount_actions_must_exist(tmp_path: Path) -> None:
    text = VARIANT_HEAD + "movement:\n  mounting:\n    controlled_mount_actions: [dash, gallop]\n"
    (problem,) = problems_of(tmp_path, "mounts.yaml", text)
    assert "controlled_mount_actions: unknown action 'gallop'" in problem


@pytest.mark.parametrize(
    "order",
    [
        "[adjustments, resistance, vulnerability]",  # immunity would be skipped silently
        "[resistance, adjustments, vulnerability, immunity]",  # the engine adjusts first
        "[adjustments, resistance, resistance, vulnerability, immunity]",
    ],
)
def test_damage_order_lists_every_step_once_adjustments_first(tmp_path: Path, order: str) -> None:
    text = VARIANT_HEAD + f"damage:\n  order: {order}\n"
    [problem] = problems_of(tmp_path, "x.yaml", text)
    assert problem.startswith(f"{tmp_path / 'x.yaml'}:5: damage")
    assert "order must list each step once, adjustments first" in problem
