"""Each rule in one place: a ruleset that changes it changes every reader.

The cover-to-AC table (``CoverRules.bonus``: srd-5e "Cover", half +2, three-quarters +5) is
read by the attack roll's AC, the Dexterity save bonus and the Creature dock's AC line; the
bloodied threshold (``looks_bloodied``: bloodied-brink "Bloodied", at or below half the HP
maximum) by the players' projection and the Initiative dock, of the effective maximum; the
log-line limit by every writer (``clip_event_text``).
"""

from __future__ import annotations

from battlemap.model.combat import Combatant, CombatEvent, DeathState, clip_event_text
from battlemap.model.creature import Side
from battlemap.model.features import CoverDegree
from battlemap.model.limits import MAX_EVENT_TEXT
from battlemap.rules.attacks import (
    AttackOptions,
    AttackSituation,
    armor_class,
    cover_save_bonus,
)
from battlemap.rules.schema import Ruleset
from battlemap.rules.schema_vitals import BloodiedRules
from battlemap.rules.vitals import looks_bloodied
from tests.rules.fighters import creature


def with_cover(ruleset: Ruleset, half: int, three_quarters: int) -> Ruleset:
    cover = ruleset.attacks.cover.model_copy(
        update={"half_bonus": half, "three_quarters_bonus": three_quarters}
    )
    attacks = ruleset.attacks.model_copy(update={"cover": cover})
    return ruleset.model_copy(update={"attacks": attacks})


def with_bloodied(ruleset: Ruleset, fraction: float) -> Ruleset:
    hit_points = ruleset.hit_points.model_copy(
        update={"bloodied": BloodiedRules(fraction_of_max=fraction)}
    )
    return ruleset.model_copy(update={"hit_points": hit_points})


def test_the_cover_table_is_the_rulesets_for_the_ac_and_the_save(
    rulesets: dict[str, Ruleset],
) -> None:
    srd = rulesets["srd-5e"]
    house = with_cover(srd, 3, 7)
    target = creature("foe", ac=12, side=Side.HOSTILE)
    for ruleset, half, three_quarters in ((srd, 2, 5), (house, 3, 7)):
        for degree, bonus in (
            (CoverDegree.HALF, half),
            (CoverDegree.THREE_QUARTERS, three_quarters),
        ):
            situation = AttackSituation(distance_feet=5, cover=degree)
            assert armor_class(ruleset, target, situation, AttackOptions()).value == 12 + bonus
            assert cover_save_bonus(ruleset, degree) == bonus
            assert ruleset.attacks.cover.bonus(degree) == bonus
        assert ruleset.attacks.cover.bonus(CoverDegree.NONE) == 0
        assert ruleset.attacks.cover.bonus(CoverDegree.TOTAL) is None


def test_bloodied_follows_the_rulesets_threshold_and_the_lowered_maximum(
    rulesets: dict[str, Ruleset],
) -> None:
    brink = rulesets["bloodied-brink"]
    quarter = with_bloodied(brink, 0.25)
    hurt = creature("orc", hp=8, max_hp=20, side=Side.HOSTILE)  # 40% of its maximum
    assert looks_bloodied(brink, hurt) and not looks_bloodied(quarter, hurt)
    # srd-5e has no bloodied state (rules-sources README: "Bloodied: none"), nor does an
    # unknown ruleset: nothing looks bloodied, on either window
    assert not looks_bloodied(rulesets["srd-5e"], hurt)
    assert not looks_bloodied(None, hurt)
    drained = Combatant(
        creature_id=hurt.id, group="", death=DeathState(hp_max_reduction=10)
    )  # maximum 10: 8 is above half
    assert not looks_bloodied(brink, hurt, drained)
    assert not looks_bloodied(brink, hurt.model_copy(update={"hp": 0}))


def test_a_long_log_line_is_cut_once_the_same_way() -> None:
    long = "x" * (MAX_EVENT_TEXT + 50)
    cut = clip_event_text(long)
    assert len(cut) == MAX_EVENT_TEXT and cut.endswith("…")
    assert clip_event_text("short") == "short"
    CombatEvent(round=0, kind="note", text=cut)  # fits the model's bound
