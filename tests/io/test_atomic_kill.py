"""SIGKILL a process in the middle of saving, many times: the file is always old or new, whole.

A helper process (this module run with ``python -m``) imports Battlemap once and then, on each
request, forks a child that saves two encounters A and B to the same path in turn, for ever.
The test kills that child at a random moment, checks the file, and asks for the next child.
Saves are deterministic, so "whole" means byte-equal to A's or B's file. Forking keeps each
round to a few milliseconds, so the test makes dozens of kills in its ~3 second budget.

The same harness with a naive writer (``open(path, "wb")`` and write) must see broken files:
that shows the kills really land mid-save and the check can fail.
"""

from __future__ import annotations

import io
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from battlemap.io.atomic import remove_stale_temp_files, stale_temp_files
from battlemap.io.encounter_file import load_battlemap, save_battlemap, write_battlemap
from battlemap.model import Background, Creature, Encounter

ROOT = Path(__file__).resolve().parents[2]
IMAGE_BYTES = 3 * 1024 * 1024
ATOMIC_BUDGET_S = 3.0
NAIVE_BUDGET_S = 1.5
MAX_KILLS = 60

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork (POSIX)"),
]


def documents() -> list[tuple[Encounter, dict[str, bytes]]]:
    """Encounters A and B, each with a 3 MiB incompressible image so a save takes a while."""
    result = []
    for label in ("a", "b"):
        image = random.Random(label).randbytes(IMAGE_BYTES)
        encounter = Encounter(
            name=f"Encounter {label.upper()}",
            background=Background(image=f"{label}.png", pixels_per_cell=70),
            creatures=(Creature(id=f"c-{label}", name=label.upper() * 10),),
        )
        result.append((encounter, {f"{label}.png": image}))
    return result


def file_bytes(encounter: Encounter, images: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    write_battlemap(buffer, encounter, images)
    return buffer.getvalue()


def save_naively(path: Path, encounter: Encounter, images: dict[str, bytes]) -> None:
    with open(path, "wb") as stream:
        write_battlemap(stream, encounter, images)


Saver = Callable[[Path, Encounter, dict[str, bytes]], None]


def serve(target: Path, mode: str, save: Saver | None = None) -> None:
    """The helper process: fork a saving child per "fork" line on stdin; report and reap it."""
    if save is None:
        save = save_battlemap if mode == "atomic" else save_naively
    docs = documents()
    save(target, *docs[0])
    print("ready", flush=True)
    for line in sys.stdin:
        if line.strip() != "fork":
            break
        pid = os.fork()
        if pid == 0:  # the child: save B, A, B, ... until killed
            try:
                turn = 1
                while True:
                    save(target, *docs[turn % 2])
                    turn += 1
            finally:
                os._exit(1)
        print(pid, flush=True)
        os.waitpid(pid, 0)
        print("reaped", flush=True)


def kill_while_saving(
    target: Path, mode: str, budget_s: float, helper_module: str = "tests.io.test_atomic_kill"
) -> list[str]:
    """Run rounds of fork, random sleep, SIGKILL for ``budget_s``; what the file held after each.

    ``helper_module`` is run with ``python -m MODULE TARGET MODE``; its ``serve`` is this
    module's with another writer (the autosave's kill test uses it). Each outcome is "A", "B"
    or "broken".
    """
    expected = {file_bytes(*doc): label for doc, label in zip(documents(), "AB", strict=True)}
    helper = subprocess.Popen(
        [sys.executable, "-m", helper_module, str(target), mode],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert helper.stdin is not None and helper.stdout is not None
    # If the helper ever stops answering, the watchdog ends it so readline() cannot hang.
    watchdog = threading.Timer(budget_s + 30, helper.kill)
    watchdog.start()
    outcomes: list[str] = []
    rng = random.Random(12345)
    try:
        assert helper.stdout.readline().strip() == "ready"
        deadline = time.monotonic() + budget_s
        while time.monotonic() < deadline and len(outcomes) < MAX_KILLS:
            helper.stdin.write("fork\n")
            helper.stdin.flush()
            child = int(helper.stdout.readline())
            time.sleep(rng.uniform(0.0, 0.06))
            os.kill(child, signal.SIGKILL)
            assert helper.stdout.readline().strip() == "reaped"
            outcomes.append(expected.get(target.read_bytes(), "broken"))
        helper.stdin.close()
        helper.wait(timeout=10)
    finally:
        watchdog.cancel()
        if helper.poll() is None:
            helper.kill()
            helper.wait()
    return outcomes


def test_a_killed_save_leaves_the_old_or_the_new_file(tmp_path: Path) -> None:
    target = tmp_path / "fight.battlemap"
    outcomes = kill_while_saving(target, "atomic", ATOMIC_BUDGET_S)
    assert len(outcomes) >= 5, outcomes
    assert "broken" not in outcomes, outcomes
    assert "B" in outcomes, "no child ever finished a save: the kills test nothing"
    assert load_battlemap(target).encounter.name in ("Encounter A", "Encounter B")
    # Killed saves leave only their temporary files, which the cleanup recognises as theirs.
    strays = sorted(p for p in tmp_path.iterdir() if p != target)
    assert strays == sorted(stale_temp_files(target, older_than_s=-1))
    remove_stale_temp_files(target, older_than_s=-1)
    assert list(tmp_path.iterdir()) == [target]


def test_the_same_kills_break_a_naive_save(tmp_path: Path) -> None:
    outcomes = kill_while_saving(tmp_path / "fight.battlemap", "naive", NAIVE_BUDGET_S)
    assert "broken" in outcomes, outcomes


if __name__ == "__main__":
    serve(Path(sys.argv[1]), sys.argv[2])
