"""Inputs the fuzz suite (``make fuzz``) found crashing, hanging or blowing up a loader,
minimised and kept: each must now be loaded or refused with the loader's own error naming
the file. Files live in ``fuzz_regressions/<loader>/``, the loader named as in
``tests.fuzz.targets``; the ``.txt`` beside each says what it did before the fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fuzz.targets import TARGET_NAMES, Verdict, run_one, target

pytestmark = pytest.mark.qt_log_ignore(".*")  # Qt's decoders warn about corrupt images

CASES = Path(__file__).parent / "fuzz_regressions"


def _cases() -> list[Path]:
    return sorted(
        path
        for folder in CASES.iterdir()
        if folder.is_dir()
        for path in folder.iterdir()
        if path.suffix != ".txt"
    )


@pytest.mark.parametrize("case", _cases(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_fuzz_finding_is_loaded_or_refused(case: Path) -> None:
    outcome = run_one(target(case.parent.name), case)
    assert outcome.verdict in (Verdict.LOADED, Verdict.REFUSED), (
        f"{outcome.signature}\n{outcome.detail}"
    )


def test_every_regression_folder_names_a_loader_and_has_cases() -> None:
    folders = [f for f in CASES.iterdir() if f.is_dir()]
    assert folders
    for folder in folders:
        assert folder.name in TARGET_NAMES
        assert any(p.suffix != ".txt" for p in folder.iterdir()), folder
