"""Named roles (``Ruleset.roles``): the engine finds the conditions and actions it gives and
spends by role, so a ruleset that renames one keeps the mechanic, and one that names nothing
is refused at load with its file, line and field."""

from __future__ import annotations

from pathlib import Path

from battlemap.model.creature import Side
from battlemap.rules.loader import RulesetError, load_registry, read_ruleset_file
from battlemap.rules.movement import drop_prone, stand_up
from battlemap.rules.outcome import with_combat
from battlemap.rules.schema import Ruleset
from tests.rules.helpers import creature, encounter, fight, state_and_events, whose_turn

HEAD = "schema_version: 1\nextends: srd-5e\nname: Renamed prone\n"
KNOCKED_DOWN = "conditions:\n  knocked-down:\n    name: Knocked down\n    effects: [crawl-only]\n"
ROLE = "roles:\n  conditions:\n    prone: knocked-down\n"


def load(tmp_path: Path, text: str) -> Ruleset:
    path = tmp_path / "renamed.yaml"
    path.write_text(HEAD + text, encoding="utf-8")
    registry = load_registry()
    registry.add(read_ruleset_file(path))
    return registry.get("renamed")


def test_a_role_naming_no_condition_is_refused_with_file_line_and_field(tmp_path: Path) -> None:
    try:
        load(tmp_path, ROLE)
    except RulesetError as error:
        problems = [str(p) for p in error.problems]
    else:
        raise AssertionError("the ruleset loaded")
    assert problems == [
        f"{tmp_path / 'renamed.yaml'}:6: roles.conditions.prone: no condition 'knocked-down'"
        " in this ruleset (a renamed condition names its role here)"
    ]


def test_the_engine_gives_the_condition_playing_the_role(tmp_path: Path) -> None:
    """srd-5e "Being Prone": dropping prone costs no movement; standing up costs half."""
    ruleset = load(tmp_path, KNOCKED_DOWN + ROLE)
    enc = encounter(creature("A", Side.PARTY, init_bonus=40), creature("B"), ruleset="srd-5e")
    state = fight(ruleset, enc)
    mover = whose_turn(state)
    state, _ = state_and_events(drop_prone(with_combat(enc, state), ruleset, mover))
    assert state.combatant(mover).has_condition("knocked-down")
    assert not state.combatant(mover).has_condition("prone")
    state, _ = state_and_events(stand_up(with_combat(enc, state), ruleset, mover))
    assert not state.combatant(mover).has_condition("knocked-down")
    assert state.combatant(mover).turn.movement_used == 15


def test_every_shipped_ruleset_fills_every_role() -> None:
    registry = load_registry()
    for ruleset_id in registry.ids():
        ruleset = registry.get(ruleset_id)
        assert all(name in ruleset.conditions for _role, name in ruleset.roles.conditions)
        assert all(name in ruleset.actions for _role, name in ruleset.roles.actions)
