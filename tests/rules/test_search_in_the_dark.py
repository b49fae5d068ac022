"""The Search action's Wisdom (Perception) check made to see a creature, read through the
light on it and the searcher's senses (``rules.sight_checks``).

gms-den "Lightly Obscured": "Creatures have disadvantage on Wisdom (Perception) checks that
rely on sight." "Heavily Obscured": "effectively suffers from the Blinded condition"; its
"Blinded": "automatically fails any ability check that requires sight". srd-5e (and the
rulesets that inherit its reading) says nothing of checks in the dark: a plain roll.
"""

from __future__ import annotations

import pytest

from battlemap.model.creature import Side
from battlemap.model.encounter import Encounter
from battlemap.model.features import Light, LightLevel, MapLighting
from battlemap.model.ids import EntityId
from battlemap.model.statblock import Senses
from battlemap.rules.economy import take_action
from battlemap.rules.outcome import with_combat
from battlemap.rules.schema import Ruleset
from tests.rules.conftest import RULESET_IDS
from tests.rules.fighters import combat_of, creature
from tests.rules.helpers import state_and_events
from tests.rules.test_attack_in_the_dark import NO_SENSES, with_senses

SEARCHER, LURKER = EntityId("a"), EntityId("t")


def search(
    rulesets: dict[str, Ruleset],
    ruleset_id: str,
    ambient: LightLevel,
    *,
    senses: Senses = NO_SENSES,
    lights: tuple[Light, ...] = (),
) -> tuple[list[str], list[str]]:
    """The rolls' expressions and purposes, and the log lines, of "a" searching for "t" 20 ft
    away on a map lit ``ambient``."""
    a = with_senses(creature("a", x=0, y=5), senses)
    t = creature("t", x=4, y=5, side=Side.HOSTILE)
    encounter = Encounter(
        ruleset=ruleset_id,
        creatures=(a, t),
        lights=lights,
        lighting=MapLighting(ambient=ambient),
    )
    outcome = take_action(
        with_combat(encounter, combat_of(encounter)),
        rulesets[ruleset_id],
        SEARCHER,
        "search",
        target_id=LURKER,
    )
    state, events = state_and_events(outcome)
    rolls = [f"{r.expression} | {r.purpose}" for r in state.rolls]
    return rolls, [e.text for e in events]


def test_gms_den_dim_light_rolls_with_disadvantage(rulesets: dict[str, Ruleset]) -> None:
    rolls, _ = search(rulesets, "gms-den", LightLevel.DIM)
    assert rolls == [
        "2d20kl1+0 | A Wisdom (Perception) (Search) to see T (disadvantage: T in dim light,"
        " no darkvision: lightly obscured)"
    ]


def test_gms_den_darkness_fails_without_a_roll(rulesets: dict[str, Ruleset]) -> None:
    rolls, lines = search(rulesets, "gms-den", LightLevel.DARK)
    assert rolls == []
    assert (
        "A Wisdom (Perception) (Search) to see T fails automatically: T in darkness, no"
        " darkvision: heavily obscured, effectively blinded"
    ) in lines


def test_gms_den_darkvision_in_darkness_is_lightly_obscured(
    rulesets: dict[str, Ruleset],
) -> None:
    rolls, _ = search(rulesets, "gms-den", LightLevel.DARK, senses=Senses(darkvision=60))
    (roll,) = rolls
    assert roll.startswith("2d20kl1+0 |") and "seen as dim light by darkvision 60 ft" in roll


def test_gms_den_a_torch_on_the_lurker_gives_a_plain_roll(rulesets: dict[str, Ruleset]) -> None:
    torch = Light(position=(4.5, 5.5), bright_cells=4.0, dim_cells=8.0)
    rolls, _ = search(rulesets, "gms-den", LightLevel.DARK, lights=(torch,))
    assert rolls == ["1d20+0 | A Wisdom (Perception) (Search) to see T"]


@pytest.mark.parametrize("ruleset_id", [r for r in RULESET_IDS if r != "gms-den"])
def test_srd_reading_darkness_changes_no_check(
    rulesets: dict[str, Ruleset], ruleset_id: str
) -> None:
    rolls, _ = search(rulesets, ruleset_id, LightLevel.DARK)
    assert rolls == [
        "1d20+0 | A Wisdom (Perception) (Search) to see T (T in darkness, no darkvision)"
    ]
    dim, _ = search(rulesets, ruleset_id, LightLevel.DIM)
    assert dim == [
        "1d20+0 | A Wisdom (Perception) (Search) to see T (T in dim light, no darkvision)"
    ]
