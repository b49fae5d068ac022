"""Open an encounter from any file type Battlemap reads, chosen by the file's suffix."""

from __future__ import annotations

from pathlib import Path

from battlemap.io.encounter_file import SUFFIX as BATTLEMAP_SUFFIX
from battlemap.io.encounter_file import EncounterFile, load_battlemap
from battlemap.io.encounter_json import load_encounter_json
from battlemap.io.errors import FileFormatError
from battlemap.model.encounter import Encounter
from battlemap.resources import asset_path

DEMO_ENCOUNTER = "demo-encounter.json"


OPENABLE_SUFFIXES = (BATTLEMAP_SUFFIX, ".json")


def load_encounter_file(path: Path) -> EncounterFile:
    """Read an encounter file with the images it carries (a ``.json`` file carries none).

    Raises:
        FileFormatError: naming the file and what is wrong with it.
    """
    suffix = path.suffix.lower()
    if suffix == BATTLEMAP_SUFFIX:
        return load_battlemap(path)
    if suffix == ".json":
        return EncounterFile(load_encounter_json(path))
    raise FileFormatError(
        path, f"unknown file type '{path.suffix}'; expected a .battlemap or .json encounter"
    )


def load_encounter(path: Path) -> Encounter:
    """Read an encounter file (see ``load_encounter_file``), without its images.

    Raises:
        FileFormatError: naming the file and what is wrong with it.
    """
    return load_encounter_file(path).encounter


def load_demo_encounter() -> Encounter:
    """The demo encounter that ships in ``assets/``."""
    return load_encounter(asset_path(DEMO_ENCOUNTER))
