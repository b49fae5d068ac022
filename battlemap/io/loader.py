"""Open an encounter from any file type Battlemap reads, chosen by the file's suffix (and, for
``.json``, by its content: a Universal VTT map saved as ``.json`` opens as a map)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from battlemap.io.bounded import read_bounded
from battlemap.io.encounter_file import SUFFIX as BATTLEMAP_SUFFIX
from battlemap.io.encounter_file import EncounterFile, load_battlemap
from battlemap.io.encounter_json import load_encounter_json
from battlemap.io.errors import FileFormatError
from battlemap.io.json_kind import MAX_UVTT_BYTES, JsonKind, sniff_json
from battlemap.io.map_import import IMAGE_SUFFIXES, UVTT_SUFFIXES, MapImport, import_image_map
from battlemap.model.document import image_name
from battlemap.model.encounter import Encounter
from battlemap.resources import asset_path

if TYPE_CHECKING:
    from battlemap.io.uvtt import FindImage

DEMO_ENCOUNTER = "demo-encounter.json"


OPENABLE_SUFFIXES = (BATTLEMAP_SUFFIX, ".json")
"""Encounter files. A map file given on the command line starts a new encounter on it;
inside the app, maps are imported into the open encounter instead (File > Import map)."""


def load_encounter_file(path: Path, find_image: FindImage | None = None) -> EncounterFile:
    """Read an encounter file with the images it carries (a ``.json`` file carries none).

    Args:
        find_image: asked for the image of a Universal VTT map that names an image file not
            found beside it (see ``read_uvtt``).

    Raises:
        FileFormatError: naming the file and what is wrong with it; for a ``.json`` file
            that is not an encounter, what it is instead.
    """
    suffix = path.suffix.lower()
    if suffix == BATTLEMAP_SUFFIX:
        return load_battlemap(path)
    if suffix == ".json":
        return _load_json(path, find_image)
    if suffix in UVTT_SUFFIXES or suffix in IMAGE_SUFFIXES:
        return encounter_from_map(path, find_image)
    raise FileFormatError(
        path,
        f"unknown file type '{path.suffix}'; expected a .battlemap or .json encounter, or a map: "
        ".dd2vtt, .uvtt, .df2vtt, .png, .jpg or .webp",
    )


def _load_json(path: Path, find_image: FindImage | None) -> EncounterFile:
    """An encounter, or the map of a Universal VTT file named ``.json``; other known kinds
    of JSON are refused saying what they are and where they go."""
    kind = sniff_json(read_bounded(path, MAX_UVTT_BYTES))
    if kind is JsonKind.UNIVERSAL_VTT:
        from battlemap.io.uvtt import read_uvtt

        return encounter_from_map(path, find_image, read_uvtt(path, find_image))
    if kind is not None:
        raise FileFormatError(
            path,
            f"this is {kind}, not an encounter: add its monsters with Load monsters… in the "
            "Creature library",
        )
    return EncounterFile(load_encounter_json(path))


def encounter_from_map(
    path: Path, find_image: FindImage | None = None, imported: MapImport | None = None
) -> EncounterFile:
    """A new, empty encounter on the map in ``path`` (a Universal VTT file or an image, by
    its suffix, unless already ``imported``), named after the file.

    Raises:
        FileFormatError: the map file is malformed, too large or not an image.
    """
    if imported is None:
        is_uvtt = path.suffix.lower() in UVTT_SUFFIXES
        from battlemap.io.uvtt import read_uvtt

        imported = read_uvtt(path, find_image) if is_uvtt else import_image_map(path)
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
