"""Read ruleset YAML files, resolve ``extends:`` chains and validate them as a ``Ruleset``.

Every problem is reported as ``file:line: field: problem``. Line numbers come from the YAML
node marks of the file that wrote the value: a variant's override is blamed on the variant,
an inherited value on its base. Files are untrusted: they are size-bounded, read with
``yaml.safe_load``, and may not use YAML aliases (a few aliases can expand into gigabytes).

Merging: mappings merge key by key (the variant wins); any other value, lists included,
replaces the base's. A mapping with ``__replace__: true`` replaces the base's mapping whole.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from battlemap.model.limits import MAX_RULESET_ID
from battlemap.resources import resource_dir
from battlemap.rules.schema import Ruleset

MAX_RULESET_BYTES = 256 * 1024
MAX_EXTENDS_DEPTH = 8
REPLACE_MARKER = "__replace__"
RULESET_SUFFIXES = (".yaml", ".yml")

FieldPath = tuple[str | int, ...]


@dataclass(frozen=True)
class RulesetProblem:
    """One thing wrong with a ruleset file, located as precisely as the file allows."""

    path: Path
    line: int
    field: str
    problem: str

    def __str__(self) -> str:
        where = f"{self.field}: " if self.field else ""
        return f"{self.path}:{self.line}: {where}{self.problem}"


class RulesetError(ValueError):
    """A ruleset file is unreadable or invalid; ``problems`` lists every located problem."""

    def __init__(self, problems: Iterable[RulesetProblem]) -> None:
        self.problems = tuple(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


@dataclass(frozen=True)
class RulesetSource:
    """A parsed but not yet validated ruleset file."""

    id: str
    path: Path
    data: Mapping[str, Any]
    lines: Mapping[FieldPath, int]

    @property
    def extends(self) -> str | None:
        value = self.data.get("extends")
        return value if isinstance(value, str) else None

    def problem(self, where: FieldPath, message: str) -> RulesetProblem:
        """A problem at ``where``, on the line of the longest part of it the file has."""
        return RulesetProblem(self.path, _line_for(self.lines, where), _dotted(where), message)


def ruleset_id(path: Path) -> str:
    """The file name without suffix: ``rulesets/gms-den.yaml`` -> ``gms-den``."""
    return path.stem


SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's safe loader when PyYAML has it (ten times faster at start-up), else PyYAML's."""


def read_ruleset_file(path: Path) -> RulesetSource:
    """Parse one ruleset file without validating it against the schema.

    Raises:
        RulesetError: the file's name (its id) is too long, the file is missing, too large,
            not UTF-8, not YAML, uses aliases, or is not a mapping at the top level.
    """
    path = Path(path)

    def fail(line: int, message: str) -> RulesetError:
        return RulesetError([RulesetProblem(path, line, "", message)])

    if len(ruleset_id(path)) > MAX_RULESET_ID:  # an encounter naming it would not reopen
        raise fail(1, f"the file name is longer than {MAX_RULESET_ID} characters; shorten it")
    try:
        size = path.stat().st_size
        if size > MAX_RULESET_BYTES:
            raise fail(1, f"file is {size} bytes; a ruleset may be at most {MAX_RULESET_BYTES}")
        text = path.read_bytes().decode("utf-8")
    except OSError as error:
        raise fail(1, f"cannot read: {error.strerror or error}") from None
    except UnicodeDecodeError as error:
        raise fail(1, f"not UTF-8 text (byte {error.start})") from None
    try:
        for event in yaml.parse(text, Loader=SAFE_LOADER):
            if isinstance(event, yaml.AliasEvent):
                line = event.start_mark.line + 1 if event.start_mark else 1
                raise fail(line, "YAML aliases (*name) are not allowed in ruleset files")
        # One parse for the nodes (their lines) and the data: what yaml.load does inside.
        loader = SAFE_LOADER(text)  # a safe loader: no arbitrary objects
        try:
            root = loader.get_single_node()
            data = loader.construct_document(root) if root is not None else None
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line = mark.line + 1 if mark else 1
        raise fail(line, f"malformed YAML: {error.problem or error.context}") from None
    except yaml.YAMLError as error:
        raise fail(1, f"malformed YAML: {error}") from None
    if not isinstance(data, dict):
        raise fail(1, f"expected a mapping of ruleset fields, got {type(data).__name__}")
    lines: dict[FieldPath, int] = {(): 1}
    duplicates: list[RulesetProblem] = []
    if root is not None:
        _collect_lines(root, (), lines, path, duplicates)
    if duplicates:
        raise RulesetError(duplicates)
    source = RulesetSource(ruleset_id(path), path, data, lines)
    if "extends" in data and not isinstance(data["extends"], str):
        raise RulesetError([source.problem(("extends",), "must be the id of a ruleset")])
    return source


def _collect_lines(
    node: yaml.Node,
    where: FieldPath,
    lines: dict[FieldPath, int],
    path: Path,
    duplicates: list[RulesetProblem],
) -> None:
    """Record the line of every key and list item; a key written twice is a problem (YAML
    would silently keep the last one)."""
    if isinstance(node, yaml.MappingNode):
        seen: set[str] = set()
        for key_node, value_node in node.value:
            key = (str(key_node.value),)
            line = key_node.start_mark.line + 1
            if key[0] in seen:
                duplicates.append(RulesetProblem(path, line, _dotted(where + key), "duplicate key"))
            seen.add(key[0])
            lines[where + key] = line
            _collect_lines(value_node, where + key, lines, path, duplicates)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            lines[(*where, index)] = item.start_mark.line + 1
            _collect_lines(item, (*where, index), lines, path, duplicates)


def _line_for(lines: Mapping[FieldPath, int], where: FieldPath) -> int:
    for length in range(len(where), -1, -1):
        prefix = tuple(str(p) if not isinstance(p, int) else p for p in where[:length])
        if prefix in lines:
            return lines[prefix]
    return 1


def _dotted(where: FieldPath) -> str:
    return ".".join(str(part) for part in where)


def merge(base: Mapping[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    """``override`` laid over ``base``: mappings merge recursively, other values replace.

    A mapping in ``override`` with ``__replace__: true`` replaces the base mapping whole.
    """
    merged = {k: _strip(v) for k, v in base.items()}
    for key, value in override.items():
        if key == REPLACE_MARKER:
            continue
        old = merged.get(key)
        if isinstance(value, dict) and isinstance(old, dict) and not value.get(REPLACE_MARKER):
            merged[key] = merge(old, value)
        else:
            merged[key] = _strip(value)
    return merged


def _strip(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _strip(v) for k, v in value.items() if k != REPLACE_MARKER}
    return value


@dataclass
class RulesetRegistry:
    """Ruleset files by id; resolves ``extends`` and validates on demand.

    Build one with ``load_registry``; pass it where rulesets are needed (no global instance).
    """

    sources: dict[str, RulesetSource] = field(default_factory=dict)
    problems: list[RulesetError] = field(default_factory=list)
    """Files that were reported and skipped."""
    _cache: dict[str, Ruleset] = field(default_factory=dict, repr=False)

    def add(self, source: RulesetSource) -> None:
        self.sources[source.id] = source
        self._cache.clear()

    def ids(self) -> list[str]:
        return sorted(self.sources)

    def get(self, ruleset: str) -> Ruleset:
        """The validated ruleset ``ruleset`` with its ``extends`` chain applied.

        Raises:
            RulesetError: unknown id, unknown base, a cycle, or invalid merged data.
        """
        if ruleset not in self._cache:
            self._cache[ruleset] = self._resolve(ruleset)
        return self._cache[ruleset]

    def _chain(self, ruleset: str) -> list[RulesetSource]:
        """The source of ``ruleset`` followed by its bases, most derived first."""
        if ruleset not in self.sources:
            known = ", ".join(self.ids()) or "none"
            raise RulesetError(
                [RulesetProblem(Path(ruleset), 1, "", f"unknown ruleset; known: {known}")]
            )
        chain = [self.sources[ruleset]]
        while chain[-1].extends is not None:
            child = chain[-1]
            base = child.extends
            assert base is not None
            if base not in self.sources:
                known = ", ".join(self.ids())
                raise RulesetError(
                    [child.problem(("extends",), f"unknown base ruleset '{base}'; known: {known}")]
                )
            if any(source.id == base for source in chain):
                cycle = " -> ".join([s.id for s in chain] + [base])
                raise RulesetError([child.problem(("extends",), f"extends cycle: {cycle}")])
            if len(chain) >= MAX_EXTENDS_DEPTH:
                raise RulesetError(
                    [child.problem(("extends",), f"extends chain deeper than {MAX_EXTENDS_DEPTH}")]
                )
            chain.append(self.sources[base])
        return chain

    def _resolve(self, ruleset: str) -> Ruleset:
        chain = self._chain(ruleset)
        data: dict[str, Any] = {}
        for source in reversed(chain):
            data = merge(data, source.data)
        data["extends"] = chain[0].extends
        try:
            return Ruleset.model_validate(data)
        except ValidationError as error:
            raise RulesetError(_locate(error, chain)) from None


_FIELD_PREFIX = re.compile(r"^(?:Value error, )?([\w\-]+(?:\.[\w\-]+)+): (.*)$", re.DOTALL)


def _locate(error: ValidationError, chain: list[RulesetSource]) -> list[RulesetProblem]:
    problems = []
    for item in error.errors():
        where: FieldPath = tuple(p for p in item["loc"] if p != "[key]")
        message = _message(item)
        match = _FIELD_PREFIX.match(message)
        if not where and match:
            where = tuple(int(p) if p.isdigit() else p for p in match.group(1).split("."))
            message = match.group(2)
        # A missing field is the fault of the file that wrote the mapping lacking it (a base
        # may have the field where a variant's ``__replace__`` dropped it).
        owner = _owner(where[:-1] if item["type"] == "missing" else where, chain)
        problems.append(owner.problem(where, message))
    return problems


def _owner(where: FieldPath, chain: list[RulesetSource]) -> RulesetSource:
    """The most derived file that wrote the longest prefix of ``where``."""
    for length in range(len(where), 0, -1):
        prefix = tuple(str(p) if not isinstance(p, int) else p for p in where[:length])
        for source in chain:
            if prefix in source.lines:
                return source
    return chain[0]


RETIRED_KEYS = {
    "attacks.cover.only_best_degree": "only the most protective degree of cover ever applies"
    " (the map's cover method gives one degree per attacker and target)",
    "damage.never_negative": "damage is never below 0 in any ruleset",
    "attacks.flanking.effect": "flanking always gives advantage (its only value) on melee"
    " attacks (attacks.flanking.enabled switches it)",
    "economy.bonus_action_requires_feature": "a bonus action always comes from a feature or a"
    " bonus-action entry",
    "attacks.called_shot.declared_before_roll": "a called shot is always declared before the"
    " attack roll",
    "movement.difficult_terrain_style": "difficult terrain always costs extra movement per foot"
    " (movement.difficult_terrain_extra_cost_per_foot); gms-den's 'speed halved' costs the"
    " same ('difficult terrain (double movement cost)')",
    "sizes_feet": "a creature's space per size is the same in every rules document"
    " (legends-of-hyrule 'Size Categories': Tiny 2.5 ft, Small and Medium 5, Large 10,"
    " Huge 15, Gargantuan 20) and is the map's own (tokens, reach, cover, movement)",
    "obscurement": "what dim light and darkness do is the 'light' section now (light.dim,"
    " light.dark: none, unseen, lightly-obscured or heavily-obscured)",
}
"""Keys (dotted paths) that older ruleset files may carry, with why they were removed from
the schema; the same name anywhere else is an unknown key."""


def _message(item: Any) -> str:
    kind = item["type"]
    value = item.get("input")
    ctx = item.get("ctx") or {}
    if kind in ("enum", "literal_error") and "expected" in ctx:
        choices = re.findall(r"'([^']*)'", str(ctx["expected"])) or [str(ctx["expected"])]
        return f"{value!r} is not one of {', '.join(choices)}"
    if kind == "extra_forbidden":
        retired = RETIRED_KEYS.get(".".join(str(part) for part in item.get("loc", ())))
        if retired is not None:
            return f"no longer a ruleset setting: {retired}; remove this key"
        return "unknown key (not in the ruleset schema)"
    if kind == "missing":
        return "required field is missing"
    message = str(item["msg"])
    return message.removeprefix("Value error, ")


def shipped_rulesets_dir() -> Path:
    """The ``rulesets/`` folder that ships with Battlemap."""
    return resource_dir("rulesets")


def ruleset_files(folder: Path) -> list[Path]:
    """The ruleset files in ``folder``, sorted; an absent folder has none."""
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.suffix in RULESET_SUFFIXES and p.is_file())


def load_registry(user_dir: Path | None = None, shipped_dir: Path | None = None) -> RulesetRegistry:
    """Shipped rulesets plus the user's own from ``user_dir``.

    A user file that can't be read, clashes with a shipped id, or fails validation is recorded
    in ``registry.problems`` and skipped; it never raises. Shipped files are trusted to be valid
    (a test checks them) but are validated the same way.
    """
    registry = RulesetRegistry()
    folder = shipped_dir if shipped_dir is not None else shipped_rulesets_dir()
    for path in ruleset_files(folder):
        try:
            registry.add(read_ruleset_file(path))
        except RulesetError as error:
            registry.problems.append(error)
    if user_dir is None:
        return registry
    shipped_ids = set(registry.sources)
    user_ids = []
    for path in ruleset_files(user_dir):
        try:
            source = read_ruleset_file(path)
        except RulesetError as error:
            registry.problems.append(error)
            continue
        if source.id in shipped_ids:
            registry.problems.append(
                RulesetError(
                    [
                        RulesetProblem(
                            path, 1, "", f"'{source.id}' is a shipped ruleset; rename the file"
                        )
                    ]
                )
            )
            continue
        registry.add(source)
        user_ids.append(source.id)
    # Drop broken user rulesets until every remaining one resolves (a file extending a
    # broken one is broken too and is reported on the next pass).
    broken = True
    while broken:
        broken = False
        for user_id in [u for u in user_ids if u in registry.sources]:
            try:
                registry.get(user_id)
            except RulesetError as error:
                registry.problems.append(error)
                del registry.sources[user_id]
                registry._cache.clear()
                broken = True
    return registry
