"""One fuzzing worker: a child process that runs chunks of inputs and reports each one.

The parent (``runner``) reuses a worker for chunk after chunk. Before each input the worker
writes it to ``<scratch>/fuzzed<suffix>`` and says ``("start", index)``, so when it hangs or
dies the parent still has the input and knows which one it was. The address space is
limited to what the worker used after start-up plus the memory budget, so an input that
allocates more fails with MemoryError (or kills the worker) instead of the machine.
"""

from __future__ import annotations

import faulthandler
import os
import random
import resource
import signal
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed

from tests.fuzz.targets import FAILURES, SLOW_SECONDS, Outcome, Verdict, run_one, target

HYPOTHESIS = "hypothesis"
MAX_KEPT_PER_TASK = 3
"""Failing or slow inputs a worker sends back per chunk (the parent keeps a few of each)."""


@dataclass(frozen=True)
class Task:
    """Inputs ``skip`` to ``count - 1`` of one chunk: ``target`` fed by ``source``."""

    target: str
    source: str
    seed: int
    count: int
    skip: int = 0


@dataclass(frozen=True)
class Limits:
    hang_seconds: float
    """An input that takes more CPU time is a hang (the parent kills a worker that outlasts
    it; one that finishes late is reported by the worker itself)."""
    memory_bytes: int
    """Address space an input may take on top of what the worker holds before it."""


def input_path(scratch: Path, suffix: str) -> Path:
    return scratch / f"fuzzed{suffix}"


def stack_path(scratch: Path) -> Path:
    return scratch / "stack.txt"


def log_path(scratch: Path) -> Path:
    """The worker's stderr: Qt's and libpng's complaints, and its traceback if it fails."""
    return scratch / "stderr.txt"


def _address_space() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[0]) * resource.getpagesize()


def _limit_memory(budget_bytes: int) -> None:
    """Allow ``budget_bytes`` more address space than now (raised again for later targets,
    whose seeds may take more)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    wanted = _address_space() + budget_bytes
    if soft == resource.RLIM_INFINITY or soft < wanted:
        resource.setrlimit(resource.RLIMIT_AS, (min(wanted, hard) if hard > 0 else wanted, hard))


def _warm_up(task: Task, path: Path) -> None:
    """Build the seeds (cached), import what the target needs and load one seed unmutated,
    uncounted, before the limit is set (a first input would otherwise pay for Qt's start)."""
    from tests.fuzz import inputs, strategies

    loader = target(task.target)
    for source in inputs.sources(task.target):
        source.make(random.Random(0))
    strategies.strategy(task.target)
    path.write_bytes(inputs.first_seed(task.target))
    run_one(loader, path)


def _each_input(task: Task, handle: Callable[[int, bytes], None]) -> None:
    """Call ``handle(index, data)`` for every input of the task from ``skip`` on."""
    from tests.fuzz import inputs, strategies

    if task.source != HYPOTHESIS:
        (source,) = [s for s in inputs.sources(task.target) if s.name == task.source]
        for index in range(task.skip, task.count):
            handle(index, source.make(random.Random(f"{task.seed}:{index}")))
        return
    counter = iter(range(task.count))

    @hypothesis_seed(task.seed)
    @settings(
        max_examples=task.count,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(strategies.strategy(task.target))
    def feed(data: bytes) -> None:
        index = next(counter, None)
        if index is not None and index >= task.skip:
            handle(index, data)

    feed()


def run_task(task: Task, connection: Connection, scratch: Path, limits: Limits) -> None:
    loader = target(task.target)
    path = input_path(scratch, loader.suffix)
    kept = 0

    def handle(index: int, data: bytes) -> None:
        nonlocal kept
        if os.getppid() != parent:
            raise SystemExit("the fuzz runner is gone")
        path.write_bytes(data)
        connection.send(("start", index))
        outcome: Outcome = run_one(loader, path)
        if outcome.cpu_seconds > limits.hang_seconds and outcome.verdict not in FAILURES:
            late = f"{outcome.verdict.value} after {outcome.cpu_seconds:.1f} s of CPU"
            outcome = Outcome(Verdict.HANG, outcome.seconds, "finished late", late)
        worth_keeping = outcome.verdict in FAILURES or outcome.seconds > SLOW_SECONDS
        keep = worth_keeping and kept < MAX_KEPT_PER_TASK
        kept += keep
        connection.send(("done", index, outcome, data if keep else None))

    parent = os.getppid()
    _warm_up(task, path)
    _limit_memory(limits.memory_bytes)
    _each_input(task, handle)
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    connection.send(("finished", peak_kb))


def worker_main(connection: Connection, scratch: str, limits: Limits) -> None:
    """Run tasks from ``connection`` until it sends None."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is the runner's to handle
    folder = Path(scratch).resolve()  # absolute: the worker then works from inside it
    folder.mkdir(parents=True, exist_ok=True)
    with log_path(folder).open("a") as log:
        os.dup2(log.fileno(), 2)
    stack = stack_path(folder).open("w")
    faulthandler.enable(stack)  # a segfault leaves its stack for the parent
    faulthandler.register(signal.SIGUSR1, stack)  # the parent asks where a hang is
    os.chdir(folder)
    while (task := connection.recv()) is not None:
        run_task(task, connection, folder, limits)
