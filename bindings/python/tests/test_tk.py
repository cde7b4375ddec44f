"""amber.tk: each kind of widget's state saved by one Tk root and restored into a new one built
the same way. Needs a display ($DISPLAY, e.g. under xvfb-run); skipped without one. The real-
window tests driven with xdotool are bindings/tk/run-tests.sh."""
import os
import signal
import subprocess
import sys
import time

import pytest

tk = pytest.importorskip("tkinter")
from tkinter import ttk  # noqa: E402

import amber  # noqa: E402
import amber.tk  # noqa: E402


def _display():
    try:
        root = tk.Tk()
    except tk.TclError:
        return False
    root.destroy()
    return True


pytestmark = pytest.mark.skipif(not os.environ.get("DISPLAY") or not _display(), reason="no display")

ROWS = [f"row {i}" for i in range(100)]


def build(rows=ROWS, list_name="items"):
    """The interface, the same in both runs: a window with a Listbox, a Treeview, a Text, an
    Entry, a Notebook in a PanedWindow, and a Scale."""
    root = tk.Tk()
    root.geometry("500x400+10+10")
    split = ttk.PanedWindow(root, orient="horizontal", name="split")
    split.pack(fill="both", expand=True)
    left = ttk.Frame(split)
    listbox = tk.Listbox(left, name=list_name, selectmode="extended", exportselection=False)
    listbox.insert("end", *rows)
    listbox.pack(fill="both", expand=True)
    tree = ttk.Treeview(left, name="tree")
    for group in ("a", "b", "c"):
        tree.insert("", "end", iid=group, text=group)
        for i in range(30):
            tree.insert(group, "end", iid=f"{group}{i}", text=f"{group} {i}")
    tree.pack(fill="both", expand=True)
    split.add(left, weight=1)
    tabs = ttk.Notebook(split, name="tabs")
    page = ttk.Frame(tabs, name="page")
    text = tk.Text(page, name="text", wrap="none")
    text.insert("1.0", "\n".join(f"line {i} " + "x" * 100 for i in range(200)))
    text.pack(fill="both", expand=True)
    entry = ttk.Entry(page, name="entry")
    entry.insert(0, "some text in an entry")
    entry.pack(fill="x")
    other = ttk.Frame(tabs, name="other")
    scale = ttk.Scale(other, name="scale", from_=0, to=100)
    scale.pack(fill="x")
    tabs.add(page, text="Page")
    tabs.add(other, text="Other")
    split.add(tabs, weight=2)
    root.update_idletasks()
    return root, dict(listbox=listbox, tree=tree, text=text, entry=entry, tabs=tabs, split=split, scale=scale)


def attach(root, widgets, state_dir, **options):
    return amber.tk.attach(root, "org.example.tktest", state_directory=str(state_dir),
                           keep_content=[widgets["scale"], widgets["entry"]], **options)


def test_restoration_name_is_the_path_of_named_ancestors():
    root, w = build()
    try:
        assert amber.tk.restoration_name(root) == "."
        assert amber.tk.restoration_name(w["tree"]) == ".split.tree"  # its frame has no name
        assert amber.tk.restoration_name(w["text"]) == ".split.tabs.page.text"
        assert amber.tk.restoration_name(w["tree"].master) is None
    finally:
        root.destroy()


def test_each_widget_kind_comes_back(tmp_path):
    root, w = build()
    attach(root, w, tmp_path)
    w["listbox"].selection_set(40)
    w["listbox"].selection_set(42)
    w["listbox"].yview(35)
    w["tree"].item("b", open=True)
    w["tree"].selection_set("b7")
    w["tree"].yview_moveto(0.2)
    w["text"].mark_set("insert", "120.4")
    w["text"].tag_add("sel", "120.4", "121.2")
    w["text"].yview_moveto(0.5)
    w["entry"].icursor(4)
    w["entry"].delete(0, "end")
    w["entry"].insert(0, "edited entry text")
    w["entry"].icursor(6)
    w["scale"].set(37.5)
    w["tabs"].select(1)
    w["split"].sashpos(0, 180)
    root.update_idletasks()
    before = {"tree top": w["tree"].yview()[0], "text top": w["text"].yview()[0]}
    root.tk.call(root.protocol("WM_DELETE_WINDOW"))  # as the window manager's close button: it saves
    root, w = build()
    restorer = attach(root, w, tmp_path)
    try:
        assert not restorer.report.fresh and not restorer.warnings
        assert w["listbox"].curselection() == (40, 42)
        assert w["listbox"].nearest(0) == 35
        assert w["tree"].selection() == ("b7",) and w["tree"].item("b", "open")
        assert w["tree"].yview()[0] == pytest.approx(before["tree top"], abs=0.02)
        assert w["text"].index("insert") == "120.4"
        assert w["text"].index("sel.first") == "120.4" and w["text"].index("sel.last") == "121.2"
        assert w["entry"].get() == "edited entry text" and w["entry"].index("insert") == 6
        assert w["scale"].get() == pytest.approx(37.5)
        assert w["tabs"].index("current") == 1
        # The text is in the tab not shown: it scrolls when it is first shown.
        w["tabs"].select(0)
        root.update()
        root.update()
        assert w["text"].yview()[0] == pytest.approx(before["text top"], abs=0.01)
        assert w["split"].sashpos(0) == 180
        assert root.winfo_width() == 500 and root.winfo_height() == 400
    finally:
        root.destroy()


def test_text_is_kept_only_when_opted_in(tmp_path):
    root, w = build()
    attach(root, w, tmp_path)
    w["text"].insert("1.0", "typed ")
    w["entry"].insert(0, "typed ")
    root.tk.call(root.protocol("WM_DELETE_WINDOW"))
    root, w = build()
    attach(root, w, tmp_path)
    try:
        assert not w["text"].get("1.0", "1.6") == "typed "  # not opted in: the text is data
        assert w["entry"].get().startswith("typed ")         # opted in
    finally:
        root.destroy()


def test_a_listbox_row_that_moved_is_still_selected_and_one_removed_is_dropped(tmp_path):
    root, w = build()
    attach(root, w, tmp_path)
    w["listbox"].selection_set(10)
    w["listbox"].selection_set(20)
    root.tk.call(root.protocol("WM_DELETE_WINDOW"))
    rows = [row for row in ROWS if row != "row 20"]
    rows.insert(0, rows.pop(rows.index("row 10")))
    root, w = build(rows)
    restorer = attach(root, w, tmp_path)
    try:
        assert w["listbox"].curselection() == (0,)
        record = next(r for r in restorer.report.records if r.path_string.endswith(".items"))
        assert record.dropped_identifiers == ("row 20",)
    finally:
        root.destroy()


# Ids Tcl's list quoting must escape (a space, braces, brackets, a backslash, a trailing one, a
# quote, a newline, a leading "#", beyond ASCII, digits alone), beside an id Tk made itself and an
# item left closed.
QUOTED_IDS = ["group a", "{brace", "close}", "[bracket]", "back\\slash", "ends\\", 'say "hi"', "two\nlines",
              "#hash", "café", "7", "closed"]


def build_open_tree():
    root = tk.Tk()
    tree = ttk.Treeview(root, name="tree")
    parents = [tree.insert("", "end", iid=name, text=name) for name in QUOTED_IDS]
    parents.append(tree.insert("", "end", text="Tk's own id"))  # I001, I002, ...: Tk names it
    for n, parent in enumerate(parents):
        tree.insert(parent, "end", iid=f"child{n}", text="child")
    tree.pack()
    root.update_idletasks()
    return root, tree, parents


def save_open_tree(tmp_path, opened):
    root, tree, parents = build_open_tree()
    amber.tk.attach(root, "org.example.tree", state_directory=str(tmp_path))
    for parent in parents:
        if opened(parent):
            tree.item(parent, open=True)
    tree.selection_set("café")
    close(root)


def open_flags(tree, parents):
    return [bool(tree.item(parent, "open")) for parent in parents]


def test_treeview_items_whose_ids_tcl_quotes_come_back_open(tmp_path):
    """Open items are saved as a Tcl list's text: ids its quoting escapes come back open, and an
    item left closed stays closed."""
    save_open_tree(tmp_path, lambda parent: parent != "closed")
    root, tree, parents = build_open_tree()
    restorer = amber.tk.attach(root, "org.example.tree", state_directory=str(tmp_path))
    try:
        assert not restorer.warnings
        assert parents[-1] not in QUOTED_IDS
        assert open_flags(tree, parents) == [True] * (len(QUOTED_IDS) - 1) + [False, True]
    finally:
        root.destroy()


def test_a_treeview_with_no_open_item_comes_back_with_none(tmp_path):
    save_open_tree(tmp_path, lambda parent: False)
    root, tree, parents = build_open_tree()
    restorer = amber.tk.attach(root, "org.example.tree", state_directory=str(tmp_path))
    try:
        assert not restorer.warnings
        assert not any(open_flags(tree, parents)) and tree.selection() == ("café",)
    finally:
        root.destroy()


def test_a_treeview_restored_with_open_items_imports_no_json(tmp_path):
    """The launch reads the open items with Tcl's splitlist: restoring them, before the first
    frame, imports no module for it (json was one)."""
    save_open_tree(tmp_path, lambda parent: parent == "group a")
    code = f"""
import sys, tkinter as tk
from tkinter import ttk
import amber.tk
root = tk.Tk()
tree = ttk.Treeview(root, name="tree")
tree.insert("", "end", iid="group a", text="group a")
tree.insert("group a", "end", iid="child", text="child")
tree.pack()
amber.tk.attach(root, "org.example.tree", state_directory={str(tmp_path)!r})
opened = bool(tree.item("group a", "open"))
root.destroy()
sys.exit(0 if opened and "json" not in sys.modules else 1)
"""
    assert subprocess.run([sys.executable, "-c", code], env=os.environ, timeout=60).returncode == 0


@pytest.mark.parametrize("value, warned", [("{unclosed", True), ('"unclosed', True), (7, False),
                                           (b"{group a}", False)])
def test_treeview_open_items_that_cannot_be_read_leave_the_items_closed_and_the_rest_comes_back(
        tmp_path, monkeypatch, caplog, value, warned):
    """A damaged value leaves the items closed and the selection comes back: text that is not a
    Tcl list (an unbalanced brace or quote) with one warning, a value of another type left out as
    every value of another type is (an int and bytes that would name items if they were read)."""
    def encode_damaged(self, coder):
        coder["openItems"] = value
    with monkeypatch.context() as patch:
        patch.setattr(amber.tk.TreeviewState, "encode_widget", encode_damaged)
        save_open_tree(tmp_path, lambda parent: True)
    root, tree, parents = build_open_tree()
    amber.tk.attach(root, "org.example.tree", state_directory=str(tmp_path))
    try:
        lines = [r.getMessage() for r in caplog.records if "open items" in r.getMessage()]
        assert lines == (["amber.tk: .tree: the open items saved cannot be read; they stay closed"] if warned else [])
        assert not any(open_flags(tree, parents))
        assert tree.selection() == ("café",)
    finally:
        root.destroy()


def make_list(root, kind, rows):
    """A Listbox or a ttk.Treeview named "widget", of ``rows`` rows ("row 0", ...; the tree's
    item ids "r0", ...)."""
    if kind == "listbox":
        widget = tk.Listbox(root, name="widget")
        widget.insert("end", *[f"row {i}" for i in range(rows)])
        return widget
    widget = ttk.Treeview(root, name="widget")
    for i in range(rows):
        widget.insert("", "end", iid=f"r{i}", text=f"row {i}")
    return widget


@pytest.mark.parametrize("kind", ["listbox", "treeview", "notebook"])
def test_the_first_frame_tk_draws_shows_the_restored_list_and_tab(tmp_path, monkeypatch, kind):
    """Tk maps and draws a window when it first lays it out: a list's rows and a notebook's tab
    are on the widget before that, so the first frame shows them, not the program's own state
    (the row drawn first was row 0, and the first tab)."""
    def build_window():
        root = tk.Tk()
        root.geometry("400x300")
        if kind == "notebook":
            widget = ttk.Notebook(root, name="widget")
            for name in ("one", "two", "three"):
                widget.add(ttk.Frame(widget, name=name), text=name)
        else:
            widget = make_list(root, kind, 500)
        widget.pack(fill="both", expand=True)
        return root, widget

    def shown(widget):  # what the widget shows: its tab, or its first row and the selection
        if kind == "notebook":
            return widget.index(widget.select())
        selection = widget.curselection() if kind == "listbox" else widget.selection()
        return round(float(widget.yview()[0]) * 500), tuple(str(item) for item in selection)

    root, widget = build_window()
    amber.tk.attach(root, "org.example.first", state_directory=str(tmp_path))
    root.update_idletasks()
    if kind == "notebook":
        widget.select(2)
    elif kind == "listbox":
        widget.selection_set(400); widget.yview(400)
    else:
        widget.selection_set("r400"); widget.yview_moveto(0.8)
    saved = shown(widget)
    close(root)

    root, widget = build_window()
    at_first_layout = []
    layout = tk.Misc.update_idletasks

    def update_idletasks(self):
        layout(self)
        if not at_first_layout and root.winfo_ismapped():
            at_first_layout.append(shown(widget))
    monkeypatch.setattr(tk.Misc, "update_idletasks", update_idletasks)
    amber.tk.attach(root, "org.example.first", state_directory=str(tmp_path))
    try:
        assert at_first_layout == [saved]
    finally:
        root.destroy()


@pytest.mark.parametrize("kind", ["listbox", "treeview"])
def test_a_list_scrolled_to_its_end_comes_back_there_when_the_program_laid_its_window_out_larger(
        tmp_path, kind):
    """Tk limits a scroll by the size a list has when it is asked: a list restored into a window
    the program had already laid out at a larger size (more rows fit, so the last top row is an
    earlier one) scrolls again once laid out at the restored size."""
    def build_window(size):
        root = tk.Tk()
        root.geometry(size)
        widget = make_list(root, kind, 60)
        widget.pack(fill="both", expand=True)
        root.update_idletasks()  # the program lays its window out before attaching
        return root, widget

    def top(widget):
        return round(float(widget.yview()[0]) * 60)

    root, widget = build_window("300x150")
    amber.tk.attach(root, "org.example.end", state_directory=str(tmp_path))
    widget.yview_moveto(1.0)
    root.update_idletasks()
    saved = top(widget)
    close(root)
    assert saved > 40

    root, widget = build_window("500x900")  # every row fits at this size
    amber.tk.attach(root, "org.example.end", state_directory=str(tmp_path))
    try:
        root.update_idletasks()
        assert (root.winfo_width(), root.winfo_height()) == (300, 150)
        assert top(widget) == saved
    finally:
        root.destroy()


def notebook_window(size):
    """A window of ``size`` holding a notebook "tabs" of two pages, "page0" and "page1"."""
    root = tk.Tk()
    root.geometry(size)
    tabs = ttk.Notebook(root, name="tabs")
    tabs.pack(fill="both", expand=True)
    pages = [ttk.Frame(tabs, name=f"page{i}") for i in range(2)]
    for i, page in enumerate(pages):
        tabs.add(page, text=f"page {i}")
    return root, tabs, pages


@pytest.mark.parametrize("split_kind", ["ttk", "tk"])
@pytest.mark.parametrize("content_page, shown_page", [(0, 1), (1, 0)])
def test_state_on_a_notebook_page_not_shown_goes_on_when_shown_and_a_save_before_keeps_it(
        tmp_path, split_kind, content_page, shown_page):
    """On a page not shown, a ttk split (never laid out) would take every sash at 0, and a list
    scrolls by the size the program gave it: their state goes on when the page is first shown.
    A save before that (a launch closed without showing the page) keeps the state restored, not
    what the widgets show. A classic split takes its sashes at once."""
    def build_window():
        root, tabs, pages = notebook_window("700x700")
        if split_kind == "ttk":
            split = ttk.PanedWindow(pages[content_page], orient="horizontal", name="split")
        else:
            split = tk.PanedWindow(pages[content_page], orient="horizontal", name="split")
        split.pack(fill="both", expand=True)
        listbox = tk.Listbox(split, name="list")
        listbox.insert("end", *[f"row {i}" for i in range(60)])
        text = tk.Text(split, name="text", wrap="none")
        text.insert("1.0", "\n".join(f"line {i}" for i in range(300)))
        split.add(listbox)
        split.add(text)
        root.update_idletasks()  # the program lays its window out before attaching
        return root, tabs, split, listbox, text

    def sash(split):
        return int(split.sashpos(0)) if split_kind == "ttk" else int(split.sash_coord(0)[0])

    def shown(tabs, split, listbox, text):
        root = tabs.winfo_toplevel()
        tabs.select(content_page)
        root.update()
        root.update()
        return sash(split), int(listbox.nearest(0)), text.index("@0,0")

    root, tabs, split, listbox, text = build_window()
    amber.tk.attach(root, "org.example.pages", state_directory=str(tmp_path))
    root.geometry("400x200")
    tabs.select(content_page)
    root.update_idletasks()
    if split_kind == "ttk":
        split.sashpos(0, 150)
    else:
        split.sash_place(0, 150, 1)
    listbox.yview_moveto(1.0)
    text.yview(150)
    root.update_idletasks()
    saved = sash(split), int(listbox.nearest(0)), text.index("@0,0")
    tabs.select(shown_page)
    root.update_idletasks()
    close(root)
    assert saved[1] > 40 and saved[2] == "151.0"

    root, tabs, split, listbox, text = build_window()  # a launch closed without showing the page
    amber.tk.attach(root, "org.example.pages", state_directory=str(tmp_path))
    if content_page == shown_page:
        pytest.fail("the page must not be shown")
    close(root)

    root, tabs, split, listbox, text = build_window()
    amber.tk.attach(root, "org.example.pages", state_directory=str(tmp_path))
    try:
        assert tabs.index("current") == shown_page
        assert shown(tabs, split, listbox, text) == saved
    finally:
        root.destroy()


def test_state_applied_when_its_page_is_shown_that_does_not_fit_gives_a_warning_line(tmp_path, monkeypatch, caplog):
    """State put on when its page is first shown goes through the same guard as the rest: a
    Tcl error there is a warning line, not a traceback in the program's event loop."""
    def build_window():
        root, tabs, pages = notebook_window("500x300")
        split = ttk.PanedWindow(pages[0], orient="horizontal", name="split")
        split.pack(fill="both", expand=True)
        split.add(tk.Listbox(split))
        split.add(tk.Text(split))
        return root, tabs, split

    root, tabs, split = build_window()
    amber.tk.attach(root, "org.example.guard", state_directory=str(tmp_path))
    root.update_idletasks()
    split.sashpos(0, 150)
    tabs.select(1)
    root.update_idletasks()
    close(root)

    root, tabs, split = build_window()
    amber.tk.attach(root, "org.example.guard", state_directory=str(tmp_path))
    failures = []
    root.report_callback_exception = lambda *failure: failures.append(failure)
    tcl = amber.tk._tcl

    def refusing_sashes(widget, *args):
        if args[:1] == ("sashpos",) and len(args) == 3:
            raise tk.TclError("the sash refused")
        return tcl(widget, *args)
    monkeypatch.setattr(amber.tk, "_tcl", refusing_sashes)
    try:
        tabs.select(0)
        root.update()
        root.update()
        lines = [r.getMessage() for r in caplog.records if "does not fit" in r.getMessage()]
        assert lines == ["amber.tk: .tabs.page0.split: its restored state does not fit the widget now "
                         "(the sash refused); it keeps its own"]
        assert failures == []
    finally:
        root.destroy()


def test_a_window_the_program_did_not_place_is_restored_without_reading_its_geometry(tmp_path, monkeypatch):
    """Whether the program placed the window itself is asked first: the geometry, whose regular
    expression a restore would otherwise compile before the first frame, is read only then."""
    def build_unplaced():
        root = tk.Tk()
        root.geometry("300x200")  # a size, no position: not placed by the program
        ttk.Entry(root, name="entry").pack()
        root.update_idletasks()
        return root
    root = build_unplaced()
    amber.tk.attach(root, "org.example.unplaced", state_directory=str(tmp_path))
    root.geometry("350x220+40+30")
    root.update_idletasks()
    close(root)
    read = []
    geometry = amber.tk._geometry
    monkeypatch.setattr(amber.tk, "_geometry", lambda window: read.append(window) or geometry(window))
    root = build_unplaced()
    restorer = amber.tk.attach(root, "org.example.unplaced", state_directory=str(tmp_path))
    try:
        root.update_idletasks()
        assert read == [] and not restorer.notes and not restorer.warnings
        assert root.wm_geometry() == "350x220+40+30"
    finally:
        root.destroy()


def test_a_widget_renamed_gives_a_warning_and_the_rest_comes_back(tmp_path):
    root, w = build()
    attach(root, w, tmp_path)
    w["tabs"].select(1)
    root.tk.call(root.protocol("WM_DELETE_WINDOW"))
    root, w = build(list_name="renamed")
    restorer = attach(root, w, tmp_path)
    try:
        assert w["tabs"].index("current") == 1
        assert any(".split.items (Listbox) not restored: not found" in line for line in restorer.warnings)
    finally:
        root.destroy()


def test_a_dialog_open_at_the_save_is_made_again_by_its_factory(tmp_path):
    def open_dialog(root):
        dialog = tk.Toplevel(root, name="dialog")
        dialog.geometry("200x100+600+10")
        entry = ttk.Entry(dialog, name="field")
        entry.pack()
        return dialog

    root, w = build()
    attach(root, w, tmp_path, windows={".dialog": lambda: open_dialog(root)})
    dialog = open_dialog(root)
    dialog.nametowidget("field").insert(0, "abc")
    dialog.nametowidget("field").icursor(2)
    root.tk.call(root.protocol("WM_DELETE_WINDOW"))
    root, w = build()
    made = []
    attach(root, w, tmp_path, windows={".dialog": lambda: made.append(1) or open_dialog(root)})
    try:
        assert made == [1]
        dialog = root.nametowidget(".dialog")
        assert dialog.nametowidget("field").index("insert") == 0  # its text was not kept: nothing to put a cursor in
        root.update_idletasks()
        assert (dialog.winfo_width(), dialog.winfo_height()) == (200, 100)
    finally:
        root.destroy()


def test_r9_an_archive_from_another_app_is_refused_by_the_engine(tmp_path):
    # R9 (issue 39, item 9): the engine, not amber.tk, refuses another app's archive, with one reason.
    root, w = build()
    amber.tk.attach(root, "org.example.other", state_directory=str(tmp_path))
    w["tabs"].select(1)
    root.tk.call(root.protocol("WM_DELETE_WINDOW"))
    root, w = build()
    restorer = attach(root, w, tmp_path)
    try:
        assert restorer.report.fresh and restorer.report.fresh_reason == amber.FreshReason.OTHER_APPLICATION == 11
        assert w["tabs"].index("current") == 0
        assert len(restorer.warnings) == 1
        assert restorer.warnings[0].startswith("amber.tk: fresh launch (other application): ")
        assert "'org.example.other', not by 'org.example.tktest'" in restorer.warnings[0]
        assert not (tmp_path / "state.archive").exists()  # discarded
    finally:
        root.destroy()


def run_loop(root, seconds):
    """The Tk event loop for a while, as mainloop() would run it."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        root.update()
        time.sleep(0.01)


def test_a_change_is_saved_by_the_engines_autosave_a_delay_after_it_and_nothing_without(tmp_path):
    archive = tmp_path / "state.archive"
    root, w = build()
    restorer = attach(root, w, tmp_path, save_delay_ms=300)
    def written():
        return (archive.stat().st_ino, archive.stat().st_mtime_ns) if archive.exists() else None
    try:
        run_loop(root, 0.8)  # the window shown (its <Configure> counts as a change) and saved
        before = written()
        run_loop(root, 0.5)  # no change: no save, nothing for the event loop to wait for
        assert written() == before and restorer.engine.autosave_timeout() is None
        w["listbox"].selection_set(7)
        w["listbox"].event_generate("<<ListboxSelect>>")  # as a click would
        assert restorer.engine.autosave_timeout() is not None
        run_loop(root, 0.1)
        assert written() == before  # not before the delay
        run_loop(root, 0.6)
        assert written() not in (None, before) and restorer.engine.autosave_timeout() is None
        w["tabs"].select(1)
        restorer.mark_dirty(w["tabs"])  # a change made by the program
        run_loop(root, 0.8)
    finally:
        root.destroy()  # without the close button: only the autosave saved
    root, w = build()
    attach(root, w, tmp_path)
    try:
        assert w["listbox"].curselection() == (7,) and w["tabs"].index("current") == 1
    finally:
        root.destroy()


def test_close_gives_the_signal_handlers_back(tmp_path):
    before = signal.getsignal(signal.SIGTERM)
    root, w = build()
    attach(root, w, tmp_path)
    assert signal.getsignal(signal.SIGTERM) is not before
    root.destroy()
    assert signal.getsignal(signal.SIGTERM) is before


def test_import_amber_does_not_import_tkinter():
    code = "import sys, amber; sys.exit(1 if 'tkinter' in sys.modules or 'amber.tk' in sys.modules else 0)"
    assert subprocess.run([sys.executable, "-c", code], env=os.environ).returncode == 0


def test_a_state_directory_that_cannot_be_used_gives_warnings_not_a_crash(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    root, w = build()
    restorer = attach(root, w, blocker / "state")
    try:
        assert restorer.report.fresh and restorer.report.fresh_reason == amber.FreshReason.STORE_ERROR
        assert restorer.save() is None
        assert [line.split(":")[1].strip() for line in restorer.warnings] == [
            "fresh launch (store error)", "the interface was not saved"]
    finally:
        root.destroy()


def test_a_named_widget_keeps_state_of_the_programs_own_beside_its_standard_state(tmp_path):
    root, w = build()
    restorer = attach(root, w, tmp_path, restore=False)
    zoom = {"level": 3}
    restorer.keep(w["text"], encode=lambda coder: coder.update({"zoom": zoom["level"]}),
                  decode=lambda decoder: zoom.update(level=decoder.decode_int("zoom")))
    restorer.restore()
    w["text"].mark_set("insert", "5.2")
    zoom["level"] = 7
    root.tk.call(root.protocol("WM_DELETE_WINDOW"))
    zoom["level"] = 0
    root, w = build()
    restorer = attach(root, w, tmp_path, restore=False)
    restorer.keep(w["text"], encode=lambda coder: None,
                  decode=lambda decoder: zoom.update(level=decoder.decode_int("zoom")))
    restorer.restore()
    try:
        assert zoom["level"] == 7 and w["text"].index("insert") == "5.2"
    finally:
        root.destroy()


def test_a_decode_callback_that_raises_gives_a_warning_and_the_rest_comes_back(tmp_path):  # R12
    """The program's own decode callback raises at restoration: its widget's record is a decode
    error, named in a warning line with the exception, and restore() goes on (launch() reports
    it, as C does, rather than raising)."""
    root, w = build()
    restorer = attach(root, w, tmp_path, restore=False)
    restorer.keep(w["text"], encode=lambda coder: coder.update({"zoom": 3}), decode=lambda decoder: None)
    restorer.restore()
    w["tabs"].select(1)
    root.tk.call(root.protocol("WM_DELETE_WINDOW"))
    root, w = build()
    restorer = attach(root, w, tmp_path, restore=False)

    def fails(decoder):
        raise LookupError("no zoom level")
    restorer.keep(w["text"], encode=lambda coder: None, decode=fails)
    report = restorer.restore()
    try:
        assert w["tabs"].index("current") == 1
        assert [type(error) for error in report.errors] == [LookupError]
        assert any(".split.tabs.page.text (" in line and "not restored: decode error" in line
                   and "LookupError: no zoom level" in line for line in restorer.warnings), restorer.warnings
    finally:
        root.destroy()


def test_a_value_saved_with_another_type_is_left_out_and_the_rest_comes_back(tmp_path, monkeypatch):
    """A widget's values are read in one typed call; an archive with another type under one
    key (another version's: here the Text's cursor written as text) is read key by key, that
    value left out, the others applied, and no exception reaches the program."""
    def another_version(state, coder):
        coder.update({"cursor": "5.2", "yview": float(state.text.yview()[0]), "xview": 0.0})
    monkeypatch.setattr(amber.tk.TextState, "encode_widget", another_version)
    root, w = build()
    attach(root, w, tmp_path)
    w["text"].yview(50)
    close(root)
    monkeypatch.undo()
    root, w = build()
    built_with = w["text"].index("insert")
    attach(root, w, tmp_path)
    try:
        root.update_idletasks()
        assert w["text"].index("@0,0") == "51.0" and w["text"].index("insert") == built_with != "5.2"
    finally:
        root.destroy()


# ---- issue 40: programs not written for Amber --------------------------------------------------

def close(root):
    """Closes the root window as the window manager's close button does: it saves."""
    root.tk.call(root.protocol("WM_DELETE_WINDOW"))


def build_unnamed(extra_text_first=False):
    """A window whose widgets have no names, as most programs build them."""
    root = tk.Tk()
    root.geometry("400x300+30+40")
    frame = tk.Frame(root)
    frame.pack(fill="both", expand=True)
    if extra_text_first:
        tk.Text(frame, height=2).pack()  # a new version of the program: another widget first
    listbox = tk.Listbox(frame, exportselection=False)
    listbox.insert("end", *ROWS)
    listbox.pack(fill="both", expand=True)
    text = tk.Text(frame, height=5)
    text.insert("1.0", "\n".join(f"line {i}" for i in range(100)))
    text.pack()
    root.update_idletasks()
    return root, listbox, text


def test_auto_name_is_the_type_and_index_among_unnamed_siblings_of_that_type():
    # Issue 40, item 2: automatic identifiers.
    root = tk.Tk()
    try:
        frame = tk.Frame(root)
        first, named, second = tk.Text(frame), tk.Text(frame, name="notes"), tk.Text(frame)
        tk.Text(frame).destroy()  # destroyed: Tk's own names count it, automatic ones do not
        third = tk.Text(frame)
        assert str(third).endswith("!text4")
        assert [amber.tk.auto_name(w) for w in (first, second, third)] == [
            ".Frame#1.Text#1", ".Frame#1.Text#2", ".Frame#1.Text#3"]
        assert amber.tk.restoration_name(named, auto_names=True) == ".notes"  # a name wins
        assert amber.tk.restoration_name(first) is None                       # off by default
        window = tk.Toplevel(root)
        assert amber.tk.restoration_name(window, auto_names=True) == ".Toplevel#1"
    finally:
        root.destroy()


def test_with_auto_names_unnamed_widgets_come_back(tmp_path):
    root, listbox, text = build_unnamed()
    amber.tk.attach(root, "org.example.auto", state_directory=str(tmp_path), auto_names=True)
    listbox.selection_set(42)
    listbox.yview(40)
    text.mark_set("insert", "30.2")
    close(root)
    root, listbox, text = build_unnamed()
    restorer = amber.tk.attach(root, "org.example.auto", state_directory=str(tmp_path), auto_names=True)
    try:
        assert not restorer.warnings
        assert listbox.curselection() == (42,) and listbox.nearest(0) == 40
        assert text.index("insert") == "30.2"
    finally:
        root.destroy()


def test_an_interface_changed_between_runs_gives_no_state_to_its_unnamed_widgets_and_one_line(tmp_path):
    # Issue 40, item 2 and 'Must show': a new version of the program, one report line.
    root, listbox, text = build_unnamed()
    amber.tk.attach(root, "org.example.auto", state_directory=str(tmp_path), auto_names=True)
    listbox.selection_set(42)
    text.mark_set("insert", "30.2")
    root.geometry("420x310+60+70")
    root.update_idletasks()
    close(root)
    root, listbox, text = build_unnamed(extra_text_first=True)  # Text#1 is now another widget
    restorer = amber.tk.attach(root, "org.example.auto", state_directory=str(tmp_path), auto_names=True)
    try:
        first_text = root.nametowidget(".!frame.!text")
        assert "30.2" not in (first_text.index("insert"), text.index("insert"))  # nothing on the wrong widget
        assert listbox.curselection() == ()
        assert len(restorer.warnings) == 1, restorer.warnings
        assert restorer.warnings[0].startswith("amber.tk: window .: saved with another shape (")
        assert "the state of its 3 unnamed widgets was not applied" in restorer.warnings[0]
        root.update_idletasks()
        assert root.wm_geometry() == "420x310+60+70"  # the window itself is the same one
    finally:
        root.destroy()


def make_editor(root, lines):
    """An unnamed Toplevel with an unnamed Text, as IDLE's editor windows are."""
    window = tk.Toplevel(root)
    text = tk.Text(window)
    text.insert("1.0", "\n".join(f"{lines} line {i}" for i in range(200)))
    text.pack()
    return window, text


def run_until(root, condition):
    """The event loop until ``condition()`` holds (a test that waits: no fixed sleep)."""
    for _ in range(500):
        root.update()
        if condition():
            return
        time.sleep(0.01)
    raise AssertionError("the condition never held")


def attach_late(root, tmp_path):
    return amber.tk.attach(root, "org.example.late", state_directory=str(tmp_path), auto_names=True,
                           late_windows=True)


def test_windows_made_later_claim_their_state_when_they_map_two_of_one_type_each_their_own(tmp_path):
    # Issue 40, item 3; R35: kept records claimed by windows made later; two windows of one type.
    root = tk.Tk()
    attach_late(root, tmp_path)
    save_two_editors(root, titles=None)
    root = tk.Tk()
    restorer = attach_late(root, tmp_path)  # no editor yet: their records are kept
    try:
        assert not restorer.warnings
        (one, text1), (two, text2) = make_editor(root, "a"), make_editor(root, "b")
        run_until(root, lambda: text2.index("insert") == "150.1")
        assert text1.index("insert") == "12.3"
        root.update_idletasks()
        assert two.wm_geometry() == "300x200+200+210"
        assert not restorer.warnings
    finally:
        root.destroy()


def make_editors(root, titles, reversed_order=False):
    """The editors of a.txt and b.txt (unnamed Toplevels with a Text), titled before they map
    (unless `titles` is None), made in this order or the other; returned a.txt's first."""
    editors = {}
    for which in (("b", "a") if reversed_order else ("a", "b")):
        editors[which] = make_editor(root, which)
        if titles is not None:
            editors[which][0].title(titles[which])
    return editors["a"], editors["b"]


def save_two_editors(root, titles):
    """a.txt's editor with its cursor at 12.3, b.txt's at 150.1 and placed at 300x200+200+210."""
    (one, text1), (two, text2) = make_editors(root, titles)
    run_until(root, lambda: one.winfo_ismapped() and two.winfo_ismapped())
    text1.mark_set("insert", "12.3")
    text2.mark_set("insert", "150.1")
    two.geometry("300x200+200+210")
    root.update_idletasks()
    close(root)


FILE_TITLES = {"a": "a.txt - Editor", "b": "b.txt - Editor"}


def reopen_reversed(tmp_path, titles):
    """Saves the two editors with `titles`, then makes them again in the other order and
    attaches: the new root, the restorer, and (window, text) of a's and b's editors."""
    root = tk.Tk()
    amber.tk.attach(root, "org.example.titles", state_directory=str(tmp_path), auto_names=True)
    save_two_editors(root, titles)
    root = tk.Tk()
    a, b = make_editors(root, titles, reversed_order=True)
    root.update_idletasks()
    restorer = amber.tk.attach(root, "org.example.titles", state_directory=str(tmp_path), auto_names=True)
    return root, restorer, a, b


def test_two_unnamed_windows_of_one_type_reopened_in_the_other_order_each_get_their_own_state_by_title(tmp_path):
    # Issue 40, item 3: two windows of one type, no state on the wrong window, one line each.
    root, restorer, (one, text1), (two, text2) = reopen_reversed(tmp_path, FILE_TITLES)
    try:
        assert not restorer.warnings
        assert text1.index("insert") == "12.3" and text2.index("insert") == "150.1"
        assert two.wm_geometry() == "300x200+200+210"
        assert sorted(restorer.notes) == ["amber.tk: window .Toplevel#1: its state matched by title ('a.txt - Editor')",
                                          "amber.tk: window .Toplevel#2: its state matched by title ('b.txt - Editor')"]
    finally:
        root.destroy()


def test_two_unnamed_windows_made_later_in_the_other_order_claim_their_own_state_by_title(tmp_path):
    # Issue 40, item 3; R35: the kept records claimed when the windows map, by their titles.
    root = tk.Tk()
    attach_late(root, tmp_path)
    save_two_editors(root, FILE_TITLES)
    root = tk.Tk()
    restorer = attach_late(root, tmp_path)  # no editor yet: their records are kept
    try:
        (one, text1), (two, text2) = make_editors(root, FILE_TITLES, reversed_order=True)
        run_until(root, lambda: text2.index("insert") == "150.1" and len(restorer.notes) == 2)
        assert text1.index("insert") == "12.3"
        root.update_idletasks()
        assert two.wm_geometry() == "300x200+200+210"
        assert not restorer.warnings
        # Which identifier each has is the order they first mapped in at the save: not checked.
        assert sorted(note.split(": ", 2)[2] for note in restorer.notes) == [
            "its state matched by title ('a.txt - Editor')", "its state matched by title ('b.txt - Editor')"]
    finally:
        root.destroy()


def test_two_unnamed_windows_with_equal_titles_reopened_in_the_other_order_go_by_order_and_say_why(tmp_path):
    # Issue 40, item 3: equal titles tell nothing apart; the order decides, as it did before.
    root, restorer, (one, text1), (two, text2) = reopen_reversed(tmp_path, {"a": "Editor", "b": "Editor"})
    try:
        assert not restorer.warnings
        # b.txt's editor was made first: it takes the first saved state, a.txt's.
        assert text2.index("insert") == "12.3" and text1.index("insert") == "150.1"
        why = "its state matched by order: 2 windows of its type were saved with its title 'Editor'"
        assert sorted(restorer.notes) == [f"amber.tk: window .Toplevel#1: {why}", f"amber.tk: window .Toplevel#2: {why}"]
    finally:
        root.destroy()


def test_a_window_of_another_shape_in_a_saved_windows_place_gets_none_of_its_state(tmp_path):
    root = tk.Tk()
    attach_late(root, tmp_path)
    editor, text = make_editor(root, "a")
    editor.geometry("300x200+200+210")
    run_until(root, editor.winfo_ismapped)
    text.mark_set("insert", "12.3")
    close(root)
    root = tk.Tk()
    restorer = attach_late(root, tmp_path)
    try:
        dialog = tk.Toplevel(root)  # the first unnamed Toplevel now: another window
        entry = ttk.Entry(dialog)
        entry.pack()
        run_until(root, lambda: dialog.winfo_ismapped() and restorer.warnings)
        assert dialog.wm_geometry() != "300x200+200+210"
        assert len(restorer.warnings) == 1
        assert "window .Toplevel#1: saved with another shape" in restorer.warnings[0]
        assert "none of its state" in restorer.warnings[0]
    finally:
        root.destroy()


def test_a_window_with_a_menu_bar_stays_where_it_was_left(tmp_path):
    # Issue 40, item 5: window position through the geometry the window manager uses.
    # The position is the window manager's (wm geometry), not winfo_y, below the menu bar.
    for _ in range(3):
        root = tk.Tk()
        menu = tk.Menu(root)
        menu.add_command(label="File")
        root.config(menu=menu)
        root.geometry("300x200+50+60")
        amber.tk.attach(root, "org.example.menu", state_directory=str(tmp_path))
        root.update()
        assert root.wm_geometry() == "300x200+50+60"
        assert root.winfo_y() > 60  # the client area is below the menu bar
        close(root)


def test_a_program_that_quits_by_destroying_its_root_saves_first(tmp_path):
    # Issue 40, item 5: a Tk program that quits by destroying its root saves first.
    root, listbox, text = build_unnamed()
    amber.tk.attach(root, "org.example.auto", state_directory=str(tmp_path), auto_names=True,
                    save_delay_ms=60000)
    listbox.selection_set(7)
    listbox.event_generate("<<ListboxSelect>>")  # as a click: a change, not saved yet
    root.destroy()                              # as IDLE quits: no close button, no autosave
    root, listbox, text = build_unnamed()
    amber.tk.attach(root, "org.example.auto", state_directory=str(tmp_path), auto_names=True)
    try:
        assert listbox.curselection() == (7,)
    finally:
        root.destroy()


def test_a_program_that_saves_its_own_window_size_gets_the_one_saved_and_one_note(tmp_path):
    def build(own):
        root = tk.Tk()
        root.geometry(own)  # the program's own saved geometry
        ttk.Entry(root).pack()
        root.update_idletasks()
        return root
    root = build("300x200+10+10")
    amber.tk.attach(root, "org.example.own", state_directory=str(tmp_path), auto_names=True)
    root.geometry("350x220+40+30")
    root.update_idletasks()
    close(root)
    root = build("320x210+20+20")  # the program kept another one
    restorer = amber.tk.attach(root, "org.example.own", state_directory=str(tmp_path), auto_names=True)
    try:
        root.update_idletasks()
        assert root.wm_geometry() == "350x220+40+30"
        assert not restorer.warnings
        assert restorer.notes == ["amber.tk: window .: the program placed it at 320x210+20+20; "
                                  "the geometry saved, 350x220+40+30, replaces it"]
    finally:
        root.destroy()


def build_values():
    root = tk.Tk()
    check = tk.BooleanVar(root, value=False)
    choice = tk.StringVar(root, value="a")
    tk.Checkbutton(root, variable=check).pack()
    for value in ("a", "b", "c"):
        ttk.Radiobutton(root, variable=choice, value=value).pack()
    combo = ttk.Combobox(root, values=("red", "green", "blue"), state="readonly")
    combo.set("red")
    combo.pack()
    free = ttk.Combobox(root, values=("x", "y"))
    free.pack()
    spin = tk.Spinbox(root, from_=0, to=10)
    spin.pack()
    scale = tk.Scale(root, from_=0, to=100)
    scale.pack()
    canvas = tk.Canvas(root, width=100, height=100, scrollregion=(0, 0, 1000, 1000))
    canvas.pack()
    root.update_idletasks()
    return root, dict(check=check, choice=choice, combo=combo, free=free, spin=spin, scale=scale, canvas=canvas)


def test_values_of_toggles_choices_scales_and_canvas_scroll_come_back_typed_text_does_not(tmp_path):
    # Issue 40, item 4; R34: typed text is not kept unless asked.
    root, w = build_values()
    amber.tk.attach(root, "org.example.values", state_directory=str(tmp_path), auto_names=True, keep_values=True)
    w["check"].set(True)
    w["choice"].set("c")
    w["combo"].set("blue")
    w["free"].insert(0, "typed")  # typed text: R34, not kept unless asked
    w["spin"].delete(0, "end")
    w["spin"].insert(0, "7")
    w["scale"].set(64)
    w["canvas"].yview_moveto(0.5)
    close(root)
    root, w = build_values()
    restorer = amber.tk.attach(root, "org.example.values", state_directory=str(tmp_path), auto_names=True,
                               keep_values=True)
    try:
        assert not restorer.warnings
        assert w["check"].get() is True and w["choice"].get() == "c"
        assert w["combo"].get() == "blue" and w["free"].get() == ""
        assert w["spin"].get() == "7" and w["scale"].get() == 64
        assert w["canvas"].yview()[0] == pytest.approx(0.5)
    finally:
        root.destroy()


def test_the_runner_reads_its_options_and_leaves_the_programs_alone():
    from amber.tk import runner
    options = runner.parse(["--app-id", "org.example.x", "--state-dir=/tmp/s", "-m", "idlelib", "-n", "f.py"])
    assert (options.app_id, options.state_dir, options.module, options.arguments) == (
        "org.example.x", "/tmp/s", "idlelib", ["-n", "f.py"])
    options = runner.parse(["prog.py", "--app-id", "mine"])
    assert options.script == "prog.py" and options.arguments == ["--app-id", "mine"]
    assert options.program_name == "prog"
    for wrong in ([], ["--app-id"], ["--bogus", "x.py"], ["-m"], ["--save-delay", "soon", "x.py"]):
        with pytest.raises(runner.UsageError):
            runner.parse(wrong)


PROGRAM = """
import sys, tkinter as tk
root = tk.Tk()
root.title("plain")
listbox = tk.Listbox(root, exportselection=False)
listbox.insert("end", *[f"row {i}" for i in range(300)])
listbox.pack()
def report():
    print("selected", listbox.curselection(), "top", listbox.nearest(0), flush=True)
    if sys.argv[1:] == ["change"]:
        listbox.selection_set(123)
        listbox.yview(120)
        listbox.event_generate("<<ListboxSelect>>")
    root.after(0, root.destroy)
root.after(300, report)
root.mainloop()
"""


def test_the_runner_brings_an_unmodified_program_back(tmp_path):
    # Issue 40, item 1: python -m amber.tk.
    program = tmp_path / "plain.py"
    program.write_text(PROGRAM)
    command = [sys.executable, "-m", "amber.tk", "--state-dir", str(tmp_path / "state"), str(program)]
    first = subprocess.run(command + ["change"], capture_output=True, text=True, timeout=60)
    assert first.returncode == 0, first.stderr
    assert "selected () top 0" in first.stdout
    assert "amber.tk:" not in first.stderr  # nothing to say: saved when the program destroyed its root
    second = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert second.returncode == 0, second.stderr
    assert "selected (123,) top 120" in second.stdout, second.stdout + second.stderr


QUITS = """
import sys, tkinter as tk
root = tk.Tk()
root.protocol("WM_DELETE_WINDOW", root.quit)
listbox = tk.Listbox(root, exportselection=False)
listbox.insert("end", *[f"row {i}" for i in range(50)])
listbox.pack()
def step():
    print("selected", listbox.curselection(), flush=True)
    if sys.argv[1:] == ["change"]:
        listbox.selection_set(9)
        listbox.event_generate("<<ListboxSelect>>")
    root.quit()  # leaves the event loop; the root is never destroyed
root.after(300, step)
root.mainloop()
"""


def test_the_runner_saves_a_program_that_quits_its_event_loop_without_destroying_its_root(tmp_path):
    program = tmp_path / "quits.py"
    program.write_text(QUITS)
    command = [sys.executable, "-m", "amber.tk", "--state-dir", str(tmp_path / "state"), "--save-delay", "60000",
               str(program)]
    first = subprocess.run(command + ["change"], capture_output=True, text=True, timeout=60)
    assert first.returncode == 0 and "selected ()" in first.stdout, first.stderr
    second = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert "selected (9,)" in second.stdout, second.stdout + second.stderr


def test_the_runner_says_what_is_wrong_in_one_line(tmp_path):
    for arguments, message in ((["--bogus"], "unknown option --bogus"),
                               ([str(tmp_path / "missing.py")], "no such script")):
        result = subprocess.run([sys.executable, "-m", "amber.tk", *arguments], capture_output=True, text=True,
                                timeout=60)
        assert result.returncode == 2 and message in result.stderr and "Traceback" not in result.stderr


def test_a_long_list_scrolled_deep_comes_back_by_its_first_visible_row_without_drift(tmp_path):
    # Issue 40: lists scroll by first visible item, never by pixels; three relaunches in a row.
    def build_long():
        root = tk.Tk()
        root.geometry("300x400+10+10")
        listbox = tk.Listbox(root, exportselection=False)
        listbox.insert("end", *[f"row {i}" for i in range(1000)])
        listbox.pack(fill="both", expand=True)
        tree = ttk.Treeview(root)
        for i in range(1000):
            tree.insert("", "end", iid=f"item{i}", text=f"item {i}")
        tree.pack(fill="both", expand=True)
        root.update_idletasks()
        return root, listbox, tree

    root, listbox, tree = build_long()
    amber.tk.attach(root, "org.example.long", state_directory=str(tmp_path), auto_names=True)
    listbox.yview(850)
    tree.yview_moveto(873 / 1000)
    root.update_idletasks()
    top = tree.identify_row(30)  # the first row under the heading
    assert listbox.nearest(0) == 850 and top in ("item872", "item873")
    for _ in range(3):
        close(root)
        root, listbox, tree = build_long()
        amber.tk.attach(root, "org.example.long", state_directory=str(tmp_path), auto_names=True)
        root.update_idletasks()
        assert listbox.nearest(0) == 850
        assert tree.identify_row(30) == top
    root.destroy()
