"""What changes at the table when an encounter switches from one ruleset to another.

``ruleset_changes(old, new)`` compares two ``Ruleset`` objects: first the rules a DM notices
in play (initiative, diagonals, critical hits, death saves, bloodied...), each as a short
"old -> new" line, then every other field that differs, counted by section. The UI shows the
lines when the DM switches (Rules menu).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from battlemap.rules.schema import Ruleset

META_FIELDS = frozenset({"schema_version", "extends", "name", "description", "source"})
"""Fields that describe a ruleset rather than change play: never counted as a change."""


@dataclass(frozen=True)
class RuleChange:
    """One rule noticed in play that reads differently under the new ruleset."""

    label: str
    old: str
    new: str

    def __str__(self) -> str:
        return f"{self.label}: {self.old} \u2192 {self.new}"


@dataclass(frozen=True)
class RulesetChanges:
    """Everything that differs between two rulesets.

    Attributes:
        old_name, new_name: the two rulesets' names.
        rules: the rules noticed in play that differ, in the order of ``KEY_RULES``.
        other_fields: the dotted paths of every other differing field (``actions.shove.cost``);
            a section present in one ruleset only counts each of its fields.
    """

    old_name: str
    new_name: str
    rules: tuple[RuleChange, ...]
    other_fields: tuple[str, ...]

    def __bool__(self) -> bool:
        return bool(self.rules or self.other_fields)

    def other_sections(self) -> dict[str, int]:
        """How many other fields differ per top-level section, in schema order."""
        return dict(Counter(path.split(".", 1)[0] for path in self.other_fields))

    def lines(self) -> list[str]:
        """The summary shown to the DM: one line per rule, then one for the other fields."""
        if not self:
            return [f"{self.new_name} plays like {self.old_name}: no rule differs."]
        lines = [str(rule) for rule in self.rules]
        sections = self.other_sections()
        if sections:
            names = ", ".join(name.replace("_", " ") for name in sections)
            lines.append(f"Also different ({len(self.other_fields)} more fields): {names}")
        return lines


def _on_off(flag: bool) -> str:
    return "on" if flag else "off"


def _initiative(rules: Ruleset) -> str:
    initiative = rules.initiative
    return f"{initiative.mode}, {initiative.ability.upper()}, ties: {initiative.tie_break}"


def _death_saves(rules: Ruleset) -> str:
    saves = rules.death_saves
    return f"DC {saves.dc}, {saves.failures_limit} failures: {saves.on_failures_reached}"


def _brink(rules: Ruleset) -> str:
    brink = rules.death_saves.brink_of_death
    return "none" if brink is None else ", ".join(brink.options)


def _bloodied(rules: Ruleset) -> str:
    bloodied = rules.hit_points.bloodied
    if bloodied is None:
        return "none"
    at = "at or below" if bloodied.at_or_below else "below"
    return f"{at} {bloodied.fraction_of_max:.0%} HP"


def _massive(rules: Ruleset) -> str:
    massive = rules.massive_damage
    return "none" if massive is None else f"table at {massive.fraction_of_max:.0%} of max HP"


KeyRule = tuple[str, tuple[str, ...], Callable[[Ruleset], str]]
KEY_RULES: tuple[KeyRule, ...] = (
    ("Initiative", ("initiative.mode", "initiative.ability", "initiative.tie_break"), _initiative),
    ("Surprise", ("surprise.mode",), lambda r: str(r.surprise.mode)),
    ("Diagonals", ("movement.diagonal",), lambda r: str(r.movement.diagonal)),
    ("Critical hits", ("attacks.critical_damage",), lambda r: str(r.attacks.critical_damage)),
    ("Flanking", ("attacks.flanking.enabled",), lambda r: _on_off(r.attacks.flanking.enabled)),
    (
        "Death saves",
        ("death_saves.dc", "death_saves.failures_limit", "death_saves.on_failures_reached"),
        _death_saves,
    ),
    ("Brink of Death", ("death_saves.brink_of_death",), _brink),
    ("Bloodied", ("hit_points.bloodied",), _bloodied),
    (
        "Monsters at 0 HP",
        ("hit_points.monsters_at_zero",),
        lambda r: str(r.hit_points.monsters_at_zero),
    ),
    ("Massive damage", ("massive_damage",), _massive),
    ("Damage types", ("damage.types",), lambda r: f"{len(r.damage.types)} types"),
)
"""The rules noticed in play: (label, the fields each covers, its text in a ruleset)."""


def _leaves(value: Any, prefix: str = "") -> Iterator[tuple[str, Any]]:
    """(dotted path, value) of every non-mapping value; an empty mapping is one leaf."""
    if isinstance(value, Mapping) and value:
        for key, item in value.items():
            yield from _leaves(item, f"{prefix}{key}.")
    else:
        yield prefix.rstrip("."), value


def _covered(path: str, prefixes: frozenset[str]) -> bool:
    parts = path.split(".")
    return any(".".join(parts[:end]) in prefixes for end in range(1, len(parts) + 1))


_MISSING = object()


def ruleset_changes(old: Ruleset, new: Ruleset) -> RulesetChanges:
    """What switching an encounter from ``old`` to ``new`` changes (see ``RulesetChanges``).

    A key rule is listed when its text differs; the fields of a listed rule are not counted
    again among the other fields. A field whose change the rule's text does not show (a
    bloodied fraction of 0.5 vs 0.501, both "50%") is counted among the other fields.
    """
    listed = [
        (RuleChange(label, text(old), text(new)), paths)
        for label, paths, text in KEY_RULES
        if text(old) != text(new)
    ]
    covered = frozenset(path for _rule, paths in listed for path in paths)
    old_leaves = dict(_leaves(old.model_dump(mode="json")))
    new_leaves = dict(_leaves(new.model_dump(mode="json")))
    other = tuple(
        path
        for path in dict.fromkeys([*old_leaves, *new_leaves])
        if path.split(".", 1)[0] not in META_FIELDS
        and not _covered(path, covered)
        and old_leaves.get(path, _MISSING) != new_leaves.get(path, _MISSING)
    )
    return RulesetChanges(old.name, new.name, tuple(rule for rule, _ in listed), other)
