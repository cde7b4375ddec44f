#!/usr/bin/env bash
# The start-up cost of restoring: the notes demo with a 1,000-row list, started with an archive
# (the list scrolled far down and a row selected, text typed) against the same demo started with
# no archive, alternating, RUNS times each, under its own Xvfb. Prints the medians of the time
# from start to the first frame drawn (the restored scroll position is drawn on it), to the
# second, and of amber_gtk_restore() itself (wall clock, and the CPU time of the thread, which
# leaves out the waits: the disk's fsync, other processes), and the differences.
#
#   bindings/gtk/bench-startup.sh [RUNS]      (RUNS: 15; AMBER_LIBDIR as for run-tests.sh)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
export AMBER_LIBDIR=${AMBER_LIBDIR:-$root/.build-lib/lib}
runs=${1:-15}
rows=1000
make -s -C "$here" AMBER_LIBDIR="$AMBER_LIBDIR" >/dev/null
demo=$here/build/amber-notes

work=$(mktemp -d)
xvfb_pid=
cleanup() {
    if [[ -n $xvfb_pid ]]; then kill "$xvfb_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT
. "$here/xvfb.sh"
start_xvfb "$work/xvfb.log"
export NO_AT_BRIDGE=1
export XDG_STATE_HOME=$work/state
state=$XDG_STATE_HOME/org.amber.notes

# The archive: scroll far down the list with the wheel, select a row, type, quit on SIGTERM.
dbus-run-session -- "$demo" --rows $rows >/dev/null 2>&1 &
pid=$!
xdotool search --sync --onlyvisible --name '^Notes$' >/dev/null
sleep 1
xdotool mousemove 100 300
for _ in $(seq 80); do xdotool click 5; done
sleep 0.5
xdotool mousemove 60 200 click 1 mousemove 460 300 click 1
xdotool type --delay 20 "half a note"
sleep 0.5
kill -TERM "$(pgrep -P "$pid" -f amber-notes)"
wait "$pid" || true
[[ -s $state/state.archive ]] || { echo "bench: no archive was saved" >&2; exit 1; }
cp -a "$state" "$work/saved"

measure() { # measure KIND: one start, its figures appended to $work/KIND
    rm -rf "$state"
    [[ $1 == archive ]] && cp -a "$work/saved" "$state"
    dbus-run-session -- "$demo" --rows $rows --startup-time 2>/dev/null | grep -E "^(frame[0-9]|restore|restore_cpu)_us " | tr "\n" " " >>"$work/$1"
    echo >>"$work/$1"
    if [[ $1 == archive && -e $state/state.archive ]]; then echo "bench: the archive was not read" >&2; exit 1; fi
}
for _ in $(seq "$runs"); do measure fresh; measure archive; done

python3 - "$work/fresh" "$work/archive" "$runs" <<'EOF'
import statistics, sys
def load(path):
    runs = []
    for line in open(path):
        words = line.split()
        runs.append({words[i]: int(words[i + 1]) for i in range(0, len(words) - 1, 2)})
    return runs
fresh, archive, n = load(sys.argv[1]), load(sys.argv[2]), sys.argv[3]
med = lambda runs, key: statistics.median(r[key] for r in runs) / 1000
print(f"start-up of the notes demo with 1,000 rows, medians of {n} runs each (ms):")
print(f"  {'':28}{'no archive':>12}{'archive':>10}{'difference':>12}")
print(f"  (load average: {open('/proc/loadavg').read().split()[:3]})")
for key, what in (("frame1_us", "first frame"), ("frame2_us", "second frame"), ("restore_us", "amber_gtk_restore()"), ("restore_cpu_us", "  its CPU time")):
    a, b = med(fresh, key), med(archive, key)
    print(f"  {what:28}{a:12.1f}{b:10.1f}{b - a:12.1f}")
EOF
