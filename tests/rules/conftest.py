"""Shared fixtures for rules tests: the shipped rulesets, loaded once per session."""

from __future__ import annotations

import pytest

from battlemap.rules.loader import RulesetRegistry, load_registry
from battlemap.rules.schema import Ruleset

RULESET_IDS = ("srd-5e", "legends-of-hyrule", "final-fantasy-d20", "gms-den", "bloodied-brink")


@pytest.fixture(scope="session")
def registry() -> RulesetRegistry:
    return load_registry()


@pytest.fixture(scope="session")
def rulesets(registry: RulesetRegistry) -> dict[str, Ruleset]:
    return {ruleset_id: registry.get(ruleset_id) for ruleset_id in RULESET_IDS}
