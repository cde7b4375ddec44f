"""The start-up cost of restoring a Tk window with a 1,000-row list, against the same app started
with no archive: each run is a new process that builds the window (a Listbox or a ttk.Treeview of
ROWS rows, a Text, a paned split), calls amber.tk.attach and lets Tk lay the window out. Runs
alternate between "restore" (an archive saved by a run just before: a row selected near the end,
the list scrolled to it) and "fresh" (no archive). Prints the median start-up of each (from
tk.Tk() to the window laid out) and of attach + layout alone, and the differences; --limit-ms
applies to the difference of attach + layout, the only part of the start-up that differs.
Needs a display ($DISPLAY) and libamber.so ($AMBER_LIBRARY).

    python3 bench-startup.py [--rows 1000] [--runs 11] [--kind listbox|treeview|both] [--limit-ms 16]
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

CHILD = r'''
import sys, time
t0 = time.perf_counter()
import tkinter as tk
from tkinter import ttk
import amber.tk
kind, rows, state_dir, action = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
start = time.perf_counter()
root = tk.Tk()
root.geometry("600x400")
split = ttk.PanedWindow(root, orient="horizontal", name="split")
split.pack(fill="both", expand=True)
if kind == "listbox":
    lst = tk.Listbox(split, name="list")
    lst.insert("end", *[f"item {i}" for i in range(rows)])
else:
    lst = ttk.Treeview(split, name="list", columns=("v",))
    for i in range(rows):
        lst.insert("", "end", iid=f"i{i}", text=f"item {i}", values=(i,))
text = tk.Text(split, name="text")
text.insert("1.0", "some text\n" * 50)
split.add(lst); split.add(text)
built = time.perf_counter()
restorer = amber.tk.attach(root, "org.example.tkbench", state_directory=state_dir)
root.update_idletasks()
done = time.perf_counter()
if action == "save":
    if kind == "listbox":
        lst.selection_set(rows - 20); lst.yview(rows - 30)
    else:
        lst.selection_set(f"i{rows - 20}"); lst.see(f"i{rows - 30}")
    restorer.save()
else:
    selected = lst.curselection() if kind == "listbox" else lst.selection()
    restored = not restorer.report.fresh
    print(f"{(done - start) * 1000:.3f} {(done - built) * 1000:.3f} {restored} {selected}")
root.destroy()
'''


def run(kind, rows, state_dir, action):
    out = subprocess.run([sys.executable, "-c", CHILD, kind, str(rows), state_dir, action],
                         capture_output=True, text=True, timeout=60)
    if out.returncode != 0:
        sys.exit(f"bench-startup: the {action} run failed:\n{out.stderr}")
    return out.stdout.split()


def bench(kind, rows, runs):
    fresh, restore, fresh_attach, restore_attach = [], [], [], []
    work = tempfile.mkdtemp(prefix="amber-tk-bench-")
    try:
        for i in range(runs):
            state = os.path.join(work, f"r{i}")
            run(kind, rows, state, "save")
            total, attach, restored, _ = run(kind, rows, state, "measure")[:4]
            if restored != "True":
                sys.exit("bench-startup: the restore run did not restore")
            restore.append(float(total)); restore_attach.append(float(attach))
            total, attach, restored, _ = run(kind, rows, os.path.join(work, f"f{i}"), "measure")[:4]
            if restored != "False":
                sys.exit("bench-startup: the fresh run restored")
            fresh.append(float(total)); fresh_attach.append(float(attach))
    finally:
        shutil.rmtree(work)
    m = statistics.median
    print(f"{kind}, {rows} rows, {runs} runs each (median): start-up with an archive {m(restore):.1f} ms, "
          f"with none {m(fresh):.1f} ms, difference {m(restore) - m(fresh):+.1f} ms; "
          f"attach + layout {m(restore_attach):.1f} ms against {m(fresh_attach):.1f} ms "
          f"({m(restore_attach) - m(fresh_attach):+.1f} ms)")
    # The limit applies to attach + layout, the only part that differs between the two: the
    # whole start-up (Python and Tk starting) varies far more from run to run on a busy machine.
    return m(restore_attach) - m(fresh_attach)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--kind", choices=("listbox", "treeview", "both"), default="both")
    parser.add_argument("--limit-ms", type=float, help="exit 1 if restoring adds more than this to the start-up")
    args = parser.parse_args()
    kinds = ("listbox", "treeview") if args.kind == "both" else (args.kind,)
    over = [kind for kind in kinds if (added := bench(kind, args.rows, args.runs)) > (args.limit_ms or float("inf"))]
    if over:
        sys.exit(f"bench-startup: restoring adds more than {args.limit_ms} ms to the start-up ({', '.join(over)})")


if __name__ == "__main__":
    main()
