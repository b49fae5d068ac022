"""Roll mode: every source of advantage and disadvantage, and their cancellation."""

from __future__ import annotations

import pytest

from battlemap.model.combat import Combatant
from battlemap.model.ids import EntityId
from battlemap.rules.attacks import (
    AttackOptions,
    AttackProfile,
    AttackSituation,
    Delivery,
    RangeBand,
    RollMode,
    RollModeReport,
    roll_mode,
)
from battlemap.rules.damage import DamageRoll
from battlemap.rules.schema import Ruleset
from tests.rules.fighters import creature, fight

SWORD = AttackProfile(
    "Longsword", to_hit=5, damage=(DamageRoll("1d8", "slashing"),), weapon="longsword"
)
BOW = AttackProfile(
    "Longbow",
    to_hit=5,
    delivery=Delivery.RANGED,
    damage=(DamageRoll("1d8", "piercing"),),
    weapon="longbow",
)


def pair(
    attacker: tuple[str, ...] = (), target: tuple[str, ...] = (), ruleset: str = "srd-5e"
) -> tuple[Combatant, Combatant]:
    _, combat = fight(
        creature("a"), creature("t"), ruleset=ruleset, conditions={"a": attacker, "t": target}
    )
    return combat.combatant(EntityId("a")), combat.combatant(EntityId("t"))


def mode(
    rulesets: dict[str, Ruleset],
    ruleset_id: str = "srd-5e",
    attacker: tuple[str, ...] = (),
    target: tuple[str, ...] = (),
    profile: AttackProfile = SWORD,
    **situation: object,
) -> RollModeReport:
    a, t = pair(attacker, target, ruleset_id)
    options = AttackOptions()
    return roll_mode(rulesets[ruleset_id], a, t, profile, AttackSituation(**situation), options)  # type: ignore[arg-type]


def test_nothing_is_a_normal_roll(rulesets: dict[str, Ruleset]) -> None:
    report = mode(rulesets)
    assert (report.mode, report.advantages, report.disadvantages) == (RollMode.NORMAL, (), ())


@pytest.mark.parametrize(
    "condition", ["blinded", "paralyzed", "petrified", "restrained", "stunned", "unconscious"]
)
def test_conditions_on_the_target_give_advantage(
    rulesets: dict[str, Ruleset], condition: str
) -> None:
    report = mode(rulesets, target=(condition,))
    assert report.mode is RollMode.ADVANTAGE
    assert f"target is {condition}" in report.advantages


@pytest.mark.parametrize("condition", ["blinded", "poisoned", "prone", "restrained"])
def test_conditions_on_the_attacker_give_disadvantage(
    rulesets: dict[str, Ruleset], condition: str
) -> None:
    assert mode(rulesets, attacker=(condition,)).mode is RollMode.DISADVANTAGE


def test_invisible_attacker_and_target(rulesets: dict[str, Ruleset]) -> None:
    assert mode(rulesets, attacker=("invisible",)).mode is RollMode.ADVANTAGE
    assert mode(rulesets, target=("invisible",)).mode is RollMode.DISADVANTAGE


def test_prone_target_within_5_ft_advantage_farther_disadvantage(
    rulesets: dict[str, Ruleset],
) -> None:
    near = mode(rulesets, target=("prone",), distance_feet=5)
    far = mode(
        rulesets, target=("prone",), profile=BOW, distance_feet=30, range_band=RangeBand.NORMAL
    )
    assert near.mode is RollMode.ADVANTAGE and "target is prone within 5 ft" in near.advantages
    assert far.mode is RollMode.DISADVANTAGE


def test_unseen_attacker_and_unseen_target(rulesets: dict[str, Ruleset]) -> None:
    assert mode(rulesets, target_sees_attacker=False).advantages == (
        "the target can't see the attacker",
    )
    assert mode(rulesets, attacker_sees_target=False).disadvantages == (
        "the attacker can't see the target",
    )


def test_ranged_long_range_and_hostile_within_5_ft(rulesets: dict[str, Ruleset]) -> None:
    long = mode(rulesets, profile=BOW, distance_feet=200, range_band=RangeBand.LONG)
    close = mode(
        rulesets,
        profile=BOW,
        distance_feet=30,
        range_band=RangeBand.NORMAL,
        hostile_within_5ft=True,
    )
    melee = mode(rulesets, hostile_within_5ft=True)
    assert long.disadvantages == ("target beyond normal range",)
    assert close.disadvantages == ("ranged attack with a hostile creature within 5 ft",)
    assert melee.mode is RollMode.NORMAL


def test_any_advantage_and_disadvantage_cancel_however_many(rulesets: dict[str, Ruleset]) -> None:
    report = mode(rulesets, attacker=("poisoned", "prone", "blinded"), target=("stunned",))
    assert report.mode is RollMode.NORMAL and report.cancelled
    assert len(report.disadvantages) == 3 and len(report.advantages) == 1


def test_dodging_target_imposes_disadvantage_if_it_sees_the_attacker(
    rulesets: dict[str, Ruleset],
) -> None:
    srd = rulesets["srd-5e"]
    a, t = pair()
    t = t.model_copy(update={"dodging": True})
    assert roll_mode(srd, a, t, SWORD, AttackSituation(), AttackOptions()).disadvantages == (
        "target is Dodging",
    )
    unseen = roll_mode(
        srd, a, t, SWORD, AttackSituation(target_sees_attacker=False), AttackOptions()
    )
    assert unseen.mode is RollMode.ADVANTAGE


def test_flanking_only_in_gms_den_and_only_melee(rulesets: dict[str, Ruleset]) -> None:
    assert mode(rulesets, "gms-den", flanked=True).advantages == ("flanking",)
    assert mode(rulesets, "srd-5e", flanked=True).mode is RollMode.NORMAL
    assert (
        mode(rulesets, "gms-den", flanked=True, profile=BOW, range_band=RangeBand.NORMAL).mode
        is RollMode.NORMAL
    )


def test_hyrule_squeezing(rulesets: dict[str, Ruleset]) -> None:
    assert (
        mode(rulesets, "legends-of-hyrule", attacker_squeezing=True).mode is RollMode.DISADVANTAGE
    )
    assert mode(rulesets, "legends-of-hyrule", target_squeezing=True).mode is RollMode.ADVANTAGE
    # srd-5e takes the hyrule rule (README: size and space "not stated: use hyrule table").
    assert mode(rulesets, "srd-5e", target_squeezing=True).mode is RollMode.ADVANTAGE
    srd = rulesets["srd-5e"]
    no_squeezing = srd.model_copy(
        update={"movement": srd.movement.model_copy(update={"squeezing": None})}
    )
    without = {**rulesets, "srd-5e": no_squeezing}
    assert mode(without, "srd-5e", target_squeezing=True).mode is RollMode.NORMAL
    assert mode(without, "srd-5e", attacker_squeezing=True).mode is RollMode.NORMAL


def test_exhaustion_3_and_frightened(rulesets: dict[str, Ruleset]) -> None:
    srd = rulesets["srd-5e"]
    a, t = pair(attacker=("frightened",))
    assert (
        roll_mode(srd, a, t, SWORD, AttackSituation(), AttackOptions()).mode
        is RollMode.DISADVANTAGE
    )
    hidden = roll_mode(
        srd, a, t, SWORD, AttackSituation(fear_source_in_sight=False), AttackOptions()
    )
    assert hidden.mode is RollMode.NORMAL
    tired, t = pair()
    tired = tired.model_copy(update={"exhaustion": 3})
    assert (
        roll_mode(srd, tired, t, SWORD, AttackSituation(), AttackOptions()).mode
        is RollMode.DISADVANTAGE
    )


@pytest.mark.parametrize(
    ("ruleset_id", "profile", "expected"),
    [
        ("final-fantasy-d20", SWORD, RollMode.DISADVANTAGE),
        ("final-fantasy-d20", AttackProfile("Dagger", 5, weapon="dagger"), RollMode.NORMAL),
        ("legends-of-hyrule", SWORD, RollMode.DISADVANTAGE),
        ("legends-of-hyrule", AttackProfile("Harpoon", 5, aquatic=True), RollMode.NORMAL),
        (
            "final-fantasy-d20",
            AttackProfile("Crossbow", 5, Delivery.RANGED, weapon="crossbow"),
            RollMode.NORMAL,
        ),
        ("final-fantasy-d20", BOW, RollMode.DISADVANTAGE),
        ("srd-5e", SWORD, RollMode.NORMAL),
    ],
)
def test_underwater(
    rulesets: dict[str, Ruleset], ruleset_id: str, profile: AttackProfile, expected: RollMode
) -> None:
    band = RangeBand.NORMAL if profile.delivery is Delivery.RANGED else RangeBand.REACH
    assert (
        mode(rulesets, ruleset_id, profile=profile, underwater=True, range_band=band).mode
        is expected
    )
