"""``python -m tests.fuzz``: feed every loader thousands of inputs in a pool of reused
workers and print how each loader took them.

A worker that spends ``--hang-seconds`` of CPU time (or ``WALL_FACTOR`` times that of wall
time) on one input is asked for its stack (SIGUSR1, faulthandler), killed and replaced; one
that dies (a segfault, an abort, the kernel's OOM killer) is replaced too. Either way its
input is kept under ``--out`` with the crashes, and the chunk goes on from the next input.
Exit status 1 when anything failed.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import multiprocessing
import os
import random
import signal
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from pathlib import Path

from tests.fuzz.targets import (
    FAILURES,
    SLOW_SECONDS,
    SUFFIXES,
    TARGET_NAMES,
    Outcome,
    Verdict,
)
from tests.fuzz.worker import (
    HYPOTHESIS,
    Limits,
    Task,
    input_path,
    log_path,
    stack_path,
    worker_main,
)

HYPOTHESIS_SHARE = 0.2
"""Part of each loader's inputs made by its hypothesis strategy; mutations make the rest.
Hypothesis takes 30-60 ms to draw one structured file, a mutation a few."""
KEPT_PER_SIGNATURE = 3
PROGRESS_SECONDS = 30.0
WALL_FACTOR = 12
"""A hang is ``--hang-seconds`` of CPU time, or this many times that of wall time."""
EXIT_INCOMPLETE = 2
"""No failure, but the run stopped before every input ran."""
WORKER_ENVIRONMENT = {
    "QT_QPA_PLATFORM": "offscreen",
    "MALLOC_ARENA_MAX": "2",  # glibc reserves 64 MB per thread arena against the limit
    "OMP_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "QT_LOGGING_RULES": "*=false",  # libpng's and libjpeg's complaint about each bad file
    "PYTHONWARNINGS": "ignore",
}


def _shares(target_name: str, inputs: int) -> dict[str, int]:
    """How many of ``inputs`` each source makes: the hypothesis share, the rest by weight."""
    from tests.fuzz.inputs import sources

    found = sources(target_name)
    share = {HYPOTHESIS: round(inputs * HYPOTHESIS_SHARE)}
    rest = inputs - share[HYPOTHESIS]
    total = sum(s.weight for s in found)
    for source in found:
        share[source.name] = round(rest * source.weight / total)
    share[found[0].name] += inputs - sum(share.values())  # rounding
    return share


def plan(targets: list[str], inputs: int, chunk: int, seed: int) -> list[Task]:
    """Chunks of at most ``chunk`` inputs, ``inputs`` per target, interleaved across targets
    and shuffled across sources, so that a run cut short has still fed every loader from
    every source."""
    per_target: list[list[Task]] = []
    for name in targets:
        tasks = []
        for source, count in _shares(name, inputs).items():
            for start in range(0, count, chunk):
                key = f"{seed}:{name}:{source}:{start}".encode()
                chunk_seed = int.from_bytes(hashlib.sha256(key).digest()[:4], "big")
                tasks.append(Task(name, source, chunk_seed, min(chunk, count - start)))
        random.Random(f"{seed}:{name}").shuffle(tasks)  # sources mixed, in case it stops early
        per_target.append(tasks)
    interleaved = []
    for row in range(max(map(len, per_target), default=0)):
        interleaved += [tasks[row] for tasks in per_target if row < len(tasks)]
    return interleaved


@dataclass
class Tally:
    verdicts: Counter[Verdict] = field(default_factory=Counter)
    slow: int = 0
    slowest: float = 0.0
    seconds: float = 0.0
    """Time spent loading (not making) the inputs, for the mean."""
    slowest_cpu: float = 0.0

    def add(self, outcome: Outcome) -> None:
        self.verdicts[outcome.verdict] += 1
        self.slow += outcome.seconds > SLOW_SECONDS
        self.slowest = max(self.slowest, outcome.seconds)
        self.seconds += outcome.seconds
        self.slowest_cpu = max(self.slowest_cpu, outcome.cpu_seconds)

    def mean_ms(self) -> float:
        return 1000 * self.seconds / max(1, sum(self.verdicts.values()))


@dataclass
class Findings:
    out: Path
    tallies: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    signatures: Counter[tuple[str, str, str]] = field(default_factory=Counter)
    examples: dict[tuple[str, str, str], list[str]] = field(default_factory=dict)
    peak_rss_kb: int = 0

    def record(self, task: Task, index: int, outcome: Outcome, data: bytes | None) -> None:
        self.tallies[task.target].add(outcome)
        if outcome.verdict in FAILURES:
            key = (task.target, outcome.verdict.value, outcome.signature)
            self.signatures[key] += 1
        elif outcome.seconds > SLOW_SECONDS:
            key = (task.target, "slow", outcome.verdict.value)
        else:
            return
        kept = self.examples.setdefault(key, [])
        if data is not None and len(kept) < KEPT_PER_SIGNATURE:
            digest = hashlib.sha256(data).hexdigest()[:12]
            folder = self.out / task.target
            folder.mkdir(parents=True, exist_ok=True)
            name = f"{key[1]}-{digest}{SUFFIXES[task.target]}"
            (folder / name).write_bytes(data)
            (folder / f"{name}.txt").write_text(
                f"{task} input {index}\n{outcome.signature}\n{outcome.detail}\n"
                f"{outcome.verdict.value} in {outcome.seconds:.2f} s"
                f" ({outcome.cpu_seconds:.2f} s CPU)\n"
            )
            kept.append(str(folder / name))


@dataclass
class Slot:
    """A worker process and the chunk it is running."""

    number: int
    scratch: Path
    limits: Limits
    process: BaseProcess | None = None
    connection: Connection | None = None
    task: Task | None = None
    current: int | None = None
    next_index: int = 0
    deadline: float | None = None
    """When to look again at the input running now (see ``Runner._overdue``)."""
    started_at: float = 0.0
    cpu_at_start: float = 0.0
    deaths_without_progress: int = 0

    def start(self) -> None:
        context = multiprocessing.get_context("spawn")
        parent, child = context.Pipe()
        self.process = context.Process(
            target=worker_main, args=(child, str(self.scratch), self.limits), daemon=True
        )
        self.process.start()
        child.close()
        self.connection = parent

    def assign(self, task: Task) -> None:
        assert self.connection is not None
        self.task, self.current, self.next_index, self.deadline = task, None, task.skip, None
        self.connection.send(task)

    def cpu_seconds(self) -> float:
        """CPU time the worker process has used so far (0 when it cannot be read)."""
        assert self.process is not None
        try:
            fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return 0.0
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def kill(self) -> int | None:
        assert self.process is not None
        if self.process.is_alive():
            os.kill(self.process.pid or 0, signal.SIGKILL)
        self.process.join(5)
        return self.process.exitcode

    def stop(self) -> None:
        if self.process is not None and self.process.is_alive() and self.connection is not None:
            with contextlib.suppress(OSError):
                self.connection.send(None)
            self.process.join(10)
        if self.process is not None and self.process.is_alive():
            self.kill()


def _last_stack(scratch: Path) -> str:
    try:
        text = stack_path(scratch).read_text(errors="replace")
    except OSError:
        return ""
    return text[text.rfind("Thread 0x") if "Thread 0x" in text else 0 :][-3000:]


def _stack_signature(stack: str) -> str:
    """The innermost battlemap (or else any) frame of a faulthandler dump."""
    frames = [line.strip() for line in stack.splitlines() if line.strip().startswith("File ")]
    ours = [f for f in frames if "/battlemap/" in f] or frames
    if not ours:
        return "no stack"
    # faulthandler lists the innermost frame first: File "…/x.py", line N in f
    first = ours[0]
    name = first.split('"')[1].rsplit("/", 1)[-1] if '"' in first else first
    line = first.split("line ")[-1].split()[0] if "line " in first else "?"
    return f"{name}:{line}"


class Runner:
    def __init__(self, args: argparse.Namespace) -> None:
        self.hang_seconds: float = args.hang_seconds
        self.findings = Findings(Path(args.out))
        limits = Limits(args.hang_seconds, args.memory_mb * 1024 * 1024)
        scratch = Path(args.out) / "scratch"
        self.slots = [Slot(i, scratch / f"worker-{i}", limits) for i in range(args.workers)]

    def run(self, tasks: list[Task], budget_seconds: float | None = None) -> bool:
        """Run every task; False when stopped early (Ctrl+C, SIGTERM, or past the budget:
        no new chunk is started then, the running ones finish)."""
        queue = list(reversed(tasks))
        total, started, next_progress = sum(t.count for t in tasks), time.monotonic(), 0.0
        complete = True
        for slot in self.slots:
            slot.start()
        try:
            while queue or any(s.task for s in self.slots):
                if budget_seconds is not None and time.monotonic() - started > budget_seconds:
                    complete = complete and not queue
                    queue.clear()
                for slot in self.slots:
                    if slot.task is None and queue:
                        slot.assign(queue.pop())
                busy = [s for s in self.slots if s.task is not None]
                deadlines = [s.deadline for s in busy if s.deadline is not None]
                timeout = max(0.0, min(deadlines) - time.monotonic()) if deadlines else 1.0
                ready = wait([s.connection for s in busy if s.connection], timeout)
                if time.monotonic() >= next_progress:
                    next_progress = time.monotonic() + PROGRESS_SECONDS
                    self._progress(total, time.monotonic() - started)
                for slot in busy:
                    if slot.connection in ready:
                        self._receive(slot, queue)
                    elif (
                        slot.deadline is not None
                        and time.monotonic() > slot.deadline
                        and self._overdue(slot)
                    ):
                        self._hung(slot, queue)
        except KeyboardInterrupt:
            complete = False
            for slot in self.slots:
                slot.kill()
        finally:
            for slot in self.slots:
                slot.stop()
        return complete

    def _progress(self, total: int, seconds: float) -> None:
        tallies = self.findings.tallies.values()
        done = sum(sum(t.verdicts.values()) for t in tallies)
        failed = sum(t.verdicts[v] for t in tallies for v in FAILURES)
        print(f"fuzz: {done}/{total} inputs, {failed} failed, {seconds:.0f} s", file=sys.stderr)

    def _receive(self, slot: Slot, queue: list[Task]) -> None:
        assert slot.connection is not None and slot.task is not None
        try:
            message = slot.connection.recv()
        except (EOFError, OSError):
            self._died(slot, queue)
            return
        kind = message[0]
        if kind == "start":
            slot.current, slot.deadline = message[1], time.monotonic() + self.hang_seconds
            slot.started_at, slot.cpu_at_start = time.monotonic(), slot.cpu_seconds()
            slot.deaths_without_progress = 0
        elif kind == "done":
            _, index, outcome, data = message
            self.findings.record(slot.task, index, outcome, data)
            slot.current, slot.next_index, slot.deadline = None, index + 1, None
        elif kind == "finished":
            self.findings.peak_rss_kb = max(self.findings.peak_rss_kb, message[1])
            slot.task = None

    def _overdue(self, slot: Slot) -> bool:
        """Whether the input running past its deadline hangs: it has used ``hang_seconds``
        of CPU, or ``WALL_FACTOR`` times that of wall time (other work on a shared machine
        stretches the wall time of a quick input). Otherwise the deadline moves on."""
        cpu = slot.cpu_seconds() - slot.cpu_at_start
        wall = time.monotonic() - slot.started_at
        if cpu >= self.hang_seconds or wall >= self.hang_seconds * WALL_FACTOR:
            return True
        slot.deadline = time.monotonic() + max(0.2, self.hang_seconds - cpu)
        return False

    def _lost(self, slot: Slot, queue: list[Task], verdict: Verdict, signature: str) -> None:
        """The worker is gone: keep its input, start another and resume after that input."""
        assert slot.task is not None
        task, index = slot.task, slot.current
        if index is not None:
            path = input_path(slot.scratch, SUFFIXES[task.target])
            data = path.read_bytes() if path.exists() else None
            detail = _last_stack(slot.scratch)
            outcome = Outcome(
                verdict, self.hang_seconds, signature or _stack_signature(detail), detail
            )
            self.findings.record(task, index, outcome, data)
            resume = index + 1
        else:
            slot.deaths_without_progress += 1
            if slot.deaths_without_progress >= 3:
                log = log_path(slot.scratch).read_text(errors="replace")[-3000:]
                raise RuntimeError(f"worker {slot.number} keeps dying on {task}:\n{log}")
            resume = slot.next_index
        slot.start()
        slot.task = None
        if resume < task.count:
            queue.append(Task(task.target, task.source, task.seed, task.count, resume))

    def _died(self, slot: Slot, queue: list[Task]) -> None:
        code = slot.kill()
        name = signal.Signals(-code).name if code is not None and code < 0 else f"exit {code}"
        verdict = Verdict.MEMORY if code == -signal.SIGKILL else Verdict.CRASH
        self._lost(slot, queue, verdict, "")
        del name

    def _hung(self, slot: Slot, queue: list[Task]) -> None:
        assert slot.process is not None
        try:
            os.kill(slot.process.pid or 0, signal.SIGUSR1)
            time.sleep(0.5)
        except ProcessLookupError:
            pass
        slot.kill()
        self._lost(slot, queue, Verdict.HANG, "")


def report(findings: Findings, targets: list[str], seconds: float, inputs_each: int) -> str:
    header = (
        "loader",
        "inputs",
        "refused",
        "loaded",
        "crashes",
        "hangs",
        "memory",
        f">{SLOW_SECONDS:g}s",
        "max s",
        "max cpu s",
        "mean ms",
    )
    rows = [header]
    for name in targets:
        tally = findings.tallies[name]
        v = tally.verdicts
        rows.append(
            (
                name,
                str(sum(v.values())),
                str(v[Verdict.REFUSED]),
                str(v[Verdict.LOADED]),
                str(v[Verdict.CRASH]),
                str(v[Verdict.HANG]),
                str(v[Verdict.MEMORY]),
                str(tally.slow),
                f"{tally.slowest:.2f}",
                f"{tally.slowest_cpu:.2f}",
                f"{tally.mean_ms():.1f}",
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    lines = [
        "  ".join(
            cell.rjust(w) if i else cell.ljust(w)
            for i, (cell, w) in enumerate(zip(row, widths, strict=True))
        )
        for row in rows
    ]
    lines.insert(1, "-" * len(lines[0]))
    lines.append("")
    lines.append(
        f"{inputs_each} inputs asked per loader; wall time {seconds:.0f} s; "
        f"peak worker memory {findings.peak_rss_kb / 1024:.0f} MB"
    )
    for (name, verdict, signature), count in findings.signatures.most_common():
        kept = findings.examples.get((name, verdict, signature)) or ["(input not kept)"]
        lines.append(f"{name}: {count} x {verdict} {signature}  e.g. {kept[0]}")
    return "\n".join(lines)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m tests.fuzz", description=__doc__)
    parser.add_argument("--inputs", type=int, default=10_000, help="inputs per loader")
    parser.add_argument("--targets", default=",".join(TARGET_NAMES), help="comma-separated loaders")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--chunk", type=int, default=250, help="inputs per task sent to a worker")
    parser.add_argument("--hang-seconds", type=float, default=5.0)
    parser.add_argument("--memory-mb", type=int, default=1024, help="memory one input may take")
    parser.add_argument("--out", default="build/fuzz", help="where failing inputs are kept")
    parser.add_argument(
        "--minutes", type=float, default=0, help="start no new chunk after this (0: no limit)"
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    targets = [t for t in args.targets.split(",") if t]
    unknown = sorted(set(targets) - set(TARGET_NAMES))
    if unknown:
        raise SystemExit(f"unknown loader {unknown[0]}; known: {', '.join(TARGET_NAMES)}")
    os.environ.update(WORKER_ENVIRONMENT)
    signal.signal(signal.SIGTERM, signal.default_int_handler)  # stop as Ctrl+C does
    started = time.monotonic()
    findings_runner = Runner(args)
    budget = args.minutes * 60 if args.minutes else None
    complete = findings_runner.run(plan(targets, args.inputs, args.chunk, args.seed), budget)
    findings = findings_runner.findings
    text = report(findings, targets, time.monotonic() - started, args.inputs)
    if not complete:
        text += "\nSTOPPED EARLY (interrupted or past --minutes): fewer inputs than asked ran"
    print(text)
    Path(args.out).mkdir(parents=True, exist_ok=True)
    (Path(args.out) / "report.txt").write_text(text + "\n")
    counts = {n: {v.value: c for v, c in findings.tallies[n].verdicts.items()} for n in targets}
    (Path(args.out) / "counts.json").write_text(json.dumps(counts, indent=1))
    failed = any(findings.tallies[n].verdicts[v] for n in targets for v in FAILURES)
    return 1 if failed else 0 if complete else EXIT_INCOMPLETE
