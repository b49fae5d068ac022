"""bloodied-brink rests: interrupted rests, resumed long rests, typed-in dice totals."""

from __future__ import annotations

from typing import Any

import pytest

from battlemap.model.combat import CombatState
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.rules.errors import IllegalActionError, InvalidRequestError
from battlemap.rules.outcome import with_combat
from battlemap.rules.rests import (
    MAX_LEVEL,
    RestType,
    interrupt_rest,
    long_rest,
    rest_dice,
    rest_refusal,
    short_rest,
)
from battlemap.rules.schema import Ruleset
from battlemap.rules.vitals import BadDieError
from tests.rules.fighters import creature, fight

PC = EntityId("pc")
DAMAGE = "taking damage"


def _resting() -> tuple[Encounter, CombatState]:
    """A wounded pc in a combat: the setting of an interrupted rest ("Rolling Initiative")."""
    return fight(creature("pc", hp=3, max_hp=60), ruleset="bloodied-brink")


def _at_rest() -> Encounter:
    """The same pc outside a combat, where bloodied-brink's rests are finished."""
    return _resting()[0]


def _with_rest(ruleset: Ruleset, kind: str, **update: Any) -> Ruleset:
    rules = getattr(ruleset.rests, kind).model_copy(update=update)
    return ruleset.model_copy(update={"rests": ruleset.rests.model_copy(update={kind: rules})})


def calm_rests(ruleset: Ruleset) -> Ruleset:
    """``ruleset`` with rests a combat doesn't interrupt (``interrupted_by_combat`` false), so
    a rest can be finished in a combat: what reaches the rest paths that need one (its dice, a
    knockout or exhaustion kept on the combatant)."""
    calm = _with_rest(ruleset, "short", interrupted_by_combat=False)
    return _with_rest(calm, "long", interrupted_by_combat=False)


# --- typed-in totals ------------------------------------------------------------------------


@pytest.mark.parametrize("total", [2, 25, -1])
def test_a_typed_short_rest_total_the_dice_cant_show_is_refused(
    rulesets: dict[str, Ruleset], total: int
) -> None:
    # Level 3: "as many D8 as your character's level" is 3d8, which shows 3 to 24.
    bb = rulesets["bloodied-brink"]
    encounter = _at_rest()
    with pytest.raises(BadDieError, match=f"{total} can't be rolled on 3d8 \\(only 3 to 24\\)"):
        short_rest(with_combat(encounter, None), bb, PC, level=3, dice_total=total)
    assert encounter.creature(PC).hp == 3 and encounter.log == ()


def test_typed_totals_at_the_ends_of_the_range_are_taken(rulesets: dict[str, Ruleset]) -> None:
    bb = rulesets["bloodied-brink"]
    encounter = _at_rest()
    assert (
        short_rest(with_combat(encounter, None), bb, PC, level=3, dice_total=3).result.hp_after
        == 14
    )
    assert (
        short_rest(with_combat(encounter, None), bb, PC, level=3, dice_total=24).result.hp_after
        == 35
    )
    with pytest.raises(BadDieError, match="2d12"):
        long_rest(with_combat(encounter, None), bb, PC, level=2, dice_total=25)
    with pytest.raises(BadDieError, match="whole number"):
        long_rest(with_combat(encounter, None), bb, PC, level=2, dice_total=True)


# --- interruptions ---------------------------------------------------------------------------


def test_an_interrupted_short_rest_confers_no_benefits(rulesets: dict[str, Ruleset]) -> None:
    # "Interrupting a Short Rest": rolling initiative, a spell other than a cantrip, damage;
    # "An interrupted Short Rest confers no benefits."
    bb = rulesets["bloodied-brink"]
    applied = interrupt_rest(
        with_combat(*_resting()), bb, PC, RestType.SHORT, DAMAGE, hours_rested=0.9
    )
    assert applied.result.regained == 0 and applied.result.benefits == ""
    assert applied.result.interrupted_by == DAMAGE
    assert applied.encounter.creature(PC).hp == 3
    assert "no benefits" in applied.events[-1].text


def test_only_the_listed_interruptions_interrupt(rulesets: dict[str, Ruleset]) -> None:
    bb = rulesets["bloodied-brink"]
    with pytest.raises(InvalidRequestError, match=r"doesn't interrupt a short rest.*initiative"):
        interrupt_rest(
            with_combat(*_resting()), bb, PC, RestType.SHORT, "casting a cantrip", hours_rested=0.5
        )
    walking = "1 hour of walking or other physical exertion"
    with pytest.raises(InvalidRequestError):  # only the long rest lists the walking
        interrupt_rest(with_combat(*_resting()), bb, PC, RestType.SHORT, walking, hours_rested=0.5)
    interrupt_rest(with_combat(*_resting()), bb, PC, RestType.LONG, walking, hours_rested=0.5)
    with pytest.raises(IllegalActionError, match="no short rest"):
        interrupt_rest(
            with_combat(*_resting()), rulesets["srd-5e"], PC, RestType.SHORT, DAMAGE, hours_rested=1
        )


def test_a_long_rest_interrupted_after_an_hour_gives_a_short_rest(
    rulesets: dict[str, Ruleset],
) -> None:
    # "Interrupting a Long Rest": "If you rested at least 1 hour before the interruption, you
    # gain the benefits of a Short Rest": 8 HP + level d8.
    bb = rulesets["bloodied-brink"]
    encounter, combat = _resting()
    early = interrupt_rest(
        with_combat(encounter, combat), bb, PC, RestType.LONG, DAMAGE, hours_rested=0.5
    )
    assert early.result.regained == 0 and early.result.benefits == ""
    assert "it may be resumed" in early.events[-1].text
    later = interrupt_rest(
        with_combat(encounter, combat),
        bb,
        PC,
        RestType.LONG,
        DAMAGE,
        hours_rested=1,
        level=3,
        dice_total=10,
    )
    assert later.result.benefits == "short" and later.result.kind == "long"
    assert later.result.hp_after == 3 + 8 + 10
    assert not later.result.hp_max_restored and later.result.exhaustion_after is None
    with pytest.raises(IllegalActionError, match="2 short"):  # it counts as a short rest
        interrupt_rest(
            with_combat(encounter, combat),
            bb,
            PC,
            RestType.LONG,
            DAMAGE,
            hours_rested=3,
            short_rests_today=2,
        )


def test_a_resumed_long_rest_takes_an_hour_more_per_interruption(
    rulesets: dict[str, Ruleset],
) -> None:
    # "the rest requires 1 additional hour per interruption to finish": 8 + 2 = 10 hours.
    bb = rulesets["bloodied-brink"]
    encounter = _at_rest()
    with pytest.raises(IllegalActionError, match="after 2 interruption\\(s\\) takes 10 hours"):
        long_rest(
            with_combat(encounter, None),
            bb,
            PC,
            level=1,
            interruptions=2,
            hours_rested=9,
            dice_total=6,
        )
    done = long_rest(
        with_combat(encounter, None),
        bb,
        PC,
        level=1,
        interruptions=2,
        hours_rested=10,
        dice_total=6,
    )
    assert done.result.benefits == "long"
    assert "resumed after 2 interruption(s): 10 hours" in done.events[-1].text
    with pytest.raises(IllegalActionError, match="takes 1 hours"):
        short_rest(with_combat(encounter, None), bb, PC, level=1, hours_rested=0.5, dice_total=4)


@pytest.mark.parametrize("kind", [RestType.SHORT, RestType.LONG])
def test_negative_hours_rested_are_refused_as_such(
    rulesets: dict[str, Ruleset], kind: RestType
) -> None:
    # As an interrupted rest refuses them: -1 hours is bad input, not a rest cut short.
    bb = rulesets["bloodied-brink"]
    encounter, combat = _resting()
    negative = r"^hours rested can't be negative, got -1$"
    rest = short_rest if kind is RestType.SHORT else long_rest
    with pytest.raises(InvalidRequestError, match=negative):
        rest(with_combat(encounter, None), bb, PC, level=1, hours_rested=-1)
    with pytest.raises(InvalidRequestError, match=negative):
        interrupt_rest(with_combat(encounter, combat), bb, PC, kind, DAMAGE, hours_rested=-1)


@pytest.mark.parametrize(("kind", "hours"), [(RestType.SHORT, 1), (RestType.LONG, 8)])
def test_an_interruption_after_the_rest_would_have_ended_is_refused(
    rulesets: dict[str, Ruleset], kind: RestType, hours: float
) -> None:
    # bloodied-brink: a short rest is 1 hour, a long rest 8: one that went on that long was
    # finished, not interrupted. At the very end it still counts as interrupted.
    bb = rulesets["bloodied-brink"]
    encounter, combat = _resting()
    longer = (
        rf"^a {kind.value} rest lasts {hours:g} hours, so it can't be interrupted after"
        rf" {hours + 0.5:g} hours$"
    )
    with pytest.raises(InvalidRequestError, match=longer):
        interrupt_rest(
            with_combat(encounter, combat), bb, PC, kind, DAMAGE, hours_rested=hours + 0.5
        )
    at_the_end = interrupt_rest(
        with_combat(encounter, combat), bb, PC, kind, DAMAGE, hours_rested=hours
    )
    assert at_the_end.result.interrupted_by == DAMAGE


def test_a_resumed_long_rest_can_be_interrupted_in_its_extra_hours(
    rulesets: dict[str, Ruleset],
) -> None:
    # "the rest requires 1 additional hour per interruption": resumed once, it lasts 9 hours.
    bb = rulesets["bloodied-brink"]
    encounter, combat = _resting()
    later = interrupt_rest(
        with_combat(encounter, combat),
        bb,
        PC,
        RestType.LONG,
        DAMAGE,
        hours_rested=8.5,
        interruptions=1,
    )
    assert later.result.benefits == "short"
    with pytest.raises(InvalidRequestError, match="resumed after 1 interruption\\(s\\) lasts 9"):
        interrupt_rest(
            with_combat(encounter, combat),
            bb,
            PC,
            RestType.LONG,
            DAMAGE,
            hours_rested=9.5,
            interruptions=1,
        )
    with pytest.raises(IllegalActionError, match="can't be resumed"):
        interrupt_rest(
            with_combat(encounter, combat),
            bb,
            PC,
            RestType.SHORT,
            DAMAGE,
            hours_rested=0.5,
            interruptions=1,
        )


def test_the_rest_fields_drive_the_interruption_rules(rulesets: dict[str, Ruleset]) -> None:
    bb = rulesets["bloodied-brink"]
    encounter, combat = _resting()
    no_extra = _with_rest(bb, "long", resume_extra_hours=0)
    long_rest(
        with_combat(encounter, None),
        no_extra,
        PC,
        level=1,
        interruptions=2,
        hours_rested=8,
        dice_total=6,
    )
    no_resume = _with_rest(bb, "long", resumable=False)
    with pytest.raises(IllegalActionError, match="can't be resumed"):
        long_rest(
            with_combat(encounter, None), no_resume, PC, level=1, interruptions=1, dice_total=6
        )
    nothing = _with_rest(bb, "long", interrupted_short_rest_after_hours=None)
    lost = interrupt_rest(
        with_combat(encounter, combat), nothing, PC, RestType.LONG, DAMAGE, hours_rested=7
    )
    assert lost.result.regained == 0
    short_counts = _with_rest(bb, "short", interrupted_short_rest_after_hours=0.5)
    kept = interrupt_rest(
        with_combat(encounter, combat),
        short_counts,
        PC,
        RestType.SHORT,
        DAMAGE,
        hours_rested=0.75,
        dice_total=4,
    )
    assert kept.result.benefits == "short" and kept.result.regained == 12


# --- what the rest dialog asks before it opens ------------------------------------------------


def test_rest_dice_are_the_per_level_dice_times_the_level(rulesets: dict[str, Ruleset]) -> None:
    # bloodied-brink: "as many D8 as your character's level" (short), D12 (long).
    bb = rulesets["bloodied-brink"]
    assert bb.rests.short is not None and bb.rests.long is not None
    assert rest_dice(bb.rests.short, 3) == (3, 8)
    assert rest_dice(bb.rests.long, 1) == (1, 12)
    assert rest_dice(bb.rests.short.model_copy(update={"hp_dice_per_level": ""}), 3) is None


def test_a_running_combat_refuses_rests_that_rolling_initiative_interrupts(
    rulesets: dict[str, Ruleset],
) -> None:
    # bloodied-brink (rules-sources/bloodied-brink.txt, "Interrupting a Short Rest" and
    # "Interrupting a Long Rest"): both rests are stopped by "Rolling Initiative".
    bb = rulesets["bloodied-brink"]
    assert bb.rests.short is not None and bb.rests.long is not None
    assert bb.rests.short.interrupted_by_combat and bb.rests.long.interrupted_by_combat
    assert rest_refusal(bb, RestType.SHORT, combat_running=False) is None
    refusal = rest_refusal(bb, RestType.LONG, combat_running=True)
    assert refusal is not None and "rolling initiative interrupts a long rest" in refusal


@pytest.mark.parametrize("kind", [RestType.SHORT, RestType.LONG])
def test_the_engine_refuses_a_rest_while_a_combat_runs(
    rulesets: dict[str, Ruleset], kind: RestType
) -> None:
    # bloodied-brink (rules-sources/bloodied-brink.txt): "Rolling Initiative" interrupts a
    # Short Rest and a Long Rest, so none is finished while a combat runs (even one still
    # rolling initiative, round 0); the engine refuses it with the dialog's reason.
    bb = rulesets["bloodied-brink"]
    encounter, combat = _resting()
    rest = short_rest if kind is RestType.SHORT else long_rest
    for running in (combat, combat.model_copy(update={"round": 0})):
        with pytest.raises(IllegalActionError) as refused:
            rest(with_combat(encounter, running), bb, PC, level=1, dice_total=1)
        assert refused.value.reason == rest_refusal(bb, kind, combat_running=True)
        assert f"rolling initiative interrupts a {kind.value} rest" in str(refused.value)
    assert (
        rest(with_combat(encounter, None), bb, PC, level=1, dice_total=1).result.benefits
        == kind.value
    )
    calm = rest(with_combat(encounter, combat), calm_rests(bb), PC, level=1, dice_total=1)
    assert calm.result.benefits == kind.value  # the field decides, not the ruleset's name


def test_the_combat_refusal_reads_the_structured_field_not_the_causes_wording(
    rulesets: dict[str, Ruleset],
) -> None:
    # The refusal follows ``interrupted_by_combat``; the ``interrupted_by`` list is prose the
    # DM picks from when marking an interrupted rest, and its wording decides nothing.
    bb = rulesets["bloodied-brink"]
    calm = _with_rest(bb, "short", interrupted_by_combat=False)
    assert calm.rests.short is not None and "rolling initiative" in calm.rests.short.interrupted_by
    assert rest_refusal(calm, RestType.SHORT, combat_running=True) is None
    reworded = _with_rest(bb, "long", interrupted_by=("initiative is rolled", "taking damage"))
    assert rest_refusal(reworded, RestType.LONG, combat_running=True) is not None


def test_a_ruleset_without_rests_refuses_them(rulesets: dict[str, Ruleset]) -> None:
    refusal = rest_refusal(rulesets["srd-5e"], RestType.SHORT, combat_running=False)
    assert refusal is not None and refusal.endswith("has no short rest rules")


def test_a_rest_for_a_level_beyond_any_character_is_refused_with_a_reason(
    rulesets: dict[str, Ruleset],
) -> None:
    # Levels run 1 to 20 (30 with epic levels); level 1000 would roll 1000d8 into one log line.
    # Rolled with a combat's dice, so a variant whose combat doesn't interrupt rests.
    bb = rulesets["bloodied-brink"]
    enc, state = _resting()
    rested = short_rest(with_combat(enc, state), calm_rests(bb), PC, level=MAX_LEVEL)
    assert MAX_LEVEL <= rested.result.rolled <= 8 * MAX_LEVEL
    for level in (0, MAX_LEVEL + 1, 1000):
        with pytest.raises(InvalidRequestError, match=f"level must be 1 to 30, got {level}"):
            short_rest(with_combat(enc, None), bb, PC, level=level)
        with pytest.raises(InvalidRequestError, match=f"level must be 1 to 30, got {level}"):
            interrupt_rest(
                with_combat(enc, state), bb, PC, RestType.LONG, DAMAGE, hours_rested=2, level=level
            )
