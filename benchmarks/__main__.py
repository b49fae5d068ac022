"""Run the benchmarks and print a table (see ``benchmarks/__init__.py``)."""

from __future__ import annotations

import importlib
import statistics
import sys
import time
from pathlib import Path

RUNS = 7


def main(argv: list[str]) -> int:
    wanted = argv[0] if argv else ""
    rows: list[tuple[str, float, float]] = []
    goals: dict[str, float] = {}
    notes: list[str] = []
    for path in sorted(Path(__file__).parent.glob("bench_*.py")):
        module = importlib.import_module(f"benchmarks.{path.stem}")
        # Optional: goals() -> {case name: goal in ms}; describe() -> a line above the table.
        goals.update(getattr(module, "goals", dict)())
        if hasattr(module, "describe"):
            notes.append(module.describe())
        for name, setup in module.cases():
            if wanted not in name:
                continue
            run = setup()
            if run is None:
                print(f"skipped: {name}", file=sys.stderr)
                continue
            times = []
            for _ in range(RUNS):
                start = time.perf_counter()
                run()
                times.append((time.perf_counter() - start) * 1000)
            rows.append((name, min(times), statistics.median(times)))
    width = max((len(name) for name, _, _ in rows), default=10)
    for note in notes:
        print(note)
    print(f"{'case':<{width}}  {'best ms':>9}  {'median ms':>9}  {'goal ms':>8}")
    for name, best, median in rows:
        goal = goals.get(name)
        verdict = "" if goal is None else f"  {goal:8.1f}  {'ok' if median <= goal else 'MISSED'}"
        print(f"{name:<{width}}  {best:9.2f}  {median:9.2f}{verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
