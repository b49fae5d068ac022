"""Typed-in damage totals are checked against the dice, per ruleset.

A typed total is the whole damage part as rolled at the table (the attack dialog's box is
labelled with the part's dice, "1d6+2 slashing"), so ``1d6+2`` takes 3 to 8. A critical hit
changes the dice first: srd-5e "Critical Hits" ("Roll all the attack's damage dice twice ...
Then add any relevant modifiers"), as do legends-of-hyrule, final-fantasy-d20 and
bloodied-brink, so 2d6+2: 4 to 14; gms-den "Critical Hits" adds "the maximum number on the
damage dice ... to the original damage roll and any modifiers", so 1d6+6+2: 9 to 14. Damage
"can't be negative" (srd-5e "Damage Rolls", "it's possible to deal 0 damage"): 1d4-3 takes
-2 to 1, a total below 0 dealing 0. A legends-of-hyrule target strike "maximizes the damage
dice rolled (treat 1d8 as simply 8)".
"""

from __future__ import annotations

from typing import Any

import pytest

from battlemap.model.creature import Side
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.rules.attacks import (
    AttackOptions,
    AttackProfile,
    AttackSituation,
    TargetStrikePayment,
    make_attack,
)
from battlemap.rules.damage import (
    AreaTarget,
    DamageRoll,
    apply_area_damage,
    check_typed_total,
    roll_damage,
)
from battlemap.rules.draft import Draft
from battlemap.rules.outcome import Outcome, with_combat
from battlemap.rules.schema import Ruleset
from battlemap.rules.vitals import BadDieError
from tests.rules.fighters import creature, fight

NEAR = AttackSituation(distance_feet=5)

#: The slashing type each ruleset calls it (final-fantasy-d20 has its own damage types).
SLASHING = {
    "srd-5e": "slashing",
    "legends-of-hyrule": "slashing",
    "final-fantasy-d20": "slash",
    "gms-den": "slashing",
    "bloodied-brink": "slashing",
}

#: A critical 1d6+2, per ruleset's "Critical Hits": dice twice (2d6+2), or gms-den's maximum
#: of the dice added to the roll (1d6+6+2).
CRITICAL_RANGE = {
    "srd-5e": (4, 14),
    "legends-of-hyrule": (4, 14),
    "final-fantasy-d20": (4, 14),
    "gms-den": (9, 14),
    "bloodied-brink": (4, 14),
}


def _sword(ruleset_id: str, dice: str = "1d6+2") -> AttackProfile:
    return AttackProfile("Shortsword", to_hit=5, damage=(DamageRoll(dice, SLASHING[ruleset_id]),))


def _hit(
    rulesets: dict[str, Ruleset],
    ruleset_id: str,
    *,
    face: int = 15,
    dice: str = "1d6+2",
    **options: object,
) -> Outcome:  # type: ignore[type-arg]
    encounter, combat = fight(
        creature("hero", hp=30),
        creature("foe", hp=100, max_hp=100, ac=12, side=Side.HOSTILE),
        ruleset=ruleset_id,
    )
    return make_attack(
        with_combat(encounter, combat),
        rulesets[ruleset_id],
        EntityId("hero"),
        EntityId("foe"),
        _sword(ruleset_id, dice),
        NEAR,
        AttackOptions(d20=(face,), **options),  # type: ignore[arg-type]
    )


@pytest.mark.parametrize("ruleset_id", sorted(SLASHING))
def test_a_hit_takes_only_totals_its_dice_and_modifier_can_show(
    rulesets: dict[str, Ruleset], ruleset_id: str
) -> None:
    for total in (3, 8):  # 1d6+2: 1+2 to 6+2
        assert _hit(rulesets, ruleset_id, damage_rolls=(total,)).result.damage.total == total
    for total in (2, 9, 10000):
        with pytest.raises(BadDieError) as refused:
            _hit(rulesets, ruleset_id, damage_rolls=(total,))
        assert str(refused.value) == (
            f"Shortsword damage ({SLASHING[ruleset_id]}): {total} can't be rolled on 1d6+2"
            " (only 3 to 8)"
        )


@pytest.mark.parametrize("ruleset_id", sorted(CRITICAL_RANGE))
def test_a_critical_total_is_checked_against_the_rulesets_critical_dice(
    rulesets: dict[str, Ruleset], ruleset_id: str
) -> None:
    low, high = CRITICAL_RANGE[ruleset_id]
    for total in (low, high):
        applied = _hit(rulesets, ruleset_id, face=20, damage_rolls=(total,))
        assert applied.result.critical and applied.result.damage.total == total
    for total in (low - 1, high + 1):
        with pytest.raises(BadDieError, match=f"only {low} to {high}") as refused:
            _hit(rulesets, ruleset_id, face=20, damage_rolls=(total,))
        assert "critical hit" in str(refused.value) and "1d6+2" in str(refused.value)


@pytest.mark.parametrize(
    ("ruleset_id", "total", "message"),
    [
        ("srd-5e", 15, "15 can't be rolled on 2d6+2 (1d6+2, critical hit: the dice rolled twice)"),
        (
            "gms-den",
            8,
            "8 can't be rolled on 1d6+8 (1d6+2, critical hit: the dice's maximum added)",
        ),
    ],
)
def test_a_critical_refusal_names_the_dice_as_rolled_and_why(
    rulesets: dict[str, Ruleset], ruleset_id: str, total: int, message: str
) -> None:
    low, high = CRITICAL_RANGE[ruleset_id]
    with pytest.raises(BadDieError) as refused:
        _hit(rulesets, ruleset_id, face=20, damage_rolls=(total,))
    assert str(refused.value) == (f"Shortsword damage (slashing): {message} (only {low} to {high})")


def test_srd_a_penalty_can_bring_a_part_to_0_but_not_below(rulesets: dict[str, Ruleset]) -> None:
    """srd-5e "Damage Rolls": "it's possible to deal 0 damage, but not negative damage". A
    total the dice showed below 0 (1d4-3: -2) is taken and deals 0, as a rolled one does."""
    for total, dealt in ((-2, 0), (0, 0), (1, 1)):
        hit = _hit(rulesets, "srd-5e", dice="1d4-3", damage_rolls=(total,))
        assert hit.result.damage.total == dealt
        assert hit.result.damage_rolled.instances[0].amount == dealt
    for total in (-3, 2):
        with pytest.raises(BadDieError, match=rf"{total} can't .* 1d4-3 \(only -2 to 1\)"):
            _hit(rulesets, "srd-5e", dice="1d4-3", damage_rolls=(total,))
    # 1d4-5 shows -4 to -1: 0, what it deals, is taken too (a typed box can't go below 0)
    assert _hit(rulesets, "srd-5e", dice="1d4-5", damage_rolls=(0,)).result.damage.total == 0
    with pytest.raises(BadDieError, match=r"\(only -4 to 0\)"):
        _hit(rulesets, "srd-5e", dice="1d4-5", damage_rolls=(1,))


def test_hyrule_target_strike_takes_only_the_maximised_total(
    rulesets: dict[str, Ruleset],
) -> None:
    strike: dict[str, Any] = {"target_strike": TargetStrikePayment.STAMINA, "stamina_available": 2}
    applied = _hit(rulesets, "legends-of-hyrule", dice="1d8+2", damage_rolls=(10,), **strike)
    assert applied.result.damage.total == 10  # "treat 1d8 as simply 8", plus 2
    with pytest.raises(BadDieError) as refused:
        _hit(rulesets, "legends-of-hyrule", dice="1d8+2", damage_rolls=(9,), **strike)
    assert str(refused.value) == (
        "Shortsword damage (slashing): 9 can't be rolled on 10"
        " (1d8+2, target strike: the dice maximised) (only 10)"
    )


def test_the_ability_modifier_counts_in_the_first_parts_total(
    rulesets: dict[str, Ruleset],
) -> None:
    """srd-5e two parts, 1d4 piercing + the modifier 3, and 1d6 fire: each checked alone."""
    encounter, combat = fight(creature("hero"), creature("foe", hp=50, side=Side.HOSTILE))
    draft = Draft(with_combat(encounter, combat), rulesets["srd-5e"])
    parts = [DamageRoll("1d4", "piercing"), DamageRoll("1d6", "fire")]
    rolled = roll_damage(draft, parts, typed=[7, 1], purpose="Dagger damage", flat_bonus_first=3)
    assert [i.amount for i in rolled.instances] == [7, 1]
    with pytest.raises(BadDieError, match=r"Dagger damage \(fire\): 7 .* 1d6 \(only 1 to 6\)"):
        roll_damage(draft, parts, typed=[7, 7], purpose="Dagger damage", flat_bonus_first=3)
    with pytest.raises(BadDieError, match=r"\(piercing\): 3 can't be rolled on 1d4\+3"):
        roll_damage(draft, parts, typed=[3, 1], purpose="Dagger damage", flat_bonus_first=3)


def _goblins(ruleset_id: str) -> tuple[Encounter, list[AreaTarget]]:
    encounter, _ = fight(
        *(creature(f"g{i}", hp=40, side=Side.HOSTILE) for i in range(2)), ruleset=ruleset_id
    )
    return encounter, [AreaTarget(EntityId(f"g{i}")) for i in range(2)]


def test_srd_area_damage_total_is_checked_once_for_all_targets(
    rulesets: dict[str, Ruleset],
) -> None:
    """srd-5e "Damage Rolls": an area's damage is rolled once for all of them (8d6: 8-48)."""
    encounter, targets = _goblins("srd-5e")
    fire = [DamageRoll("8d6", "fire")]
    srd = rulesets["srd-5e"]
    dealt = apply_area_damage(with_combat(encounter, None), srd, fire, targets, typed=[48])
    assert [r.total for r in dealt.result] == [48, 48]
    with pytest.raises(BadDieError, match=r"area damage \(fire\): 49 .* 8d6 \(only 8 to 48\)"):
        apply_area_damage(with_combat(encounter, None), srd, fire, targets, typed=[49])


def test_area_damage_rolled_per_target_checks_each_targets_total(
    rulesets: dict[str, Ruleset],
) -> None:
    srd = rulesets["srd-5e"]
    each = srd.model_copy(
        update={"damage": srd.damage.model_copy(update={"area_damage_rolled_once": False})}
    )
    encounter, targets = _goblins("srd-5e")
    fire = [DamageRoll("2d6", "fire")]
    with pytest.raises(BadDieError, match=r"area damage for G1 \(fire\): 13 .* \(only 2 to 12\)"):
        apply_area_damage(
            with_combat(encounter, None), each, fire, targets, typed_each=[[12], [13]]
        )


def test_check_typed_total_bounds_and_bad_input() -> None:
    assert check_typed_total(24, "3d8", "rest") == 24
    with pytest.raises(BadDieError, match=r"rest: 25 can't be rolled on 3d8 \(only 3 to 24\)"):
        check_typed_total(25, "3d8", "rest")
    with pytest.raises(BadDieError, match="whole number"):
        check_typed_total(2.5, "3d8", "rest")  # type: ignore[arg-type]
    with pytest.raises(BadDieError, match="whole number"):
        check_typed_total(True, "1d2", "rest")
