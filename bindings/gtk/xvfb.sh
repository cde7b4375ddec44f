# Sourced by run-tests.sh and bench-startup.sh: start_xvfb starts an Xvfb of our own on a free
# display from 140 up (away from the low numbers other X servers and xvfb-run pick by default),
# sets xvfb_pid and exports DISPLAY. The caller kills $xvfb_pid when done. Its log goes to $1;
# $2 is the screen's size (800x600x24 by default).
start_xvfb() {
    local log=$1 screen=${2:-800x600x24} n
    xvfb_pid=
    for n in $(seq 140 199); do
        [[ -e /tmp/.X$n-lock || -e /tmp/.X11-unix/X$n ]] && continue
        # -noreset: without it the server resets when its last client leaves, and a client that
        # connects meanwhile (the next program of a test) is refused.
        Xvfb ":$n" -screen 0 "$screen" -nolisten tcp -noreset >"$log" 2>&1 &
        xvfb_pid=$!
        # Ready when a client gets an answer (the socket comes before the server serves).
        for _ in $(seq 100); do
            DISPLAY=:$n xdotool getdisplaygeometry >/dev/null 2>&1 && break
            kill -0 "$xvfb_pid" 2>/dev/null || break
            sleep 0.1
        done
        if kill -0 "$xvfb_pid" 2>/dev/null && DISPLAY=:$n xdotool getdisplaygeometry >/dev/null 2>&1; then
            export DISPLAY=:$n
            return 0
        fi
        kill "$xvfb_pid" 2>/dev/null || true
        xvfb_pid=
    done
    echo "could not start Xvfb (displays :140 to :199 taken)" >&2
    return 1
}
