"""Open an encounter from any file type Battlemap reads, chosen by the file's suffix."""

from __future__ import annotations

from pathlib import Path

from battlemap.io.encounter_file import SUFFIX as BATTLEMAP_SUFFIX
from battlemap.io.encounter_file import EncounterFile, load_battlemap
from battlemap.io.encounter_json import load_encounter_json
from battlemap.io.errors import FileFormatError
from battlemap.io.map_import import IMAGE_SUFFIXES, UVTT_SUFFIXES, import_image_map
from battlemap.io.uvtt import read_uvtt
from battlemap.model.document import image_name
from battlemap.model.encounter import Encounter
from battlemap.resources import asset_path

DEMO_ENCOUNTER = "demo-encounter.json"


OPENABLE_SUFFIXES = (BATTLEMAP_SUFFIX, ".json")
"""Encounter files. A map file given on the command line starts a new encounter on it;
inside the app, maps are imported into the open encounter instead (File > Import map)."""


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
    if suffix in UVTT_SUFFIXES or suffix in IMAGE_SUFFIXES:
        return encounter_from_map(path)
    raise FileFormatError(
        path,
        f"unknown file type '{path.suffix}'; expected a .battlemap or .json encounter, or a map: "
        ".dd2vtt, .uvtt, .df2vtt, .png, .jpg or .webp",
    )


def encounter_from_map(path: Path) -> EncounterFile:
    """A new, empty encounter on the map in ``path`` (a Universal VTT file or an image),
    named after the file.

    Raises:
        FileFormatError: the map file is malformed, too large or not an image.
    """
    imported = read_uvtt(path) if path.suffix.lower() in UVTT_SUFFIXES else import_image_map(path)
    name = image_name(imported.image, imported.image_info.format.suffix)
    blank = Encounter(name=path.stem[:200] or "Imported map")
    encounter = imported.command(blank, name).apply(blank)
    return EncounterFile(encounter, {name: imported.image})


def load_encounter(path: Path) -> Encounter:
    """Read an encounter file (see ``load_encounter_file``), without its images.

    Raises:
        FileFormatError: naming the file and what is wrong with it.
    """
    return load_encounter_file(path).encounter


def load_demo_encounter() -> Encounter:
    """The demo encounter that ships in ``assets/``."""
    return load_encounter(asset_path(DEMO_ENCOUNTER))
