"""Grapple, shove, escape, gms-den's disarm and grapple move, dragging speed."""

from __future__ import annotations

import pytest

from battlemap.model.combat import ActiveCondition, CombatState
from battlemap.model.creature import Side, Size
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.rules.contests import (
    Contest,
    ShoveEffect,
    disarm,
    dragging_speed,
    escape,
    grapple,
    grapple_move,
    shove,
)
from battlemap.rules.errors import IllegalActionError
from battlemap.rules.outcome import with_combat
from battlemap.rules.schema import Ruleset
from battlemap.rules.vitals import NotTargetableError
from tests.rules.fighters import creature, fight


def ring(
    ruleset: str, foe_size: Size = Size.MEDIUM, foe: tuple[str, ...] = ()
) -> tuple[Encounter, CombatState]:
    encounter, combat = fight(
        creature("hero"),
        creature("foe", side=Side.HOSTILE),
        ruleset=ruleset,
        conditions={"foe": foe},
    )
    foe_creature = encounter.creature(EntityId("foe")).model_copy(update={"size": foe_size})
    return encounter.replace_creature(foe_creature), combat


WIN = Contest(bonus=5, defender_bonus=2, d20=10, defender_d20=10)
TIE = Contest(bonus=2, defender_bonus=2, d20=10, defender_d20=10)


@pytest.mark.parametrize("ruleset_id", ["legends-of-hyrule", "gms-den"])
def test_grapple_contest_success_grapples_a_tie_fails(
    rulesets: dict[str, Ruleset], ruleset_id: str
) -> None:
    ruleset = rulesets[ruleset_id]
    won = grapple(with_combat(*ring(ruleset_id)), ruleset, EntityId("hero"), EntityId("foe"), WIN)
    assert won.result.success and won.combat is not None
    grappled = [c for c in won.combat.combatant(EntityId("foe")).conditions if c.name == "grappled"]
    assert grappled and grappled[0].source_id == "hero"
    assert won.combat.combatant(
        EntityId("hero")
    ).turn.action_used  # one attack of the Attack action
    tied = grapple(with_combat(*ring(ruleset_id)), ruleset, EntityId("hero"), EntityId("foe"), TIE)
    assert not tied.result.success


def test_grapple_limits(rulesets: dict[str, Ruleset]) -> None:
    hyrule = rulesets["legends-of-hyrule"]
    assert grapple(
        with_combat(*ring("legends-of-hyrule", Size.LARGE)),
        hyrule,
        EntityId("hero"),
        EntityId("foe"),
        WIN,
    ).result.success
    with pytest.raises(IllegalActionError, match="size"):
        grapple(
            with_combat(*ring("legends-of-hyrule", Size.HUGE)),
            hyrule,
            EntityId("hero"),
            EntityId("foe"),
            WIN,
        )
    with pytest.raises(IllegalActionError, match="free hand"):
        grapple(
            with_combat(*ring("legends-of-hyrule")),
            hyrule,
            EntityId("hero"),
            EntityId("foe"),
            WIN,
            has_free_hand=False,
        )
    far, combat = ring("legends-of-hyrule")  # the engine measures the map: two squares off
    far = far.replace_creature(far.creature(EntityId("foe")).model_copy(update={"x": 2.0}))
    with pytest.raises(NotTargetableError, match="10 ft away, beyond 5 ft reach"):
        grapple(with_combat(far, combat), hyrule, EntityId("hero"), EntityId("foe"), WIN)
    with pytest.raises(IllegalActionError, match="no grapple"):
        grapple(
            with_combat(*ring("srd-5e")), rulesets["srd-5e"], EntityId("hero"), EntityId("foe"), WIN
        )


def test_gms_den_automatic_success_against_the_incapacitated(rulesets: dict[str, Ruleset]) -> None:
    lose = Contest(bonus=0, defender_bonus=10, d20=1, defender_d20=20)
    gms = grapple(
        with_combat(*ring("gms-den", foe=("stunned",))),
        rulesets["gms-den"],
        EntityId("hero"),
        EntityId("foe"),
        lose,
    )
    assert gms.result.success and gms.result.automatic
    hyrule = grapple(
        with_combat(*ring("legends-of-hyrule", foe=("stunned",))),
        rulesets["legends-of-hyrule"],
        EntityId("hero"),
        EntityId("foe"),
        lose,
    )
    assert not hyrule.result.success


def test_shove_prone_or_push(rulesets: dict[str, Ruleset]) -> None:
    hyrule = rulesets["legends-of-hyrule"]
    prone = shove(
        with_combat(*ring("legends-of-hyrule")),
        hyrule,
        EntityId("hero"),
        EntityId("foe"),
        ShoveEffect.PRONE,
        WIN,
    )
    assert prone.combat is not None and prone.combat.combatant(EntityId("foe")).has_condition(
        "prone"
    )
    push = shove(
        with_combat(*ring("legends-of-hyrule")),
        hyrule,
        EntityId("hero"),
        EntityId("foe"),
        ShoveEffect.PUSH,
        WIN,
    )
    assert push.result.push_feet == 5
    failed = shove(
        with_combat(*ring("legends-of-hyrule")),
        hyrule,
        EntityId("hero"),
        EntityId("foe"),
        ShoveEffect.PUSH,
        TIE,
    )
    assert failed.result.push_feet == 0


def _grappled(ruleset_id: str) -> tuple[Encounter, CombatState]:
    encounter, combat = ring(ruleset_id)
    foe = combat.combatant(EntityId("foe")).model_copy(
        update={"conditions": (ActiveCondition(name="grappled", source_id="hero"),)}
    )
    return encounter, combat.with_combatant(foe).model_copy(update={"turn_index": 1})


def test_escape_against_escape_dc_or_contest(rulesets: dict[str, Ruleset]) -> None:
    hyrule, gms = rulesets["legends-of-hyrule"], rulesets["gms-den"]
    out = escape(
        with_combat(*_grappled("legends-of-hyrule")),
        hyrule,
        EntityId("foe"),
        Contest(bonus=3, d20=10),
        escape_dc=13,
    )
    assert out.result.success and out.combat is not None
    assert not out.combat.combatant(EntityId("foe")).has_condition("grappled")
    short = escape(
        with_combat(*_grappled("legends-of-hyrule")),
        hyrule,
        EntityId("foe"),
        Contest(bonus=2, d20=10),
        escape_dc=13,
    )
    assert not short.result.success
    tie = Contest(bonus=3, defender_bonus=3, d20=10, defender_d20=10)
    gms_tie = escape(with_combat(*_grappled("gms-den")), gms, EntityId("foe"), tie, escape_dc=5)
    assert not gms_tie.result.success  # gms-den ignores escape DCs: 13 vs 13, a tie fails
    hyrule_no_dc = escape(
        with_combat(*_grappled("legends-of-hyrule")), hyrule, EntityId("foe"), tie
    )
    assert not hyrule_no_dc.result.success and hyrule_no_dc.result.defender_natural == 10
    with pytest.raises(IllegalActionError, match="not grappled"):
        escape(with_combat(*ring("gms-den")), gms, EntityId("foe"), action_id=None)


def test_gms_den_disarm_and_grapple_move(rulesets: dict[str, Ruleset]) -> None:
    gms = rulesets["gms-den"]
    won = disarm(
        with_combat(*ring("gms-den")),
        gms,
        EntityId("hero"),
        EntityId("foe"),
        Contest(bonus=5, defender_bonus=2, d20=10, defender_d20=10),
    )
    assert won.result.effect == "disarmed"
    assert won.combat is not None
    assert "Hero: disarm (attack)" in [r.purpose for r in won.combat.rolls]  # not Athletics
    with pytest.raises(IllegalActionError, match="Disarm"):
        disarm(
            with_combat(*ring("legends-of-hyrule")),
            rulesets["legends-of-hyrule"],
            EntityId("hero"),
            EntityId("foe"),
            WIN,
        )
    encounter, combat = _grappled("gms-den")
    combat = combat.model_copy(update={"turn_index": 0})
    moved = grapple_move(
        with_combat(encounter, combat),
        gms,
        EntityId("hero"),
        EntityId("foe"),
        Contest(bonus=3, d20=10, defender_d20=10),
    )
    assert moved.result.success and moved.result.move_feet == 15
    assert moved.combat is not None
    assert "Hero: grapple move (Strength)" in [r.purpose for r in moved.combat.rolls]
    held = grapple_move(
        with_combat(encounter, combat),
        gms,
        EntityId("hero"),
        EntityId("foe"),
        Contest(bonus=0, d20=10, defender_d20=10),
    )
    assert not held.result.success and held.result.move_feet == 0
    with pytest.raises(IllegalActionError):
        grapple_move(with_combat(*ring("gms-den")), gms, EntityId("hero"), EntityId("foe"))
    with pytest.raises(IllegalActionError, match="Grapple Move"):
        grapple_move(
            with_combat(encounter, combat),
            rulesets["legends-of-hyrule"],
            EntityId("hero"),
            EntityId("foe"),
        )


def test_dragging_halves_speed_unless_two_sizes_smaller(rulesets: dict[str, Ruleset]) -> None:
    hyrule = rulesets["legends-of-hyrule"]
    assert dragging_speed(hyrule, 30, Size.MEDIUM, Size.MEDIUM)[0] == 15
    assert dragging_speed(hyrule, 30, Size.MEDIUM, Size.SMALL)[0] == 15
    assert dragging_speed(hyrule, 30, Size.MEDIUM, Size.TINY)[0] == 30


def test_grapple_ends_when_the_grappler_drops_or_dies(rulesets: dict[str, Ruleset]) -> None:
    from battlemap.rules.damage import DamageInstance, apply_damage

    hyrule = rulesets["legends-of-hyrule"]
    encounter, combat = _grappled("legends-of-hyrule")
    down = apply_damage(
        with_combat(encounter, combat), hyrule, EntityId("hero"), [DamageInstance(25, "fire")]
    )
    assert down.combat is not None and not down.combat.combatant(EntityId("foe")).has_condition(
        "grappled"
    )
    encounter, combat = _grappled("legends-of-hyrule")
    hurt = apply_damage(
        with_combat(encounter, combat), hyrule, EntityId("hero"), [DamageInstance(5, "fire")]
    )
    assert hurt.combat is not None and hurt.combat.combatant(EntityId("foe")).has_condition(
        "grappled"
    )
