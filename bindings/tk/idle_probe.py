"""IDLE under the runner, for bindings/tk/idle-tests.sh: ``python3 idle_probe.py RUNNER_ARGS...``
is ``python3 -m amber.tk RUNNER_ARGS...`` (e.g. ``--state-dir D -m idlelib FILE``), plus what the
test reads: once the first editor window has mapped and the runner has restored it, a block
``--- restored`` with the state of each editor window, and a block ``--- state`` at each F12.
The state of a window: its geometry (``wm geometry``), and of its text: the cursor, the
selection and the first visible line."""
import sys
import tkinter
from typing import Any, List

from amber.tk import runner


def editor_state(root: tkinter.Tk) -> List[str]:
    lines = []
    windows = [w for w in root.winfo_children() if isinstance(w, tkinter.Toplevel)]
    for number, window in enumerate(windows, 1):
        text = next((w for w in _descendants(window) if w.winfo_class() == "Text" and str(w).endswith(".text")), None)
        lines.append(f"window {number}: {window.wm_geometry()} {window.wm_title()}")
        lines.extend(f"  check {box.cget('text')!r}: {box.getvar(str(box.cget('variable')))}"
                     for box in _descendants(window) if box.winfo_class() == "TCheckbutton")
        if text is None:
            continue
        selection = text.tag_ranges("sel")
        shown = f"{selection[0]}-{selection[1]}" if selection else "none"
        lines.append(f"  text: cursor {text.index('insert')} selection {shown} top line {text.index('@0,0')}")
    return lines


def _descendants(widget: tkinter.Misc) -> List[tkinter.Misc]:
    found: List[tkinter.Misc] = []
    for child in widget.winfo_children():
        found.append(child)
        found.extend(_descendants(child))
    return found


def print_block(root: tkinter.Tk, heading: str) -> None:
    print(f"--- {heading}", *editor_state(root), sep="\n", flush=True)


def install_probe() -> None:
    original = tkinter.Tk.__init__
    done: List[bool] = []

    def init(self: tkinter.Tk, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        if done or not runner._has_tk(self):
            return
        done.append(True)
        root = self
        root.bind_all("<F12>", lambda event: print_block(root, "state"), add="+")

        def on_map(event: Any) -> None:
            if isinstance(event.widget, tkinter.Toplevel) and len(done) == 1:
                done.append(True)
                # After the runner's claim, which this event started before this binding (bound
                # first) and which finishes within the event: a timer runs only once the event
                # loop is back (the claim's update_idletasks runs idle callbacks, never timers).
                root.after(0, lambda: root.after_idle(lambda: print_block(root, "restored")))
        root.bind_all("<Map>", on_map, add="+")

    setattr(tkinter.Tk, "__init__", init)


if __name__ == "__main__":
    install_probe()  # installed first: the runner's hook wraps it, and binds <Map> before it
    sys.exit(runner.main(sys.argv[1:]))
