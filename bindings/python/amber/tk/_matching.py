"""Which saved state an unnamed window takes (issue 40): the rule of the GTK adapter too
(bindings/gtk/amber-gtk-windows.c), documented once in docs/behaviour.md, "Unnamed windows in
the adapters".

An unnamed Toplevel's automatic identifier is its type and its index among its parent's
unnamed Toplevels of that type (``.Toplevel#2``). The index alone gives two editors reopened in
the other order each the other's state, so each save also keeps, in the application's coder, the
title every unnamed window had (an editor's title names its file). At the next launch, and when
a window maps later, an unnamed window takes the saved window of its group (its parent and type,
``.Toplevel``) whose title equals its own, when exactly one does; otherwise the order decides, as
before. The application coder is read in should_restore, before the engine looks for the window
of each record: a window's own record is read only once a window has its identifier.

The keys: ``tk.unnamed-windows`` (how many), then ``tk.unnamed-window.N.identifier`` and
``tk.unnamed-window.N.title`` for each, N from 0.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Dict, Iterable, List, Optional, Sequence, Set, Tuple

if TYPE_CHECKING:
    from amber import Coder, Decoder

COUNT_KEY = "tk.unnamed-windows"
#: More unnamed windows than a program opens at once: the rest of a damaged index is not read.
MAX_SAVED = 1024


def _key(index: int, field: str) -> str:
    return f"tk.unnamed-window.{index}.{field}"


def group_of(identifier: str) -> str:
    """The group of an automatic window identifier, its index taken off: ``.Toplevel``."""
    return identifier.rsplit("#", 1)[0]


def by_order(group: str, used: Set[str]) -> str:
    """The identifier by order: ``group#1``, ``group#2``..., the first not in ``used``."""
    index = 1
    while f"{group}#{index}" in used:
        index += 1
    return f"{group}#{index}"


class SavedWindow:
    __slots__ = ("identifier", "title", "taken")

    def __init__(self, identifier: str, title: str):
        self.identifier = identifier
        self.title = title
        #: A window of this run has its identifier: no other takes it.
        self.taken = False


class Match:
    """How an unnamed window was matched: its identifier, ``why`` it was not by its title (None:
    it was), and whether a saved window had that identifier (else it has no state to take)."""
    __slots__ = ("identifier", "why", "saved")

    def __init__(self, identifier: str, why: Optional[str], saved: bool):
        self.identifier = identifier
        self.why = why
        self.saved = saved

    def line(self, title: str) -> str:
        if self.why is None:
            return f"window {self.identifier}: its state matched by title ({title!r})"
        return f"window {self.identifier}: its state matched by order: {self.why}"


class UnnamedWindows:
    """The unnamed windows of the archive restored, and the match of the windows of this run."""

    def __init__(self) -> None:
        self.saved: List[SavedWindow] = []
        #: The identifier each unnamed window of this run matched, by its Tk path name.
        self.matched: Dict[str, str] = {}

    def read(self, decoder: "Decoder") -> None:
        """Reads the saved windows from the application decoder (should_restore)."""
        self.saved = []
        count = decoder.get(COUNT_KEY)
        if not isinstance(count, int) or isinstance(count, bool):
            return
        for index in range(min(count, MAX_SAVED)):
            identifier, title = decoder.get(_key(index, "identifier")), decoder.get(_key(index, "title"), "")
            if isinstance(identifier, str) and identifier:
                self.saved.append(SavedWindow(identifier, title if isinstance(title, str) else ""))

    @staticmethod
    def write(coder: "Coder", windows: Sequence[Tuple[str, str]]) -> None:
        """Writes ``(identifier, title)`` of each unnamed window into the application coder."""
        values: Dict[str, object] = {COUNT_KEY: len(windows)}
        for index, (identifier, title) in enumerate(windows):
            values[_key(index, "identifier")] = identifier
            values[_key(index, "title")] = title
        coder.update(values)  # type: ignore[arg-type]

    def carried(self, kept: Callable[[str], bool]) -> List[Tuple[str, str]]:
        """The saved windows not taken whose records the engine still keeps (``kept``): a save
        carries their records (R35), so it keeps their titles too."""
        return [(saved.identifier, saved.title) for saved in self.saved if not saved.taken and kept(saved.identifier)]

    def count(self, group: str) -> int:
        return sum(1 for saved in self.saved if group_of(saved.identifier) == group)

    def by_title(self, group: str, title: str, used: Set[str],
                 kept: Optional[Callable[[str], bool]] = None) -> Tuple[Optional[str], Optional[str]]:
        """The identifier of the saved window of ``group`` whose title was ``title``, when
        exactly one not taken has it, none of ``used`` and, with ``kept``, one whose record the
        engine keeps; else None and why not."""
        if not title:
            return None, "it has no title"
        equal = [saved for saved in self.saved
                 if group_of(saved.identifier) == group and not saved.taken and saved.identifier not in used
                 and (kept is None or kept(saved.identifier)) and saved.title == title]
        if len(equal) == 1:
            return equal[0].identifier, None
        if not equal:
            return None, f"no window of its type was saved with its title {title!r}"
        return None, f"{len(equal)} windows of its type were saved with its title {title!r}"

    def take(self, identifier: str) -> bool:
        """Marks the saved window ``identifier`` taken; False if none had it."""
        for saved in self.saved:
            if saved.identifier == identifier:
                saved.taken = True
                return True
        return False

    def match(self, windows: Iterable[Tuple[str, str]], used: Set[str]) -> List[Match]:
        """At the restoration: the match of each unnamed window, given as ``(group, title)``,
        oldest first. Titles first, for all, so that a window that falls back to the order never
        takes the saved window another's title matches; the others by order. ``used``: the
        identifiers other windows have (updated)."""
        windows = list(windows)
        matches: List[Optional[Match]] = [None] * len(windows)
        whys: List[Optional[str]] = [None] * len(windows)
        for index, (group, title) in enumerate(windows):
            identifier, whys[index] = self.by_title(group, title, used)
            if identifier is not None:
                matches[index] = self._take(identifier, None, used)
        for index, (group, _) in enumerate(windows):
            if matches[index] is None:
                matches[index] = self._take(by_order(group, used), whys[index], used)
        return [match for match in matches if match is not None]

    def match_late(self, group: str, title: str, used: Set[str],
                   kept: Optional[Callable[[str], bool]] = None) -> Match:
        """A window that maps after the restoration: the saved window of its group with its title
        (with ``kept``, one whose record the engine keeps), else the lowest index free."""
        identifier, why = self.by_title(group, title, used, kept)
        return self._take(identifier if identifier is not None else by_order(group, used), why, used)

    def _take(self, identifier: str, why: Optional[str], used: Set[str]) -> Match:
        used.add(identifier)
        return Match(identifier, why, self.take(identifier))

    def reported(self, match: Match) -> bool:
        """Whether a match gets a line: its window takes a saved state, and its group had more
        than one (else there was no choice to tell)."""
        return match.saved and self.count(group_of(match.identifier)) > 1
