"""tk_notes: a small notes app in Tkinter whose interface comes back after it was closed or killed.

    python3 tk_notes.py [--state-dir DIR] [--print-state]

A list of notes (a ttk.Treeview) and an editor (a title Entry and a body Text) in the "Edit" tab
of a notebook, beside an "About" tab, in a paned split; a Preferences dialog. The notes are the
app's data, in DIR/notes.json (written by "Save note"); a note being typed and not saved yet is
interface state, and comes back with the rest through amber.tk.

The lines that use Amber end with an "amber" comment (bindings/tk/count-amber-lines.sh counts them).
With --print-state the app prints its state once restored and when F12 is pressed (the tests
compare the two). The default state directory is $XDG_STATE_HOME/org.example.tknotes.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tkinter as tk
from tkinter import ttk
from typing import Dict, List, Optional

import amber.tk  # amber

APP_ID = "org.example.tknotes"


def default_notes() -> List[Dict[str, str]]:
    """Forty notes, so that the list scrolls; each body is long enough to scroll too."""
    notes = []
    for n in range(1, 41):
        lines = [f"Line {line} of note {n}: the quick brown fox jumps over the lazy dog." for line in range(1, 61)]
        notes.append({"id": f"n{n:02d}", "title": f"Note {n}", "body": "\n".join(lines)})
    return notes


class NotesApp:
    def __init__(self, root: tk.Tk, data_file: str):
        self.root = root
        self.data_file = data_file
        self.notes = self.load_notes()
        self.loaded: Optional[str] = None  # the note the editor shows
        self.prefs: Optional[tk.Toplevel] = None
        self.font_size = 11  # applied by the Preferences dialog's OK
        self.dialog_size = tk.DoubleVar(value=11.0)  # the dialog's slider
        root.title("Amber Notes")
        root.geometry("720x480+20+20")
        root.option_add("*insertOffTime", 0)  # a steady caret: screenshots compare

        bar = ttk.Frame(root, name="bar")
        bar.pack(side="top", fill="x")
        ttk.Button(bar, name="save", text="Save note", command=self.save_note).pack(side="left", padx=4, pady=4)
        ttk.Button(bar, name="preferences", text="Preferences...", command=self.open_preferences).pack(side="left", pady=4)

        self.split = ttk.PanedWindow(root, orient="horizontal", name="split")
        self.split.pack(fill="both", expand=True)
        left = ttk.Frame(self.split)
        self.tree = ttk.Treeview(left, name="notes", columns=("title",), show="headings", selectmode="browse")
        self.tree.heading("title", text="Notes")
        scroll = ttk.Scrollbar(left, orient="vertical", command=self.tree.yview)
        self.tree.configure(yscrollcommand=scroll.set)
        scroll.pack(side="right", fill="y")
        self.tree.pack(side="left", fill="both", expand=True)
        self.split.add(left, weight=1)
        for note in self.notes:
            self.tree.insert("", "end", iid=note["id"], values=(note["title"],))
        self.tree.bind("<<TreeviewSelect>>", self.on_select)

        self.tabs = ttk.Notebook(self.split, name="tabs")
        edit = ttk.Frame(self.tabs, name="edit")
        self.title = ttk.Entry(edit, name="title")
        self.title.pack(side="top", fill="x", padx=4, pady=4)
        self.body = tk.Text(edit, name="body", wrap="none", undo=True, font=("DejaVu Sans Mono", 10))
        body_scroll = ttk.Scrollbar(edit, orient="vertical", command=self.body.yview)
        self.body.configure(yscrollcommand=body_scroll.set)
        body_scroll.pack(side="right", fill="y")
        self.body.pack(side="left", fill="both", expand=True)
        about = ttk.Frame(self.tabs, name="about")
        ttk.Label(about, text="Amber Notes\n\nClose me, kill me: I come back as I was.",
                  justify="left").pack(anchor="nw", padx=12, pady=12)
        self.tabs.add(edit, text="Edit")
        self.tabs.add(about, text="About")
        self.split.add(self.tabs, weight=3)

    # -- the data --
    def load_notes(self) -> List[Dict[str, str]]:
        try:
            with open(self.data_file, encoding="utf-8") as f:
                notes = json.load(f)
            return [note for note in notes if isinstance(note, dict) and {"id", "title", "body"} <= set(note)]
        except FileNotFoundError:
            notes = default_notes()
        except (OSError, ValueError) as error:
            print(f"tk_notes: {self.data_file}: {error}; starting with the default notes", file=sys.stderr)
            notes = default_notes()
        self.write_notes(notes)
        return notes

    def write_notes(self, notes: List[Dict[str, str]]) -> None:
        os.makedirs(os.path.dirname(self.data_file) or ".", exist_ok=True)
        with open(self.data_file + ".tmp", "w", encoding="utf-8") as f:
            json.dump(notes, f, indent=1)
        os.replace(self.data_file + ".tmp", self.data_file)

    def note(self, note_id: Optional[str]) -> Optional[Dict[str, str]]:
        return next((note for note in self.notes if note["id"] == note_id), None)

    # -- the interface --
    def selected_note(self) -> Optional[str]:
        selection = self.tree.selection()
        return str(selection[0]) if selection else None

    def on_select(self, event: object = None) -> None:
        note = self.note(self.selected_note())
        if note is None or note["id"] == self.loaded:
            return
        self.loaded = note["id"]
        self.title.delete(0, "end")
        self.title.insert(0, note["title"])
        self.body.delete("1.0", "end")
        self.body.insert("1.0", note["body"])
        self.body.mark_set("insert", "1.0")
        self.body.edit_reset()

    def save_note(self) -> None:
        note = self.note(self.loaded)
        if note is None:
            return
        note["title"] = self.title.get()
        note["body"] = self.body.get("1.0", "end - 1 chars")
        self.tree.item(note["id"], values=(note["title"],))
        self.write_notes(self.notes)

    def open_preferences(self) -> tk.Toplevel:
        if self.prefs is not None and self.prefs.winfo_exists():
            self.prefs.lift()
            return self.prefs
        self.prefs = dialog = tk.Toplevel(self.root, name="prefs")
        dialog.title("Preferences")
        dialog.transient(self.root)
        dialog.geometry("300x140+760+40")
        ttk.Label(dialog, text="Editor font size").pack(anchor="w", padx=8, pady=(8, 0))
        self.dialog_size.set(self.font_size)
        size = ttk.Scale(dialog, name="fontsize", from_=8, to=24, variable=self.dialog_size)
        size.pack(fill="x", padx=8)
        ttk.Label(dialog, textvariable=self.dialog_size).pack(anchor="w", padx=8)
        buttons = ttk.Frame(dialog)
        buttons.pack(side="bottom", fill="x", pady=8)
        ttk.Button(buttons, name="ok", text="OK", command=self.apply_preferences).pack(side="right", padx=8)
        return dialog

    def apply_preferences(self) -> None:
        self.font_size = int(self.dialog_size.get())
        self.body.configure(font=("DejaVu Sans Mono", self.font_size))
        if self.prefs is not None:
            self.prefs.destroy()

    def state_lines(self) -> List[str]:
        """The interface's state, as --print-state prints it."""
        self.root.update_idletasks()
        body = self.body
        sel = body.tag_ranges("sel")
        rows = self.tree.get_children("")
        top = self.tree.identify_row(self.tree.winfo_height() // 2)
        focus = self.root.focus_lastfor()
        prefs_open = self.prefs is not None and bool(self.prefs.winfo_exists())
        return [
            f"window: {self.root.winfo_width()}x{self.root.winfo_height()}",
            f"selected: {self.selected_note()}",
            f"list top: {float(self.tree.yview()[0]):.3f} of {len(rows)} rows (middle row {top})",
            f"tab: {self.root.tk.call(str(self.tabs), 'tab', 'current', '-text')}",
            f"split: {self.root.tk.call(str(self.split), 'sashpos', 0)}",
            f"title: {json.dumps(self.title.get())} cursor {self.title.index('insert')}",
            f"body: {len(body.get('1.0', 'end - 1 chars'))} chars, ends {json.dumps(body.get('end - 40 chars', 'end - 1 chars'))}",
            f"body cursor: {body.index('insert')} selection: {' '.join(str(i) for i in sel) or 'none'}",
            f"body view: {float(body.yview()[0]):.3f} {float(body.xview()[0]):.3f}" if body.winfo_ismapped()
            else "body view: hidden",
            f"focus: {focus}",
            f"preferences: {'open, font size ' + format(self.dialog_size.get(), '.1f') if prefs_open else 'closed'}",
            f"font size: {self.font_size}",
        ]

    def print_state(self, heading: str) -> None:
        print(f"--- {heading}", *self.state_lines(), sep="\n", flush=True)


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--state-dir", help="where the notes and the saved interface are kept")
    parser.add_argument("--print-state", action="store_true", help="print the state once restored, and on F12")
    args = parser.parse_args(argv)
    state_dir = args.state_dir or os.path.join(
        os.environ.get("XDG_STATE_HOME") or os.path.expanduser("~/.local/state"), APP_ID)
    try:
        root = tk.Tk(className="AmberNotes")
    except tk.TclError as error:
        print(f"tk_notes: cannot open a window ({error}); the saved interface is kept for the next launch",
              file=sys.stderr)
        return 1
    app = NotesApp(root, os.path.join(state_dir, "notes.json"))
    amber.tk.attach(root, APP_ID, state_directory=state_dir, windows={".prefs": app.open_preferences},  # amber
                    keep_content=[app.title, app.body, ".prefs.fontsize"])  # amber
    app.loaded = app.selected_note()  # amber: the restored editor belongs to the restored selection
    if args.print_state:
        root.bind("<F12>", lambda event: app.print_state("state"))
        root.after_idle(lambda: root.after(300, lambda: app.print_state("restored")))
    root.mainloop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
