"""SIGKILL a process in the middle of writing its autosave, many times (the harness of
``tests/io/test_atomic_kill.py``): the recovery file is always a whole A or B, the next
start offers it, and the killed writes' temporary files are cleared at that start."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from battlemap.io.encounter_file import load_battlemap
from battlemap.model import Encounter
from battlemap.ui.autosave import find_recoveries, write_recovery
from tests.io.test_atomic_kill import ATOMIC_BUDGET_S, kill_while_saving, serve

pytestmark = pytest.mark.slow
SOURCE = Path("/maps/fight.battlemap")


def write_autosave(path: Path, encounter: Encounter, images: dict[str, bytes]) -> None:
    write_recovery(path, encounter, images, SOURCE)


def test_a_killed_autosave_leaves_a_whole_recovery_file_the_next_start_offers(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "recovery"
    folder.mkdir()
    target = folder / "0123abcd.battlemap"
    outcomes = kill_while_saving(target, "recovery", ATOMIC_BUDGET_S, __name__)
    assert len(outcomes) >= 5, outcomes
    assert "broken" not in outcomes, outcomes
    assert "B" in outcomes, "no child ever finished an autosave: the kills test nothing"
    meta = json.loads(target.with_suffix(".json").read_text())  # whole, A's or B's
    assert meta["source"] == str(SOURCE) and meta["name"] in ("Encounter A", "Encounter B")

    [recovery] = find_recoveries(folder)  # the next start
    try:
        assert load_battlemap(recovery.path).encounter.name in ("Encounter A", "Encounter B")
        assert recovery.source == SOURCE
    finally:
        recovery.discard()  # the DM declines: every file of the session goes, strays too
    assert list(folder.iterdir()) == []


if __name__ == "__main__":
    serve(Path(sys.argv[1]), sys.argv[2], write_autosave)
