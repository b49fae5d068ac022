"""Who rolled each die is recorded by the engine (``CombatEvent.rolled_by``) and its roll line
is worded from that once (``draft.HANDED_IN_WORDS``); the UI never rewrites log text."""

from __future__ import annotations

import re
from pathlib import Path

from battlemap.model.combat import CombatEvent, RolledBy
from battlemap.model.ids import EntityId
from battlemap.rules.dice import AppRoll
from battlemap.rules.draft import HANDED_IN_WORDS
from battlemap.rules.enums import Ability
from battlemap.rules.rests import short_rest
from battlemap.rules.saves import saving_throw
from battlemap.rules.schema import Ruleset
from tests.rules.fighters import creature, fight


def test_a_typed_rest_roll_and_an_app_rest_roll_say_who_rolled(
    rulesets: dict[str, Ruleset],
) -> None:
    """bloodied-brink's short rest rolls 1d8 per level outside a combat: Ann's total is typed
    at the table, Bob's was rolled by a dialog from fresh dice (there are no combat dice)."""
    bb = rulesets["bloodied-brink"]
    encounter, _ = fight(
        creature("ann", hp=3, max_hp=60), creature("bob", hp=3, max_hp=60), ruleset="bloodied-brink"
    )
    ann = short_rest(encounter, bb, EntityId("ann"), level=1, dice_total=5, hours_rested=1)
    bob = short_rest(
        ann.encounter, bb, EntityId("bob"), level=1, dice_total=AppRoll(6), hours_rested=1
    )
    rolls = [e for e in ann.events + bob.events if e.kind == "roll"]
    assert [(e.creature_id, e.rolled_by) for e in rolls] == [
        (EntityId("ann"), RolledBy.TABLE),
        (EntityId("bob"), RolledBy.APP),
    ]
    assert rolls[0].text.endswith(": 1d8 typed in: 5")
    assert rolls[1].text.endswith(": 1d8 rolled by the app: 6")


def test_an_app_rolled_save_face_is_the_apps_and_a_typed_one_the_tables(
    rulesets: dict[str, Ruleset],
) -> None:
    srd = rulesets["srd-5e"]
    encounter, _ = fight(creature("ann"))  # the encounter holds no combat: no combat dice
    lines: list[CombatEvent] = []
    for face in (AppRoll(14), 14):
        saved = saving_throw(encounter, srd, EntityId("ann"), Ability.DEX, 12, typed=(face,))
        assert saved.result.success  # 14 + 0 >= 12 either way: only the wording differs
        lines.extend(e for e in saved.events if e.kind == "roll")
    assert [line.rolled_by for line in lines] == [RolledBy.APP, RolledBy.TABLE]
    assert "1d20 rolled by the app: 14" in lines[0].text
    assert "1d20 typed in: 14" in lines[1].text


def test_a_roll_from_the_combat_dice_is_logged_as_such(rulesets: dict[str, Ruleset]) -> None:
    encounter, combat = fight(creature("ann"))
    encounter = encounter.model_copy(update={"combat": combat})
    saved = saving_throw(encounter, rulesets["srd-5e"], EntityId("ann"), Ability.DEX, 12)
    (line,) = [e for e in saved.events if e.kind == "roll"]
    assert line.rolled_by is RolledBy.COMBAT_DICE
    assert not any(words in line.text for words in HANDED_IN_WORDS.values())


def test_the_ui_neither_rewrites_nor_spells_the_roll_wording() -> None:
    """The wording of a roll line ("1d20 typed in: 14") is the engine's alone: no UI module
    writes it, and none replaces text in the engine's events."""
    ui = Path(__file__).parents[2] / "battlemap" / "ui"
    quoted = "|".join(re.escape(words) for words in HANDED_IN_WORDS.values())
    wording = re.compile(rf"[\"'] ?({quoted})|HANDED_IN_WORDS|rolled_by_the_app|\.text\.replace\(")
    sources = sorted(ui.rglob("*.py"))
    assert len(sources) > 100  # the whole UI package was read
    offenders = [
        str(path.relative_to(ui)) for path in sources if wording.search(path.read_text("utf-8"))
    ]
    assert offenders == []
