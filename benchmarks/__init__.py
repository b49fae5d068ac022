"""Benchmarks: ``python -m benchmarks [--cpu] [name-filter]`` times every case and prints a table.

Each ``benchmarks/bench_*.py`` module defines ``cases()`` returning ``(name, setup)`` pairs;
``setup()`` prepares the data and returns the function to time, so preparation is not
counted, and each case runs once untimed before it is timed. Timings are the best, the
median and the worst of several runs, in milliseconds, by the wall clock or (``--cpu``) the
CPU time of the benchmark's thread; a run marked with ``wall_clock`` (a whole process
started from it, or work in threads) is always timed by the wall clock. Above the table, the
machine's usable CPUs and two fixed yardsticks timed in the same run, to compare figures
from different machines by.
"""

from __future__ import annotations

from collections.abc import Callable


def wall_clock(run: Callable[[], object]) -> Callable[[], object]:
    """Marks ``run`` to be timed by the wall clock even under ``--cpu`` (its work happens in
    another process or other threads, which this thread's CPU time leaves out)."""
    run.wall_clock = True  # type: ignore[attr-defined]
    return run
