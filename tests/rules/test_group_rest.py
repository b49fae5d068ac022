"""Resting several creatures at once: one outcome for all, a refusal naming the creature, and
the interrupted rest's dice rules (bloodied-brink)."""

from __future__ import annotations

import pytest

from battlemap.model.ids import EntityId
from battlemap.rules.group_rest import RestPlan, RestRefused, RestRequest, rest_all
from battlemap.rules.rests import RestType, interrupted_benefits, short_rest
from battlemap.rules.schema import Ruleset
from tests.rules.fighters import creature, encounter_of

A, B = EntityId("ann"), EntityId("bob")


def _plan(kind: RestType = RestType.SHORT, **update: object) -> RestPlan:
    fields: dict[str, object] = {
        "kind": kind,
        "hours_rested": 1.0,
        "short_rests_today": 0,
        "long_rests_today": 0,
        "interrupted_by": None,
        "interruptions": 0,
    }
    fields.update(update)
    return RestPlan(**fields)  # type: ignore[arg-type]


def test_every_creature_rests_in_one_outcome_as_each_would_alone(
    rulesets: dict[str, Ruleset],
) -> None:
    bb = rulesets["bloodied-brink"]
    encounter = encounter_of(
        creature("ann", hp=3, max_hp=60), creature("bob", hp=5, max_hp=60), ruleset="bloodied-brink"
    )
    both = rest_all(encounter, bb, _plan(), [RestRequest(A, 1, 4), RestRequest(B, 2, 9)])
    alone = short_rest(encounter, bb, B, level=2, dice_total=9, hours_rested=1.0)
    assert [r.hp_after for r in both.result] == [3 + both.result[0].regained, alone.result.hp_after]
    assert both.result[0].regained > 0
    assert both.encounter.creature(B).hp == alone.encounter.creature(B).hp
    assert len(both.events) == len(alone.events) * 2


def test_a_refused_rest_names_the_creature_and_a_gone_one_says_so(
    rulesets: dict[str, Ruleset],
) -> None:
    bb = rulesets["bloodied-brink"]
    encounter = encounter_of(creature("ann", hp=3, max_hp=60), ruleset="bloodied-brink")
    with pytest.raises(RestRefused, match=r"^Ann: ") as refused:
        rest_all(encounter, bb, _plan(short_rests_today=9), [RestRequest(A, 1, 4)])
    assert "short" in str(refused.value)
    with pytest.raises(RestRefused, match="bob is no longer on the map"):
        rest_all(encounter, bb, _plan(), [RestRequest(B, 1, 4)])


def test_an_interrupted_long_rest_rolls_the_short_rests_dice_after_the_threshold(
    rulesets: dict[str, Ruleset],
) -> None:
    bb = rulesets["bloodied-brink"]
    threshold = bb.rests.long.interrupted_short_rest_after_hours  # type: ignore[union-attr]
    assert threshold is not None
    assert interrupted_benefits(bb, RestType.LONG, threshold) == bb.rests.short
    assert interrupted_benefits(bb, RestType.LONG, threshold - 0.5) is None
