"""Named roles (``Ruleset.roles``): the engine finds the conditions and actions it gives and
spends by role, so a ruleset that renames one keeps the mechanic, and one that names nothing
is refused at load with its file, line and field."""

from __future__ import annotations

import re
from pathlib import Path

from battlemap.model.combat import ActiveCondition
from battlemap.model.creature import Side
from battlemap.rules.attack_situation import combat_bodies
from battlemap.rules.contests import Contest, grapple
from battlemap.rules.economy import interact_with_object
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
    filled: dict[str, set[str]] = {}
    for ruleset_id in registry.ids():
        ruleset = registry.get(ruleset_id)
        assert all(name in ruleset.conditions for _role, name in ruleset.roles.conditions)
        actions = dict(ruleset.roles.actions)
        assert all(name is None or name in ruleset.actions for name in actions.values())
        grappling = ruleset.grappling is not None
        assert (actions["grapple"] is not None, actions["shove"] is not None) == (
            grappling,
            grappling,
        ), ruleset_id
        filled[ruleset_id] = {role for role, name in actions.items() if name is not None}
    assert filled["gms-den"] - filled["srd-5e"] == {"grapple", "shove", "disarm"}
    assert filled["legends-of-hyrule"] - filled["srd-5e"] == {"grapple", "shove"}
    assert len(filled) == 5


GMS_HEAD = "schema_version: 1\nextends: gms-den\nname: Renamed\n"


def load_over(tmp_path: Path, head: str, text: str) -> Ruleset:
    path = tmp_path / "renamed.yaml"
    path.write_text(head + text, encoding="utf-8")
    registry = load_registry()
    registry.add(read_ruleset_file(path))
    return registry.get("renamed")


def refusal(tmp_path: Path, head: str, text: str) -> list[str]:
    try:
        load_over(tmp_path, head, text)
    except RulesetError as error:
        return [str(p) for p in error.problems]
    raise AssertionError("the ruleset loaded")


def test_grappling_rules_without_a_grapple_action_role_are_refused(tmp_path: Path) -> None:
    """gms-den has grappling rules: a variant dropping its grapple role loses the contest."""
    problems = refusal(tmp_path, GMS_HEAD, "roles:\n  actions:\n    grapple: null\n")
    assert problems == [
        f"{tmp_path / 'renamed.yaml'}:6: roles.actions.grapple: this ruleset has grappling"
        " rules, so it must name its grapple action here"
    ]


def test_an_action_role_naming_an_action_of_another_kind_is_refused(tmp_path: Path) -> None:
    problems = refusal(tmp_path, HEAD, "roles:\n  actions:\n    dash: dodge\n")
    assert problems == [
        f"{tmp_path / 'renamed.yaml'}:6: roles.actions.dash: action 'dodge' is of kind"
        " 'dodge', not 'dash'"
    ]


def test_a_renamed_grapple_action_is_spent_by_its_role(tmp_path: Path) -> None:
    """gms-den "Grappling": a grapple replaces one attack of the Attack action."""
    ruleset = load_over(
        tmp_path,
        GMS_HEAD,
        "actions:\n  wrestle: {name: Wrestle, cost: attack, kind: grapple, resolved_by: attacks,"
        " needs_target: true, description: A grapple by another name.}\n"
        "roles:\n  actions:\n    grapple: wrestle\n",
    )
    enc = encounter(creature("A", Side.PARTY, init_bonus=40), creature("B"), ruleset="gms-den")
    state = fight(ruleset, enc)
    hero = whose_turn(state)
    foe = next(c.creature_id for c in state.combatants if c.creature_id != hero)
    won = grapple(
        with_combat(enc, state), ruleset, hero, foe, Contest(bonus=9, d20=10, defender_d20=1)
    )
    assert won.combat is not None
    assert won.combat.combatant(hero).turn.actions_taken[-1] == "wrestle"
    assert won.combat.combatant(foe).has_condition("grappled")


def test_a_renamed_invisible_condition_hides_by_its_role(tmp_path: Path) -> None:
    """srd-5e "Invisible": attacks against the creature have disadvantage; the geometry's
    body of a creature with the condition playing the role is invisible."""
    ruleset = load_over(
        tmp_path,
        HEAD,
        "conditions:\n  unseen:\n    name: Unseen\n"
        "    effects: [heavily-obscured, attacked-with-disadvantage, attacks-with-advantage]\n"
        "roles:\n  conditions:\n    invisible: unseen\n",
    )
    enc = encounter(creature("A", Side.PARTY, init_bonus=40), creature("B"), ruleset="srd-5e")
    state = fight(ruleset, enc)
    hero = whose_turn(state)
    state = state.with_combatant(
        state.combatant(hero).model_copy(update={"conditions": (ActiveCondition(name="unseen"),)})
    )
    bodies = {body.id: body for body in combat_bodies(with_combat(enc, state), ruleset)}
    assert bodies[hero].invisible
    assert not any(body.invisible for cid, body in bodies.items() if cid != hero)


def test_a_second_object_interaction_spends_the_use_object_role(tmp_path: Path) -> None:
    """srd-5e "Other Activity on Your Turn": a second object interaction takes the action."""
    ruleset = load_over(
        tmp_path,
        HEAD,
        "actions:\n  fiddle: {name: Fiddle, kind: use-object, description: Use an object.}\n"
        "roles:\n  actions:\n    use_object: fiddle\n",
    )
    enc = encounter(creature("A", Side.PARTY, init_bonus=40), creature("B"), ruleset="srd-5e")
    state = fight(ruleset, enc)
    hero = whose_turn(state)
    first = interact_with_object(with_combat(enc, state), ruleset, hero, "draw a sword")
    second = interact_with_object(first.encounter, ruleset, hero, "open a door")
    assert second.combat is not None
    turn = second.combat.combatant(hero).turn
    assert turn.action_used and turn.actions_taken == ("fiddle",)


def test_the_ui_asks_the_roles_instead_of_naming_actions_and_conditions() -> None:
    """The attack dialog, the token menu and the players' window find the Attack action and
    the invisible condition by role: no UI module writes those names as literals."""
    ui = Path(__file__).parents[2] / "battlemap" / "ui"
    named = re.compile(
        r"""(open_for|open_attack)\(\s*["']attack["']|==\s*["']attack["']"""
        r"""|action_id\s*=\s*["']attack["']|["']invisible["']|["']blinded["']"""
    )
    sources = sorted(ui.rglob("*.py"))
    assert len(sources) > 100
    offenders = [
        str(path.relative_to(ui))
        for path in sources
        if path.name != "condition_icons.py"  # glyphs drawn per condition name, not rules
        and named.search(path.read_text("utf-8"))
    ]
    assert offenders == []
