"""All-pairs cover on the crowded bench map (``maps.crowded_map``: the bench map's 2,000 walls
and difficult terrain, 400 creatures): every ordered pair, 159,600 cover results.

Goals from issue 17: <= 1 s and <= 300 MiB peak. The table has the time; the peak memory of
one whole process doing it (Python, numpy, the map and its index included) is printed by
``python -m benchmarks.bench_cover --memory`` (the largest resident set, from the OS).
"""

from __future__ import annotations

import resource
import sys
import time
from collections.abc import Callable

from benchmarks import wall_clock
from benchmarks.maps import crowded_map

Case = tuple[str, Callable[[], Callable[[], object] | None]]

ALL_PAIRS = "geometry: cover all pairs, 400 creatures (159,600 pairs, crowded bench map)"
GOALS_MS = {ALL_PAIRS: 1000.0}
GOAL_PEAK_MIB = 300


def describe() -> str:
    crowd = crowded_map()
    return (
        f"cover bench map: {crowd.cells} x {crowd.cells} cells, {len(crowd.walls)} wall "
        f"segments, {len(crowd.bodies)} creatures (peak memory: python -m benchmarks.bench_cover "
        f"--memory, goal <= {GOAL_PEAK_MIB} MiB)"
    )


def goals() -> dict[str, float]:
    return GOALS_MS


def _all_pairs() -> Callable[[], object]:
    from battlemap.geometry import cover_all_pairs

    crowd = crowded_map()
    index, bodies = crowd.index(), list(crowd.bodies)

    def run() -> object:
        result = cover_all_pairs(index, bodies)
        assert len(result) == len(bodies) * (len(bodies) - 1)
        return result

    return wall_clock(run)  # its batches run in threads


def cases() -> list[Case]:
    return [(ALL_PAIRS, _all_pairs)]


def _peak_memory() -> None:
    """One all-pairs run in this process; prints its time and the process's peak memory."""
    run = _all_pairs()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    start = time.perf_counter()
    run()
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    print(
        f"{ALL_PAIRS}: {seconds:.2f} s; peak resident {peak:.0f} MiB "
        f"(before the call {before:.0f} MiB; goal <= {GOAL_PEAK_MIB} MiB)"
    )


if __name__ == "__main__":
    if sys.argv[1:] != ["--memory"]:
        raise SystemExit("usage: python -m benchmarks.bench_cover --memory")
    _peak_memory()
