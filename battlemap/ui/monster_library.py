"""The bundled monsters, read after the first frame instead of before it.

Reading the SRD library (334 stat blocks validated) and filling the library dock's list took
~55 ms of every start, before the window showed. ``LazyMonsters`` is the dock's name -> stat
block mapping: it reads the file at the first look into it, or ``FILL_AFTER_MS`` after the
window is built (the first frame is on screen by then), whichever comes first. A look at it
always sees the bundled monsters, so nothing that reads the library (the attack dialog, a
drop on a mount) ever sees it half-made.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from battlemap.model.statblock import StatBlock

FILL_AFTER_MS = 250
"""When the bundled monsters are read if nothing asked for them before (as the warm-up)."""


class LazyMonsters(dict[str, StatBlock]):
    """A dict of monsters by name whose first entries come from ``read`` at the first use.

    Every read and write loads first, so the monsters set by hand (or loaded from a file)
    after it replace the bundled ones of the same name, never the reverse. ``on_loaded`` is
    called once, after the bundled monsters are in.
    """

    def __init__(
        self, read: Callable[[], Iterable[StatBlock]], on_loaded: Callable[[], None]
    ) -> None:
        super().__init__()
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
            super().__setitem__(block.name, block)
        self._on_loaded()

    def __getitem__(self, name: str) -> StatBlock:
        self.load()
        return super().__getitem__(name)

    def __setitem__(self, name: str, block: StatBlock) -> None:
        self.load()
        super().__setitem__(name, block)

    def __delitem__(self, name: str) -> None:
        self.load()
        super().__delitem__(name)

    def __contains__(self, name: object) -> bool:
        self.load()
        return super().__contains__(name)

    def __iter__(self) -> Iterator[str]:
        self.load()
        return super().__iter__()

    def __len__(self) -> int:
        self.load()
        return super().__len__()

    def __eq__(self, other: object) -> bool:
        self.load()
        return super().__eq__(other)

    __hash__ = None  # a dict: not hashable

    def get(self, name: str, default: Any = None) -> Any:
        self.load()
        return super().get(name, default)

    def keys(self) -> Any:
        self.load()
        return super().keys()

    def values(self) -> Any:
        self.load()
        return super().values()

    def items(self) -> Any:
        self.load()
        return super().items()

    def copy(self) -> dict[str, StatBlock]:
        self.load()
        return dict(super().items())

    def pop(self, name: str, *default: Any) -> Any:
        self.load()
        return super().pop(name, *default)

    def setdefault(self, name: str, default: Any = None) -> Any:
        self.load()
        return super().setdefault(name, default)

    def update(self, *args: Any, **kwargs: Any) -> None:
        self.load()
        super().update(*args, **kwargs)

    def clear(self) -> None:
        self.load()
        super().clear()
