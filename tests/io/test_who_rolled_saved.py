"""Who rolled each roll line (``CombatEvent.rolled_by``) is saved and reopened, in a combat's
log and in the encounter's own; a line from a file written before it existed reopens with
none; an unknown value is refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from battlemap.io.encounter_file import save_battlemap
from battlemap.io.loader import load_encounter
from battlemap.model.combat import CombatEvent, CombatState, DiceState, RolledBy
from battlemap.model.encounter import Encounter

LINES = tuple(
    CombatEvent(round=1, kind="roll", text=f"save: 1d20 {words}: 14", rolled_by=by)
    for words, by in (
        ("typed in", RolledBy.TABLE),
        ("rolled by the app", RolledBy.APP),
        ("(14)", RolledBy.COMBAT_DICE),
    )
)


def test_who_rolled_reopens_in_the_combat_log_and_the_encounter_log(tmp_path: Path) -> None:
    combat = CombatState(ruleset="srd-5e", dice=DiceState(seed=3, draws=0), log=LINES)
    encounter = Encounter(combat=combat, log=(*LINES, CombatEvent(round=0, kind="note", text="x")))
    path = tmp_path / "rolls.battlemap"
    save_battlemap(path, encounter, {})
    reopened = load_encounter(path)
    assert reopened.combat is not None
    assert [e.rolled_by for e in reopened.combat.log] == [
        RolledBy.TABLE,
        RolledBy.APP,
        RolledBy.COMBAT_DICE,
    ]
    assert [e.rolled_by for e in reopened.log] == [*(e.rolled_by for e in LINES), None]


def test_a_line_saved_before_who_rolled_existed_reopens_without_it() -> None:
    old = {"round": 1, "kind": "roll", "text": "save: 1d20 typed in: 14"}
    assert CombatEvent.model_validate(old).rolled_by is None


def test_an_unknown_roller_is_refused() -> None:
    line = json.loads(LINES[0].model_dump_json()) | {"rolled_by": "the cat"}
    with pytest.raises(ValidationError, match="rolled_by"):
        CombatEvent.model_validate(line)
