"""The fuzz runner itself: it counts what it ran, and an input that outlasts the hang limit
or the memory budget is reported as such, kept, and the run goes on in a new worker."""

from __future__ import annotations

import json
from pathlib import Path

from tests.fuzz.runner import main, plan
from tests.fuzz.targets import TARGET_NAMES
from tests.fuzz.worker import HYPOTHESIS


def test_plan_gives_every_loader_its_inputs_in_chunks_interleaved() -> None:
    tasks = plan(list(TARGET_NAMES), inputs=1_000, chunk=250, seed=0)
    for name in TARGET_NAMES:
        mine = [t for t in tasks if t.target == name]
        assert sum(t.count for t in mine) == 1_000
        assert sum(t.count for t in mine if t.source == HYPOTHESIS) == 200
        assert all(t.count <= 250 for t in mine)
    assert [t.target for t in tasks[: len(TARGET_NAMES)]] == list(TARGET_NAMES)
    assert len({t.seed for t in tasks}) == len(tasks)


def _run(tmp_path: Path, *args: str) -> tuple[int, dict[str, dict[str, int]], str]:
    out = tmp_path / "fuzz"
    status = main(["--workers", "1", "--out", str(out), *args])
    counts = json.loads((out / "counts.json").read_text())
    return status, counts, (out / "report.txt").read_text()


def test_a_clean_run_counts_each_input_and_exits_0(tmp_path: Path) -> None:
    status, counts, report = _run(tmp_path, "--inputs", "6", "--targets", "encounter-json")
    assert status == 0
    assert sum(counts["encounter-json"].values()) == 6
    assert set(counts["encounter-json"]) <= {"loaded", "refused"}
    assert "encounter-json" in report and "wall time" in report


def test_inputs_past_the_hang_limit_are_hangs_kept_and_the_run_goes_on(tmp_path: Path) -> None:
    # No loader finishes in a microsecond: every input hangs (killed, or reported late).
    status, counts, report = _run(
        tmp_path, "--inputs", "2", "--targets", "ruleset", "--hang-seconds", "0.000001"
    )
    assert status == 1
    assert counts["ruleset"] == {"hang": 2}
    kept = list((tmp_path / "fuzz" / "ruleset").glob("hang-*.yaml"))
    assert kept and all(p.stat().st_size > 0 for p in kept)
    assert "x hang" in report
