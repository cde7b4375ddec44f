#!/usr/bin/env bash
# The start-up cost of amber-run on a real program written by others: gtk4-widget-factory
# (Debian's gtk-4-examples), timed from the moment the bench starts it to its first window's
# first frame, three ways, alternating, RUNS times each, a new process for each run, under an
# Xvfb and a D-Bus session of its own:
#
#   plain        gtk4-widget-factory
#   no archive   amber-run gtk4-widget-factory, nothing saved yet
#   archive      amber-run gtk4-widget-factory, with the archive of a session driven by real
#                input (a check button, a switch, a scale, a spin button, a notebook tab, a tree
#                row, a text view scrolled), restored before the first frame
#
# The timer is build/libbench-first-frame.so (bench-first-frame.c), preloaded in all three; it
# ends the program at its first frame, so nothing is saved and each archive run starts from the
# same archive. Prints the medians of the wall-clock time and of the CPU time the process used
# until then (which a loaded machine lengthens less), and the load average before and after. (A run with no archive
# is a first launch: the engine makes the state directory and the archive's key.)
#
#   bindings/gtk/bench-runner.sh [RUNS]      (RUNS: 15; AMBER_LIBDIR as for run-tests.sh)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
export AMBER_LIBDIR=${AMBER_LIBDIR:-$root/.build-lib/lib}
runs=${1:-15}
program=gtk4-widget-factory
for tool in Xvfb xdotool dbus-daemon python3 $program; do
    command -v "$tool" >/dev/null || { echo "bench: $tool is missing (scripts/setup.sh)" >&2; exit 1; }
done
make -s -C "$here" AMBER_LIBDIR="$AMBER_LIBDIR" >/dev/null
runner=$here/build/amber-run
timer=$here/build/libbench-first-frame.so

work=$(mktemp -d)
xvfb_pid=
bus_pid=
cleanup() {
    if [[ -n $xvfb_pid ]]; then kill "$xvfb_pid" 2>/dev/null || true; fi
    if [[ -n $bus_pid ]]; then kill "$bus_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT
. "$here/xvfb.sh"
# The widget factory's window is 1342x754 and more.
start_xvfb "$work/xvfb.log" 1400x800x24
# One session bus for all the runs: a bus started for each would be timed too.
read -r DBUS_SESSION_BUS_ADDRESS bus_pid < <(dbus-daemon --session --fork --print-address=1 --print-pid=1 | paste -sd' ')
export DBUS_SESSION_BUS_ADDRESS
export NO_AT_BRIDGE=1 SWIFT_BACKTRACE=enable=no
export XDG_STATE_HOME=$work/state
state=$XDG_STATE_HOME/org.gtk.WidgetFactory4
load_before=$(cut -d' ' -f1-3 /proc/loadavg)

# The archive: the first page's widgets changed with real input, then SIGTERM (the adapter saves).
"$runner" $program >/dev/null 2>&1 &
pid=$!
xdotool search --sync --onlyvisible --class $program >/dev/null
sleep 1
xdotool mousemove 27 455 click 1 sleep 0.2 mousemove 497 470 click 1 sleep 0.2   # a check button, a switch
xdotool mousemove 820 150 click 1 sleep 0.2 mousemove 212 386 click 1 sleep 0.2  # a scale, a spin button
xdotool mousemove 126 616 click 1 sleep 0.2 mousemove 1280 117 click 1 sleep 0.2 # a notebook tab, a tree row
xdotool mousemove 1270 450; for _ in 1 2 3 4 5; do xdotool click 5; sleep 0.1; done   # the text scrolled
sleep 0.5
kill -TERM "$pid"
wait "$pid" || true
[[ -s $state/state.archive ]] || { echo "bench: no archive was saved" >&2; exit 1; }
cp -a "$state" "$work/saved"

measure() { # measure KIND: one start, its time appended to $work/KIND
    local kind=$1 lines
    rm -rf "$state"
    [[ $kind == archive ]] && cp -a "$work/saved" "$state"
    touch "$work/$kind"
    lines=$(wc -l <"$work/$kind")
    local -a command=("$program")
    [[ $kind != plain ]] && command=("$runner" "$program")
    BENCH_OUT=$work/$kind BENCH_START_US=${EPOCHREALTIME//[.,]/} LD_PRELOAD=$timer "${command[@]}" >/dev/null 2>"$work/err" || true
    if (($(wc -l <"$work/$kind") != lines + 1)); then echo "bench: $kind: no first frame timed:" >&2; cat "$work/err" >&2; exit 1; fi
    if [[ $kind == archive && -e $state/state.archive ]]; then echo "bench: the archive was not read" >&2; exit 1; fi
}
for _ in $(seq "$runs"); do measure plain; measure fresh; measure archive; done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

python3 - "$work" "$runs" "$load_before" "$load_after" <<'PY'
import statistics, sys
work, n, before, after = sys.argv[1:]
def median(kind, key):
    values = []
    for line in open(f"{work}/{kind}"):
        words = line.split()
        values.append(int(words[words.index(key) + 1]))
    return statistics.median(values) / 1000
print(f"gtk4-widget-factory, start to the first frame, medians of {n} alternating runs each (ms):")
print(f"  {'':30}{'wall clock':>11}{'added':>9}{'CPU time':>10}{'added':>9}")
plain = median("plain", "first_frame_us"), median("plain", "first_frame_cpu_us")
for kind, what in (("plain", "plain"), ("fresh", "amber-run, no archive"), ("archive", "amber-run, archive restored")):
    wall, cpu = median(kind, "first_frame_us"), median(kind, "first_frame_cpu_us")
    added = f"{wall - plain[0]:+9.1f}{cpu:10.1f}{cpu - plain[1]:+9.1f}" if kind != "plain" else f"{'':9}{cpu:10.1f}"
    print(f"  {what:30}{wall:11.1f}{added}")
print(f"load average before: {before}; after: {after}")
PY
