"""The UI bridge's one entry point: an engine refusal is reported and changes nothing; a
KeyError (a bug) is not turned into a refusal; a change is one undo step."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QUndoStack
from pytestqt.qtbot import QtBot

from battlemap.model import Creature, Document, Encounter, Side
from battlemap.model.ids import EntityId
from battlemap.rules.errors import IllegalActionError
from battlemap.rules.healing import heal
from battlemap.rules.outcome import Outcome
from battlemap.rules.schema import Ruleset
from battlemap.ui.combat.session import CombatSession

HERO = EntityId("hero")


def _session(qtbot: QtBot) -> CombatSession:
    hero = Creature(id=HERO, name="Hero", side=Side.PARTY, hp=5, max_hp=20)
    return CombatSession(
        Document(encounter=Encounter(ruleset="srd-5e", creatures=(hero,))), QUndoStack()
    )


def test_a_refusal_is_reported_and_nothing_is_pushed(qtbot: QtBot) -> None:
    session = _session(qtbot)
    before = session.encounter

    def refused(_e: Encounter, _r: Ruleset) -> Outcome[None]:
        raise IllegalActionError("Hero has already used its action this turn")

    with qtbot.waitSignal(session.refused) as said:
        assert session.run("Dash", refused) is None
    assert said.args == ["Hero has already used its action this turn"]
    assert session.undo_stack.count() == 0 and session.encounter is before


def test_a_key_error_is_a_bug_not_a_refusal(qtbot: QtBot) -> None:
    session = _session(qtbot)

    def buggy(e: Encounter, _r: Ruleset) -> Outcome[None]:
        raise KeyError("ghost")

    with pytest.raises(KeyError):
        session.run("Heal", buggy)
    assert session.last_refusal == ""


def test_an_engine_change_is_one_undo_step(qtbot: QtBot) -> None:
    session = _session(qtbot)
    outcome = session.run("Heal Hero", lambda e, r: heal(e, r, HERO, 4))
    assert outcome is not None and outcome.encounter.creature(HERO).hp == 9
    assert session.encounter.creature(HERO).hp == 9 and session.undo_stack.count() == 1
    session.undo_stack.undo()
    assert session.encounter.creature(HERO).hp == 5
