"""Can a creature see another, per ruleset: the light on it, the looker's senses, blinded and
invisible (``rules.vision``), and what the attack's roll mode makes of it.

srd-5e "Unseen Attackers and Targets": "Combatants often try to escape their foes notice by
hiding, casting the invisibility spell, or lurking in darkness. When you attack a target that
you can't see, you have disadvantage on the attack roll. [...] when a creature can't see you,
you have advantage on attack rolls against it." legends-of-hyrule says the same words;
final-fantasy-d20 and bloodied-brink say nothing of light, so they inherit srd-5e (the
rules-sources README). gms-den "Lightly Obscured": "disadvantage on Wisdom (Perception) checks
that rely on sight"; "Heavily Obscured": "effectively suffers from the Blinded condition".
"""

from __future__ import annotations

from pathlib import Path

import pytest

from battlemap.model.statblock import Senses
from battlemap.rules.attacks import (
    AttackOptions,
    AttackSituation,
    RollMode,
    RollModeReport,
    roll_mode,
)
from battlemap.rules.schema import Ruleset
from battlemap.rules.vision import LightLevel, SightCheck, sight_verdict
from tests.rules.conftest import RULESET_IDS
from tests.rules.test_attack_roll_mode import SWORD, pair
from tests.rules.test_ruleset_errors import VARIANT_HEAD, problems_of

NONE = Senses()
DARKVISION_60 = Senses(darkvision=60)

SRD_LIKE = ("srd-5e", "legends-of-hyrule", "final-fantasy-d20", "bloodied-brink")


@pytest.mark.parametrize("ruleset_id", SRD_LIKE)
def test_srd_reading_target_in_darkness_without_darkvision_is_unseen(
    rulesets: dict[str, Ruleset], ruleset_id: str
) -> None:
    verdict = sight_verdict(rulesets[ruleset_id], LightLevel.DARK, NONE, 5)
    assert not verdict.sees
    assert verdict.reason == "target in darkness, no darkvision"
    assert verdict.check is SightCheck.NORMAL  # the text says nothing of checks in the dark


@pytest.mark.parametrize("ruleset_id", SRD_LIKE)
def test_srd_reading_dim_light_changes_nothing(
    rulesets: dict[str, Ruleset], ruleset_id: str
) -> None:
    # No srd-5e-like text says anything of dim light: seen, no penalty on any check.
    verdict = sight_verdict(rulesets[ruleset_id], LightLevel.DIM, NONE, 5)
    assert verdict.sees and verdict.check is SightCheck.NORMAL
    assert verdict.reason == "target in dim light, no darkvision"


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_bright_light_is_plainly_seen(rulesets: dict[str, Ruleset], ruleset_id: str) -> None:
    verdict = sight_verdict(rulesets[ruleset_id], LightLevel.BRIGHT, NONE, 30)
    assert (verdict.sees, verdict.check, verdict.reason) == (True, SightCheck.NORMAL, "")


def test_srd_darkvision_sees_darkness_as_dim_light_within_its_range(
    rulesets: dict[str, Ruleset],
) -> None:
    srd = rulesets["srd-5e"]
    near = sight_verdict(srd, LightLevel.DARK, DARKVISION_60, 60)  # the range itself reaches
    assert near.sees and near.seen_as is LightLevel.DIM and near.check is SightCheck.NORMAL
    assert near.reason == "target in darkness, seen as dim light by darkvision 60 ft"
    far = sight_verdict(srd, LightLevel.DARK, DARKVISION_60, 65)
    assert not far.sees
    assert far.reason == "target in darkness 65 ft away, beyond darkvision 60 ft"


def test_gms_den_heavily_obscured_target_in_darkness(rulesets: dict[str, Ruleset]) -> None:
    # "Heavily Obscured": effectively Blinded when trying to see into the area; "Blinded":
    # "automatically fails any ability check that requires sight".
    verdict = sight_verdict(rulesets["gms-den"], LightLevel.DARK, NONE, 10)
    assert not verdict.sees and verdict.check is SightCheck.FAILS
    assert verdict.reason == (
        "target in darkness, no darkvision: heavily obscured, effectively blinded"
    )


def test_gms_den_lightly_obscured_dim_light_and_darkvision(rulesets: dict[str, Ruleset]) -> None:
    gms = rulesets["gms-den"]
    dim = sight_verdict(gms, LightLevel.DIM, NONE, 10)
    assert dim.sees and dim.check is SightCheck.DISADVANTAGE  # "disadvantage on [...] Perception"
    assert dim.reason == "target in dim light, no darkvision: lightly obscured"
    # Darkvision sees the darkness as dim light: lightly obscured, not heavily.
    dark = sight_verdict(gms, LightLevel.DARK, DARKVISION_60, 10)
    assert dark.sees and dark.check is SightCheck.DISADVANTAGE
    # ... and the dim light as bright: nothing.
    lit = sight_verdict(gms, LightLevel.DIM, DARKVISION_60, 10)
    assert lit.sees and lit.check is SightCheck.NORMAL and lit.seen_as is LightLevel.BRIGHT


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_blindsight_perceives_in_darkness_invisible_and_blinded(
    rulesets: dict[str, Ruleset], ruleset_id: str
) -> None:
    # gms-den "Invisible": "impossible to see without the aid of magic or a special sense".
    ruleset = rulesets[ruleset_id]
    bat = Senses(blindsight=10)
    for verdict in (
        sight_verdict(ruleset, LightLevel.DARK, bat, 10),
        sight_verdict(ruleset, LightLevel.BRIGHT, bat, 5, invisible=True),
        sight_verdict(ruleset, LightLevel.BRIGHT, bat, 5, blinded=True),
    ):
        assert verdict.sees and verdict.check is SightCheck.NORMAL, verdict
        assert verdict.reason == "target perceived by blindsight 10 ft"
    beyond = sight_verdict(ruleset, LightLevel.DARK, bat, 15)
    assert not beyond.sees


def test_walls_blinded_and_invisible_hide_whatever_the_light(
    rulesets: dict[str, Ruleset],
) -> None:
    srd = rulesets["srd-5e"]
    walls = sight_verdict(srd, LightLevel.BRIGHT, DARKVISION_60, 5, line_clear=False)
    blinded = sight_verdict(srd, LightLevel.BRIGHT, DARKVISION_60, 5, blinded=True)
    invisible = sight_verdict(srd, LightLevel.BRIGHT, DARKVISION_60, 5, invisible=True)
    assert [v.sees for v in (walls, blinded, invisible)] == [False, False, False]
    assert (walls.reason, blinded.reason, invisible.reason) == (
        "walls in the way",
        "blinded",
        "target is invisible",
    )
    truesight = sight_verdict(srd, LightLevel.DARK, Senses(truesight=30), 5, invisible=True)
    assert truesight.sees and truesight.reason == "invisible target seen by truesight 30 ft"


def _mode_from_light(
    rulesets: dict[str, Ruleset], ruleset_id: str, attacker: Senses, light: LightLevel
) -> RollModeReport:
    """The roll mode when the target (no senses) stands in ``light``, the attacker in bright
    light."""
    ruleset = rulesets[ruleset_id]
    sees = sight_verdict(ruleset, light, attacker, 5)
    seen = sight_verdict(ruleset, LightLevel.BRIGHT, NONE, 5, whom="attacker")
    situation = AttackSituation(
        attacker_sees_target=sees.sees,
        target_sees_attacker=seen.sees,
        unseen_target_why="" if sees.sees else sees.reason,
        unseen_attacker_why="" if seen.sees else seen.reason,
    )
    a, t = pair(ruleset=ruleset_id)
    return roll_mode(ruleset, a, t, SWORD, situation, AttackOptions())


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_every_ruleset_attacking_into_darkness_without_darkvision_has_disadvantage(
    rulesets: dict[str, Ruleset], ruleset_id: str
) -> None:
    report = _mode_from_light(rulesets, ruleset_id, NONE, LightLevel.DARK)
    assert report.mode is RollMode.DISADVANTAGE
    (reason,) = report.disadvantages
    assert reason.startswith("the attacker can't see the target: target in darkness, no darkvision")
    with_darkvision = _mode_from_light(rulesets, ruleset_id, DARKVISION_60, LightLevel.DARK)
    assert with_darkvision.mode is RollMode.NORMAL  # dim light: no penalty on attacks


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_every_ruleset_dim_light_changes_no_attack(
    rulesets: dict[str, Ruleset], ruleset_id: str
) -> None:
    # Not even gms-den: lightly obscured is a Perception rule only.
    report = _mode_from_light(rulesets, ruleset_id, NONE, LightLevel.DIM)
    assert report.mode is RollMode.NORMAL and not report.advantages


def test_srd_the_unseen_target_attacks_with_advantage(rulesets: dict[str, Ruleset]) -> None:
    # The lurker in darkness attacks the one in the light who has no darkvision: "when a
    # creature can't see you, you have advantage on attack rolls against it".
    srd = rulesets["srd-5e"]
    sees = sight_verdict(srd, LightLevel.BRIGHT, NONE, 5)
    seen = sight_verdict(srd, LightLevel.DARK, NONE, 5, whom="attacker")
    situation = AttackSituation(
        attacker_sees_target=sees.sees,
        target_sees_attacker=seen.sees,
        unseen_attacker_why=seen.reason,
    )
    a, t = pair()
    report = roll_mode(srd, a, t, SWORD, situation, AttackOptions())
    assert report.mode is RollMode.ADVANTAGE
    assert report.advantages == (
        "the target can't see the attacker: attacker in darkness, no darkvision",
    )


def test_the_rulesets_light_readings(rulesets: dict[str, Ruleset]) -> None:
    readings = {i: (r.light.dim.value, r.light.dark.value) for i, r in rulesets.items()}
    assert readings == {
        "srd-5e": ("none", "unseen"),
        "legends-of-hyrule": ("none", "unseen"),
        "final-fantasy-d20": ("none", "unseen"),
        "gms-den": ("lightly-obscured", "heavily-obscured"),
        "bloodied-brink": ("none", "unseen"),
    }


def test_darkness_hiding_less_than_dim_light_is_refused(tmp_path: Path) -> None:
    text = VARIANT_HEAD + "light:\n  dim: heavily-obscured\n  dark: none\n"
    (problem,) = problems_of(tmp_path, "bad.yaml", text)
    assert problem.startswith(f"{tmp_path / 'bad.yaml'}:4: light: ")
    assert "dark 'none' hides less than dim 'heavily-obscured'" in problem


def test_an_unknown_light_effect_names_the_choices(tmp_path: Path) -> None:
    (problem,) = problems_of(tmp_path, "bad.yaml", VARIANT_HEAD + "light: {dim: murky}\n")
    assert "light.dim: 'murky' is not one of none, unseen, lightly-obscured" in problem
