#!/usr/bin/env bash
# amber.tk against archives it cannot wholly restore, under a display already running ($DISPLAY):
#   - an archive from another app in the demo's state directory: a fresh launch and one warning
#     line, with and without that app's key file;
#   - a new version of a program whose widgets were renamed, removed or changed class: what
#     still fits comes back, and a warning line names each widget that did not;
#   - a damaged archive: a fresh launch and a warning line.
# No run may crash or hang. Called by run-tests.sh with its work directory; exits non-zero if a
# check fails. Usage: broken-archives.sh WORK_DIR
set -uo pipefail
work=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
demo=$root/bindings/python/examples/tk_notes.py
status=0
pass() { echo "ok: $*"; }
fail() { echo "FAILED: $*"; status=1; }

# A small program in two versions. Version 1: a Listbox "items", a Text "notes", an Entry
# "search", a Notebook "tabs". Version 2: the Listbox renamed "entries", the Text gone, "search"
# now a Listbox, the Notebook kept, a row of the old list moved.
cat >"$work/versions.py" <<'PY'
import sys, tkinter as tk
from tkinter import ttk
import amber.tk
version, action, state_dir, app_id = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
root = tk.Tk()
rows = [f"row {i}" for i in range(30)]
tabs = ttk.Notebook(root, name="tabs")
first, second = ttk.Frame(tabs, name="first"), ttk.Frame(tabs, name="second")
tabs.add(first, text="First"); tabs.add(second, text="Second"); tabs.pack()
if version == "1":
    items = tk.Listbox(first, name="items")
    text = tk.Text(first, name="notes", height=4)
    text.insert("1.0", "hello\nworld")
    search = ttk.Entry(first, name="search")
else:
    rows.insert(0, rows.pop(12))                      # "row 12" moved to the top
    items = tk.Listbox(first, name="entries")
    search = tk.Listbox(first, name="search")
for row in rows:
    items.insert("end", row)
items.pack()
restorer = amber.tk.attach(root, app_id, state_directory=state_dir)
if action == "save":
    items.selection_set(12); items.yview(10)
    text.mark_set("insert", "2.3")
    tabs.select(second)
    restorer.save()
else:
    print("selected:", [items.get(i) for i in items.curselection()])
    print("tab:", tabs.index("current"))
    print("fresh:", restorer.report is not None and restorer.report.fresh)
root.destroy()
PY

# ---- a program's new version -------------------------------------------------------------------
versions=$work/versions
if timeout 30 python3 "$work/versions.py" 1 save "$versions" org.example.versions >"$work/v1.out" 2>&1 \
    && timeout 30 python3 "$work/versions.py" 2 load "$versions" org.example.versions >"$work/v2.out" 2>&1; then
    if grep -q "\./\.tabs\.first\.items (Listbox) not restored: not found" "$work/v2.out" \
        && grep -q "\./\.tabs\.first\.notes (Text) not restored: not found" "$work/v2.out" \
        && grep -q "\./\.tabs\.first\.search (TEntry) not restored: class mismatch" "$work/v2.out" \
        && grep -qx "tab: 1" "$work/v2.out"; then
        pass "a new version (a widget renamed, one removed, one of another class): a warning line for each, the tab still restored:"
        grep "amber.tk:" "$work/v2.out" | sed 's/^/      /'
    else
        cat "$work/v1.out" "$work/v2.out"; fail "a new version: the warnings or the tab are not as expected"
    fi
else
    cat "$work/v1.out" "$work/v2.out" 2>/dev/null; fail "a new version: a run failed or hung"
fi

# A Listbox keeps its selection when its row moved (its rows are identified by their text).
timeout 30 python3 "$work/versions.py" 1 save "$work/moved" org.example.moved >/dev/null 2>&1
sed -i 's/name="entries"/name="items"/' "$work/versions.py"
if timeout 30 python3 "$work/versions.py" 2 load "$work/moved" org.example.moved >"$work/moved.out" 2>&1 \
    && grep -qx "selected: \['row 12'\]" "$work/moved.out"; then
    pass "a Listbox row moved between runs: 'row 12' (now the first row) is still selected"
else
    cat "$work/moved.out"; fail "a Listbox row moved: the selection did not follow it"
fi

# ---- an archive from another app -----------------------------------------------------------------
other=$work/versions
timeout 30 python3 "$work/versions.py" 1 save "$other" org.example.versions >/dev/null 2>&1
for with_key in no yes; do
    mine=$work/foreign-$with_key
    mkdir -p "$mine"
    cp "$other/state.archive" "$mine/"
    [ "$with_key" = yes ] && cp "$other/archive.key" "$mine/"
    python3 "$demo" --state-dir "$mine" --print-state >"$work/foreign.out" 2>"$work/foreign.err" &
    pid=$!
    for _ in $(seq 100); do grep -q -- "--- restored" "$work/foreign.out" 2>/dev/null && break; sleep 0.1; done
    kill -TERM "$pid" 2>/dev/null
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then kill -9 "$pid"; fail "another app's archive ($with_key key): the demo hung"; continue; fi
    wait "$pid"; code=$?
    line=$(grep "amber.tk: fresh launch" "$work/foreign.err" | head -n 1)
    if [ "$code" = 0 ] && grep -q -- "--- restored" "$work/foreign.out" && grep -q "selected: None" "$work/foreign.out" \
        && [ -n "$line" ] && ! grep -q Traceback "$work/foreign.err"; then
        pass "another app's archive (its key file copied too: $with_key): the demo starts fresh, exit 0, and says: $line"
    else
        cat "$work/foreign.out" "$work/foreign.err"; fail "another app's archive ($with_key key)"
    fi
done

# ---- a damaged archive ------------------------------------------------------------------------
timeout 30 python3 "$work/versions.py" 1 save "$work/damaged" org.example.versions >/dev/null 2>&1
python3 - "$work/damaged/state.archive" <<'PY'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
data[len(data) // 2] ^= 0xFF
open(sys.argv[1], "wb").write(bytes(data))
PY
if timeout 30 python3 "$work/versions.py" 1 load "$work/damaged" org.example.versions >"$work/damaged.out" 2>&1 \
    && grep -q "amber.tk: fresh launch" "$work/damaged.out" && grep -qx "fresh: True" "$work/damaged.out"; then
    pass "a damaged archive: a fresh launch and: $(grep "amber.tk:" "$work/damaged.out" | head -n 1)"
else
    cat "$work/damaged.out"; fail "a damaged archive"
fi
exit $status
