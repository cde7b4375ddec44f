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
