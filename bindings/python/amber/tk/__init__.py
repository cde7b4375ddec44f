"""amber.tk: a Tkinter program gets its interface back nearly for free.

    import amber.tk
    ...build the interface, naming the widgets that matter (name="notes")...
    restorer = amber.tk.attach(root, "org.example.notes")
    root.mainloop()

Every widget created with an explicit ``name=`` is restorable (every widget, with ``auto_names``). Its restoration path is its Tk
path name, made of its named ancestors only (Tk's own names, such as ``!frame2``, depend on the
order widgets were made in, so they are left out): ``.main.!frame.notes`` is ``.main.notes``.
Each window (the root, a named Toplevel) is a root controller whose identifier is its path name;
the widgets in it are its views, each identified by its path name.

The standard state, by widget class:

- windows: size, position, state (normal, zoomed, iconic) and full screen, and which named
  widget has the focus;
- Listbox: the selected rows and the first visible row, through model association (R18) with
  each row's text as its identifier, so a row that moved is still selected;
- ttk.Treeview: the selected items and the first visible item, through model association with
  the item ids, and the items that are open;
- Text: the cursor, the selection and the view;
- Entry, ttk.Entry, ttk.Combobox, Spinbox, ttk.Spinbox: the cursor, the selection and the view;
- Canvas: how far it is scrolled;
- ttk.Notebook: the selected tab, by the name of its widget (else by its position);
- PanedWindow and ttk.PanedWindow: the sash positions;
- opt-in, per widget (``keep_content=``): the text of an Entry, Combobox, Spinbox or Text, and the
  value of a Scale (text and values are often the program's data, not its interface's state).

A named widget may also keep state of the program's own (``Restorer.keep``). Windows made on
demand (a dialog) come back through the ``windows=`` factories, one per Toplevel path name.

When it saves: when the root window is closed (WM_DELETE_WINDOW), on SIGTERM and SIGINT (then it
closes the application), and shortly after the user changed something (a key, a click, the
wheel, a resized window). The last is the engine's autosave (R32): each change marks the widget
it came to, and its window, dirty (``Restorer.mark_dirty`` for the program's own changes), and a
timer of the Tk event loop, set from ``Engine.autosave_timeout``, calls ``Engine.tick``, which
saves once the changes have stopped for the save delay.

It restores in ``attach``, which the program calls once its interface is built. Nothing here
stops the program: an archive that cannot be restored (from another program, damaged, of an
older version whose widgets were renamed or removed) gives a fresh launch or the state that
still fits, and a warning line on the ``amber.tk`` logger.

Programs not written for Amber: the runner, ``python -m amber.tk [--app-id ID] [--state-dir
DIR] (-m MODULE | SCRIPT) [ARGS...]`` (amber.tk.runner), runs an unmodified Tkinter program with
this adapter attached to its first root, and with three options ``attach`` also offers:

- ``auto_names``: an unnamed widget is restorable too, by its automatic identifier: the
  components of its Tk path, each unnamed one replaced by its Python type and its index among
  its parent's unnamed children of that type (``.!toplevel.!frame.!text2`` is
  ``.Toplevel#1.Frame#1.Text#2``; a named widget keeps its name). It is stable across runs that
  build the interface the same way (Tk's own ``!text2`` counts widgets destroyed since). Each
  window records its shape (how many widgets, a checksum of their automatic paths): a window
  saved with another shape (a new version of the program, another window in the place of the
  one saved) gives its unnamed widgets no state, and an unnamed window none at all, with one
  warning line.
- ``late_windows``: the records that find no window at launch are kept for the whole run (R35),
  and a window made later (IDLE's editor, a second one, a dialog) claims its state when it first
  maps (``Object.restore_pending``). The runner also restores only when the first window maps,
  once the program has built it.
- ``keep_values``: the values of Checkbuttons, Radiobuttons, Scales, Spinboxes (a value they
  offer) and read-only Comboboxes are kept; typed text is not (R34).

A window's position is the one the window manager uses (``wm geometry``, the frame's, menu bar
included). A window destroyed by the program (``destroy()``; IDLE quits by closing its editor and
then destroying its root) saves first if a change is unsaved. In the runner SIGTERM and SIGINT
save and then end the program as the signal would have.

Tkinter is imported by this module only: ``import amber`` does not import it.
"""
from __future__ import annotations

import os
import re
import signal
import tkinter as tk
from tkinter import ttk
from types import FrameType
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterable, List, Optional, Tuple, Union

if TYPE_CHECKING:
    import logging

import amber
from amber import (Coder, Decoder, Engine, FreshReason, IndexPath, Outcome, Path, PreservationReport,
                   Report, TextRange, ViewKind, ViewState)

__all__ = ["DEFAULT_SAVE_DELAY_MS", "LOGGER", "Restorer", "STATE_CLASSES", "WINDOW_CLASS", "WidgetState",
           "WindowFactory", "WindowState", "attach", "restoration_name"]

def _logger() -> "logging.Logger":
    """Where the adapter's warnings go (``LOGGER``): imported on the first line it gives, since
    importing logging is most of what ``import amber.tk`` would cost beside tkinter."""
    import logging
    return logging.getLogger("amber.tk")


def __getattr__(name: str) -> Any:
    """``amber.tk.LOGGER``: the logger ``amber.tk``, where the adapter's warnings go (a fresh
    launch for a reason other than "no archive", a widget not restored, a save that failed)."""
    if name == "LOGGER":
        return _logger()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

#: The restoration class of every window: it gives back a window that exists, or has the
#: program's factory make one (a dialog that was open).
WINDOW_CLASS = "amber.tk.Window"

#: The delay between the last of a burst of changes and the save that follows it (the autosave's
#: quiet time), in milliseconds, unless ``attach`` is given another; the environment variable
#: AMBER_TK_SAVE_DELAY_MS overrides it (the tests make it long, to check that closing and
#: SIGTERM save by themselves).
DEFAULT_SAVE_DELAY_MS = 1000


def _save_delay(asked: Optional[int]) -> int:
    from_environment = os.environ.get("AMBER_TK_SAVE_DELAY_MS", "")
    if from_environment.isdigit():
        return int(from_environment)
    return DEFAULT_SAVE_DELAY_MS if asked is None else asked


#: A function that makes a window on demand (a dialog) and returns its Toplevel.
WindowFactory = Callable[[], Optional[tk.Misc]]


def restoration_name(widget: tk.Misc, auto_names: bool = False) -> Optional[str]:
    """The restoration identifier of a widget: its Tk path name made of its named ancestors
    (``.`` for the root window), or None if the widget itself has no explicit name. With
    ``auto_names``, an unnamed widget has one too: its ``auto_name``."""
    path = str(widget)
    if path == ".":
        return "."
    parts = path.split(".")[1:]
    if not parts or parts[-1].startswith("!"):
        return auto_name(widget) if auto_names else None
    return "." + ".".join(part for part in parts if not part.startswith("!"))


def _unnamed(widget: tk.Misc) -> bool:
    return str(widget).rsplit(".", 1)[-1].startswith("!")


def _child_components(parent: tk.Misc) -> List[Tuple[str, tk.Misc]]:
    """Each child of ``parent`` (Tkinter's, in the order they were made) with its component of
    an automatic identifier: its name if it has one, else its type and its index among the
    unnamed children of that type, from 1 (``Text#2``). Tk's own names (``!text2``) count every
    child ever made, destroyed ones included; this index counts the living ones, so a program
    that builds its interface the same way gets the same identifiers at each run."""
    seen: Dict[str, int] = {}
    components: List[Tuple[str, tk.Misc]] = []
    for child in list(parent.children.values()):
        name = str(child).rsplit(".", 1)[-1]
        if name.startswith("!"):
            kind = type(child).__name__
            seen[kind] = seen.get(kind, 0) + 1
            name = f"{kind}#{seen[kind]}"
        components.append((name, child))
    return components


def _component(widget: tk.Misc) -> str:
    parent = widget.master
    if parent is None or not _unnamed(widget):
        return str(widget).rsplit(".", 1)[-1]
    return next(name for name, child in _child_components(parent) if child is widget)


def auto_name(widget: tk.Misc) -> str:
    """The automatic identifier of a widget (``auto_names``): the components of its Tk path,
    each unnamed one replaced by its type and index among its unnamed siblings of that type:
    ``.!toplevel.!frame.!text2`` is ``.Toplevel#1.Frame#1.Text#2`` if the Toplevel and the
    Frame are the first unnamed ones of their type in their parents, and the Text the second.
    A named widget keeps its ``restoration_name``."""
    parts = []
    current: Optional[tk.Misc] = widget
    while current is not None and str(current) != ".":
        parts.append(_component(current))
        current = current.master
    return "." + ".".join(reversed(parts))


def _auto_paths(window: tk.Misc, window_path: str) -> List[Tuple[str, tk.Misc]]:
    """Every widget of a window (not those of the windows in it) with its automatic path, the
    window's own path given: one walk, each parent's children named once."""
    found: List[Tuple[str, tk.Misc]] = []
    stack: List[Tuple[str, tk.Misc]] = [(window_path, window)]
    while stack:
        path, parent = stack.pop()
        prefix = "" if path == "." else path
        for name, child in reversed(_child_components(parent)):
            if isinstance(child, (tk.Tk, tk.Toplevel)):
                continue
            child_path = f"{prefix}.{name}"
            found.append((child_path, child))
            stack.append((child_path, child))
    return found


def _shape(window: tk.Misc, window_path: str) -> str:
    """What a window is made of, in a few characters: how many widgets it has and a checksum of
    their automatic paths (which carry their types). Two runs that build the window the same way
    give the same shape; a window of another program version, or another window given the same
    automatic identifier, gives another."""
    import zlib  # only programs with automatic identifiers need it
    paths = sorted(path[len(window_path):] for path, _ in _auto_paths(window, window_path))
    return f"{len(paths)}:{zlib.crc32(chr(10).join(paths).encode()):08x}"


def _chars(text: tk.Text, index: str) -> int:
    """The number of characters of a Text before ``index``."""
    counted = text.count("1.0", index, "chars")
    return int(counted[0]) if counted else 0


#: What restored state that no longer fits its widget raises when it is put on (a row, tab or
#: sash gone, a value Tk refuses): the widget keeps its own state, with a warning line.
_DOES_NOT_FIT = (tk.TclError, ValueError, TypeError, KeyError, IndexError)


def _does_not_fit(what: str, error: BaseException) -> str:
    return f"{what}: its restored state does not fit the widget now ({error}); it keeps its own"


def _tcl(widget: tk.Misc, *args: Any) -> Any:
    """A widget command (``.path args...``) through Tcl: for the commands typeshed leaves untyped."""
    return widget.tk.call(str(widget), *args)


def _tcl_list(widget: tk.Misc, *args: Any) -> Tuple[Any, ...]:
    """A widget command's answer that is a Tcl list, as a tuple (one element or none included)."""
    return tuple(widget.tk.splitlist(_tcl(widget, *args)))


def _replace_content(widget: tk.Misc, replace: Callable[[], None]) -> None:
    """Calls ``replace`` with the widget's ``-state`` normal (a disabled Text or Entry takes no
    text), then puts its state back."""
    state = str(widget.cget("state"))
    _tcl(widget, "configure", "-state", "normal")
    try:
        replace()
    finally:
        _tcl(widget, "configure", "-state", state)


def _read(decoder: Decoder, schema: Dict[str, type]) -> Dict[str, Any]:
    """The values under the keys of ``schema``, each of the type this adapter writes, read in one
    call (``decoder.get`` would try the types in turn, several calls a key); a missing key is left
    out. An archive with another type under a key (another version's) is read key by key, each
    value of another type left out, as a value of the wrong type is by the code that applies it."""
    try:
        return decoder.read(schema)
    except amber.TypeMismatchError:
        found = {key: decoder.get(key) for key in schema}
        return {key: value for key, value in found.items() if isinstance(value, schema[key])}


def _text_index(offset: int) -> str:
    return f"1.0 + {int(offset)} chars"


# ---- the state of each kind of widget ---------------------------------------------------------

class WidgetState(amber.View):
    """A named widget as a restorable view. Subclasses keep the standard state of a kind of
    widget; this class keeps only the program's own state (``Restorer.keep``).

    Restoring happens in two steps: the decode callback and the apply accessor record what
    was restored (``pending``; opt-in text is put back at once, since the engine checks a
    restored selection against it), and ``apply_pending`` puts the rest on the widget: before
    Tk lays the windows out at their restored size, or after (``needs_layout``)."""

    #: Whether ``apply_pending`` needs the window laid out at its restored size first (a split's
    #: sashes, a view scrolled by fractions of what it shows). Tk maps and draws a window when
    #: it first lays it out, so the state of a widget that does not need it (a list's selection
    #: and first row, a tab, a value) goes on before: a window's first frame shows it, not the
    #: state the program built. Such a widget's ``apply_scroll`` runs again once the window is
    #: laid out, since Tk limits a scroll by the size a list has when it is asked.
    needs_layout = True

    def __init__(self, engine: Engine, widget: tk.Misc, identifier: str, *, keep_content: bool = False):
        super().__init__(engine, identifier, class_name=widget.winfo_class())
        self.widget = widget
        self.keep_content = keep_content
        self.own_encode: Optional[Callable[[Coder], None]] = None
        self.own_decode: Optional[Callable[[Decoder], None]] = None
        self.pending: Dict[str, Any] = {}
        self.pending_view: Optional[ViewState] = None
        #: The window it is a view of, and whether its identifier is automatic (``auto_names``):
        #: such a widget takes no state from a window saved with another shape.
        self.window: Optional["WindowState"] = None
        self.automatic = False
        #: False until it had its chance to take its restored state (at launch, or for a widget
        #: made later, when its window maps).
        self.claimed = False
        #: What waits for the widget to be shown (``shown_or_later``), whether its <Map> event
        #: is bound for it, and whether it is due at the next idle time.
        self._when_shown: Optional[Callable[[], None]] = None
        self._waits_for_map = False
        self._due = False

    def skipped(self) -> bool:
        """True if its restored state must not be applied: its identifier is automatic and its
        window was saved with another shape (another version of the program, another window)."""
        return self.automatic and self.window is not None and self.window.shape_changed()

    def encode_restorable_state(self, coder: Coder) -> None:
        self.encode_widget(coder)
        if self.own_encode is not None:
            self.own_encode(coder)

    def decode_restorable_state(self, decoder: Decoder) -> None:
        if self.skipped():
            return  # its window says why, in one line
        self.decode_widget(decoder)
        if self.own_decode is not None:
            self.own_decode(decoder)

    def apply_view_state(self, state: ViewState) -> None:
        if not self.skipped():
            self.pending_view = state

    def encode_widget(self, coder: Coder) -> None:
        """Writes the widget's state of its kind beside the standard state."""

    def decode_widget(self, decoder: Decoder) -> None:
        """Reads it back into ``pending``."""

    def apply_pending(self) -> None:
        """Puts the restored state on the widget (before or after the layout: ``needs_layout``)."""

    def apply_scroll(self) -> None:
        """Scrolls the widget as restored, once more after Tk laid it out with the rest of the
        restored state (a Text knows how wide its lines are only once it has shown them)."""

    def scrolls_after_layout(self) -> bool:
        """True if ``apply_scroll`` has something to do once the window is laid out."""
        return False

    def shown_or_later(self, apply: Callable[[], None]) -> bool:
        """True if the widget is shown (mapped), and so laid out: what needs its size can be
        put on it now. Else (it is on a notebook's page not shown) False, and ``apply`` is
        called once, after Tk has laid the widget out when it is first shown; until then
        ``waiting_to_be_shown()`` is True."""
        if self.widget.winfo_ismapped():
            self._when_shown = None
            return True
        if not self._waits_for_map:
            self._waits_for_map = True
            self.widget.bind("<Map>", self._shown, add="+")
        self._when_shown = apply
        return False

    def waiting_to_be_shown(self) -> bool:
        """True while restored state waits for the widget to be shown: a save meanwhile keeps
        that state, not what the widget shows (the program's own, which the user never saw)."""
        return self._when_shown is not None

    def _shown(self, event: "tk.Event[tk.Misc]") -> None:
        if self._when_shown is not None and not self._due:
            self._due = True
            self.widget.after_idle(self._apply_when_shown)

    def _apply_when_shown(self) -> None:
        self._due = False
        apply, self._when_shown = self._when_shown, None
        if apply is None:
            return
        try:
            apply()
        except _DOES_NOT_FIT as error:
            _logger().warning("amber.tk: %s", _does_not_fit(self.identifier or "?", error))


class _ListState(WidgetState):
    """A list (a Listbox, a ttk.Treeview): its selection and first row go on before the layout,
    and its first row once more after it (``scroll_to_first``)."""
    standard_state = ViewKind.TABLE
    needs_layout = False

    def apply_scroll(self) -> None:
        """Again once the window is laid out, since Tk limited the scroll by the size the list
        had; on a page not shown, when the page first shows."""
        if self.shown_or_later(self.scroll_to_first):
            self.scroll_to_first()

    def scroll_to_first(self) -> None:
        """Scrolls to the first row restored."""


class ListboxState(_ListState):
    """A Listbox: its selected rows and first visible row; rows are identified by their text."""

    def __init__(self, engine: Engine, widget: tk.Misc, identifier: str, **options: Any):
        super().__init__(engine, widget, identifier, **options)
        self.set_model_association(self)

    @property
    def listbox(self) -> tk.Listbox:
        assert isinstance(self.widget, tk.Listbox)
        return self.widget

    def identifier_for_index_path(self, view: amber.View, path: IndexPath) -> Optional[str]:
        if len(path) != 1 or not 0 <= path[0] < self.listbox.size():
            return None
        return str(self.listbox.get(path[0])) or None  # an empty row: archived as its index

    def index_path_for_identifier(self, view: amber.View, identifier: str) -> Optional[IndexPath]:
        rows = [str(row) for row in self.listbox.get(0, "end")]
        return IndexPath((rows.index(identifier),)) if identifier in rows else None

    def read_view_state(self) -> ViewState:
        listbox = self.listbox
        state = ViewState(selected_items=tuple(IndexPath((int(i),)) for i in _tcl_list(listbox, "curselection")))
        if self.waiting_to_be_shown() and self.pending_view is not None:
            state.first_visible_item = self.pending_view.first_visible_item
        elif listbox.size():
            state.first_visible_item = IndexPath((int(_tcl(listbox, "nearest", 0)),))
        return state

    def apply_pending(self) -> None:
        listbox, state = self.listbox, self.pending_view
        if state is None:
            return
        if state.selected_items is not None:
            listbox.selection_clear(0, "end")
            for path in state.selected_items:
                listbox.selection_set(path[0])
            if state.selected_items:
                listbox.activate(state.selected_items[0][0])
        self.scroll_to_first()

    def scroll_to_first(self) -> None:
        state = self.pending_view
        if state is not None and state.first_visible_item:
            self.listbox.yview(state.first_visible_item[0])


# The walks of a Treeview's items, in Tcl: from Python, each item would cost a call into Tcl.
_TREE_PROCS = """
namespace eval ::amber_tk {}
proc ::amber_tk::visible {tree {item {}}} {
    set rows {}
    foreach child [$tree children $item] {
        lappend rows $child
        if {[$tree item $child -open]} { lappend rows {*}[::amber_tk::visible $tree $child] }
    }
    return $rows
}
proc ::amber_tk::opened {tree {item {}}} {
    set open {}
    foreach child [$tree children $item] {
        if {[llength [$tree children $child]]} {
            if {[$tree item $child -open]} { lappend open $child }
            lappend open {*}[::amber_tk::opened $tree $child]
        }
    }
    return $open
}
"""


class TreeviewState(_ListState):
    """A ttk.Treeview: its selected items, first visible item (by item id) and open items."""

    def __init__(self, engine: Engine, widget: tk.Misc, identifier: str, **options: Any):
        super().__init__(engine, widget, identifier, **options)
        self.set_model_association(self)

    @property
    def tree(self) -> ttk.Treeview:
        assert isinstance(self.widget, ttk.Treeview)
        return self.widget

    def identifier_for_index_path(self, view: amber.View, path: IndexPath) -> Optional[str]:
        item = ""
        for index in path:
            children = self.tree.get_children(item)
            if not 0 <= index < len(children):
                return None
            item = children[index]
        return str(item) or None

    def index_path_for_identifier(self, view: amber.View, identifier: str) -> Optional[IndexPath]:
        tree = self.tree
        if not identifier or not tree.exists(identifier):
            return None
        path: List[int] = []
        item = identifier
        while item:
            path.append(int(tree.index(item)))
            item = tree.parent(item)
        return IndexPath(reversed(path))

    def item_at(self, path: IndexPath) -> Optional[str]:
        """The id of the item at ``path`` now, or None."""
        return self.identifier_for_index_path(self, path)

    def walk(self, proc: str) -> List[str]:
        """The items one of _TREE_PROCS gives, walked in Tcl: one call however many items."""
        tree = self.tree
        if not tree.tk.call("info", "procs", f"::amber_tk::{proc}"):
            tree.tk.eval(_TREE_PROCS)
        return [str(item) for item in tree.tk.splitlist(tree.tk.call(f"::amber_tk::{proc}", str(tree)))]

    def visible_items(self) -> List[str]:
        """The items a user can scroll to (those under closed items are not), in order."""
        return self.walk("visible")

    def read_view_state(self) -> ViewState:
        tree = self.tree
        selected = []
        for item in tree.selection():
            path = self.index_path_for_identifier(self, str(item))
            if path is not None:
                selected.append(path)
        state = ViewState(selected_items=tuple(selected))
        rows = self.visible_items()
        if self.waiting_to_be_shown() and self.pending_view is not None:
            state.first_visible_item = self.pending_view.first_visible_item
        elif rows:
            top = min(int(round(float(tree.yview()[0]) * len(rows))), len(rows) - 1)
            state.first_visible_item = self.index_path_for_identifier(self, rows[top])
        return state

    def encode_widget(self, coder: Coder) -> None:
        # The open items as a Tcl list's text, which Tcl quotes (``format %s`` gives a list's
        # text): a launch reads it back with splitlist, importing nothing before the first frame.
        coder["openItems"] = str(self.tree.tk.call("format", "%s", tuple(self.walk("opened"))))

    def decode_widget(self, decoder: Decoder) -> None:
        saved = _read(decoder, {"openItems": str}).get("openItems", "")
        try:
            self.pending["open"] = [str(item) for item in self.tree.tk.splitlist(saved)]
        except tk.TclError:  # not a Tcl list: an unbalanced brace or quote
            _logger().warning("amber.tk: %s: the open items saved cannot be read; they stay closed", self.identifier)
            self.pending["open"] = []

    def apply_pending(self) -> None:
        tree, state = self.tree, self.pending_view
        for item in self.pending.get("open", []):
            if tree.exists(item):
                tree.item(item, open=True)
        if state is None:
            return
        if state.selected_items is not None:
            items = [item for item in map(self.item_at, state.selected_items) if item is not None]
            tree.selection_set(items)
            if items:
                tree.focus(items[0])
        self.scroll_to_first()

    def scroll_to_first(self) -> None:
        state = self.pending_view
        if state is None or not state.first_visible_item:
            return
        top = self.item_at(state.first_visible_item)
        rows = self.visible_items()
        if top in rows:
            self.tree.yview_moveto(rows.index(top) / len(rows))


class TextState(WidgetState):
    """A Text: its cursor, selection and view; its text if kept (opt-in)."""
    standard_state = ViewKind.TEXT_VIEW

    @property
    def text(self) -> tk.Text:
        assert isinstance(self.widget, tk.Text)
        return self.widget

    def scrolls_after_layout(self) -> bool:
        return any(isinstance(self.pending.get(key), float) and self.pending[key] > 0 for key in ("xview", "yview"))

    def text_length(self) -> int:
        return _chars(self.text, "end - 1 chars")

    def read_view_state(self) -> ViewState:
        text = self.text
        if text.tag_ranges("sel"):
            first = _chars(text, "sel.first")
            return ViewState(selected_range=TextRange(first, _chars(text, "sel.last") - first))
        return ViewState(selected_range=TextRange(_chars(text, "insert"), 0))

    def encode_widget(self, coder: Coder) -> None:
        text = self.text
        values = {"cursor": _chars(text, "insert"), "yview": float(text.yview()[0]), "xview": float(text.xview()[0])}
        if self.waiting_to_be_shown():  # not scrolled yet: the view restored is still the one to keep
            values.update((key, self.pending[key]) for key in ("yview", "xview") if isinstance(self.pending.get(key), float))
        coder.update(values)
        if self.keep_content:
            coder["text"] = text.get("1.0", "end - 1 chars")

    def decode_widget(self, decoder: Decoder) -> None:
        self.pending = _read(decoder, {"cursor": int, "yview": float, "xview": float})
        restored = decoder.get("text") if self.keep_content else None
        if isinstance(restored, str):
            def replace() -> None:
                self.text.delete("1.0", "end")
                self.text.insert("1.0", restored)
                self.text.edit_reset()
            _replace_content(self.text, replace)

    def apply_pending(self) -> None:
        text, state = self.text, self.pending_view
        text.tag_remove("sel", "1.0", "end")
        if state is not None and state.selected_range is not None and state.selected_range.length:
            first, length = state.selected_range
            text.tag_add("sel", _text_index(first), _text_index(first + length))
        cursor = self.pending.get("cursor")
        if isinstance(cursor, int):
            text.mark_set("insert", _text_index(cursor))
        self.apply_scroll()

    def apply_scroll(self) -> None:
        text = self.text
        if not self.shown_or_later(self.apply_scroll):
            return
        for key, scroll in (("yview", text.yview_moveto), ("xview", text.xview_moveto)):
            fraction = self.pending.get(key)
            if isinstance(fraction, float):
                scroll(fraction)


class EntryState(WidgetState):
    """An Entry (and a Combobox, a Spinbox): its cursor, selection and view; its text if kept."""
    standard_state = ViewKind.TEXT_FIELD

    @property
    def entry(self) -> Union[tk.Entry, ttk.Entry, tk.Spinbox]:
        assert isinstance(self.widget, (tk.Entry, ttk.Entry, tk.Spinbox))
        return self.widget

    def text_length(self) -> int:
        return len(self.entry.get())

    def read_view_state(self) -> ViewState:
        entry = self.entry
        if entry.selection_present():
            first = int(entry.index("sel.first"))
            return ViewState(selected_range=TextRange(first, int(entry.index("sel.last")) - first))
        return ViewState(selected_range=TextRange(int(entry.index("insert")), 0))

    def encode_widget(self, coder: Coder) -> None:
        entry = self.entry
        coder.update({"cursor": int(entry.index("insert")), "xview": float(entry.xview()[0])})
        if self.keep_content:
            coder["text"] = entry.get()

    def decode_widget(self, decoder: Decoder) -> None:
        self.pending = _read(decoder, {"cursor": int, "xview": float})
        restored = decoder.get("text") if self.keep_content else None
        if isinstance(restored, str):
            entry = self.entry
            def replace() -> None:
                entry.delete(0, "end")
                entry.insert(0, restored)
            _replace_content(entry, replace)

    def apply_pending(self) -> None:
        entry, state = self.entry, self.pending_view
        entry.selection_clear()
        if state is not None and state.selected_range is not None and state.selected_range.length:
            first, length = state.selected_range
            entry.selection_range(first, first + length)
        cursor = self.pending.get("cursor")
        if isinstance(cursor, int):
            entry.icursor(cursor)
        self.apply_scroll()

    def scrolls_after_layout(self) -> bool:
        fraction = self.pending.get("xview")
        return isinstance(fraction, float) and fraction > 0

    def apply_scroll(self) -> None:
        entry = self.entry
        fraction = self.pending.get("xview")
        if isinstance(fraction, float):
            entry.xview_moveto(fraction)


class NotebookState(WidgetState):
    """A ttk.Notebook: the selected tab, by its widget's name (by position for unnamed tabs)."""
    needs_layout = False

    @property
    def notebook(self) -> ttk.Notebook:
        assert isinstance(self.widget, ttk.Notebook)
        return self.widget

    def encode_widget(self, coder: Coder) -> None:
        notebook = self.notebook
        current = str(_tcl(notebook, "select"))
        if not current:
            return
        coder["tabIndex"] = int(_tcl(notebook, "index", current))
        name = str(current).rsplit(".", 1)[-1]
        if not name.startswith("!"):
            coder["tab"] = name

    def decode_widget(self, decoder: Decoder) -> None:
        self.pending = _read(decoder, {"tab": str, "tabIndex": int})

    def apply_pending(self) -> None:
        notebook = self.notebook
        tabs = [str(tab) for tab in _tcl_list(notebook, "tabs")]
        name, index = self.pending.get("tab"), self.pending.get("tabIndex")
        if isinstance(name, str):
            for tab in tabs:
                if tab.rsplit(".", 1)[-1] == name:
                    _tcl(notebook, "select", tab)
                    return
            _logger().warning("amber.tk: %s: no tab named %r any more; the tab shown is kept", self.identifier, name)
        elif isinstance(index, int) and 0 <= index < len(tabs):
            _tcl(notebook, "select", tabs[index])


class PanedState(WidgetState):
    """A PanedWindow or ttk.PanedWindow: the positions of its sashes."""

    def sashes(self) -> List[int]:
        paned = self.widget
        count = len(paned.panes()) - 1  # type: ignore[attr-defined]
        if isinstance(paned, ttk.PanedWindow):
            return [int(_tcl(paned, "sashpos", i)) for i in range(count)]
        assert isinstance(paned, tk.PanedWindow)
        horizontal = str(paned.cget("orient")) == "horizontal"
        return [int(paned.sash_coord(i)[0 if horizontal else 1]) for i in range(count)]

    def encode_widget(self, coder: Coder) -> None:
        # Not laid out yet: the sashes restored are still the ones to keep.
        positions = self.pending.get("sashes", []) if self.waiting_to_be_shown() else self.sashes()
        coder["sashes"] = ",".join(str(position) for position in positions)

    def decode_widget(self, decoder: Decoder) -> None:
        text = decoder.get("sashes", "")
        self.pending["sashes"] = [int(part) for part in text.split(",") if part.strip().lstrip("-").isdigit()] \
            if isinstance(text, str) else []

    def apply_pending(self) -> None:
        paned = self.widget
        # A ttk split not laid out (on a notebook's page not shown) would put every sash at 0;
        # a classic one takes them as they are.
        if isinstance(paned, ttk.PanedWindow) and not self.shown_or_later(self.apply_pending):
            return
        positions: List[int] = self.pending.get("sashes", [])
        count = len(paned.panes()) - 1  # type: ignore[attr-defined]
        if len(positions) != count:
            if positions:
                _logger().warning("amber.tk: %s: %d sashes saved, %d now; the split is kept", self.identifier,
                               len(positions), count)
            return
        for i, position in enumerate(positions):
            if isinstance(paned, ttk.PanedWindow):
                _tcl(paned, "sashpos", i, position)
            else:
                assert isinstance(paned, tk.PanedWindow)
                horizontal = str(paned.cget("orient")) == "horizontal"
                x, y = paned.sash_coord(i)
                paned.sash_place(i, position if horizontal else x, y if horizontal else position)


class ScaleState(WidgetState):
    """A Scale or ttk.Scale (opt-in): its value."""

    def encode_widget(self, coder: Coder) -> None:
        coder["value"] = float(self.widget.get())  # type: ignore[attr-defined]

    def decode_widget(self, decoder: Decoder) -> None:
        value = decoder.get("value")
        if isinstance(value, float):
            self.widget.set(value)  # type: ignore[attr-defined]


class VariableState(WidgetState):
    """A Checkbutton or a Radiobutton (``keep_values``): the value of its variable, a choice the
    user made. Radiobuttons share their variable: each keeps the same value."""
    needs_layout = False

    def variable(self) -> str:
        return str(self.widget.cget("variable"))

    def encode_widget(self, coder: Coder) -> None:
        name = self.variable()
        if name:
            coder["value"] = str(self.widget.getvar(name))

    def decode_widget(self, decoder: Decoder) -> None:
        self.pending = {"value": decoder.get("value")}

    def apply_pending(self) -> None:
        name, value = self.variable(), self.pending.get("value")
        if name and isinstance(value, str):
            self.widget.setvar(name, value)


class ComboboxState(EntryState):
    """A ttk.Combobox (``keep_values``): beside an entry's state, its value when it is
    read-only, a choice from its list; an editable one's text is typed text (R34: opt-in)."""

    def encode_widget(self, coder: Coder) -> None:
        super().encode_widget(coder)
        if not self.keep_content and "readonly" in str(self.widget.cget("state")):
            coder["choice"] = self.entry.get()

    def decode_widget(self, decoder: Decoder) -> None:
        super().decode_widget(decoder)
        choice = decoder.get("choice")
        if isinstance(choice, str) and choice in self.widget.tk.splitlist(self.widget.cget("values")):
            self.widget.set(choice)  # type: ignore[attr-defined]


class SpinboxState(EntryState):
    """A Spinbox or ttk.Spinbox (``keep_values``): beside an entry's state, its value when it is
    one the spin box offers (one of its values, or a number in its range)."""

    def offered(self, value: str) -> bool:
        values = self.widget.tk.splitlist(self.widget.cget("values"))
        if values:
            return value in values
        try:
            number = float(value)
            return float(self.widget.cget("from")) <= number <= float(self.widget.cget("to"))
        except (ValueError, tk.TclError):
            return False

    def encode_widget(self, coder: Coder) -> None:
        super().encode_widget(coder)
        value = self.entry.get()
        if not self.keep_content and self.offered(value):
            coder["choice"] = value

    def decode_widget(self, decoder: Decoder) -> None:
        super().decode_widget(decoder)
        choice = decoder.get("choice")
        if isinstance(choice, str) and self.offered(choice):
            entry = self.entry

            def replace() -> None:
                entry.delete(0, "end")
                entry.insert(0, choice)
            _replace_content(entry, replace)


class CanvasState(WidgetState):
    """A Canvas: how far it is scrolled, as fractions of its scroll region."""

    def encode_widget(self, coder: Coder) -> None:
        canvas = self.widget
        assert isinstance(canvas, tk.Canvas)
        coder.update({"xview": float(canvas.xview()[0]), "yview": float(canvas.yview()[0])})

    def decode_widget(self, decoder: Decoder) -> None:
        self.pending = _read(decoder, {"xview": float, "yview": float})

    def scrolls_after_layout(self) -> bool:
        return any(isinstance(self.pending.get(key), float) for key in ("xview", "yview"))

    def apply_scroll(self) -> None:
        canvas = self.widget
        assert isinstance(canvas, tk.Canvas)
        for key, scroll in (("xview", canvas.xview_moveto), ("yview", canvas.yview_moveto)):
            fraction = self.pending.get(key)
            if isinstance(fraction, float):
                scroll(fraction)

    apply_pending = apply_scroll


#: The state class of each Tk widget class; classes not listed keep only the program's own state.
STATE_CLASSES: Dict[str, type] = {
    "Listbox": ListboxState, "Treeview": TreeviewState, "Text": TextState,
    "Entry": EntryState, "TEntry": EntryState, "TCombobox": EntryState, "Spinbox": EntryState,
    "TSpinbox": EntryState, "TNotebook": NotebookState, "Panedwindow": PanedState,
    "TPanedwindow": PanedState, "Canvas": CanvasState,
}
#: Widget classes restored only when their content is kept (opt-in).
CONTENT_CLASSES: Dict[str, type] = {"Scale": ScaleState, "TScale": ScaleState}
#: The state classes used instead when values are kept (``keep_values``: the runner keeps them):
#: choices the user made, never typed text.
VALUE_CLASSES: Dict[str, type] = {
    **CONTENT_CLASSES, "Checkbutton": VariableState, "TCheckbutton": VariableState,
    "Radiobutton": VariableState, "TRadiobutton": VariableState, "TCombobox": ComboboxState,
    "Spinbox": SpinboxState, "TSpinbox": SpinboxState,
}


def _attribute(window: Union[tk.Tk, tk.Toplevel], name: str) -> bool:
    """A boolean window attribute (``-zoomed``, ``-fullscreen``); False where Tk has none."""
    try:
        return bool(int(window.wm_attributes(name)))
    except (tk.TclError, ValueError):
        return False


#: What ``wm geometry`` answers, "WxH+X+Y" (compiled by re on first use, not at import).
_GEOMETRY = r"(\d+)x(\d+)([+-]-?\d+)([+-]-?\d+)"


def _geometry(window: Union[tk.Tk, tk.Toplevel]) -> Optional[Tuple[int, int, int, int]]:
    """The window's size and position as the window manager sees them (``wm geometry``): the
    position of its frame, menu bar included. ``winfo_y`` is the position of its client area,
    below the menu bar, and set back as the frame's position it moved a window down by the menu's
    height at each relaunch."""
    match = re.fullmatch(_GEOMETRY, str(window.wm_geometry()))
    if match is None:
        return None
    width, height, x, y = match.groups()
    return int(width), int(height), int(x.lstrip("+")), int(y.lstrip("+"))


def _geometry_text(geometry: Tuple[Any, ...]) -> str:
    width, height, x, y = geometry
    return f"{width}x{height}+{x}+{y}"


class WindowState(amber.Controller):
    """A window (the root or a Toplevel with a restoration identifier) as a root controller:
    its geometry, state, full screen and focused widget. Its restorable widgets are its views.
    With automatic identifiers it records its shape too (``_shape``)."""

    def __init__(self, engine: Engine, window: Union[tk.Tk, tk.Toplevel], identifier: str, *,
                 name_of: Callable[[tk.Misc], Optional[str]] = restoration_name, automatic: bool = False,
                 shaped: bool = False, made_at_launch: bool = True):
        # A window made by the program later (made_at_launch False) has no restoration class:
        # at launch its record finds no window, and is kept until the window maps and claims it
        # (R35); the class would decline it, and a record declined is not kept.
        super().__init__(engine, identifier, class_name="Toplevel",
                         restoration_class=WINDOW_CLASS if made_at_launch else None)
        self.window = window
        self.views: Dict[str, WidgetState] = {}
        self.pending: Dict[str, Any] = {}
        self.name_of = name_of
        #: Its identifier is automatic (an unnamed Toplevel): another shape means another window,
        #: so none of its state is applied.
        self.automatic = automatic
        self.shaped = shaped
        self.claimed = False
        self._shape_now: Optional[str] = None

    def shape(self) -> str:
        return _shape(self.window, str(self.identifier))

    def shape_changed(self) -> bool:
        """True if the window was saved with another shape than it has (computed once a restore)."""
        saved = self.pending.get("shape")
        if not self.shaped or not isinstance(saved, str):
            return False
        if self._shape_now is None:
            self._shape_now = self.shape()
        return saved != self._shape_now

    def encode_restorable_state(self, coder: Coder) -> None:
        window = self.window
        state = str(window.wm_state())
        if state == "normal" and _attribute(window, "-zoomed"):
            state = "zoomed"  # X11 keeps a maximised window's state as an attribute
        values: Dict[str, Union[int, str, bool]] = {"state": state, "fullscreen": _attribute(window, "-fullscreen")}
        geometry = _geometry(window)
        if geometry is not None:
            values.update(zip(("width", "height", "x", "y"), geometry))
        focused = window.focus_lastfor()  # the focus in this window, whether it has the keyboard or not
        name = self.name_of(focused) if focused is not None and focused.winfo_toplevel() is window else None
        if name is not None:
            values["focus"] = name
        if self.shaped:
            values["shape"] = self.shape()
        coder.update(values)

    def decode_restorable_state(self, decoder: Decoder) -> None:
        self.pending = _read(decoder, {"width": int, "height": int, "x": int, "y": int, "state": str,
                                       "fullscreen": bool, "focus": str, "shape": str})
        self._shape_now = None

    def apply_geometry(self) -> None:
        window, saved = self.window, self.pending
        if self.automatic and self.shape_changed():
            return
        width, height, x, y = (saved.get(key) for key in ("width", "height", "x", "y"))
        if isinstance(width, int) and isinstance(height, int) and isinstance(x, int) and isinstance(y, int) \
                and width > 1 and height > 1:
            window.geometry(f"{width}x{height}+{x}+{y}")
        if saved.get("fullscreen") is True:
            window.wm_attributes("-fullscreen", True)
        if saved.get("state") == "zoomed":
            try:
                window.wm_attributes("-zoomed", True)
            except tk.TclError:
                window.wm_state("zoomed")  # Windows and macOS
        elif saved.get("state") == "iconic":
            window.iconify()

    def apply_focus(self) -> None:
        name = self.pending.get("focus")
        if not isinstance(name, str) or (self.automatic and self.shape_changed()):
            return
        for view in self.views.values():
            if view.identifier == name and not view.skipped():
                view.widget.focus_set()
                return
        stack: List[tk.Misc] = [self.window]
        while stack:
            widget = stack.pop()
            if restoration_name(widget) == name:
                widget.focus_set()
                return
            stack.extend(child for child in widget.winfo_children() if not isinstance(child, tk.Toplevel))


# ---- the adapter ------------------------------------------------------------------------------

class _Delegate:
    """Saves and restores always. An archive copied from another app is refused by the engine
    itself (R9: each archive records its app id), a fresh launch with FreshReason.OTHER_APPLICATION.
    Each save keeps the titles of the unnamed windows in the application's coder, and each
    restoration reads them, and has the restorer match its unnamed windows to them, before the
    engine looks for the window of each record (``amber.tk._matching``)."""

    def __init__(self) -> None:
        from amber.tk._matching import UnnamedWindows  # imported with the adapter's set-up, not with amber.tk
        self.windows = UnnamedWindows()
        #: The restorer whose windows are matched (set when it registers its windows).
        self.restorer: Optional[Restorer] = None

    def should_save(self, engine: Engine, coder: Coder) -> bool:
        return True

    def will_encode(self, engine: Engine, coder: Coder) -> None:
        if self.restorer is None:
            return
        try:
            self.windows.write(coder, self.restorer._unnamed_titles())
        except (amber.AmberError, tk.TclError) as error:  # the save goes on: they will match by order
            self.restorer._warn(f"the titles of the unnamed windows were not saved: {error}")

    def should_restore(self, engine: Engine, decoder: Decoder) -> bool:
        self.windows.read(decoder)
        if self.restorer is None:
            return True
        try:
            self.restorer._match_at_launch()
        except (amber.AmberError, tk.TclError) as error:  # restoring goes on, with the windows as they are
            self.restorer._warn(f"the unnamed windows could not be matched to the saved ones: {error}")
        return True


#: How long the records of windows not made yet are kept when windows claim their state as they
#: appear (``late_windows``): the whole run, in practice (a year).
WHOLE_RUN_MS = 365 * 24 * 3600 * 1000

_Own = Tuple[Optional[Callable[[Coder], None]], Optional[Callable[[Decoder], None]]]


class Restorer:
    """What ``attach`` returns: the engine of a Tk program's interface, and when it saves.

    :ivar engine: the amber.Engine (its app id, store and reports).
    :ivar report: the launch's restoration report, None before ``restore``.
    :ivar warnings: the warning lines given so far (also logged on ``amber.tk``).
    :ivar notes: lines that say what was done differently from the saved state, though nothing
        went wrong (also logged on ``amber.tk``, at the level INFO)."""

    def __init__(self, root: tk.Tk, app_id: str, *, state_directory: Optional[str] = None,
                 keep_content: Iterable[Union[tk.Misc, str]] = (), windows: Optional[Dict[str, WindowFactory]] = None,
                 bundle_version: Optional[str] = None, save_delay_ms: Optional[int] = None,
                 auto_names: bool = False, late_windows: bool = False, keep_values: bool = False):
        self.root = root
        self.report: Optional[Report] = None
        self.warnings: List[str] = []
        self.notes: List[str] = []
        self.auto_names = auto_names
        self.late_windows = late_windows
        self.keep_values = keep_values
        try:
            self.engine = Engine(app_id, state_directory=state_directory, bundle_version=bundle_version,
                                 delegate=_Delegate())
        except (amber.AmberError, OSError) as error:
            # The program runs on; its interface is kept in memory only, for this run.
            self._warn(f"the interface cannot be saved or restored: {error}")
            self.engine = Engine(app_id, memory_store=True, delegate=_Delegate())
        self.save_delay_ms = _save_delay(save_delay_ms)
        self._content = {str(widget) for widget in keep_content}
        self._factories: Dict[str, WindowFactory] = dict(windows or {})
        self._windows: Dict[str, WindowState] = {}
        #: Every restorable window and widget by its Tk path name: what a user event came to.
        self._by_path: Dict[str, Union[WindowState, WidgetState]] = {}
        self._own: Dict[str, _Own] = {}
        self._tick_pending: Optional[str] = None
        self._claim_pending: Optional[str] = None
        self._restoring = False
        self._launched = False
        #: True to restore when the first window maps rather than in ``attach``: the runner
        #: attaches when the program makes its root, before it builds anything.
        self.restore_when_shown = False
        #: True to end the program on SIGTERM and SIGINT as the signal would have, once saved,
        #: rather than by destroying its root (the runner).
        self.end_with_signal = False
        self._closed = False
        #: A change (the user's or the program's) not saved yet: what makes a window's
        #: destruction save first. A window closing is not one (see ``_save_before_destroy``).
        self._unsaved = False
        self._signal_fd: Optional[Tuple[int, int]] = None
        self._previous_handlers: Dict[int, Any] = {}
        self.engine.register_restoration_class(WINDOW_CLASS, self._make_window)
        if late_windows:
            self.engine.keep_unclaimed(WHOLE_RUN_MS)
        # Every save calls every encode callback (full_saves): a user event names the widget it
        # came to, but not all the state it changed. A click in a list makes the program load
        # another note into a Text (its content, cursor and view), a resize moves sashes and
        # scrolls texts, a click moves the focus, and the callbacks of ``keep`` encode state of
        # the program's own that the adapter never sees change. Encoding only the widgets marked
        # would save some of these changes late or never; a full save is what the adapter did
        # before the engine had autosave. The minimum interval is none: the quiet time alone
        # spaces the saves, a save comes one delay after the user stops.
        self.engine.set_autosave(self._quiet_time(), -1, full_saves=True)

    def _quiet_time(self) -> int:
        """The save delay as the engine's quiet time: zero there would mean its default, so no
        delay is none (a negative time)."""
        return self.save_delay_ms if self.save_delay_ms > 0 else -1

    # -- public --
    def name_of(self, widget: tk.Misc) -> Optional[str]:
        """The restoration identifier of a widget under this restorer's naming (``auto_names``)."""
        return restoration_name(widget, self.auto_names)

    def keep(self, widget: tk.Misc, encode: Optional[Callable[[Coder], None]] = None,
             decode: Optional[Callable[[Decoder], None]] = None) -> None:
        """Keeps state of the program's own for a restorable widget (named, or any with
        ``auto_names``), beside its standard state: ``encode(coder)`` at each save,
        ``decode(decoder)`` at restoration. Call it before ``restore``
        (``attach(..., restore=False)``) for the state to come back at launch."""
        if self.name_of(widget) is None:
            raise ValueError(f"{widget} has no explicit name: only named widgets are restorable")
        self._own[str(widget)] = (encode, decode)
        self.sync()

    def mark_dirty(self, widget: Optional[tk.Misc] = None) -> None:
        """Says the interface changed in a way the adapter cannot see (a change made by the
        program, not by the user): it saves one save delay after. ``widget``: the widget (or
        window) whose state changed, if known; else the root window is marked."""
        self._mark(widget if widget is not None else self.root)

    def save(self) -> Optional[PreservationReport]:
        """Saves the interface now; returns the preservation report, or None if it failed (a
        warning line says why)."""
        if self._closed:
            return None
        try:
            self.sync()
            report = self.engine.preserve()
        except (amber.AmberError, OSError, tk.TclError) as error:
            self._warn(f"the interface was not saved: {error}")
            return None
        self._unsaved = False
        self._warn_left_out(report)
        return report

    def save_if_changed(self) -> Optional[PreservationReport]:
        """Saves now if a change (the user's or one marked) is not saved yet; else does nothing
        and returns None. What a window's destruction calls, and the runner at the program's
        exit (a program that quits its event loop without destroying its root)."""
        if not self._launched or not self._unsaved or self._closed:
            return None
        return self.save()

    def _warn_left_out(self, report: PreservationReport) -> None:
        for entry in report.left_out:
            if entry.error is not None:
                self._warn(f"{entry.path_string} was not saved: {entry.message}")

    def restore(self) -> Report:
        """Restores the interface the last run saved, once the program has built it (``attach``
        calls it; the runner calls it when the first window maps). Returns the launch's report;
        a fresh launch for any reason but "no archive", and every widget not restored, give a
        warning line (with ``late_windows``, a widget not found is not: its window may come)."""
        self.sync()
        self._restoring = True
        try:
            # A widget callback's exception is its record's outcome (R12), warned of below.
            report = self.engine.launch()
        finally:
            self._restoring = False
            self._launched = True
        self.report = report
        windows = list(self._windows.values())
        for window in windows:
            window.claimed = True
            for view in window.views.values():
                view.claimed = True
        if report.fresh:
            if report.fresh_reason != FreshReason.NO_ARCHIVE:
                self._warn(f"fresh launch ({report.fresh_reason.name.lower().replace('_', ' ')}): {report.message}")
        else:
            self._warn_not_restored(report.records)
            self._apply_restored(windows)
            self._mark(self.root)  # the archive was consumed: write the state back soon
        return report

    def _warn_not_restored(self, records: Iterable[amber.Record]) -> None:
        for record in records:
            if record.outcome == Outcome.RESTORED or (self.late_windows and record.outcome == Outcome.NOT_FOUND):
                continue
            self._warn(f"{record.path_string} ({record.class_name}) not restored: "
                       f"{record.outcome.name.lower().replace('_', ' ')}: {record.message}")

    def close(self) -> None:
        """Stops saving, gives SIGTERM and SIGINT their previous handlers back and closes the
        engine (the root window's destruction does it)."""
        if self._closed:
            return
        self._closed = True
        for pending in (self._tick_pending, self._claim_pending):
            if pending is not None:
                try:
                    self.root.after_cancel(pending)
                except tk.TclError:
                    pass  # the root window is being destroyed, and its timers with it
        self._tick_pending = self._claim_pending = None
        if self._signal_fd is not None:
            read_end, write_end = self._signal_fd
            try:
                self.root.deletefilehandler(read_end)
            except tk.TclError:
                pass
            signal.set_wakeup_fd(-1)
            os.close(read_end)
            os.close(write_end)
            self._signal_fd = None
        for signum, handler in self._previous_handlers.items():
            signal.signal(signum, handler if handler is not None else signal.SIG_DFL)
        self._previous_handlers.clear()
        self.engine.close()

    # -- the widget tree --
    def sync(self) -> None:
        """Registers the restorable widgets made since the last call, and forgets those destroyed."""
        self._delegate().restorer = self  # its unnamed windows are matched and their titles kept
        for name, window in list(self._windows.items()):
            if not _exists(window.window):
                self._forget_window(name)
                continue
            for view_name, view in list(window.views.items()):
                if not _exists(view.widget):
                    self._forget_view(window, view_name)
        self._register(self.root)

    def _register(self, top: tk.Misc) -> None:
        windows: List[tk.Misc] = [top]
        while windows:
            window = windows.pop()
            assert isinstance(window, (tk.Tk, tk.Toplevel))
            state = self._window_for(window)
            named: List[Tuple[Optional[str], tk.Misc]]
            if self.auto_names:
                named = [(self._identifier(widget, path), widget) for path, widget in
                         _auto_paths(window, state.identifier or "")] if state is not None else []
                widgets = [widget for _, widget in named]
            else:
                widgets = _descendants(window)
                named = [(restoration_name(widget), widget) for widget in widgets]
            for identifier, widget in named:
                if state is not None and identifier is not None:
                    self._widget_for(state, widget, identifier)
            windows.extend(widget for widget in _child_windows(window, widgets))

    def _identifier(self, widget: tk.Misc, automatic_path: str) -> str:
        return automatic_path if _unnamed(widget) else restoration_name(widget) or automatic_path

    def _window_for(self, window: Union[tk.Tk, tk.Toplevel]) -> Optional[WindowState]:
        if window is not self.root and _transient_popup(window):
            return None  # a tooltip, a menu of a combobox: never the user's window
        name = self._window_identifier(window)
        if name is None:
            return None
        state = self._windows.get(name)
        if state is not None and state.window is window:
            return state
        if state is not None:
            self._forget_window(name)
        previous = self._by_path.get(str(window))
        if isinstance(previous, WindowState) and previous.identifier in self._windows:
            self._forget_window(str(previous.identifier))  # an automatic identifier that changed
        state = WindowState(self.engine, window, name, name_of=self.name_of,
                            automatic=_unnamed(window) and window is not self.root, shaped=self.auto_names,
                            made_at_launch=not self.late_windows or name in self._factories or window is self.root)
        self.engine.add_root(state)
        self._windows[name] = state
        self._by_path[str(window)] = state
        if not self.late_windows:
            state.claimed = True
        self._save_before_destroying(window)
        return state

    # -- unnamed windows: by title, else by order (``amber.tk._matching``) --
    def _delegate(self) -> _Delegate:
        return self.engine.delegate  # type: ignore[no-any-return]

    def _window_identifier(self, window: Union[tk.Tk, tk.Toplevel]) -> Optional[str]:
        """A window's identifier: its name; for an unnamed Toplevel, the one it matched, else
        (not matched yet) its automatic identifier unless another window has it, then the lowest
        index free."""
        matched = self._delegate().windows.matched.get(str(window))
        if matched is not None:
            return matched
        name = self.name_of(window)
        if name is None or window is self.root or not _unnamed(window):
            return name
        from amber.tk._matching import by_order, group_of
        used = {identifier for identifier, state in self._windows.items() if state.window is not window}
        return name if name not in used else by_order(group_of(name), used)

    def _unnamed_states(self) -> List[WindowState]:
        """The unnamed windows registered, oldest first (by their automatic index)."""
        unnamed = [state for state in self._windows.values() if state.automatic and _exists(state.window)]
        return sorted(unnamed, key=lambda state: int(auto_name(state.window).rsplit("#", 1)[1]))

    def _unnamed_titles(self) -> List[Tuple[str, str]]:
        """What a save keeps of the unnamed windows: each one's identifier and title, and those
        of the saved windows whose records it carries (kept for a window made later)."""
        windows = [(str(state.identifier), str(state.window.wm_title())) for state in self._unnamed_states()]
        used = {identifier for identifier, _ in windows}
        return windows + self._delegate().windows.carried(lambda identifier: self.late_windows and identifier not in used)

    def _match_at_launch(self) -> None:
        """Once the saved windows are read (should_restore), before the engine looks for each
        record's window: each unnamed window takes the saved one with its title, the others go by
        order; their identifiers change, so they are registered again."""
        from amber.tk._matching import group_of
        saved = self._delegate().windows
        unnamed = self._unnamed_states()
        used = {identifier for identifier, state in self._windows.items() if state not in unnamed}
        titles = [str(state.window.wm_title()) for state in unnamed]
        matches = saved.match([(group_of(auto_name(state.window)), title) for state, title in zip(unnamed, titles)], used)
        for state, title, match in zip(unnamed, titles, matches):
            saved.matched[str(state.window)] = match.identifier
            if saved.reported(match):
                self._note(match.line(title))
        self.sync()

    def _match_late_windows(self) -> None:
        """Each unnamed window that maps for the first time after the restoration, not matched
        yet, takes the kept record of its group with its title, else the lowest index free."""
        from amber.tk._matching import group_of
        saved = self._delegate().windows
        unnamed = self._unnamed_states()
        for state in unnamed:
            if state.claimed or str(state.window) in saved.matched or not _mapped(state.window):
                continue
            # The identifiers taken: the named windows', and those the others matched (not the
            # ones they have until they map: those are given up to a window that matches).
            used = {identifier for identifier, other in self._windows.items() if other not in unnamed}
            used.update(saved.matched[str(other.window)] for other in unnamed if str(other.window) in saved.matched)
            title = str(state.window.wm_title())
            match = saved.match_late(group_of(auto_name(state.window)), title, used)
            saved.matched[str(state.window)] = match.identifier
            if saved.reported(match):
                self._note(match.line(title))
        self.sync()

    def _widget_for(self, window: WindowState, widget: tk.Misc, name: str) -> None:
        existing = window.views.get(name)
        if existing is not None and existing.widget is widget:
            return
        previous = self._by_path.get(str(widget))
        if isinstance(previous, WidgetState) and previous.window is not None:
            self._forget_view(previous.window, str(previous.identifier))  # its identifier changed
        if name in window.views:
            self._forget_view(window, name)
        cls = widget.winfo_class()
        content = str(widget) in self._content
        state_class = (VALUE_CLASSES.get(cls) if self.keep_values else None) or STATE_CLASSES.get(cls) \
            or (CONTENT_CLASSES.get(cls) if content else None)
        own = self._own.get(str(widget))
        if state_class is None and own is None:
            return
        view: WidgetState = (state_class or WidgetState)(self.engine, widget, name, keep_content=content)
        if own is not None:
            view.own_encode, view.own_decode = own
        view.window = window
        view.automatic = self.auto_names and _unnamed(widget)
        view.claimed = not self.late_windows
        window.add_view(view)
        window.views[name] = view
        self._by_path[str(widget)] = view

    def _forget_view(self, window: WindowState, name: str) -> None:
        view = window.views.pop(name)
        if self._by_path.get(str(view.widget)) is view:
            del self._by_path[str(view.widget)]
        view.free()

    def _forget_window(self, name: str) -> None:
        window = self._windows.pop(name)
        for view_name in list(window.views):
            self._forget_view(window, view_name)
        if self._by_path.get(str(window.window)) is window:
            del self._by_path[str(window.window)]
        self.engine.remove_root(window)
        window.free()

    def _make_window(self, engine: Engine, path: Path, decoder: Decoder) -> Optional[WindowState]:
        """The restoration class of windows: the window that exists, else the one the
        program's factory makes (a dialog that was open), else none (not restored)."""
        name = path[-1]
        state = self._windows.get(name)
        if state is not None and _exists(state.window):
            return state
        factory = self._factories.get(name)
        if factory is None:
            return None
        made = factory()
        if not isinstance(made, (tk.Tk, tk.Toplevel)) or self.name_of(made) != name:
            self._warn(f"the factory of window {name} made {made!r}, not the Toplevel {name}")
            return None
        self._register(made)
        made_state = self._windows.get(name)
        if made_state is not None:
            made_state.claimed = True
            for view in made_state.views.values():
                view.claimed = True
        return made_state

    def _apply_restored(self, windows: List[WindowState], views: Iterable[WidgetState] = ()) -> None:
        """Puts the restored state on the widgets: the windows' sizes and the widgets that need
        no layout first (lists, tabs: the first frame, drawn when Tk first lays a window out,
        shows them); once Tk has laid the windows out at that size, the lists' scroll again and
        the other widgets; then (laid out again, only if a widget needs it) the scroll positions
        of texts and entries once more, and the focus. ``views``: widgets restored on their own,
        in windows restored before."""
        for window in windows:
            self._say_program_geometry(window)
            self._guarded(window.identifier or "?", window.apply_geometry)
        restored = [view for window in windows for view in window.views.values()] + list(views)
        for window in windows:
            self._say_skipped(window)
        applied = [view for view in restored if not view.skipped()]
        for view in applied:
            if not view.needs_layout:
                self._guarded(view.identifier or "?", view.apply_pending)
        self.root.update_idletasks()
        for view in applied:
            if view.needs_layout:
                self._guarded(view.identifier or "?", view.apply_pending)
            else:  # scrolled again: Tk limited the scroll by the size the list had before
                self._guarded(view.identifier or "?", view.apply_scroll)
        later = [view for view in applied if view.scrolls_after_layout()]
        if later:
            self.root.update_idletasks()
            for view in later:
                self._guarded(view.identifier or "?", view.apply_scroll)
        for window in windows:
            self._guarded(window.identifier or "?", window.apply_focus)

    def _say_program_geometry(self, window: WindowState) -> None:
        """One line (a note) when the program placed the window itself (``wm geometry`` with a
        position: a program that keeps its own window size) somewhere else than the geometry
        saved: the one saved, where the user left it, is the later of the two, and is applied."""
        saved = tuple(window.pending.get(key) for key in ("width", "height", "x", "y"))
        try:
            # The geometry only when the program placed the window: reading it compiles a
            # regular expression, which a restore would pay before its first frame.
            now = _geometry(window.window) if str(window.window.wm_positionfrom()) == "user" else None
        except tk.TclError:
            return
        if now is not None and all(isinstance(value, int) for value in saved) and now != saved \
                and not (window.automatic and window.shape_changed()):
            self._note(f"window {window.identifier}: the program placed it at {_geometry_text(now)}; "
                       f"the geometry saved, {_geometry_text(saved)}, replaces it")

    def _say_skipped(self, window: WindowState) -> None:
        """One line for a window saved with another shape than it has now."""
        if not window.shape_changed():
            return
        saved, now = window.pending.get("shape"), window.shape()
        automatic = [view for view in window.views.values() if view.automatic]
        what = "none of its state (an unnamed window: perhaps another one)" if window.automatic \
            else f"the state of its {len(automatic)} unnamed widgets"
        self._warn(f"window {window.identifier}: saved with another shape ({saved}, now {now}): "
                   f"{what} was not applied")

    def _guarded(self, what: str, apply: Callable[[], None]) -> None:
        try:
            apply()
        except _DOES_NOT_FIT as error:
            self._warn(_does_not_fit(what, error))

    # -- windows that appear later --
    def _on_map(self, event: "tk.Event[tk.Misc]") -> None:
        """A window (or a widget) shows: the first window to show starts the restoration when
        it was left for then (the runner), and each window shown for the first time claims the
        state kept for it (``late_windows``). A window's whole tree is built when it maps, so
        it is claimed at once (before it is drawn); other widgets are claimed together, once idle."""
        if self._closed or self._restoring:
            return
        widget = event.widget
        if isinstance(widget, (tk.Tk, tk.Toplevel)):
            self._claim()
        elif self._claim_pending is None and isinstance(widget, tk.Misc) and self.late_windows:
            try:
                self._claim_pending = self.root.after_idle(self._claim)
            except tk.TclError:
                pass

    def _claim(self) -> None:
        self._claim_pending = None
        if self._closed:
            return
        try:
            self._claim_shown()
        except (amber.AmberError, OSError, tk.TclError) as error:
            # The program goes on with the window as it made it.
            self._warn(f"the windows shown could not take their saved state: {error}")

    def _claim_shown(self) -> None:
        """Restores at the first window shown (``restore_when_shown``), else has each window
        shown for the first time, and each widget made since in a window claimed before, claim
        the state kept for it."""
        if not self._launched:
            if self.restore_when_shown:
                self.restore()
            return
        if not self.late_windows:
            return
        self.sync()
        self._match_late_windows()
        windows = [window for window in self._windows.values() if not window.claimed and _mapped(window.window)]
        views = [view for window in self._windows.values() if window.claimed
                 for view in window.views.values() if not view.claimed]
        claimed_windows, claimed_views = [], []
        for window in windows:
            window.claimed = True
            for view in window.views.values():
                view.claimed = True
            if self._claim_one(window):
                claimed_windows.append(window)
        for view in views:
            view.claimed = True
            if self._claim_one(view):
                claimed_views.append(view)
        if claimed_windows or claimed_views:
            self._apply_restored(claimed_windows, claimed_views)

    def _claim_one(self, state: Union[WindowState, WidgetState]) -> bool:
        """Claims the state kept for one window (and its widgets) or one widget (R35); False if
        none was kept for it. Its records not restored give a warning line each."""
        self._restoring = True
        try:
            errors = state.restore_pending()
        except amber.NotFoundError:
            return False
        except amber.AmberError as error:
            self._warn(f"{state.identifier}: its kept state could not be claimed: {error}")
            return False
        finally:
            self._restoring = False
        for raised in errors:
            self._warn(f"{state.identifier}: restoring it raised {type(raised).__name__}: {raised}")
        return True

    # -- when it saves --
    def _state_of(self, widget: tk.Misc) -> List[amber.Object]:
        """The restorable objects whose state a change to ``widget`` may have changed: the
        widget's own (if it is a restorable view) and its window's (focus, geometry). A widget
        made since the last sync has none yet: the next save registers it and encodes it."""
        try:
            toplevel = widget.winfo_toplevel()
        except tk.TclError:
            return []  # destroyed
        window = self._by_path.get(str(toplevel))
        if not isinstance(window, WindowState):
            return []
        view = self._by_path.get(str(widget))
        return [view, window] if isinstance(view, WidgetState) else [window]

    def _mark(self, widget: tk.Misc, *, change: bool = True) -> None:
        """Marks the state a change to ``widget`` changed, and has the event loop tick the
        engine when its autosave is due. Any change in a window not restorable (an unnamed
        one) marks the root window, so that the change is saved all the same. ``change``
        False: a window closed, saved by the autosave but not before a destruction."""
        if self._closed or self._restoring:
            return
        try:
            for state in self._state_of(widget) or self._state_of(self.root):
                state.mark_dirty()
        except amber.AmberError as error:
            self._warn(f"a change could not be marked for saving: {error}")
            return
        if change:
            self._unsaved = True
        self._schedule_tick()

    def _schedule_tick(self) -> None:
        """Sets the event loop's timer for the engine's autosave, unless one is set or nothing
        is to be saved. A change made while the timer runs moves the save later: when the timer
        fires too early, ``_tick`` sets it again."""
        if self._tick_pending is not None or self._closed:
            return
        timeout = self.engine.autosave_timeout()
        if timeout is None:
            return
        try:
            # Once due, the save waits until the program is idle: its own work comes first.
            self._tick_pending = self.root.after(timeout, lambda: self.root.after_idle(self._tick))
        except tk.TclError:
            pass  # the root window is being destroyed

    def _tick(self) -> None:
        """The timer: saves if the autosave is due (the engine decides), then sets the timer for
        the changes still unsaved (made since, or a save that failed)."""
        self._tick_pending = None
        if self._closed:
            return
        try:
            self.sync()  # widgets made since the last save
            if self.engine.tick():
                self._unsaved = False
                report = self.engine.last_preservation
                if report is not None:
                    self._warn_left_out(report)
        except (amber.AmberError, OSError, tk.TclError) as error:
            self._warn(f"the interface was not saved: {error}")
        self._schedule_tick()

    def _save_before_destroying(self, window: Union[tk.Tk, tk.Toplevel]) -> None:
        """Has the window save the interface, if a change is unsaved, before the program
        destroys it (``window.destroy()``, which destroys the widgets in it first: Tk's
        <Destroy> comes too late). A program that quits by closing its last window and then
        destroying its root (IDLE) is saved as the user left it, that window included: the
        first destruction saves, and the next ones find nothing unsaved."""
        if "destroy" in vars(window):
            return  # done already (or the program set its own on this window: left alone)
        destroy = window.destroy

        def save_then_destroy() -> None:
            self.save_if_changed()
            destroy()
        # An attribute of this window only: a subclass's destroy() still runs (it is `destroy`).
        setattr(window, "destroy", save_then_destroy)

    def _on_user_event(self, event: "tk.Event[tk.Misc]") -> None:
        # The widget is a name only for a widget Tkinter did not make (a combobox's list).
        self._mark(event.widget if isinstance(event.widget, tk.Misc) else self.root)

    def _on_close(self, previous: str) -> None:
        self.save()
        if previous:
            self.root.tk.call(previous)
        else:
            self.root.destroy()

    def _on_destroy(self, event: "tk.Event[tk.Misc]") -> None:
        if event.widget is self.root:
            self.close()
        elif isinstance(event.widget, tk.Toplevel):
            # A dialog closed: its record goes at the next save, which the window under it starts.
            self._mark(event.widget.master if event.widget.master is not None else self.root, change=False)

    def _on_signal(self, signum: int, frame: Optional[FrameType]) -> None:
        # Runs between two Python instructions: the save waits for the event loop.
        self.root.after(0, lambda: self._quit_on_signal(signum))

    def _quit_on_signal(self, signum: int) -> None:
        """Saves, then ends the program: by destroying its root (a program that attached
        itself), or (``end_with_signal``, the runner) as the signal would have without Amber,
        since a program not written for Amber may not quit when its root is gone (IDLE runs its
        event loop again while it has files open)."""
        self.save()
        if not self.end_with_signal:
            self.root.destroy()
            return
        previous = self._previous_handlers.get(signum)
        self.close()  # gives the program's handlers back
        if callable(previous) and previous is not signal.default_int_handler:
            previous(signum, None)  # the program's own handler decides
            return
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)

    def _drain_signal_pipe(self, fd: int, mask: int) -> None:
        try:
            os.read(fd, 512)
        except BlockingIOError:
            pass

    def install(self) -> None:
        """Installs the saves: on WM_DELETE_WINDOW of the root, before a window is destroyed, on
        SIGTERM and SIGINT, and after changes made with the keyboard, the mouse or the window
        manager (bindings added to the ``all`` tag with ``add="+"``: a program's own
        ``bind_all`` of the same events without ``add`` replaces them, and then ``mark_dirty``
        is its way to ask for a save). The save after changes is the engine's autosave, set in
        the constructor. Also the claims of windows as they map."""
        previous = str(self.root.protocol("WM_DELETE_WINDOW") or "")
        self.root.protocol("WM_DELETE_WINDOW", lambda: self._on_close(previous))
        for sequence in ("<KeyRelease>", "<ButtonRelease>", "<MouseWheel>", "<Button-4>", "<Button-5>",
                         "<Configure>", "<<NotebookTabChanged>>", "<<TreeviewSelect>>", "<<ListboxSelect>>",
                         "<<ComboboxSelected>>"):
            self.root.bind_all(sequence, self._on_user_event, add="+")
        self.root.bind_all("<Destroy>", self._on_destroy, add="+")
        self.root.bind_all("<Map>", self._on_map, add="+")
        self._save_before_destroying(self.root)
        # A signal wakes the Tk event loop through a pipe, so the save needs no polling.
        read_end, write_end = os.pipe()
        os.set_blocking(read_end, False)
        os.set_blocking(write_end, False)
        if signal.set_wakeup_fd(write_end) != -1:
            self._warn("a signal wake-up file descriptor was already set: SIGTERM saves at the next event")
        self._signal_fd = (read_end, write_end)
        self.root.createfilehandler(read_end, tk.READABLE, self._drain_signal_pipe)
        for signum in (signal.SIGTERM, signal.SIGINT):
            self._previous_handlers[signum] = signal.signal(signum, self._on_signal)

    def _warn(self, message: str) -> None:
        line = f"amber.tk: {message}"
        self.warnings.append(line)
        _logger().warning("%s", line)

    def _note(self, message: str) -> None:
        line = f"amber.tk: {message}"
        self.notes.append(line)
        _logger().info("%s", line)


def _exists(widget: tk.Misc) -> bool:
    try:
        return bool(widget.winfo_exists())
    except tk.TclError:
        return False


def _mapped(widget: tk.Misc) -> bool:
    try:
        return bool(widget.winfo_ismapped())
    except tk.TclError:
        return False


def _transient_popup(window: tk.Misc) -> bool:
    """A window the window manager does not manage (a tooltip, a drop-down): not restorable."""
    try:
        return bool(window.tk.call("wm", "overrideredirect", str(window)))
    except tk.TclError:
        return True


def _descendants(window: tk.Misc) -> List[tk.Misc]:
    """The widgets of a window, in the order they were made, not entering the windows in it."""
    found: List[tk.Misc] = []
    stack: List[tk.Misc] = [window]
    while stack:
        widget = stack.pop()
        for child in reversed(list(widget.children.values())):
            if not isinstance(child, (tk.Tk, tk.Toplevel)):
                found.append(child)
                stack.append(child)
    return found


def _child_windows(window: tk.Misc, widgets: Iterable[tk.Misc]) -> List[tk.Misc]:
    """The Toplevels whose parent is ``window`` or one of its widgets."""
    return [child for parent in [window, *widgets] for child in parent.children.values()
            if isinstance(child, tk.Toplevel)]


def attach(root: tk.Tk, app_id: str, *, state_directory: Optional[str] = None,
           keep_content: Iterable[Union[tk.Misc, str]] = (), windows: Optional[Dict[str, WindowFactory]] = None,
           bundle_version: Optional[str] = None, save_delay_ms: Optional[int] = None,
           restore: bool = True, auto_names: bool = False, late_windows: bool = False,
           keep_values: bool = False) -> Restorer:
    """Makes the interface of ``root`` restorable, installs its saves and, with ``restore``,
    restores what the last run saved. Call it once the interface is built.

    :param root: the Tk root window.
    :param app_id: the program's identifier, a file name ("org.example.notes").
    :param state_directory: where the archive is kept (default $XDG_STATE_HOME/<app_id>).
    :param keep_content: the widgets (or their Tk path names, for widgets made later) whose text
        (Entry, Combobox, Spinbox, Text) or value (Scale) is kept as state too.
    :param windows: for each window made on demand, by its path name (".prefs"), a function of
        no arguments that makes it and returns the Toplevel: a dialog open at the save comes back.
    :param bundle_version: the program's version, recorded in each archive.
    :param save_delay_ms: how long after the last of a burst of changes the save waits (default
        DEFAULT_SAVE_DELAY_MS): the quiet time of the engine's autosave.
    :param restore: False to call ``Restorer.restore`` later (after ``Restorer.keep``); the
        runner leaves it to the first window that maps.
    :param auto_names: unnamed widgets and windows are restorable too, by their ``auto_name``,
        and each window records its shape: a window saved with another shape gives its unnamed
        widgets no state (a warning line says so).
    :param late_windows: a window made after ``restore`` (an editor, a dialog) claims the state
        kept for it when it first maps (R35: the records are kept for the whole run).
    :param keep_values: the values of Checkbuttons, Radiobuttons, Scales, Spinboxes and
        read-only Comboboxes are kept as state (choices, not typed text: R34 stands).

    A WM_DELETE_WINDOW handler the program set on the root before ``attach`` still runs, after
    the save; one set after ``attach`` replaces the save (call ``Restorer.save`` from it)."""
    restorer = Restorer(root, app_id, state_directory=state_directory, keep_content=keep_content,
                        windows=windows, bundle_version=bundle_version, save_delay_ms=save_delay_ms,
                        auto_names=auto_names, late_windows=late_windows, keep_values=keep_values)
    restorer.install()
    if restore:
        restorer.restore()
    return restorer
