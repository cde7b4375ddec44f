"""The start-up cost of restoring a Tk window with a 1,000-row list, against the same app started
with no archive. Each run is a new process; runs alternate between the two sides, and each side's
median is printed with the difference and the load average. Needs a display ($DISPLAY) and
libamber.so ($AMBER_LIBRARY). Four modes:

--mode attach (the default): each process builds the window (a Listbox or a ttk.Treeview of ROWS
  rows, a Text, a paned split), calls amber.tk.attach and lets Tk lay the window out, ``amber``
  imported in both. Runs alternate between "restore" (an archive saved by a run just before: a row
  selected near the end, the list scrolled to it) and "fresh" (no archive). Prints the medians of
  the start-up (from tk.Tk() to the window laid out) and of attach + layout alone; --limit-ms
  applies to the difference of attach + layout, the only part of the start-up that differs.

--mode first-frame: from the process's start to the window's first frame (mapped, laid out and
  drawn: the idle tasks done at its <Map>), the same program without Amber at all against
  ``import amber.tk`` + attach + the restore of an archive with the list scrolled to row --row
  (850) and that row selected (each restoring run gets a copy of one archive). The restoring runs
  check that the row is the first one shown. Wall clock (the parent's clock, which the child's
  shares: CLOCK_MONOTONIC) and the child's CPU time to that point. --limit-ms applies to the
  wall-clock difference.

--mode stages: where the first-frame mode's added time goes. The same program, restoring, times
  each stage of Amber's start-up inside the process (``import amber.tk``, loading the library,
  opening the engine, the launch, putting the state on the widgets, the rest of attach), and both
  sides count the garbage collector's pauses from tkinter imported to the first frame. Medians of
  --runs each. The stage that puts the state on the widgets holds Tk's first layout of the
  window, which maps and draws it: the program without Amber does that work too, later, so the
  stages add up to more than the first-frame mode's difference. --limit-ms applies to their
  total.

--mode idle: the runner on a real program: ``python3 -m amber.tk -m idlelib FILE`` against
  ``python3 -m idlelib FILE``, from the process's start to IDLE's editor mapped and drawn, with an
  archive made once by a run under the runner with real input (xdotool: the file scrolled, a line
  clicked, the editor closed). Needs xdotool and python3's idlelib.

    python3 bench-startup.py [--mode attach|first-frame|stages|idle] [--rows 1000] [--runs 11]
                             [--kind listbox|treeview|both] [--row 850] [--limit-ms 16]
"""
import argparse
import compileall
import importlib.util
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

# The window of every mode: a list of ROWS rows (a Listbox or a ttk.Treeview) beside a Text, in a
# paned split. Source text, run by the children: the first-frame mode's imports nothing else first.
WINDOW = r'''
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
'''

CHILD = r'''
import sys, time
t0 = time.perf_counter()
import tkinter as tk
from tkinter import ttk
import amber.tk
kind, rows, state_dir, action = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
start = time.perf_counter()
''' + WINDOW + r'''
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

# The first-frame mode's program: argv is SIDE ("plain": no Amber at all; "amber"), KIND, ROWS,
# STATE_DIR, ACTION ("save": scroll to ROW, select it, save; "measure"), ROW. At the root's first
# <Map>, once the idle tasks (layout, drawing) are done, it prints the clock, its CPU time and the
# list's first row shown, and ends at once (no save at exit: every restoring run reads the same
# archive).
FIRST_FRAME_CHILD = r'''
import os, sys, time
side, kind, rows, state_dir, action, row = sys.argv[1:7]
rows, row = int(rows), int(row)
import tkinter as tk
from tkinter import ttk
if side == "amber":
    import amber.tk
''' + WINDOW + r'''


def first_shown():  # the list's first row shown, from the fraction its view starts at
    return round(float(lst.yview()[0]) * rows)


def first_frame(event):
    if event.widget is root:
        # In a timer: after every handler of the <Map> event, Amber's included.
        root.after(0, drawn)


def drawn():
    root.update_idletasks()
    now, cpu = time.perf_counter(), time.process_time()
    if action == "save":
        if kind == "listbox":
            lst.selection_set(row); lst.yview(row)
        else:
            lst.selection_set(f"i{row}"); lst.yview(row)
        restorer.save()
    print(f"{now:.6f} {cpu:.6f} {first_shown()}", flush=True)
    os._exit(0)


# Bound before attach: a restore lays the window out and maps it within attach.
root.bind("<Map>", first_frame, add="+")
restorer = amber.tk.attach(root, "org.example.tkbench", state_directory=state_dir) if side == "amber" else None
root.mainloop()
'''

# The stages mode's program: the first-frame program, in which each stage of Amber's start-up is
# timed (a wrapper around the function that runs it) and the garbage collector's pauses are
# counted, both until the first frame, where it prints them as JSON instead of the clock.
STAGES_PREAMBLE = r'''
import gc, time
pauses = []
def _on_collection(phase, info, started=[0.0]):
    if phase == "start":
        started[0] = time.perf_counter()
    else:
        pauses.append(time.perf_counter() - started[0])
gc.callbacks.append(_on_collection)
stages = {}
def timed(owner, name, stage):
    inner = getattr(owner, name)
    def wrapper(*args, **kwargs):
        start = time.perf_counter()
        try:
            return inner(*args, **kwargs)
        finally:
            stages[stage] = stages.get(stage, 0.0) + time.perf_counter() - start
    setattr(owner, name, wrapper)
if sys.argv[1] == "amber":
    started = time.perf_counter()
    import amber.tk
    stages["import"] = time.perf_counter() - started
    from amber import _ffi, engine
    timed(_ffi.Library, "__init__", "library")
    timed(engine.Engine, "__init__", "engine")
    timed(engine.Engine, "launch", "launch")
    timed(amber.tk.Restorer, "_apply_restored", "apply")
    timed(amber.tk, "attach", "attach")
'''
_TK_IMPORTED = "from tkinter import ttk\n"
_PRINTED = 'print(f"{now:.6f} {cpu:.6f} {first_shown()}", flush=True)'
assert FIRST_FRAME_CHILD.count(_TK_IMPORTED) == 1 and FIRST_FRAME_CHILD.count(_PRINTED) == 1
STAGES_CHILD = FIRST_FRAME_CHILD.replace(_TK_IMPORTED, _TK_IMPORTED + STAGES_PREAMBLE).replace(
    _PRINTED, 'import json; print(json.dumps({"stages": stages, "pauses": pauses, "shown": first_shown()}), flush=True)')

# The idle mode's program: argv is SIDE ("plain": ``python -m idlelib``; "amber": the runner),
# STATE_DIR, FILE. When IDLE's editor (its first Toplevel) maps, once every handler of the event
# has run (the runner's claim) and the idle tasks are done, it prints the clock, its CPU time and
# the editor's first line shown, and ends at once.
IDLE_CHILD = r'''
import os, runpy, sys, time, tkinter
side, state_dir, path = sys.argv[1:4]
original = tkinter.Tk.__init__


def init(self, *args, **kwargs):
    original(self, *args, **kwargs)
    if not self.tk.call("info", "commands", "winfo"):
        return  # tkinter.Tcl(): an interpreter without Tk (IDLE makes one at import)
    root = self

    def editor_text(widget):  # the editor's Text (IDLE names it "text"), else None
        for child in widget.winfo_children():
            if child.winfo_class() == "Text" and str(child).endswith(".text"):
                return child
            found = editor_text(child)
            if found is not None:
                return found
        return None

    def drawn(editor):
        root.update_idletasks()
        now, cpu = time.perf_counter(), time.process_time()
        text = editor_text(editor)
        print(f"{now:.6f} {cpu:.6f} {text.index('@0,0') if text is not None else '?'}", flush=True)
        os._exit(0)

    def on_map(event):
        if isinstance(event.widget, tkinter.Toplevel):
            root.after(0, drawn, event.widget)
    root.bind_all("<Map>", on_map, add="+")


tkinter.Tk.__init__ = init
if side == "amber":
    from amber.tk import runner
    sys.exit(runner.main(["--state-dir", state_dir, "-m", "idlelib", path]))
sys.argv = ["idlelib", path]
runpy.run_module("idlelib", run_name="__main__", alter_sys=True)
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


# ---- from the process's start to the first frame (--mode first-frame, --mode idle) --------------

def first_frame_run(argv, env=None):
    """One new process running ``argv`` until its window's first frame: the wall-clock time
    from its start, its CPU time to that point (both in ms), and what it printed after them."""
    start = time.perf_counter()
    out = subprocess.run(argv, capture_output=True, text=True, timeout=120, env=env)
    if out.returncode != 0 or len(out.stdout.split()) < 3:
        sys.exit(f"bench-startup: {' '.join(argv[:2])}... failed:\n{out.stderr}")
    shown_at, cpu, seen = out.stdout.split()[:3]
    return (float(shown_at) - start) * 1000, float(cpu) * 1000, seen


def alternate(runs, plain, amber, check):
    """Runs ``plain()`` and ``amber()`` in turn, ``runs`` times each (after a warm-up each),
    ``check`` refusing a run that did not show what it should; their medians (wall, CPU)."""
    plain(); amber()
    times = {"plain": [], "amber": []}
    for _ in range(runs):
        for side, run_side in (("plain", plain), ("amber", amber)):
            wall, cpu, seen = run_side()
            check(side, seen)
            times[side].append((wall, cpu))
    m = statistics.median
    return {side: (m(w for w, _ in samples), m(c for _, c in samples)) for side, samples in times.items()}


def report(title, medians, runs):
    (plain_wall, plain_cpu), (amber_wall, amber_cpu) = medians["plain"], medians["amber"]
    print(f"{title}, medians of {runs} alternating runs each:")
    print(f"  without Amber: {plain_wall:7.1f} ms to the first frame ({plain_cpu:.1f} ms CPU)")
    print(f"  with Amber:    {amber_wall:7.1f} ms ({amber_cpu:.1f} ms CPU)")
    print(f"  added:         {amber_wall - plain_wall:+7.1f} ms ({amber_cpu - plain_cpu:+.1f} ms CPU)")
    return amber_wall - plain_wall


def bench_first_frame(kind, rows, row, runs):
    """A program without Amber at all against one with ``import amber.tk``, attach and the
    restore of an archive with the list scrolled to ``row``, to the window's first frame."""
    work = tempfile.mkdtemp(prefix="amber-tk-bench-")
    try:
        template = os.path.join(work, "template")

        def child(side, state, action):
            return first_frame_run([sys.executable, "-c", FIRST_FRAME_CHILD, side, kind, str(rows), state, action,
                                    str(row)])

        child("amber", template, "save")
        copies = iter(range(1 << 30))

        def restoring():  # each run restores its own copy of the one archive
            state = os.path.join(work, f"r{next(copies)}")
            shutil.copytree(template, state)
            return child("amber", state, "measure")

        def check(side, seen):
            if int(seen) != (row if side == "amber" else 0):
                sys.exit(f"bench-startup: the {side} run showed row {seen} first, not {row if side == 'amber' else 0}")

        medians = alternate(runs, lambda: child("plain", os.path.join(work, "none"), "measure"), restoring, check)
    finally:
        shutil.rmtree(work)
    return report(f"{kind}, {rows} rows, from the process's start to the first frame "
                  f"(with Amber: import amber.tk, attach, the list restored to row {row})", medians, runs)


# The stages, each its own time: a stage that holds others (attach holds opening the engine, the
# launch and putting the state on; opening the engine holds loading the library) is given without
# them, subtracted in each run.
STAGES = (("import", "import amber.tk"), ("library", "loading libamber.so (dlopen, symbols, version)"),
          ("engine", "the rest of opening the engine"), ("launch", "the launch (read, decrypt, decode)"),
          ("apply", "the state put on the widgets, the window laid out"), ("attach", "the rest of attach"))


def own_times(stages):
    """One run's stages (seconds, as measured, nested) as each one's own time in ms."""
    own = {name: stages[name] * 1000 for name, _ in STAGES}
    own["attach"] -= own["engine"] + own["launch"] + own["apply"]
    own["engine"] -= own["library"]
    return own


def bench_stages(kind, rows, row, runs):
    """Where the first-frame mode's added time goes: the stages of a restoring run, and the
    garbage collector's pauses of both sides, medians of ``runs`` each."""
    work = tempfile.mkdtemp(prefix="amber-tk-bench-")
    try:
        template = os.path.join(work, "template")
        argv = [sys.executable, "-c", FIRST_FRAME_CHILD, "amber", kind, str(rows), template, "save", str(row)]
        subprocess.run(argv, check=True, capture_output=True, timeout=120)
        samples = {"plain": [], "amber": []}
        for i in range(-1, runs):  # run -1 warms the caches up and is not counted
            for side in ("plain", "amber"):
                state = os.path.join(work, f"{side}{i}")
                if side == "amber":
                    shutil.copytree(template, state)
                out = subprocess.run([sys.executable, "-c", STAGES_CHILD, side, kind, str(rows), state, "measure",
                                      str(row)], capture_output=True, text=True, timeout=120)
                try:
                    measured = json.loads(out.stdout) if out.returncode == 0 else None
                except ValueError:
                    measured = None
                if measured is None:
                    sys.exit(f"bench-startup: a stages run failed:\n{out.stdout}{out.stderr}")
                if measured["shown"] != (row if side == "amber" else 0):
                    sys.exit(f"bench-startup: the {side} run showed row {measured['shown']} first")
                if i >= 0:
                    samples[side].append(measured)
    finally:
        shutil.rmtree(work)
    m = statistics.median
    own = [own_times(run["stages"]) for run in samples["amber"]]
    ms = {name: m(run[name] for run in own) for name, _ in STAGES}
    print(f"{kind}, {rows} rows restored to row {row}: Amber's stages to the first frame, medians of {runs} runs:")
    for name, what in STAGES:
        print(f"  {what:<48} {ms[name]:6.2f} ms")
    total = m(sum(run.values()) for run in own)  # the median of each run's total
    print(f"  {'total':<48} {total:6.2f} ms")
    for side in ("plain", "amber"):
        count = m(len(run["pauses"]) for run in samples[side])
        pause = m(sum(run["pauses"]) * 1000 for run in samples[side])
        print(f"  garbage collections to the first frame, {'without' if side == 'plain' else 'with'} Amber: "
              f"{count:.0f}, {pause:.2f} ms")
    return total


def prepare_idle_archive(state, path, env):
    """An archive of IDLE under the runner: the file open, scrolled with the wheel and a line
    clicked, then the editor closed as a window manager would (the runner saves)."""
    here = os.path.dirname(os.path.abspath(__file__))
    app = subprocess.Popen([sys.executable, "-m", "amber.tk", "--state-dir", state, "-m", "idlelib", path],
                           env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        found = subprocess.run(["xdotool", "search", "--sync", "--onlyvisible", "--name", "^sample.py - "],
                               capture_output=True, text=True, timeout=60, env=env)
        window = found.stdout.split()[0] if found.stdout.split() else ""
        if not window:
            sys.exit("bench-startup: IDLE's editor did not show under the runner")
        xdotool = ["xdotool", "mousemove", "--window", window, "200", "200"]
        subprocess.run(xdotool + ["click", "--repeat", "12", "--delay", "30", "5", "click", "1"], env=env, check=True)
        time.sleep(0.5)  # IDLE handles the wheel and the click before the close comes
        subprocess.run([sys.executable, os.path.join(here, "wm_close.py"), window], env=env, check=True)
        app.wait(timeout=30)
    finally:
        if app.poll() is None:
            app.kill()
    if not os.path.isfile(os.path.join(state, "state.archive")):
        sys.exit(f"bench-startup: the runner saved no archive of IDLE:\n{app.stderr.read() if app.stderr else ''}")


def bench_idle(runs):
    """``python3 -m amber.tk -m idlelib FILE`` restoring the file scrolled, against ``python3
    -m idlelib FILE``, to IDLE's editor mapped and drawn."""
    work = tempfile.mkdtemp(prefix="amber-tk-bench-idle-")
    try:
        path = os.path.join(work, "sample.py")
        with open(path, "w") as f:
            f.writelines(f"line number {i}\n" for i in range(1, 401))
        env = dict(os.environ, HOME=os.path.join(work, "home"))  # IDLE's settings start empty, both sides
        os.makedirs(env["HOME"])
        template = os.path.join(work, "template")
        prepare_idle_archive(template, path, env)
        copies = iter(range(1 << 30))

        def side(name):
            def run_side():
                state = os.path.join(work, f"r{next(copies)}")
                if name == "amber":
                    shutil.copytree(template, state)
                return first_frame_run([sys.executable, "-c", IDLE_CHILD, name, state, path], env)
            return run_side

        def check(name, top_line):
            if (top_line == "1.0") != (name == "plain"):
                sys.exit(f"bench-startup: the {name} run of IDLE showed line {top_line} first")

        medians = alternate(runs, side("plain"), side("amber"), check)
    finally:
        shutil.rmtree(work)
    return report("IDLE, python3 -m amber.tk -m idlelib FILE (the file scrolled, restored) against "
                  "python3 -m idlelib FILE, to the editor mapped and drawn", medians, runs)


def load_average():
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=("attach", "first-frame", "stages", "idle"), default="attach")
    parser.add_argument("--rows", type=int, default=1000)
    parser.add_argument("--row", type=int, default=850, help="the row restored (--mode first-frame, stages)")
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--kind", choices=("listbox", "treeview", "both"), default="both")
    parser.add_argument("--limit-ms", type=float, help="exit 1 if restoring adds more than this to the start-up")
    args = parser.parse_args()
    kinds = ("listbox", "treeview") if args.kind == "both" else (args.kind,)
    # The package's bytecode up to date, as an installed package has it: without this, under
    # PYTHONDONTWRITEBYTECODE or after an edit, every child would compile the modules it imports.
    package = importlib.util.find_spec("amber")
    if package is None or not package.submodule_search_locations:
        sys.exit("bench-startup: the amber package is not on the path (PYTHONPATH=bindings/python)")
    compileall.compile_dir(package.submodule_search_locations[0], quiet=1)
    print(f"load average before: {load_average()}")
    if args.mode == "attach":
        added = {kind: bench(kind, args.rows, args.runs) for kind in kinds}
    elif args.mode == "first-frame":
        added = {kind: bench_first_frame(kind, args.rows, args.row, args.runs) for kind in kinds}
    elif args.mode == "stages":
        added = {kind: bench_stages(kind, args.rows, args.row, args.runs) for kind in kinds}
    else:
        added = {"idle": bench_idle(args.runs)}
    print(f"load average after: {load_average()}")
    over = [name for name, ms in added.items() if ms > (args.limit_ms or float("inf"))]
    if over:
        sys.exit(f"bench-startup: restoring adds more than {args.limit_ms} ms to the start-up ({', '.join(over)})")


if __name__ == "__main__":
    main()
