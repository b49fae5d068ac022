"""Open an encounter from any file type Battlemap reads, chosen by the file's suffix."""

from __future__ import annotations

from pathlib import Path

from battlemap.io.encounter_json import load_encounter_json
from battlemap.io.errors import FileFormatError
from battlemap.model.encounter import Encounter
from battlemap.resources import asset_path

DEMO_ENCOUNTER = "demo-encounter.json"


def load_encounter(path: Path) -> Encounter:
    """Read an encounter file.

    Raises:
        FileFormatError: naming the file and what is wrong with it.
    """
    if path.suffix.lower() == ".json":
        return load_encounter_json(path)
    raise FileFormatError(path, f"unknown file type '{path.suffix}'; expected a .json encounter")


def load_demo_encounter() -> Encounter:
    """The demo encounter that ships in ``assets/``."""
    return load_encounter(asset_path(DEMO_ENCOUNTER))
