#!/usr/bin/env bash
# Real programs written by others, unmodified, under amber-run (issue 40): gtk4-widget-factory
# and gtk4-demo (Debian's gtk-4-examples). Each is driven with real input (xdotool) in an Xvfb of
# its own, ended three ways, and relaunched under amber-run:
#
#   1. close      a WM_DELETE_WINDOW message, as a window manager sends for the close button
#   2. SIGTERM
#   3. SIGKILL    after the autosave (the archive rewritten after the last change)
#
# After each relaunch it checks:
#   - the state: amber-run writes the state of every restorable widget on SIGUSR1
#     (AMBER_RUN_STATE_FILE, amber_gtk_describe()); the state after the relaunch is the state
#     before the end, and the changes made are in it;
#   - the screen: a screenshot after the relaunch against one before the end (ImageMagick's
#     `compare -metric AE`, as pixels_apart() below runs it), at most
#     GTK_PROGRAM_PIXEL_TOLERANCE pixels apart.
#
# The first widget-factory pair is kept as .build/pictures/gtk-factory-before.png and
# -after.png; with AMBER_UPDATE_PICTURES=1 in docs/img/ (the README's picture).
#
#   bindings/gtk/tests/run-programs.sh [SCENARIO]   (run-tests.sh calls it; make -C bindings/gtk first)
#
# With a SCENARIO ("factory close", "demo sigterm", ...), only that scenario runs, from a fresh
# launch of its program: a flaky one can be run over and over (under load, for instance).
set -euo pipefail
only=${1:-}
scenarios=("factory close" "factory sigterm" "factory sigkill" "demo close" "demo sigterm" "demo sigkill")
if [[ -n $only ]] && ! printf '%s\n' "${scenarios[@]}" | grep -qxF -- "$only"; then
    echo "gtk programs: no scenario \"$only\" (one of: $(printf '"%s" ' "${scenarios[@]}"))" >&2
    exit 2
fi
here=$(cd "$(dirname "$0")/.." && pwd)
root=$(cd "$here/../.." && pwd)
runner=$here/build/amber-run
# A focus ring or a caret is at most a few hundred pixels; a tab, a page, a pane or a scroll
# that did not come back changes thousands.
tolerance=${GTK_PROGRAM_PIXEL_TOLERANCE:-600}
# How many screenshots after a relaunch may be taken, 3 s apart, until one matches (see scenario()).
after_shots=3

for tool in Xvfb xdotool import compare dbus-run-session python3 gtk4-widget-factory gtk4-demo; do
    command -v "$tool" >/dev/null || { echo "gtk programs: $tool is missing (scripts/setup.sh)" >&2; exit 1; }
done
[[ -x $runner ]] || { echo "gtk programs: no $runner (make -C bindings/gtk)" >&2; exit 1; }

work=$(mktemp -d)
[[ -n ${GTK_TEST_KEEP:-} ]] && echo "gtk programs: keeping $work"
xvfb_pid=
app_pid=
cleanup() {
    if [[ -n $app_pid ]]; then kill -KILL "$app_pid" 2>/dev/null || true; fi
    if [[ -n $xvfb_pid ]]; then kill "$xvfb_pid" 2>/dev/null || true; fi
    if [[ -z ${GTK_TEST_KEEP:-} ]]; then rm -rf "$work"; fi
}
trap cleanup EXIT

. "$here/xvfb.sh"
# The widget factory's window is 1342x754 and more.
start_xvfb "$work/xvfb.log" 1400x800x24
export XDG_STATE_HOME=$work/state
export NO_AT_BRIDGE=1
export SWIFT_BACKTRACE=enable=no
# Stable screenshots: no animations (spinners, progress), no blinking caret.
export XDG_CONFIG_HOME=$work/config
mkdir -p "$XDG_CONFIG_HOME/gtk-4.0"
printf '[Settings]\ngtk-enable-animations=false\ngtk-cursor-blink=false\n' >"$XDG_CONFIG_HOME/gtk-4.0/settings.ini"
echo "gtk programs: Xvfb on $DISPLAY"

passed=0
failed=0
pass() { echo "ok   $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1"; failed=$((failed + 1)); }
check() { # check NAME COMMAND...
    local name=$1; shift
    if "$@"; then pass "$name"; else fail "$name"; fi
}

# Whether the scenario NAME runs: all of them, or the one asked for.
wanted() { [[ -z $only || $only == "$1" ]]; }
# Whether a scenario of PROGRAM runs (its program is launched).
program_wanted() { [[ -z $only || $only == "$1 "* ]]; }

# Waits until COMMAND succeeds, polling, for at most SECONDS.
wait_for() { # wait_for SECONDS COMMAND...
    local seconds=$1; shift
    for _ in $(seq $((seconds * 10))); do "$@" && return 0; sleep 0.1; done
    return 1
}

# Starts PROGRAM under amber-run; sets app_pid (dbus-run-session), pid (the program), win (its
# window, found by its class: the program's name).
run=0
launch() { # launch PROGRAM [ARGS...]
    run=$((run + 1))
    err=$work/err.$run
    dbus-run-session -- env AMBER_RUN_STATE_FILE="$work/state.txt" "$runner" "$@" >"$work/out.$run" 2>"$err" &
    app_pid=$!
    local comm=${1:0:15}
    find_program() { pid=$(pgrep -P "$app_pid" -x "$comm" | head -1); [[ -n $pid ]]; }
    find_window() { win=$(xdotool search --onlyvisible --class "$comm" 2>/dev/null | head -1); [[ -n $win ]]; }
    wait_for 30 find_program && wait_for 30 find_window || { echo "gtk programs: $1 did not start:"; cat "$err"; exit 1; }
    # Restored and drawn: the state can be read.
    state_now >/dev/null
}

# The state of the running program's widgets, now.
state_now() {
    rm -f "$work/state.txt"
    kill -USR1 "$pid"
    wait_for 10 test -s "$work/state.txt" || { echo "gtk programs: no state written" >&2; return 1; }
    cat "$work/state.txt"
}

# A screenshot of the whole screen, the pointer out of the way and the overlay scroll bars faded
# (GTK hides them 2 s after the last scroll or motion).
shot() {
    xdotool mousemove 1399 799
    sleep 3
    import -window root "$1"
}

# The pixels two screenshots differ by, outside the region the program animates by itself: the
# widget factory's first page pulses a progress bar on a timer of its own (x 583-905, y 92-99).
animated_region="rectangle 583,92 905,99"
pixels_apart() {
    convert "$1" -fill black -draw "$animated_region" "$work/a.png"
    convert "$2" -fill black -draw "$animated_region" "$work/b.png"
    compare -metric AE -fuzz 5% "$work/a.png" "$work/b.png" "$work/diff.png" 2>&1 >/dev/null || true
}

# Waits for the program to end; kills it after 15 s (a hang is a failure).
wait_exit() {
    if wait_for 15 bash -c "! kill -0 $app_pid 2>/dev/null"; then wait "$app_pid" 2>/dev/null || true; app_pid=; return 0; fi
    kill -KILL "$app_pid"; app_pid=
    return 1
}

archive_time() { date -r "$1" +%s%N 2>/dev/null || echo 0; }

# Ends the program three ways (close, SIGTERM, SIGKILL after the autosave); the caller's
# drive_N functions make the changes before each end.
end_program() { # end_program close|sigterm|sigkill ARCHIVE
    local how=$1 archive=$2
    case $how in
    close) python3 "$root/bindings/tk/wm_close.py" "$win"; check "$name: the program quits when its window is closed" wait_exit ;;
    sigterm) kill -TERM "$pid"; check "$name: the program quits on SIGTERM" wait_exit ;;
    sigkill) kill -KILL "$pid"; wait_exit || true ;;
    esac
}

# One scenario: drive, read the state, screenshot, end, relaunch, compare.
scenario() { # scenario NAME HOW ARCHIVE DRIVE PROGRAM...
    name=$1; local how=$2 archive=$3 drive=$4; shift 4
    local mark before after apart
    "$drive"
    mark=$(archive_time "$archive")    # after the last change: the autosave comes a second later
    before=$(state_now)
    echo "$before" >"$work/state-before-$name.txt"
    if [[ $how == sigkill ]]; then
        saved_since() { [[ $(archive_time "$archive") -gt $mark ]]; }
        check "$name: the autosave rewrote the archive after the changes" wait_for 15 saved_since
    fi
    shot "$work/before-$name.png"
    end_program "$how" "$archive"
    launch "$@"
    shot "$work/after-$name.png"
    after=$(state_now)
    echo "$after" >"$work/state-after-$name.txt"
    if [[ $before == "$after" ]]; then pass "$name: the state after the relaunch is the state before ($(wc -l <<<"$before") widgets)"
    else fail "$name: the state differs"; diff <(echo "$before") <(echo "$after") || true; fi
    # A scroll restored shows its overlay scroll bar for 2 s from the program's first frame, which
    # a loaded machine can draw a second or more after its window shows: the screenshot is taken
    # again (a few times) while the bar may still be fading; a restore that went wrong stays apart.
    local shots=1
    apart=$(pixels_apart "$work/before-$name.png" "$work/after-$name.png")
    while [[ ${apart%%.*} -gt $tolerance && $shots -lt $after_shots ]]; do
        shot "$work/after-$name.png"
        shots=$((shots + 1))
        apart=$(pixels_apart "$work/before-$name.png" "$work/after-$name.png")
    done
    echo "     $name: screenshots $apart pixels apart (tolerance $tolerance, $shots screenshots after)"
    check "$name: the screen after the relaunch matches the screen before" test "${apart%%.*}" -le "$tolerance"
    last_before=$before
}

# ---- gtk4-widget-factory --------------------------------------------------------------------
factory_archive=$XDG_STATE_HOME/org.gtk.WidgetFactory4/state.archive
factory() { scenario "$1" "$2" "$factory_archive" "$3" gtk4-widget-factory; }
stack=window/box1/toplevel_stack

# Page 1: a check button, a switch, a scale, a spin button, a notebook tab, a text view's scroll,
# a tree row, an entry's cursor.
drive_page1() {
    xdotool mousemove 27 455 click 1; sleep 0.2                     # check button 2 on
    xdotool mousemove 497 470 click 1; sleep 0.2                    # switch 1 on
    xdotool mousemove 820 150 click 1; sleep 0.3                    # scale 1 moved
    xdotool mousemove 212 386 click 1; sleep 0.2; xdotool click 1; sleep 0.2   # spin button 50 -> 52
    xdotool mousemove 126 616 click 1; sleep 0.3                    # the NYC tab
    xdotool mousemove 1280 117 click 1; sleep 0.2                   # a tree row (Otto)
    xdotool mousemove 1270 450; for _ in 1 2 3 4 5; do xdotool click 5; sleep 0.1; done; sleep 0.5   # the text scrolled
    xdotool mousemove 300 254 click 1; sleep 0.2                    # an entry's cursor
}
# Page 2: a pane, the calendar, a spin button, the expander, a scrolled list.
drive_page2() {
    xdotool mousemove 699 27 click 1; sleep 0.5                     # Page 2
    xdotool mousemove 308 634 mousedown 1 mousemove 330 634 mousemove 400 634 mouseup 1; sleep 0.3   # the pane
    xdotool mousemove 1153 203 click 1; sleep 0.2                   # the calendar: the 15th
    xdotool mousemove 31 77 click 1; sleep 0.2                      # spin button 50 -> 51
    xdotool mousemove 1177 282 click 1; sleep 0.3                   # the expander closed
    xdotool mousemove 140 300; for _ in 1 2 3; do xdotool click 5; sleep 0.1; done; sleep 0.5   # a list scrolled
}
# Page 3: a tree row collapsed and one selected, the sidebar's page, a pane between notebooks,
# a notebook tab, a list box row.
# (A press in the notebooks' frame shows or hides the program's own media controls: a second
# click there hides them again, as they were.)
drive_page3() {
    xdotool mousemove 832 27 click 1; sleep 0.5                     # Page 3
    xdotool mousemove 629 453 click 1; sleep 0.3                    # the first notebook: Page 2
    xdotool mousemove 733 600 mousedown 1 mousemove 740 600 mousemove 800 600 mouseup 1; sleep 0.3   # the pane
    xdotool mousemove 600 650 click 1; sleep 0.3                    # the media controls hidden again
    xdotool mousemove 62 237 click 1; sleep 0.3                     # Rotrude collapsed
    xdotool mousemove 116 217 click 1; sleep 0.2                    # Alpaida selected
    xdotool mousemove 540 167 click 1; sleep 0.3                    # the sidebar: Birthdate
}

if program_wanted factory; then
launch gtk4-widget-factory
fresh=$(state_now)
check "factory: amber-run attached under the application's own id, automatic identifiers given" \
    test -n "$(grep -F "$stack/page1/box2/box3/grid1/GtkCheckButton.0 " <<<"$fresh")"

if wanted "factory close"; then
factory "factory close" close drive_page1
check "factory close: the changes are in the state (check button, switch, scale, spin button, tab, tree row, text scroll)" \
    bash -c 'has() { grep -qF -- "$2" <<<"$1"; }; s=$1
        has "$s" "grid1/checkbutton2 GtkCheckButton active=1" && has "$s" "switch1 GtkSwitch active=1" &&
        has "$s" "spinbutton1 GtkSpinButton selection=0-0 value=52" && has "$s" "notebook1 GtkNotebook page=1" &&
        has "$s" "treeview1 GtkTreeView selected=[1]" && ! has "$s" "scale1 GtkScale value=50" &&
        ! has "$s" "scrolledwindow2 GtkScrolledWindow scroll=0,0"' _ "$last_before"
pictures=$root/.build/pictures
[ "${AMBER_UPDATE_PICTURES:-0}" = 1 ] && pictures=$root/docs/img
mkdir -p "$pictures"
cp "$work/before-factory close.png" "$pictures/gtk-factory-before.png"
cp "$work/after-factory close.png" "$pictures/gtk-factory-after.png"
fi

if wanted "factory sigterm"; then
factory "factory sigterm" sigterm drive_page2
check "factory sigterm: the changes are in the state (page 2, pane, calendar, spin button, expander)" \
    bash -c 'has() { grep -qF -- "$2" <<<"$1"; }; s=$1
        has "$s" "toplevel_stack GtkStack page=page2" &&
        ! has "$s" "panedframe1/GtkPaned.0 GtkPaned position=default" && has "$s" "date=2026-" && ! has "$s" "date=2026-11-29" &&
        ! has "$s" "verticalspin1 GtkSpinButton selection=0-0 value=50" && has "$s" "expander1 GtkExpander expanded=0"' _ "$last_before"
# Relaunched on page 2: page 1's text view, scrolled, waits for its page (issue 40's report line).
check "factory sigterm: one line says page 1's text view scroll is pending until its page shows" \
    test "$(grep -cF 'scrolledwindow2/textview1: restored, but its scroll is pending until its page shows' "$err")" = 1
fi

if wanted "factory sigkill"; then
factory "factory sigkill" sigkill drive_page3
check "factory sigkill: the changes are in the state (page 3, tree rows, sidebar, pane, notebook tab)" \
    bash -c 'has() { grep -qF -- "$2" <<<"$1"; }; s=$1
        has "$s" "toplevel_stack GtkStack page=page3" && has "$s" "charletree GtkTreeView selected=[0:0:0:1] expanded=[0;0:0;0:0:0;0:0:0:0;0:1;0:1:0]" &&
        ! has "$s" "sidebar_stack GtkStack page=id" && ! has "$s" "osd_frame/GtkPaned.0 GtkPaned position=default" &&
        has "$s" "osd_frame/GtkNotebook.0 GtkNotebook page=1"' _ "$last_before"
fi
kill -TERM "$pid"; wait_exit || true
fi

# ---- gtk4-demo ------------------------------------------------------------------------------
# It builds its window in "command-line" and never emits "activate": the adapter restores when
# the window first shows. Its sidebar is a list view, its notebook's pages are rebuilt for each
# demo picked, and its source is a text view.
demo_archive=$XDG_STATE_HOME/org.gtk.Demo4/state.archive
demo() { scenario "$1" "$2" "$demo_archive" "$3" gtk4-demo; }
scroll_source() { xdotool mousemove 500 350; for _ in $(seq "$1"); do xdotool click 5; sleep 0.1; done; sleep 0.5; }
drive_clipboard() {
    xdotool mousemove 70 416 click 1; sleep 1                       # the Clipboard demo
    xdotool mousemove 332 69 click 1; sleep 0.5                     # its Source tab
    scroll_source 8
}
drive_builder() {
    xdotool mousemove 61 378 click 1; sleep 1                       # the Builder demo
    xdotool mousemove 332 69 click 1; sleep 0.5                     # its Source tab
    scroll_source 5
}
drive_combo_boxes() {
    xdotool mousemove 82 454 click 1; sleep 1                       # the Combo Boxes demo
    xdotool mousemove 332 69 click 1; sleep 0.5                     # its Source tab
    scroll_source 12
}
demo_changes() { # demo_changes ROW: the demo picked, the Source tab, the source scrolled
    grep -qF "window/listview GtkListView first-visible=0 selected=[$1]" <<<"$last_before" &&
        grep -qF "window/notebook GtkNotebook page=1" <<<"$last_before" &&
        ! grep -qF "source-textview GtkTextView selection=0-0 top-line=0+0" <<<"$last_before" &&
        grep -q "source-textview GtkTextView .* top-line=[1-9]" <<<"$last_before"
}
if program_wanted demo; then
launch gtk4-demo
if wanted "demo close"; then
demo "demo close" close drive_clipboard
check "demo close: the changes are in the state (Clipboard picked, its Source tab, the source scrolled)" demo_changes 9
fi
if wanted "demo sigterm"; then
demo "demo sigterm" sigterm drive_builder
check "demo sigterm: the changes are in the state (Builder picked, its Source tab, the source scrolled)" demo_changes 8
fi
if wanted "demo sigkill"; then
demo "demo sigkill" sigkill drive_combo_boxes
check "demo sigkill: the changes are in the state (Combo Boxes picked, its Source tab, the source scrolled)" demo_changes 10
fi
kill -TERM "$pid"; wait_exit || true
fi

echo "gtk programs: $passed passed, $failed failed"
((failed == 0))
