"""What switching rulesets changes (``ruleset_changes``), on the shipped rulesets and on
rulesets that differ in one field."""

from __future__ import annotations

from battlemap.rules.enums import DiagonalRule
from battlemap.rules.ruleset_changes import KEY_RULES, ruleset_changes
from battlemap.rules.schema import BloodiedRules, Ruleset
from tests.rules.conftest import RULESET_IDS


def with_field(ruleset: Ruleset, section: str, **values: object) -> Ruleset:
    """``ruleset`` with fields of one section replaced (validated again)."""
    data = ruleset.model_dump()
    data[section] = {**data[section], **values}
    return Ruleset.model_validate(data)


def test_srd_to_bloodied_brink_names_the_death_rules_and_bloodied(
    rulesets: dict[str, Ruleset],
) -> None:
    changes = ruleset_changes(rulesets["srd-5e"], rulesets["bloodied-brink"])
    assert [str(rule) for rule in changes.rules] == [
        "Death saves: DC 10, 3 failures: dead \u2192 DC 10, 2 failures: brink-of-death",
        "Brink of Death: none \u2192 adrenaline, sentence, last-breath",
        "Bloodied: none \u2192 at or below 50% HP",
    ]
    # the fields of a listed rule are not counted twice; the names of the rulesets never
    assert "death_saves.natural_1" in changes.other_fields
    assert "rests.short.hours" in changes.other_fields
    assert not any(p.startswith("death_saves.brink_of_death") for p in changes.other_fields)
    assert "death_saves.failures_limit" not in changes.other_fields
    assert not {"name", "description", "source", "extends"} & set(changes.other_fields)
    last = changes.lines()[-1]
    assert last.startswith(f"Also different ({len(changes.other_fields)} more fields): ")
    assert "rests" in last and "knockout" in last


def test_gms_den_lists_diagonals_crits_flanking_and_surprise(
    rulesets: dict[str, Ruleset],
) -> None:
    changes = ruleset_changes(rulesets["srd-5e"], rulesets["gms-den"])
    by_label = {rule.label: (rule.old, rule.new) for rule in changes.rules}
    assert by_label["Diagonals"] == ("5-10-5", "5-5-5")
    assert by_label["Critical hits"] == ("double-dice", "max-plus-roll")
    assert by_label["Flanking"] == ("off", "on")
    assert by_label["Surprise"] == ("individual", "group-average")
    assert "Death saves" not in by_label and "Bloodied" not in by_label


def test_legends_of_hyrule_changes_the_initiative_mode(rulesets: dict[str, Ruleset]) -> None:
    changes = ruleset_changes(rulesets["srd-5e"], rulesets["legends-of-hyrule"])
    assert changes.rules[0].label == "Initiative"
    assert changes.rules[0].old.startswith("individual, DEX")
    assert changes.rules[0].new.startswith("group-median, WIS")


def test_switching_back_lists_the_same_rules_reversed(rulesets: dict[str, Ruleset]) -> None:
    checked = 0
    for old in RULESET_IDS:
        for new in RULESET_IDS:
            there = ruleset_changes(rulesets[old], rulesets[new])
            back = ruleset_changes(rulesets[new], rulesets[old])
            assert [(r.label, r.new, r.old) for r in back.rules] == [
                (r.label, r.old, r.new) for r in there.rules
            ]
            assert sorted(back.other_fields) == sorted(there.other_fields)
            assert bool(there) == (old != new)
            checked += 1
    assert checked == len(RULESET_IDS) ** 2


def test_the_same_rules_say_so(rulesets: dict[str, Ruleset]) -> None:
    srd = rulesets["srd-5e"]
    renamed = srd.model_copy(update={"name": "Our table", "description": "Same rules"})
    changes = ruleset_changes(srd, renamed)
    assert not changes
    assert changes.lines() == ["Our table plays like 5e SRD: no rule differs."]


def test_one_changed_field_gives_one_line_and_nothing_else(rulesets: dict[str, Ruleset]) -> None:
    srd = rulesets["srd-5e"]
    diagonal = with_field(srd, "movement", diagonal=DiagonalRule.FIVE)
    changes = ruleset_changes(srd, diagonal)
    assert [str(r) for r in changes.rules] == ["Diagonals: 5-10-5 \u2192 5-5-5"]
    assert changes.other_fields == ()
    assert changes.lines() == ["Diagonals: 5-10-5 \u2192 5-5-5"]


def test_a_change_the_rule_text_hides_is_still_counted(rulesets: dict[str, Ruleset]) -> None:
    base = rulesets["bloodied-brink"]
    nudged = with_field(
        base, "hit_points", bloodied=BloodiedRules(fraction_of_max=0.501, at_or_below=True)
    )
    changes = ruleset_changes(base, nudged)
    assert changes.rules == ()  # both read "at or below 50% HP"
    assert changes.other_fields == ("hit_points.bloodied.fraction_of_max",)


def test_every_key_rule_names_fields_the_schema_has(rulesets: dict[str, Ruleset]) -> None:
    """A renamed schema field must not silently drop a rule from the summary."""
    paths: set[str] = set()
    for ruleset in rulesets.values():
        paths |= set(_dotted(ruleset.model_dump(mode="json")))
    for label, covered, _text in KEY_RULES:
        for field in covered:
            assert any(p == field or p.startswith(field + ".") for p in paths), (label, field)


def _dotted(value: object, prefix: str = "") -> list[str]:
    if isinstance(value, dict) and value:
        return [p for key, item in value.items() for p in _dotted(item, f"{prefix}{key}.")]
    return [prefix.rstrip(".")]
