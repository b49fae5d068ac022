"""Ruleset keys removed because nothing in the app could act on them, each with why: an old
file still setting one is told so ("no longer a ruleset setting: <why>; remove this key").

- ``sizes_feet``: the space per size is the same in every document and is the map's own
  (``Size.space_feet``: tokens, reach, cover and movement all use it).
- ``movement.difficult_terrain_style``: it only worded the rule; the cost is
  ``difficult_terrain_extra_cost_per_foot`` in every ruleset.
- ``obscurement``: what dim light and darkness do is the ``light`` section now.
- ``attacks.flanking.effect``: flanking always gives advantage (its only value); the engine
  read it nowhere.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from battlemap.model import Size
from battlemap.rules.movement import movement_costs
from battlemap.rules.schema import Ruleset
from tests.rules.conftest import RULESET_IDS
from tests.rules.test_ruleset_errors import VARIANT_HEAD, problems_of


@pytest.mark.parametrize(
    ("key", "text", "why"),
    [
        ("sizes_feet", "sizes_feet: {tiny: 2.5}\n", "space per size is the same in every"),
        (
            "difficult_terrain_style",
            "movement:\n  difficult_terrain_style: half-speed\n",
            "difficult terrain always costs extra movement per foot",
        ),
        (
            "obscurement",
            "obscurement:\n  heavily_obscured_condition: blinded\n",
            "is the 'light' section now (light.dim, light.dark",
        ),
        (
            "effect",
            "attacks:\n  flanking: {enabled: true, effect: advantage}\n",
            "flanking always gives advantage",
        ),
    ],
)
def test_removed_keys_say_why(tmp_path: Path, key: str, text: str, why: str) -> None:
    (problem,) = problems_of(tmp_path, "old.yaml", VARIANT_HEAD + text)
    assert f"{key}: no longer a ruleset setting: " in problem
    assert why in problem and problem.endswith("; remove this key")


@pytest.mark.parametrize(
    "text",
    [
        "movement:\n  sizes_feet: {tiny: 2.5}\n",
        "attacks:\n  flanking: {obscurement: true}\n",
        "damage:\n  only_best_degree: true\n",
    ],
)
def test_a_removed_keys_name_elsewhere_is_an_unknown_key(tmp_path: Path, text: str) -> None:
    # Only where the key used to be is it "no longer a ruleset setting"; anywhere else it never
    # was one, and the reason for its removal would mislead.
    (problem,) = problems_of(tmp_path, "old.yaml", VARIANT_HEAD + text)
    assert problem.endswith("unknown key (not in the ruleset schema)"), problem


def test_the_space_per_size_is_the_documents_table() -> None:
    # legends-of-hyrule "Size Categories": "Tiny 2.5 x 2.5 feet", "Small 5 x 5 feet", "Medium
    # 5 x 5 feet", "Large 10 x 10 feet", "Huge 15 x 15 feet", "Gargantuan 20 x 20 feet"; the
    # SRD text doesn't state one (the rules-sources README: use the hyrule table) and the
    # other documents take the base's.
    table = {"tiny": 2.5, "small": 5, "medium": 5, "large": 10, "huge": 15, "gargantuan": 20}
    assert {size.value: size.space_feet for size in Size} == table


def test_half_speed_difficult_terrain_costs_the_extra_foot(rulesets: dict[str, Ruleset]) -> None:
    # gms-den "Difficult Terrain": "your movement speed is halved"; its "Moving Around Other
    # Creatures": "another creature's space is difficult terrain (double movement cost)" -- the
    # srd-5e cost: "Every foot of movement in difficult terrain costs 1 extra foot".
    for ruleset_id in RULESET_IDS:
        assert movement_costs(rulesets[ruleset_id]).difficult_extra == 1, ruleset_id
