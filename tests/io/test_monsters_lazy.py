"""Reading the bundled monster library needs no action-text parsing (issue 17): its stat blocks
are stored parsed, so the parsers and their regular expressions wait for a 5e-database import."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

PROBE = """
import json, sys
from battlemap.io.monsters import load_library
from battlemap.resources import asset_path
count = len(load_library(asset_path("srd-monsters.json")).monsters)
parsers = sorted({"battlemap.io.monster_actions", "battlemap.io.action_text"} & set(sys.modules))
print(json.dumps({"count": count, "parsers": parsers}))
"""


def test_the_bundled_library_loads_without_the_action_text_parsers() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
        cwd=Path(__file__).parents[2],
    )
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["count"] > 300  # the SRD's monsters, all read
    assert found["parsers"] == []
