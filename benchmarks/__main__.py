"""Run the benchmarks and print a table (see ``benchmarks/__init__.py``)."""

from __future__ import annotations

import importlib
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

RUNS = 7


def _time(
    runs: dict[str, Callable[[], object]], clock: Callable[[], float] = time.perf_counter
) -> dict[str, list[float]]:
    """Time each of ``runs`` RUNS times, in turns (interleaved: a load that comes and goes
    weighs on all of them alike)."""
    times: dict[str, list[float]] = {name: [] for name in runs}
    # One untimed warm-up run each: Qt's first draw of a scene and first calls into numpy
    # or a lazy import are paid once a session, not at every drag or frame.
    for run in runs.values():
        _prepare(run)
        run()
    for _ in range(RUNS):
        for name, run in runs.items():
            _prepare(run)
            # A whole-process case (start-up) runs in a child, a threaded one (all-pairs
            # cover) partly in other threads: this thread's CPU time would not count them,
            # so they keep the wall clock even under --cpu.
            timer = time.perf_counter if getattr(run, "wall_clock", False) else clock
            start = timer()
            run()
            times[name].append((timer() - start) * 1000)
    return times


def _prepare(run: Callable[[], object]) -> None:
    """Untimed: what comes before each run, when the case has it."""
    prepare = getattr(run, "prepare", None)
    if prepare is not None:
        prepare()


def _machine() -> str:
    """The CPUs this process may use and two fixed yardsticks, timed now: figures from
    different machines (or a loaded one) compare by them."""
    import numpy as np

    from battlemap.geometry.cover import usable_cpus

    values = np.random.default_rng(0).random(1_000_000)
    times = _time(
        {"sort": lambda: np.sort(values), "loop": lambda: sum(i * i for i in range(1_000_000))}
    )
    return (
        f"machine: {usable_cpus()} CPUs usable; yardsticks (best of {RUNS}): numpy sort of "
        f"1,000,000 floats {min(times['sort']):.1f} ms, a Python loop of 1,000,000 steps "
        f"{min(times['loop']):.1f} ms"
    )


def main(argv: list[str]) -> int:
    # --cpu: this thread's CPU time instead of the wall clock (on a loaded machine the wall
    # clock also counts the time other processes ran).
    cpu = "--cpu" in argv
    argv = [arg for arg in argv if arg != "--cpu"]
    clock = time.thread_time if cpu else time.perf_counter
    wanted = argv[0] if argv else ""
    rows: list[tuple[str, float, float, float]] = []
    goals: dict[str, float] = {}
    # Optional references() -> {case: (reference case, factor)}: the case's goal is also
    # factor x the reference's median; the two are timed in turns, the reference even when
    # the filter leaves it out.
    references: dict[str, tuple[str, float]] = {}
    notes: list[str] = []
    for path in sorted(Path(__file__).parent.glob("bench_*.py")):
        module = importlib.import_module(f"benchmarks.{path.stem}")
        # Optional: goals() -> {case name: goal in ms}; describe() -> a line above the table.
        goals.update(getattr(module, "goals", dict)())
        references.update(getattr(module, "references", dict)())
        if hasattr(module, "describe"):
            notes.append(module.describe())
        setups = dict(module.cases())
        done: set[str] = set()
        for name in setups:
            if wanted not in name or name in done:
                continue
            group = [name]
            partner = references.get(name, ("", 0.0))[0]
            if partner in setups and partner not in done:
                group.append(partner)
            runs = {}
            for member in group:
                run = setups[member]()
                if run is None:
                    print(f"skipped: {member}", file=sys.stderr)
                    continue
                runs[member] = run
            for member, times in _time(runs, clock).items():
                rows.append((member, min(times), statistics.median(times), max(times)))
            done.update(group)
    medians = {name: median for name, _, median, _ in rows}
    for name, (reference, factor) in references.items():
        if name in medians and reference in medians:
            relative = factor * medians[reference]
            goals[name] = min(goals.get(name, relative), relative)
    width = max((len(name) for name, _, _, _ in rows), default=10)
    for note in notes:
        print(note)
    print(_machine())
    print(f"times: {'CPU time of this thread' if cpu else 'wall clock'}, {RUNS} runs in turns")
    print(f"{'case':<{width}}  {'best ms':>9}  {'median ms':>9}  {'worst ms':>9}  {'goal ms':>8}")
    for name, best, median, worst in rows:
        goal = goals.get(name)
        verdict = "" if goal is None else f"  {goal:8.1f}  {'ok' if median <= goal else 'MISSED'}"
        print(f"{name:<{width}}  {best:9.2f}  {median:9.2f}  {worst:9.2f}{verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
