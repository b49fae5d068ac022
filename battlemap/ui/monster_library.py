"""The bundled monsters, read after the first frame instead of before it.

Reading the SRD library (334 stat blocks validated) and filling the library dock's list took
~55 ms of every start, before the window showed. ``LazyMonsters`` is the dock's name -> stat
block mapping: it reads the file at the first look into it, or ``FILL_AFTER_MS`` after the
window is built (the first frame is on screen by then), whichever comes first. A look at it
always sees the bundled monsters, so nothing that reads the library (the attack dialog, a
drop on a mount) ever sees it half-made.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, MutableMapping

from battlemap.model.statblock import StatBlock

FILL_AFTER_MS = 250
"""When the bundled monsters are read if nothing asked for them before (as the warm-up)."""


class LazyMonsters(MutableMapping[str, StatBlock]):
    """Monsters by name whose first entries come from ``read`` at the first use.

    Every read and write loads first (the five methods below are the only ways in; the
    mapping's others are built on them), so the monsters set by hand (or loaded from a
    file) after it replace the bundled ones of the same name, never the reverse.
    ``on_loaded`` is called once, after the bundled monsters are in.
    """

    def __init__(
        self, read: Callable[[], Iterable[StatBlock]], on_loaded: Callable[[], None]
    ) -> None:
        self._blocks: dict[str, StatBlock] = {}
        self._read: Callable[[], Iterable[StatBlock]] | None = read
        self._on_loaded = on_loaded

    @property
    def loaded(self) -> bool:
        return self._read is None

    def load(self) -> None:
        """Read the bundled monsters now, if not done yet."""
        read, self._read = self._read, None
        if read is None:
            return
        for block in read():
            self._blocks[block.name] = block
        self._on_loaded()

    def __getitem__(self, name: str) -> StatBlock:
        self.load()
        return self._blocks[name]

    def __setitem__(self, name: str, block: StatBlock) -> None:
        self.load()
        self._blocks[name] = block

    def __delitem__(self, name: str) -> None:
        self.load()
        del self._blocks[name]

    def __iter__(self) -> Iterator[str]:
        self.load()
        return iter(self._blocks)

    def __len__(self) -> int:
        self.load()
        return len(self._blocks)
