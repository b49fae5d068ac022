"""``battlemap monsters report``: automated vs text-only actions per monster and in total."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from battlemap.app import main as app_main
from battlemap.io.monster_report import main
from tests.io.test_monsters import bundled


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def test_the_shipped_library_report_adds_up() -> None:
    code, out, _ = _run("report")
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == len(bundled()) + 1
    per_monster = [re.match(r"^.+: (\d+) automated, (\d+) text-only", line) for line in lines[:-1]]
    assert all(per_monster)
    automated = sum(int(m.group(1)) for m in per_monster if m)
    text_only = sum(int(m.group(2)) for m in per_monster if m)
    total = lines[-1]
    assert total.startswith(f"Total: {len(bundled())} monsters, {automated + text_only} actions:")
    assert f"{automated} automated, {text_only} text-only" in total
    assert "Bandit Captain: 3 automated, 1 text-only: reaction: Parry" in lines
    # Bite, Claw, Tail, Multiattack, Frightful Presence, Fire Breath, Tail Attack, Wing Attack,
    # Legendary Resistance; Detect is the DM's.
    assert "Adult Red Dragon: 9 automated, 1 text-only: legendary: Detect" in lines


def test_a_file_given_is_reported_and_a_bad_one_refused(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("[{]", encoding="utf-8")
    code, out, err = _run("report", str(bad))
    assert code == 2 and not out and "bad.json" in err and "not JSON" in err


def test_the_app_command_line_runs_it(capsys: pytest.CaptureFixture[str]) -> None:
    assert app_main(["monsters", "report"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("Total: ")
