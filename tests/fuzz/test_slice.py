"""The bounded slice of the fuzz suite that ``make test`` runs: for every loader, a fixed
number of structured (hypothesis) inputs and of mutated real files, each loaded or refused
with the loader's own error naming the file. ``make fuzz`` runs thousands more."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings

from tests.fuzz.inputs import sources
from tests.fuzz.strategies import strategy
from tests.fuzz.targets import FAILURES, TARGET_NAMES, Outcome, Verdict, run_one, target

pytestmark = pytest.mark.qt_log_ignore(".*")
"""Qt's decoders warn about each corrupt image fed to them: here that is the point."""

SLICE = 15
"""Inputs per loader and source: 8 loaders x 3 sources x 15 = 360 in all (the rare
sources, files of megabytes that take seconds, are left to ``make fuzz``)."""


def _check(outcome: Outcome) -> None:
    assert outcome.verdict not in FAILURES, f"{outcome.signature}\n{outcome.detail}"


@pytest.mark.parametrize("name", TARGET_NAMES)
def test_structured_inputs_are_loaded_or_refused(name: str, tmp_path: Path) -> None:
    loader = target(name)
    path = tmp_path / f"fuzzed{loader.suffix}"
    seen: Counter[Verdict] = Counter()

    @settings(
        max_examples=SLICE,
        database=None,
        derandomize=True,
        phases=[Phase.generate, Phase.shrink],
        suppress_health_check=list(HealthCheck),
    )
    @given(strategy(name))
    def load(data: bytes) -> None:
        path.write_bytes(data)
        outcome = run_one(loader, path)
        seen[outcome.verdict] += 1
        _check(outcome)

    load()
    assert sum(seen.values()) == SLICE
    assert seen[Verdict.LOADED] >= 1, f"no {name} input got past the schema: {seen}"
    assert seen[Verdict.REFUSED] >= 1, f"no {name} input was hostile enough: {seen}"


@pytest.mark.parametrize(
    ("name", "source"),
    [(name, s.name) for name in TARGET_NAMES for s in sources(name) if s.weight == 1.0],
)
def test_mutated_real_files_are_loaded_or_refused(name: str, source: str, tmp_path: Path) -> None:
    loader = target(name)
    (make,) = [s.make for s in sources(name) if s.name == source]
    path = tmp_path / f"fuzzed{loader.suffix}"
    seen: Counter[Verdict] = Counter()
    for index in range(SLICE):
        path.write_bytes(make(random.Random(f"slice:{index}")))
        outcome = run_one(loader, path)
        seen[outcome.verdict] += 1
        _check(outcome)
    assert sum(seen.values()) == SLICE
    assert seen[Verdict.REFUSED] >= 1, f"every mutated {name} file loaded: {seen}"
