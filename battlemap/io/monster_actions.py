"""A 5e-database monster's actions beyond its attacks, read leniently into the stat block's
Multiattack options, save actions, uses, legendary actions and resistances and lair actions.

The structured fields come first (``multiattack_type`` with ``actions`` or
``action_options``, ``dc``, ``usage``, a breath weapon's ``options``); where only text
exists the common forms are parsed (``battlemap.io.action_text``). Nothing here refuses a
file: data it cannot read keeps the action as text with a note saying what was not read.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from battlemap.io.action_text import (
    area_from_text,
    bare_name,
    condition_from_text,
    legendary_cost,
    multiattack_from_text,
    usage_from_name,
)
from battlemap.io.monster_json import ActionJson, DamageJson, Ref, damage_from_json
from battlemap.model.abilities import Ability
from battlemap.model.statblock import Attack, Damage
from battlemap.model.statblock_actions import (
    MAX_ACTION_TEXT,
    ActionSource,
    AttackCount,
    Legendary,
    LegendaryAction,
    MultiattackOption,
    SaveAction,
    TextAction,
    Usage,
    UsageKind,
)

_ABILITIES = {ability.value[:3]: ability for ability in Ability}
MAX_SAVE_ACTIONS = 30
MAX_TEXT_ACTIONS = 60


class _Dc(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)
    dc_type: Ref
    dc_value: int = Field(ge=1, le=40)
    success_type: str = Field(default="none", max_length=40)


class _Usage(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)
    type: str = Field(max_length=40)
    min_value: int | None = Field(default=None, ge=2, le=6)
    times: int | None = Field(default=None, ge=1, le=10)


class _Count(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)
    action_name: str = Field(min_length=1, max_length=200)
    count: int = Field(default=1, ge=1, le=10)
    type: str = Field(default="", max_length=40)


class _Option(BaseModel):
    """One Multiattack option: one action (``option_type: action``) or several (``multiple``
    with ``items``)."""

    model_config = ConfigDict(extra="ignore", frozen=True)
    option_type: str = Field(max_length=40)
    action_name: str = Field(default="", max_length=200)
    count: int = Field(default=1, ge=1, le=10)
    type: str = Field(default="", max_length=40)
    items: list[_Count] = Field(default=[], max_length=20)


class _BreathOption(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)
    name: str = Field(min_length=1, max_length=200)
    dc: _Dc
    damage: list[DamageJson] = Field(default=[], max_length=20)


@dataclass
class ActionsRead:
    """What ``read_actions`` found, ready for the ``StatBlock``'s fields."""

    multiattack: list[MultiattackOption] = field(default_factory=list)
    save_actions: list[SaveAction] = field(default_factory=list)
    text_actions: list[TextAction] = field(default_factory=list)
    legendary: Legendary | None = None
    lair_actions: list[TextAction] = field(default_factory=list)


def _text(desc: str) -> str:
    return desc if len(desc) <= MAX_ACTION_TEXT else desc[: MAX_ACTION_TEXT - 1] + "…"


def _problem(error: Exception) -> str:
    if isinstance(error, ValidationError):
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "value"
        return f"{where}: {first['msg']}"[:150]
    return str(error)[:150]


def _usage(action: ActionJson) -> tuple[Usage | None, str]:
    """The action's uses, from ``usage`` or its name; and a note when ``usage`` is unread."""
    if action.usage is None:
        return usage_from_name(action.name), ""
    try:
        raw = _Usage.model_validate(action.usage)
    except ValidationError as error:
        return usage_from_name(action.name), f"usage not read ({_problem(error)})"
    kind = raw.type.strip().lower()
    if kind == "recharge on roll" and raw.min_value is not None:
        return Usage(kind=UsageKind.RECHARGE, recharge_on=raw.min_value), ""
    if kind == "per day":
        return Usage(kind=UsageKind.PER_DAY, times=raw.times or 1), ""
    if kind == "recharge after rest":
        return Usage(kind=UsageKind.PER_REST), ""
    return usage_from_name(action.name), f"usage '{raw.type[:40]}' not read"


def _save(
    name: str, dc: object, desc: str, damage: tuple[Damage, ...], usage: Usage | None, key: str
) -> SaveAction:
    """A save action; raises ValidationError or ValueError for a ``dc`` it can't read."""
    raw = _Dc.model_validate(dc)
    ability = _ABILITIES.get(raw.dc_type.index.strip().lower()[:3])
    if ability is None:
        raise ValueError(f"dc.dc_type.index: '{raw.dc_type.index[:20]}' is not an ability")
    half = raw.success_type == "half" or "half as much damage on a successful" in desc.lower()
    return SaveAction(
        name=name,
        ability=ability,
        dc=raw.dc_value,
        damage=tuple(d for d in damage if d.choice is None)[:10],
        half_on_success=half and bool(damage),
        area=area_from_text(desc),
        usage=usage,
        usage_key=key,
        effect=_text(desc),
        on_failure=condition_from_text(desc),
    )


def _paragraph(desc: str, name: str) -> str:
    """The paragraph of ``desc`` that starts with ``name`` ("Fire Breath. The dragon...")."""
    for line in desc.splitlines():
        if line.strip().lower().startswith(name.lower()):
            return line.strip()
    return desc


def _breath_options(action: ActionJson, usage: Usage | None) -> list[SaveAction]:
    """A "Breath Weapons" action's options, each a save action sharing its uses."""
    if not isinstance(action.options, dict):
        raise ValueError("options: expected an object")
    listed = action.options.get("from", {})
    options = listed.get("options", []) if isinstance(listed, dict) else []
    if not isinstance(options, list) or not options:
        raise ValueError("options.from.options: expected a list of options")
    saves = []
    for raw in options[:10]:
        option = _BreathOption.model_validate(raw)
        saves.append(
            _save(
                option.name,
                option.dc,
                _paragraph(action.desc, option.name),
                damage_from_json(option.damage),
                usage,
                action.name,
            )
        )
    return saves


class _Names:
    """Resolves a name as written ("claws", "Bite (Bat or Vampire Form Only)") to the stat
    block's attack or other action of that name."""

    def __init__(self, attacks: Sequence[Attack], others: Sequence[str]) -> None:
        self.attacks = {bare_name(a.name): a.name for a in attacks}
        self.others = {bare_name(name): name for name in others}

    def attack(self, name: str) -> str | None:
        return self.attacks.get(bare_name(name))

    def other(self, name: str) -> str | None:
        return self.others.get(bare_name(name))


def _option(
    counts: Sequence[tuple[str, int]], total: int | None, names: _Names
) -> MultiattackOption:
    attacks: dict[str, int] = {}
    others: list[str] = []
    unnamed = 0
    for written, count in counts:
        attack = names.attack(written)
        other = names.other(written)
        if attack is not None:
            attacks[attack] = attacks.get(attack, 0) + count
        elif other is not None:
            others.append(other)
        else:
            unnamed += count  # a weapon the stat block doesn't list: the DM's pick
    named_total = sum(attacks.values())
    if total is not None and total > named_total + unnamed:
        unnamed = total - named_total
    return MultiattackOption(
        attacks=tuple(AttackCount(name=n, count=c) for n, c in attacks.items()),
        any_attacks=unnamed,
        other_actions=tuple(dict.fromkeys(others)),
    )


def _structured_multiattack(action: ActionJson, names: _Names) -> list[MultiattackOption]:
    if action.multiattack_type == "actions":
        if not isinstance(action.actions, list):
            raise ValueError("actions: expected a list")
        counts = [_Count.model_validate(raw) for raw in action.actions[:20]]
        return [_option([(c.action_name, c.count) for c in counts], None, names)]
    if action.multiattack_type == "action_options":
        listed = action.action_options
        options = listed.get("from", {}) if isinstance(listed, dict) else {}
        raws = options.get("options", []) if isinstance(options, dict) else []
        if not isinstance(raws, list) or not raws:
            raise ValueError("action_options.from.options: expected a list of options")
        read = []
        for raw in raws[:10]:
            option = _Option.model_validate(raw)
            items = option.items or [_Count(action_name=option.action_name, count=option.count)]
            read.append(_option([(i.action_name, i.count) for i in items], None, names))
        return read
    return []


def _multiattack(action: ActionJson, names: _Names) -> tuple[list[MultiattackOption], str]:
    """The options, and a note when they came from the text or could not be read."""
    note = ""
    try:
        options = _structured_multiattack(action, names)
    except (ValidationError, ValueError) as error:
        options, note = [], f"Multiattack data not read ({_problem(error)}); "
    if options:
        return options, ""
    for parsed in multiattack_from_text(action.desc):
        try:
            options.append(_option(parsed.named, parsed.total, names))
        except ValidationError:
            continue
    if options:
        return options, ""
    return [], note + "the DM picks the attacks (Attack action)"


MAX_SECTION_ENTRIES = 50


def _section(value: object, source: ActionSource, read: ActionsRead) -> list[object]:
    """A section's entries (None: none); anything but a list is noted and read as none."""
    if value is None:
        return []
    if isinstance(value, list):
        return value[:MAX_SECTION_ENTRIES]
    note = f"the {source.value} entries are not a list: not read"
    read.text_actions.append(TextAction(name=f"{source.value} entries", source=source, note=note))
    return []


def read_actions(
    attacks: Sequence[Attack],
    actions: Sequence[ActionJson],
    legendary_entries: object,
    special_entries: object,
    reaction_entries: object,
    lair_entries: object,
) -> ActionsRead:
    """Read what the stat block's actions, legendary actions, traits (``special_abilities``),
    reactions and lair actions say beyond its attacks; the last four are raw JSON. Never
    raises for what it cannot read (kept as text with a note)."""
    read = ActionsRead()
    legendary = _section(legendary_entries, ActionSource.LEGENDARY, read)
    special = _section(special_entries, ActionSource.TRAIT, read)
    reactions = _section(reaction_entries, ActionSource.REACTION, read)
    lair = _section(lair_entries, ActionSource.LAIR, read)
    attack_names = {a.name for a in attacks}
    names = _Names(attacks, [a.name for a in actions if a.name not in attack_names])
    for action in actions:
        if action.name.strip().lower() == "multiattack":
            options, note = _multiattack(action, names)
            read.multiattack += options
            if note:
                read.text_actions.append(
                    TextAction(name=action.name, text=_text(action.desc), note=note)
                )
            continue
        _read_action(read, action, action.name in attack_names, ActionSource.ACTION)
    for source, entries in ((ActionSource.REACTION, reactions), (ActionSource.TRAIT, special)):
        for raw in entries:
            entry = _lenient(raw, read, source)
            if entry is not None:
                _read_action(read, entry, False, source)
    read.legendary = _legendary(legendary, special, names, read)
    for raw in lair:
        entry = _lenient(raw, read, ActionSource.LAIR)
        if entry is not None:
            read.lair_actions.append(
                TextAction(name=entry.name, source=ActionSource.LAIR, text=_text(entry.desc))
            )
    read.save_actions = read.save_actions[:MAX_SAVE_ACTIONS]
    read.text_actions = read.text_actions[:MAX_TEXT_ACTIONS]
    read.lair_actions = read.lair_actions[:20]
    return read


def _lenient(raw: object, read: ActionsRead, source: ActionSource) -> ActionJson | None:
    """An entry of a lenient section, or None (with a text note) when it can't be read."""
    try:
        return ActionJson.model_validate(raw)
    except ValidationError as error:
        name = raw.get("name") if isinstance(raw, dict) else None
        label = name[:200] if isinstance(name, str) and name.strip() else f"a {source.value}"
        read.text_actions.append(
            TextAction(name=label, source=source, note=f"not read ({_problem(error)})")
        )
        return None


def _read_action(
    read: ActionsRead, action: ActionJson, is_attack: bool, source: ActionSource
) -> None:
    usage, note = _usage(action)
    if action.name.lower().startswith("legendary resistance"):
        return  # counted by _legendary
    if action.options is not None and not is_attack:
        try:
            read.save_actions += _breath_options(action, usage)
            return
        except (ValidationError, ValueError) as error:
            note = f"options not read ({_problem(error)})"
    if action.dc is not None:
        try:
            # An attack's rider ("Hit: ... must succeed on a DC 13 Con save"): the save only.
            desc = action.desc.split("Hit:", 1)[-1].strip() if is_attack else action.desc
            damage = () if is_attack else damage_from_json(action.damage)
            read.save_actions.append(_save(action.name, action.dc, desc, damage, usage, ""))
            if not is_attack:
                return
        except (ValidationError, ValueError) as error:
            note = f"saving throw not read ({_problem(error)})"
    if is_attack and usage is None and not note:
        return  # an attack: the Attack action plays it
    if source is ActionSource.TRAIT and usage is None and not note:
        return  # a trait the DM reads on the stat block, not an action
    if not note:
        note = {
            ActionSource.REACTION: "a reaction: the DM plays it",
            ActionSource.TRAIT: "a trait with limited uses: the DM plays it",
        }.get(source, "uses tracked: roll it with Attack" if is_attack else "the DM plays it")
    text = "" if is_attack else _text(action.desc)  # an attack's numbers are in its Attack
    read.text_actions.append(
        TextAction(name=action.name, source=source, text=text, note=note, usage=usage)
    )


def _legendary(
    entries: Sequence[object], special: Sequence[object], names: _Names, read: ActionsRead
) -> Legendary | None:
    resistances = 0
    for raw in special:
        if isinstance(raw, dict) and str(raw.get("name", "")).lower().startswith(
            "legendary resistance"
        ):
            usage = raw.get("usage")
            times = usage.get("times") if isinstance(usage, dict) else None
            resistances = times if isinstance(times, int) and 1 <= times <= 10 else 3
    actions = []
    for raw in entries[:20]:
        entry = _lenient(raw, read, ActionSource.LEGENDARY)
        if entry is None:
            continue
        name, cost = legendary_cost(entry.name)
        name = name or entry.name  # "(Costs 2 Actions)" alone is still its name
        save = None
        if entry.dc is not None:
            try:
                save = _save(name, entry.dc, entry.desc, damage_from_json(entry.damage), None, "")
            except (ValidationError, ValueError):
                save = None
        actions.append(
            LegendaryAction(
                name=name,
                cost=min(cost, 5),
                attack=None if save is not None else _legendary_attack(entry.desc, names),
                save=save,
                text=_text(entry.desc),
            )
        )
    if not actions and not resistances:
        return None
    return Legendary(per_round=3 if actions else 0, actions=tuple(actions), resistances=resistances)


def _legendary_attack(desc: str, names: _Names) -> str | None:
    """The attack a legendary action makes: "makes a tail attack", "makes one attack with
    its rotting fist", "makes one claw attack"."""
    for parsed in multiattack_from_text(desc):
        for written, _count in parsed.named:
            attack = names.attack(written)
            if attack is not None:
                return attack
    text = desc.casefold()
    makes = text.find("makes ")
    if makes >= 0:  # "makes one unarmed strike": an attack named without the word "attack"
        for bare, attack in names.attacks.items():
            if f" {bare}" in text[makes:]:
                return attack
    return None
