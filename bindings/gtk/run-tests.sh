#!/usr/bin/env bash
# Tests libamber-gtk in real windows: builds the adapter and its notes demo, starts its own Xvfb,
# drives the demo with real input events (xdotool: scroll the list, click a row, type, switch
# tab, drag the split, resize the window, open the preferences and tick a box), then ends it
# three ways and relaunches it each time:
#
#   1. close      the window's close button
#   2. SIGTERM    the adapter saves on the signal and the application quits
#   3. SIGKILL    after the autosave (the program killed without warning)
#
# After each relaunch it checks the restored state, from the demo's own --print-state output
# (the state printed on SIGUSR1 just before the end against the state printed once restored),
# and a screenshot of the screen before the end against one after the relaunch (ImageMagick
# `compare -metric AE` with the colour fuzz of pixels_apart(), at most GTK_PIXEL_TOLERANCE
# pixels apart, see below). Then:
#
#   4. the notes reordered, and the selected note deleted, between runs (model association); the
#      run before the reordering ends with SIGINT, so that the selection found proves its save
#   5. no crash and no hang with no display, a widget renamed in another version of the .ui
#      file, or an archive from another application (one with other widgets, and one with the
#      same widgets and typed text, its key file copied too): a fresh start and a report line
#
# Before them, tests/test_shape.c checks automatic identifiers and the window's shape,
# tests/test_late_window.c a window shown after the launch, tests/test_hidden_scroll.c a scroll
# on a page hidden at restore, tests/test_two_windows.c two windows of one type,
# tests/test_own_size.c a program that also keeps its window's size, tests/test_tree_scroll.c a
# tree view's scroll by its top row, tests/test_text_scroll.c a text view's scroll by its top
# line while GTK is late measuring its lines, tests/test_first_frame.c checks that a list of 1,000 rows restored past row 800
# shows those rows in its first frame (GTK 4.8 drew none until the next wheel scroll), and
# tests/test_widgets.c checks the widget types the demo does not use (a stack, an
# expander, a spin button, toggles, a drop-down, a grid view's multiple selection, the host's
# own coding, a window built from a .ui file), set by the program, saved, and restored in a second
# process; tests/test_driven_widgets.c a flow box's selection, a revealer and a combo box changed
# by real input (xdotool), saved, and restored in a second process.
#
# Beside them, tests/run-programs.sh: real programs written by others (gtk4-widget-factory,
# gtk4-demo), unmodified, under amber-run, in an Xvfb of their own; its lines come last.
#
# The first scenario's screenshots are kept as .build/pictures/gtk-before.png and gtk-after.png;
# with AMBER_UPDATE_PICTURES=1 they go to docs/img/, the README's pictures.
#
#   bindings/gtk/run-tests.sh            AMBER_LIBDIR: the Amber library (.build-lib/lib)
#
# Needs libgtk-4-dev, xvfb, xdotool, imagemagick and dbus (scripts/setup.sh installs them).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
export AMBER_LIBDIR=${AMBER_LIBDIR:-$root/.build-lib/lib}
# The pixel tolerance of the screenshots sits above a focus ring: GTK draws focus rings after
# keyboard use, and the timing of pointer and key events under Xvfb can leave the ring
# around a check box on one side only. A row, a scroll position, a tab or a split that did not
# come back changes several times more pixels (the commit messages have the figures).
tolerance=${GTK_PIXEL_TOLERANCE:-1500}

for tool in Xvfb xdotool import compare dbus-run-session pkg-config; do
    command -v "$tool" >/dev/null || { echo "gtk tests: $tool is missing (scripts/setup.sh)" >&2; exit 1; }
done
[[ -e $AMBER_LIBDIR/libamber.so ]] || { echo "gtk tests: no $AMBER_LIBDIR/libamber.so (scripts/build-lib.sh)" >&2; exit 1; }

make -s -C "$here" AMBER_LIBDIR="$AMBER_LIBDIR" >/dev/null
demo=$here/build/amber-notes
"$here/count-amber-lines.sh"

work=$(mktemp -d)
[[ -n ${GTK_TEST_KEEP:-} ]] && echo "gtk tests: keeping $work"
xvfb_pid=
app_pid=
programs_pid=
cleanup() {
    if [[ -n $programs_pid ]]; then kill "$programs_pid" 2>/dev/null || true; fi
    if [[ -n $app_pid ]]; then kill -KILL "$app_pid" 2>/dev/null || true; fi
    if [[ -n $xvfb_pid ]]; then kill "$xvfb_pid" 2>/dev/null || true; fi
    if [[ -z ${GTK_TEST_KEEP:-} ]]; then rm -rf "$work"; fi
}
trap cleanup EXIT

# tests/run-programs.sh runs beside the tests below, in an Xvfb of its own: both spend most of
# their time waiting on their windows. Its output is printed after theirs. It picks its display
# first, so that the two never try the same one.
programs_log=$work/programs.log
"$here/tests/run-programs.sh" >"$programs_log" 2>&1 &
programs_pid=$!
for _ in $(seq 300); do
    grep -q "Xvfb on" "$programs_log" && break
    kill -0 "$programs_pid" 2>/dev/null || break
    sleep 0.1
done

# Our own X server.
. "$here/xvfb.sh"
start_xvfb "$work/xvfb.log"
export XDG_STATE_HOME=$work/state
export NO_AT_BRIDGE=1
echo "gtk tests: Xvfb on $DISPLAY"

passed=0
failed=0
pass() { echo "ok   $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1"; failed=$((failed + 1)); }
check() { # check NAME COMMAND...: passes when the command succeeds
    local name=$1; shift
    if "$@"; then pass "$name"; else fail "$name"; fi
}

# Starts the demo (extra arguments passed on), waits for its window and its first state block.
run=0
launch() {
    run=$((run + 1))
    out=$work/out.$run
    err=$work/err.$run
    dbus-run-session -- "$demo" --print-state "$@" >"$out" 2>"$err" &
    app_pid=$!
    for _ in $(seq 150); do
        grep -q '^state: end' "$out" 2>/dev/null && break
        kill -0 "$app_pid" 2>/dev/null || break
        sleep 0.1
    done
    grep -q '^state: end' "$out" || { echo "gtk tests: the demo did not start:"; cat "$err"; exit 1; }
    win=$(xdotool search --onlyvisible --name '^Notes$' | head -1)
}

# The last state block the demo printed.
last_state() { awk '/^state: end/{last=block; block=""; next} /^state: /{block=block $0 "\n"} END{printf "%s", last}' "$out"; }

# Asks the running demo for its state now (SIGUSR1) and prints it. The demo's pid is that of
# dbus-run-session's child.
app_child() { pgrep -P "$app_pid" -f amber-notes | head -1; }
state_now() {
    local blocks
    blocks=$(grep -c '^state: end' "$out")
    kill -USR1 "$(app_child)"
    for _ in $(seq 50); do (($(grep -c '^state: end' "$out") > blocks)) && break; sleep 0.1; done
    last_state
}

# A screenshot of the whole screen, the pointer out of the way and the overlay scrollbars faded.
shot() {
    xdotool mousemove 799 599
    sleep 2
    import -window root "$1"
}

pixels_apart() { compare -metric AE -fuzz 5% "$1" "$2" "$work/diff.png" 2>&1 >/dev/null || true; }

# Waits for the demo to end; kills it after 10 s (a hang is a failure).
wait_exit() {
    for _ in $(seq 100); do kill -0 "$app_pid" 2>/dev/null || { wait "$app_pid" 2>/dev/null; app_pid=; return 0; }; sleep 0.1; done
    kill -KILL "$app_pid"; app_pid=
    return 1
}

# Compares the state before the end with the state restored, and the screenshots.
compare_runs() { # compare_runs NAME BEFORE_STATE BEFORE_PNG
    local name=$1 before=$2 before_png=$3 after
    shot "$work/after-$name.png"
    after=$(state_now)
    if [[ $before == "$after" ]]; then pass "$name: the state printed after the relaunch is the state before"
    else fail "$name: state differs"; diff <(echo "$before") <(echo "$after") || true; fi
    local apart
    apart=$(pixels_apart "$before_png" "$work/after-$name.png")
    echo "     $name: screenshots $apart pixels apart (tolerance $tolerance)"
    check "$name: the screen after the relaunch matches the screen before" test "${apart%%.*}" -le "$tolerance"
}

field() { echo "$1" | sed -n "s/^state: $2 //p"; }

# ---- 0. the widget types the demo does not use (tests/test_widgets.c) ----------------------
# save, then restore with amber_gtk_restore() (check), then let the adapter restore by itself
# after "activate" (auto: the archive check saved at its shutdown).
for mode in save check auto; do
    if dbus-run-session -- "$here/build/test_widgets" $mode >"$work/widgets.$mode" 2>>"$work/widgets.err"; then
        pass "widget types, test_widgets $mode: $(grep -c '^ok' "$work/widgets.$mode") checks"
    else
        fail "widget types, test_widgets $mode:"; grep -v '^ok' "$work/widgets.$mode" "$work/widgets.err" || true
    fi
done
check "widget types: two widgets with one path, the second left out with a line on stderr" \
    grep -q '^amber-gtk: not saved: GtkApplicationWindow/box/twin: ' "$work/widgets.err"

# ---- 0b. a list of 1,000 rows restored past row 800: its rows in the first frame -------------
# (tests/test_first_frame.c: the rows its list shows when the first frame is drawn, and ten
# frames later; the first frame is kept as .build/pictures/gtk-first-frame.png.)
mkdir -p "$root/.build/pictures"
for mode in save check; do
    picture=
    [[ $mode == check ]] && picture=$root/.build/pictures/gtk-first-frame.png
    if dbus-run-session -- "$here/build/test_first_frame" $mode ${picture:+"$picture"} >"$work/first-frame.$mode" 2>>"$work/first-frame.err"; then
        pass "first frame, test_first_frame $mode: $(grep '^ok' "$work/first-frame.$mode" | sed 's/^ok  *//' | paste -sd';' -)"
    else
        fail "first frame, test_first_frame $mode:"; cat "$work/first-frame.$mode"
    fi
done
# The list's steps run in the layout phase, which GDK runs at most four times a frame, and warns
# if asked for more.
check "first frame: no warning from GDK's frame clock" test -z "$(grep 'gdk-frame-clock' "$work/first-frame.err")"

# ---- 0c. automatic identifiers and the window's shape; a window shown after the launch -------
# tests/test_shape.c: unnamed scales restored into the same interface, none into one with a scale
# added before them (the named one still is), with one line saying why. (A restoration discards
# the archive, R14: each check follows a save.) tests/test_late_window.c: a window shown after
# the launch claims its kept record (R35), with one line at launch saying its state is kept, and
# one at the end saying it was not restored if it never showed.
run_modes() { # run_modes PROGRAM MODE...: one check per mode, its "ok" lines as the name
    local program=$1 mode; shift
    for mode in "$@"; do
        if dbus-run-session -- "$here/build/$program" "$mode" >"$work/$program.$mode" 2>>"$work/$program.err"; then
            pass "$program $mode: $(grep '^ok' "$work/$program.$mode" | sed 's/^ok  *//' | paste -sd';' -)"
        else
            fail "$program $mode:"; cat "$work/$program.$mode"
        fi
    done
}
run_modes test_shape save same save changed
# One line in all four runs: "same" prints none, "changed" one for the window, none per widget.
check "test_shape changed: one line says the unnamed widgets' state is not restored, and why" \
    test "$(grep -c '^amber-gtk: GtkApplicationWindow: the interface changed since the save (2 unnamed widgets with state then, 3 now' "$work/test_shape.err")" = 1
check "test_shape: no other line on stderr about the windows' state" \
    test -z "$(grep '^amber-gtk: ' "$work/test_shape.err" | grep -v 'the interface changed since the save')"
run_modes test_late_window save claim save unclaimed
# tests/test_hidden_scroll.c: a scroll on a page hidden at restore is said pending until the page
# shows, then restored once applied.
run_modes test_hidden_scroll save check
# tests/test_two_windows.c: two windows of one type, each its own state back, one line each
# saying how it was matched: unnamed, reopened in the same order (by order); named after their
# files, reopened in the other order (by name, no line); unnamed with their files in their
# titles, reopened in the other order, at launch and shown after it (by title); unnamed with
# equal titles, reopened in the other order (by order, and why); a damaged index of titles (no
# crash, by order). The titled check also writes
# each window's first frame: .build/pictures/gtk-two-windows-a.png and -b.png.
run_modes test_two_windows save check save-named check-named-reversed save-titled
if dbus-run-session -- "$here/build/test_two_windows" check-titled-reversed "$root/.build/pictures/gtk-two-windows" \
        >"$work/test_two_windows.check-titled-reversed" 2>>"$work/test_two_windows.err"; then
    pass "test_two_windows check-titled-reversed: $(grep '^ok' "$work/test_two_windows.check-titled-reversed" | sed 's/^ok  *//' | paste -sd';' -)"
else
    fail "test_two_windows check-titled-reversed:"; cat "$work/test_two_windows.check-titled-reversed"
fi
run_modes test_two_windows save-titled check-titled-late save-same-title check-same-title-reversed \
    save-damaged-index check-damaged-index
# tests/test_own_size.c: a program that sets its own window size after the restore: its size
# kept, one line saying so.
run_modes test_own_size save check
# tests/test_tree_scroll.c: a tree view scrolled back by its top row into taller rows.
run_modes test_tree_scroll save check
# tests/test_text_scroll.c: a text view's top line back while the program is too busy for GTK to
# measure its lines.
run_modes test_text_scroll save check

# tests/test_driven_widgets.c: a flow box's selection, a revealer and a combo box changed by real
# input (the program prints where to click), saved, and restored in a second process.
drive_widgets() {
    local out=$work/test_driven_widgets.save at
    dbus-run-session -- "$here/build/test_driven_widgets" save >"$out" 2>>"$work/test_driven_widgets.err" &
    app_pid=$!
    for _ in $(seq 150); do grep -q '^at size ' "$out" 2>/dev/null && break; kill -0 "$app_pid" 2>/dev/null || break; sleep 0.1; done
    at() { sed -n "s/^at $1 //p" "$out"; }
    # The tiles 1 and 4 (Ctrl: added to the selection), the program's Details button, then the
    # combo box's list opened and its third item picked with the keyboard.
    xdotool mousemove $(at tile1) click 1 sleep 0.2 keydown ctrl mousemove $(at tile4) click 1 keyup ctrl sleep 0.2
    xdotool mousemove $(at details) click 1 sleep 0.2 mousemove $(at size) click 1 sleep 0.5
    xdotool key Down sleep 0.1 key Down sleep 0.1 key Return
    if wait_exit && grep -q '^ok' "$out" && ! grep -q '^FAIL' "$out"; then pass "test_driven_widgets save: $(sed -n 's/^ok  *//p' "$out")"
    else fail "test_driven_widgets save:"; cat "$out"; fi
}
drive_widgets
run_modes test_driven_widgets check

# ---- 1. close ------------------------------------------------------------------------------
launch
fresh=$(last_state)
check "fresh start: no note selected, first tab, split at 220" \
    test "$(field "$fresh" selected)/$(field "$fresh" tab)/$(field "$fresh" split)" = "none/Editor/220"

xdotool windowsize "$win" 760 520; sleep 0.5
xdotool mousemove 100 300
for _ in 1 2 3 4 5 6; do xdotool click 5; sleep 0.1; done
sleep 0.5
xdotool mousemove 60 200 click 1; sleep 0.3                     # a row
xdotool mousemove 460 300 click 1; sleep 0.2                    # the editor
xdotool key ctrl+End; xdotool type --delay 40 "buy milk and"; sleep 0.2
xdotool mousemove 225 250 mousedown 1 mousemove 240 250 mousemove 265 250 mouseup 1; sleep 0.3   # the split
xdotool mousemove $((760 - 193)) 27 click 1; sleep 1            # Preferences
xdotool mousemove 29 75 click 1; sleep 0.3                      # tick "Check spelling"
before=$(state_now)
check "driven: a note selected, the list scrolled, text typed, the split moved, the window resized, the preferences open and ticked" \
    test "$(field "$before" selected)" != none -a "$(field "$before" 'list scroll')" != 0 \
         -a "$(field "$before" split)" != 220 -a "$(field "$before" window)" = "760x520 maximized=0" \
         -a "$(field "$before" prefs)" = "open spellcheck=1 wrap=1"
check "driven: the typed text is in the editor" grep -q 'buy milk and' <<<"$before"
shot "$work/before-close.png"
xdotool mousemove $((760 - 28)) 27 click 1                      # the window's close button
check "close: the demo quits when its window is closed" wait_exit
launch
compare_runs close "$before" "$work/before-close.png"
pictures=$root/.build/pictures
[ "${AMBER_UPDATE_PICTURES:-0}" = 1 ] && pictures=$root/docs/img  # the README's pictures
mkdir -p "$pictures"
cp "$work/before-close.png" "$pictures/gtk-before.png"
cp "$work/after-close.png" "$pictures/gtk-after.png"

# ---- 2. SIGTERM ----------------------------------------------------------------------------
# The preferences are closed alone (saved as closed), then the other tab, its entry typed into.
xdotool mousemove $((300 - 28)) 27 click 1; sleep 0.5        # the preferences' close button
split=$(field "$(state_now)" split)                             # the tabs are right of the split
xdotool mousemove $((split + 120)) 94 click 1; sleep 0.3        # the Details tab
xdotool mousemove $((split + 200)) 150 click 1; xdotool type --delay 40 "Shopping"; xdotool key Left Left; sleep 0.3
before=$(state_now)
check "driven: the Details tab, the title typed, the preferences closed" \
    test "$(field "$before" tab)/$(field "$before" prefs)" = "Details/closed" -a -n "$(grep Shopping <<<"$before")"
shot "$work/before-term.png"
kill -TERM "$(app_child)"
check "SIGTERM: the demo quits" wait_exit
launch
compare_runs sigterm "$before" "$work/before-term.png"

# ---- 3. SIGKILL after the autosave ---------------------------------------------------------
xdotool mousemove 60 320 click 1; sleep 0.3                     # another row
xdotool mousemove $((split + 46)) 94 click 1; sleep 0.3         # back to the Editor tab
xdotool mousemove $((760 - 193)) 27 click 1; sleep 1            # Preferences again
xdotool mousemove 29 107 click 1; sleep 0.3                     # untick "Wrap long lines"
before=$(state_now)
check "driven: another note, the Editor tab, the preferences opened again (as new) with wrap unticked" \
    test "$(field "$before" tab)/$(field "$before" prefs)" = "Editor/open spellcheck=0 wrap=0"
sleep 2.5                                                       # idle: the adapter saves
shot "$work/before-kill.png"
kill -KILL "$(app_child)"
wait_exit || true
launch
compare_runs sigkill "$before" "$work/before-kill.png"
selected=$(field "$before" selected)

# ---- 4. notes moved and deleted between runs (the first end by SIGINT, as Ctrl+C) -----------
top=$(field "$(last_state)" 'list top')
kill -INT "$(app_child)"
check "SIGINT: the demo quits" wait_exit
launch --rotate 5
check "moved: after five notes moved from the end to the top, the same note ($selected) is selected" \
    test "$(field "$(last_state)" selected)" = "$selected"
check "moved: the same note ($top) is at the top of the list (the first visible item, by identifier)" \
    test "$(field "$(state_now)" 'list top')" = "$top"
kill -TERM "$(app_child)"; wait_exit
launch --reverse
check "moved: after the notes were reversed, the same note ($selected) is selected" \
    test "$(field "$(last_state)" selected)" = "$selected"
kill -TERM "$(app_child)"; wait_exit
launch --drop "$selected"
check "deleted: after the selected note was deleted, no note is selected" test "$(field "$(last_state)" selected)" = none
check "deleted: a report line says the saved item is no longer in the list" \
    grep -q 'amber-gtk: main/split/sidebar/notes: [12] saved item(s) no longer in the list' "$err"
check "deleted: the rest still came back (the typed text)" grep -q 'buy milk and' <<<"$(last_state)"

# ---- 5. no crash, no hang ------------------------------------------------------------------
kill -TERM "$(app_child)"; wait_exit
set +e
DISPLAY= timeout 20 "$demo" >"$work/nodisplay.out" 2>&1
status=$?
set -e
check "no display: a clear error and exit status 1, no crash (status $status)" \
    test "$status" -eq 1 -a -n "$(grep 'cannot open a display' "$work/nodisplay.out")"

# amber-run on programs that do not link GTK 4 (an ELF program, and a script that names the
# library): each runs as it is, with one line.
printf '#!/bin/sh\n# libgtk-4.so\necho ran\n' >"$work/script.sh"
chmod +x "$work/script.sh"
for program in "sh -c 'echo ran'" "$work/script.sh"; do
    ran=$(eval "\"$here/build/amber-run\" $program" 2>"$work/runner.err")
    check "amber-run $(basename "${program%% *}"): it does not link GTK 4, so it runs without Amber, with one line" \
        test "$ran" = ran -a "$(grep -c 'does not link GTK 4: it runs without Amber' "$work/runner.err")" = 1
done

sed -e 's/id="title"/id="note-title"/' "$here/demo/notes.ui" >"$work/renamed.ui"
launch --ui "$work/renamed.ui"
check "renamed widget: a report line names the saved widget not found" \
    grep -q 'amber-gtk: main/split/tabs/details-page/title not restored' "$err"
check "renamed widget: the window comes up, its other state restored (the typed text)" \
    grep -q 'buy milk and' <<<"$(last_state)"
kill -TERM "$(app_child)"; wait_exit

# An archive from another application with the same widgets (the demo under another app id),
# text typed in it, copied with its key into our state directory: the engine refuses it (R9),
# one report line naming both ids, and none of its state comes back.
launch --app-id org.amber.othernotes
xdotool mousemove 460 300 click 1; sleep 0.2                    # the editor
xdotool key ctrl+End; xdotool type --delay 40 "typed elsewhere"; sleep 0.2
check "other app id: the typed text is in its editor" grep -q 'typed elsewhere' <<<"$(state_now)"
kill -TERM "$(app_child)"; wait_exit
cp "$XDG_STATE_HOME/org.amber.othernotes/state.archive" "$XDG_STATE_HOME/org.amber.othernotes/archive.key" \
    "$XDG_STATE_HOME/org.amber.notes/"
launch
check "same widgets, another app's archive: one line naming both ids, and nothing of it restored" \
    test -n "$(grep "amber-gtk: fresh launch: .*'org.amber.othernotes', not by 'org.amber.notes'" "$err")" \
    -a -z "$(grep 'typed elsewhere' <<<"$(last_state)")"
kill -TERM "$(app_child)"; wait_exit

# An archive from another application: the C quick start's, with its key, in our state directory.
other=$work/other
cc -I"$root/include" -o "$work/twoscreens" "$root/examples/quickstart/c/twoscreens.c" \
    -L"$AMBER_LIBDIR" -lamber -Wl,-rpath,"$AMBER_LIBDIR"
"$work/twoscreens" "$other" >/dev/null
cp "$other/state.archive" "$other/archive.key" "$XDG_STATE_HOME/org.amber.notes/"
launch
check "another app's archive: one line naming its app id, and a fresh interface" \
    test -n "$(grep "amber-gtk: fresh launch: .*'org.example.twoscreens'" "$err")" -a "$(field "$(last_state)" selected)" = none
kill -TERM "$(app_child)"; wait_exit

echo "gtk tests: $passed passed, $failed failed"
programs=0
wait "$programs_pid" || programs=$?
programs_pid=
cat "$programs_log"
((failed == 0 && programs == 0))
