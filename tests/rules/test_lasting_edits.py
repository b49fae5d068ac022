"""Changing a creature's lasting state outside a combat (``switch_lasting_condition``,
``set_lasting_exhaustion``): the turn engine's own condition and exhaustion calls run on it.

srd-5e.txt, Exhaustion: level 6 is "Death"; a condition given outside a combat counts no turns,
so it lasts until removed (``Expiry.NEVER``).
"""

from __future__ import annotations

import pytest

from battlemap.model.combat import Expiry, LastingState
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.rules.conditions import set_lasting_exhaustion, switch_lasting_condition
from battlemap.rules.errors import InvalidRequestError
from battlemap.rules.schema import Ruleset
from battlemap.rules.vitals import AbsentTargetError
from tests.rules.fighters import combat_of, creature, encounter_of

PC = EntityId("pc")


def _outside(lasting: LastingState | None = None) -> Encounter:
    pc = creature("pc", hp=10, max_hp=20).model_copy(update={"lasting": lasting})
    return encounter_of(pc, creature("ally"), ruleset="srd-5e")


def test_a_condition_given_outside_a_combat_never_expires_and_is_logged(
    rulesets: dict[str, Ruleset],
) -> None:
    srd = rulesets["srd-5e"]
    applied = switch_lasting_condition(_outside(), srd, PC, "poisoned", True)
    lasting = applied.encounter.creature(PC).lasting
    assert lasting is not None
    (poisoned,) = lasting.conditions
    assert (poisoned.name, poisoned.expiry) == ("poisoned", Expiry.NEVER)
    assert [e.text for e in applied.events] == ["Pc is poisoned"]
    ended = switch_lasting_condition(applied.encounter, srd, PC, "poisoned", False)
    assert ended.encounter.creature(PC).lasting is None  # nothing left to keep
    assert [e.text for e in ended.events] == ["Pc: poisoned removed"]


def test_ending_a_condition_the_creature_lacks_changes_nothing(
    rulesets: dict[str, Ruleset],
) -> None:
    encounter = _outside(LastingState(exhaustion=1))
    applied = switch_lasting_condition(encounter, rulesets["srd-5e"], PC, "prone", False)
    assert (applied.encounter, applied.events) == (encounter, ())


def test_exhaustion_6_kills_outside_a_combat_too(rulesets: dict[str, Ruleset]) -> None:
    applied = set_lasting_exhaustion(_outside(), rulesets["srd-5e"], PC, 6)
    lasting = applied.encounter.creature(PC).lasting
    assert lasting is not None and lasting.exhaustion == 6 and lasting.death.dead
    assert applied.events[-1].text == "Pc dies of exhaustion"


@pytest.mark.parametrize("level", [-1, 7])
def test_an_exhaustion_level_off_the_table_is_refused(
    rulesets: dict[str, Ruleset], level: int
) -> None:
    with pytest.raises(InvalidRequestError, match=r"outside 0\.\.6"):
        set_lasting_exhaustion(_outside(), rulesets["srd-5e"], PC, level)


def test_refused_in_a_combat_for_an_unknown_condition_or_creature(
    rulesets: dict[str, Ruleset],
) -> None:
    srd, encounter = rulesets["srd-5e"], _outside()
    fighting = encounter.model_copy(update={"combat": combat_of(encounter)})
    with pytest.raises(InvalidRequestError, match="a combat is running"):
        switch_lasting_condition(fighting, srd, PC, "poisoned", True)
    with pytest.raises(InvalidRequestError, match="a combat is running"):
        set_lasting_exhaustion(fighting, srd, PC, 1)
    with pytest.raises(InvalidRequestError, match="not a condition"):
        switch_lasting_condition(encounter, srd, PC, "sleepy", True)
    with pytest.raises(AbsentTargetError):
        switch_lasting_condition(encounter, srd, EntityId("nobody"), "poisoned", True)
