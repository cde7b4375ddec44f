#!/usr/bin/env bash
# IDLE (python3 -m idlelib, not written for Amber) under the runner (python -m amber.tk), driven
# with real input under the display already running ($DISPLAY; bindings/tk/run-tests.sh starts
# it): open a 400-line file (an editor window, an unnamed Toplevel), scroll, select text; end
# IDLE three ways and relaunch it under the runner each time, checking the editor's state
# (bindings/tk/idle_probe.py prints it: the window's geometry, the text's cursor, selection and
# first visible line) and comparing screenshots:
#   1. close:   WM_DELETE_WINDOW on the editor (IDLE then destroys its root and quits);
#   2. SIGTERM;
#   3. SIGKILL, once the autosave has written the last change;
#   4. two files, two editor windows of one type, the second moved aside, each scrolled and with
#      a selection of its own; SIGTERM: each comes back with its own state, where it was left.
#      4b. the same two files reopened in the other order: each editor takes the saved state
#      whose title (its file) is its own, not the one its place in the order had.
#   5. a dialog made later: IDLE's Find dialog (Ctrl+F; a Toplevel IDLE makes on first use and
#      withdraws when closed), "Regular expression" and "Match case" ticked (Checkbuttons, kept by
#      the runner's keep_values), the dialog closed, IDLE quit; relaunched, Find opened again: the
#      dialog claims its state when it first maps, and both are ticked (its state and a screenshot).
# IDLE shows the cursor's line and column in its status bar, updated on a key or a click only:
# after each relaunch the script presses Shift (which changes nothing else) before the screenshot.
# Usage: bindings/tk/idle-tests.sh WORK_DIR     (prints ok:/FAILED: lines; exits non-zero on failure)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$1/idle
mkdir -p "$work/home"
export HOME=$work/home  # IDLE's own settings (~/.idlerc) start empty, and stay out of the user's
probe=$root/bindings/tk/idle_probe.py
state=$work/state
file=$work/sample.py
seq 1 400 | sed 's/^/line number /' >"$file"
files=("$file")
fuzz=${AMBER_TK_FUZZ:-3%}
tolerance=${AMBER_TK_PIXELS:-200}
status=0
app=""
run=0
pass() { echo "ok: idle: $*"; }
fail() { echo "FAILED: idle: $*"; status=1; }
trap '[ -n "$app" ] && kill -9 "$app" 2>/dev/null' EXIT

launch() {
    run=$((run + 1))
    out=$work/run$run.out
    python3 "$probe" --state-dir "$state" --save-delay "$save_delay" -m idlelib "${files[@]}" >"$out" 2>"$work/run$run.err" &
    app=$!
    # Restored, and sample.py's editor shown: with two files, the other one's may map first.
    wid=""
    for _ in $(seq 150); do
        if grep -q -- "--- restored" "$out" 2>/dev/null; then
            wid=$(xdotool search --onlyvisible --name '^sample.py - ' 2>/dev/null | head -n 1)
            [ -n "$wid" ] && break
        fi
        kill -0 "$app" 2>/dev/null || break
        sleep 0.1
    done
    if [ -z "$wid" ] || ! grep -q -- "--- restored" "$out"; then
        cat "$work/run$run.err"; echo "FAILED: idle: run $run: no editor window, or no restored state"; exit 1
    fi
}
block() { awk -v h="--- $2" '$0 == h {text = ""; inside = 1; next} /^--- / {inside = 0} inside {text = text $0 "\n"} END {printf "%s", text}' "$1"; }
at() { xdotool mousemove --window "$wid" "$1" "$2"; }
# settle: waits until two screenshots a moment apart are the same (IDLE's colouring done).
settle() {
    import -window root "$work/settle.a.png"
    for _ in $(seq 20); do
        sleep 0.2
        import -window root "$work/settle.b.png"
        [ "$(compare -metric AE "$work/settle.a.png" "$work/settle.b.png" null: 2>&1)" -le 40 ] 2>/dev/null && return
        mv "$work/settle.b.png" "$work/settle.a.png"
    done
}
# state_now NAME FILE [DIALOG]: the state IDLE has now (F12, over the first editor, or over the
# dialog that holds the grab) into FILE.
state_now() {
    local before
    before=$(grep -c -- "--- state" "$out")
    if [ $# -ge 3 ]; then xdotool mousemove --window "$3" 150 20; else at 300 300; fi
    xdotool key F12
    for _ in $(seq 50); do [ "$(grep -c -- "--- state" "$out")" -gt "$before" ] && break; sleep 0.1; done
    [ "$(grep -c -- "--- state" "$out")" -gt "$before" ] || fail "$1: F12 printed no state"
    block "$out" state >"$2"
}
snapshot() {  # snapshot NAME [DIALOG]
    state_now "$1" "$work/$1.before.state" "${@:2}"
    xdotool mousemove 1090 690
    settle
    import -window root "$work/$1.before.png"
}
check() {
    if [ "$1" = two ]; then
        state_now "$1" "$work/$1.after.state"  # once both editors are there (the block is the first's)
    else
        block "$out" restored >"$work/$1.after.state"
    fi
    if diff -u "$work/$1.before.state" "$work/$1.after.state" >"$work/$1.diff"; then
        pass "$1: the relaunch under the runner restored:"; sed 's/^/      /' "$work/$1.after.state"
    else
        cat "$work/$1.diff"; fail "$1: the restored state differs"
    fi
    xdotool mousemove 1090 690
    settle
    import -window root "$work/$1.raw.png"
    raw=$(compare -metric AE -fuzz "$fuzz" "$work/$1.before.png" "$work/$1.raw.png" null: 2>&1)
    at 300 300; xdotool key shift; xdotool mousemove 1090 690
    settle
    import -window root "$work/$1.after.png"
    local differ
    differ=$(compare -metric AE -fuzz "$fuzz" "$work/$1.before.png" "$work/$1.after.png" "$work/$1.diff.png" 2>&1)
    if [[ "$differ" =~ ^[0-9]+$ ]] && [ "$differ" -le "$tolerance" ]; then
        pass "$1: screenshots before and after: $differ pixels differ (at most $tolerance, fuzz $fuzz; $raw before IDLE's status bar caught up)"
    else
        fail "$1: screenshots before and after: $differ pixels differ (at most $tolerance, fuzz $fuzz; $raw before Shift)"
    fi
}
wait_exit() {
    for _ in $(seq 100); do kill -0 "$app" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$app" 2>/dev/null; then fail "run $run: IDLE did not quit"; kill -9 "$app"; fi
    wait "$app" 2>/dev/null
    app=""
}
select_lines() {  # drags from (x1, y1) to (x2, y2) in the editor
    at "$1" "$2"; xdotool mousedown 1; at "$3" "$4"; xdotool mouseup 1; sleep 0.3
}

# ---- 1: close the editor (WM_DELETE_WINDOW) ----------------------------------------------------
save_delay=60000  # runs 1 and 2: what comes back was saved by the close and by SIGTERM themselves
launch
grep -q "cursor 1.0 selection none top line 1.0" "$out" || fail "run 1 was not a fresh start"
at 200 200; xdotool click 5 click 5 click 5 click 5; sleep 0.3
select_lines 100 150 300 180
snapshot close
python3 "$root/bindings/tk/wm_close.py" "$wid"
wait_exit
launch
check close

# ---- 2: SIGTERM ------------------------------------------------------------------------------------
at 200 300; xdotool click 5 click 5 click 5; sleep 0.3
select_lines 60 400 200 460
snapshot sigterm
kill -TERM "$app"
wait_exit
save_delay=500  # run 3: the autosave, half a second after the last change
launch
check sigterm

# ---- 3: SIGKILL after the autosave -------------------------------------------------------------------
at 200 200; xdotool click 4 click 4; sleep 0.3
select_lines 150 250 90 330
archive=$state/state.archive
saved_before=$(stat -c %Y.%N "$archive" 2>/dev/null; sha1sum <"$archive")
snapshot sigkill
for _ in $(seq 100); do  # the autosave, half a second after the last change
    [ "$(stat -c %Y.%N "$archive" 2>/dev/null; sha1sum <"$archive")" != "$saved_before" ] && break
    sleep 0.1
done
[ "$(stat -c %Y.%N "$archive" 2>/dev/null; sha1sum <"$archive")" != "$saved_before" ] || fail "sigkill: no autosave"
kill -KILL "$app"
wait_exit
launch
check sigkill
python3 "$root/bindings/tk/wm_close.py" "$wid"
wait_exit

# ---- 4: two editor windows of one type (unnamed Toplevels), each its own state; SIGTERM ---------------
other=$work/other.py
seq 1 300 | sed 's/^/other line /' >"$other"
files=("$file" "$other")
save_delay=60000
launch
for _ in $(seq 100); do [ -n "$(xdotool search --onlyvisible --name '^other.py - ' 2>/dev/null)" ] && break; sleep 0.1; done
second=$(xdotool search --onlyvisible --name '^other.py - ' 2>/dev/null | head -n 1)
[ -n "$second" ] || { fail "two: the second editor did not open"; exit 1; }
xdotool windowmove "$second" 420 60; sleep 0.3                      # the second editor, moved aside
xdotool mousemove --window "$second" 300 300 click 5 click 5 click 5 click 5 click 5; sleep 0.3
xdotool mousemove --window "$second" 60 200; xdotool mousedown 1                # a selection in it
xdotool mousemove --window "$second" 120 230; xdotool mousemove --window "$second" 200 260; xdotool mouseup 1; sleep 0.3
at 150 150; xdotool click 5 click 5; sleep 0.3                      # the first one, scrolled less
select_lines 40 100 120 100
snapshot two
kill -TERM "$app"
wait_exit
launch
for _ in $(seq 100); do [ -n "$(xdotool search --onlyvisible --name '^other.py - ' 2>/dev/null)" ] && break; sleep 0.1; done
settle
check two
grep -q "^window 2: .*+420+60 other.py" "$work/two.after.state" || fail "two: the second editor is not where it was left"
files=("$file")
pictures=$root/.build/pictures
[ "${AMBER_UPDATE_PICTURES:-0}" = 1 ] && pictures=$root/docs/img
mkdir -p "$pictures"
# The pictures of the README: the two editors, the screen's empty border trimmed.
convert "$work/two.before.png" -trim +repage "$pictures/idle-before.png"
convert "$work/two.after.png" -trim +repage "$pictures/idle-after.png"
kill -TERM "$app"
wait_exit

# ---- 4b: the same two files reopened in the other order: each editor its own state, by title ---------
# IDLE's editors are unnamed Toplevels; reopened in the other order, the first made is other.py's,
# and each takes the saved window whose title (its file) is its own (docs/behaviour.md, "Unnamed
# windows in the adapters"). The states are compared window by window, by title: the windows are
# listed in the order they were made. No screenshot: which editor is on top follows that order.
by_title() { awk '/^window [0-9]+: /{if (w != "") print w; sub(/^window [0-9]+: /, ""); w = $0; next} {w = w " |" $0} END {if (w != "") print w}' "$1" | sort; }
files=("$other" "$file")
launch
for _ in $(seq 100); do [ -n "$(xdotool search --onlyvisible --name '^other.py - ' 2>/dev/null)" ] && break; sleep 0.1; done
settle
state_now reversed "$work/reversed.after.state"
xdotool mousemove 1090 690
import -window root "$work/reversed.after.png"  # to look at: the two editors, each where it was left
if diff -u <(by_title "$work/two.before.state") <(by_title "$work/reversed.after.state") >"$work/reversed.diff"; then
    pass "reversed: other.py's editor made first, each editor came back with its own state:"
    sed 's/^/      /' "$work/reversed.after.state"
else
    cat "$work/reversed.diff"; fail "reversed: an editor reopened in the other order has not its own state"
fi
files=("$file")
kill -TERM "$app"
wait_exit

# ---- 5: a dialog made later: IDLE's Find dialog, its Checkbuttons; closed, IDLE quit ---------------
# Without a window manager the dialog sits at the screen's top left, over the editor; the points
# clicked are on the dialog (--window), the editor's (300, 300) below it.
open_find() {  # Ctrl+F in the editor, once its cursor is where the last run had it (same status bar)
    at 300 300; xdotool click 1 key ctrl+f
    dialog=""
    for _ in $(seq 50); do
        dialog=$(xdotool search --onlyvisible --name '^Search Dialog$' 2>/dev/null | head -n 1)
        [ -n "$dialog" ] && break
        sleep 0.1
    done
    [ -n "$dialog" ] || { fail "find: run $run: Ctrl+F opened no Find dialog"; exit 1; }
    sleep 0.3
}
state=$work/dialog-state
files=("$file")
launch
open_find
state_now find "$work/find.fresh.state" "$dialog"
grep -q "check 'Regular expression': 0" "$work/find.fresh.state" && grep -q "check 'Match case': 0" "$work/find.fresh.state" \
    || fail "find: IDLE's Find dialog did not start with both unticked"
xdotool mousemove --window "$dialog" 150 51 click 1 mousemove --window "$dialog" 280 51 click 1; sleep 0.3
snapshot find "$dialog"
eval "$(xdotool getwindowgeometry --shell "$dialog")"  # the dialog's place: the pictures' crop
crop="${WIDTH}x${HEIGHT}+${X}+${Y}"
grep -q "check 'Regular expression': 1" "$work/find.before.state" && grep -q "check 'Match case': 1" "$work/find.before.state" \
    || fail "find: the clicks did not tick both"
xdotool mousemove --window "$dialog" 150 20 key Escape              # IDLE's close: the dialog withdrawn
for _ in $(seq 50); do [ -z "$(xdotool search --onlyvisible --name '^Search Dialog$' 2>/dev/null)" ] && break; sleep 0.1; done
python3 "$root/bindings/tk/wm_close.py" "$wid"
wait_exit
launch
open_find
state_now find "$work/find.after.state" "$dialog"
if diff -u "$work/find.before.state" "$work/find.after.state" >"$work/find.diff"; then
    pass "find: the Find dialog, opened after the relaunch, claimed its state:"; sed 's/^/      /' "$work/find.after.state"
else
    cat "$work/find.diff"; fail "find: the Find dialog's state differs after the relaunch"
fi
xdotool mousemove 1090 690
settle
import -window root "$work/find.after.png"
differ=$(compare -metric AE -fuzz "$fuzz" "$work/find.before.png" "$work/find.after.png" "$work/find.diff.png" 2>&1)
if [[ "$differ" =~ ^[0-9]+$ ]] && [ "$differ" -le "$tolerance" ]; then
    pass "find: screenshots before and after: $differ pixels differ (at most $tolerance, fuzz $fuzz)"
else
    fail "find: screenshots before and after: $differ pixels differ (at most $tolerance, fuzz $fuzz)"
fi
convert "$work/find.before.png" -crop "$crop" +repage "$pictures/idle-find-before.png"
convert "$work/find.after.png" -crop "$crop" +repage "$pictures/idle-find-after.png"
# The dialog alone, closer: the two ticks differ from two empty boxes by about 130 pixels, under
# the whole screen's tolerance; the Find entry's caret (2 by 17 pixels) may blink between the two.
dialog_tolerance=40
differ=$(compare -metric AE -fuzz "$fuzz" "$pictures/idle-find-before.png" "$pictures/idle-find-after.png" null: 2>&1)
if [[ "$differ" =~ ^[0-9]+$ ]] && [ "$differ" -le "$dialog_tolerance" ]; then
    pass "find: the dialog before and after: $differ pixels differ (at most $dialog_tolerance, fuzz $fuzz)"
else
    fail "find: the dialog before and after: $differ pixels differ (at most $dialog_tolerance, fuzz $fuzz)"
fi
kill -TERM "$app"
wait_exit
exit $status
