"""The runner: ``python -m amber.tk [OPTIONS] (-m MODULE | SCRIPT) [ARGS...]`` runs an unmodified
Tkinter program with amber.tk attached, so that it comes back as the user left it.

Options (before the program):
  --app-id ID       the identifier its state is kept under (default: the module's name, or the
                    script's file name without .py)
  --state-dir DIR   where its archive is kept (default $XDG_STATE_HOME/ID)
  --save-delay MS   the quiet time before a save after changes (default 1000)

It replaces ``tkinter.Tk.__init__`` with one that attaches amber.tk to the first Tk root the
program makes (``tkinter.Tcl()``, a root without Tk, is left alone), then runs the program as
``python SCRIPT`` or ``python -m MODULE`` would (runpy: ``sys.argv`` is the program's, its
``__name__`` is ``__main__``). In the runner every widget is restorable (``auto_names``), each
window claims its state when it first maps (``late_windows``: an editor, a dialog, made any
time), the first window that maps starts the restoration (the program has built its interface
by then), SIGTERM and SIGINT save and then end the program as they would have without Amber, and the values of toggles, scales, spin boxes and read-only combo boxes are kept
(``keep_values``); typed text is not (R34). If amber.tk cannot attach, the program runs all the
same, and one line on standard error says why.
"""
from __future__ import annotations

import atexit
import os
import sys
from typing import Any, List, Optional, Tuple

USAGE = ("usage: python -m amber.tk [--app-id ID] [--state-dir DIR] [--save-delay MS] "
         "(-m MODULE | SCRIPT) [ARGS...]")


class UsageError(Exception):
    """The command line does not say which program to run, or an option is wrong."""


class Options:
    """What the command line asks: the program (a module or a script), its arguments, and the
    runner's options."""

    def __init__(self) -> None:
        self.app_id: Optional[str] = None
        self.state_dir: Optional[str] = None
        self.save_delay_ms: Optional[int] = None
        self.module: Optional[str] = None
        self.script: Optional[str] = None
        self.arguments: List[str] = []

    @property
    def program_name(self) -> str:
        if self.module is not None:
            return self.module
        assert self.script is not None
        name = os.path.basename(self.script)
        return name[:-3] if name.endswith(".py") else name


def _value(option: str, arguments: List[str]) -> Tuple[str, List[str]]:
    """The value of an option given as ``--option VALUE`` or ``--option=VALUE``."""
    name, _, inline = arguments[0].partition("=")
    if inline:
        return inline, arguments[1:]
    if len(arguments) < 2:
        raise UsageError(f"{option} needs a value")
    return arguments[1], arguments[2:]


def parse(argv: List[str]) -> Options:
    """Reads the runner's options, up to the program; what follows it is the program's."""
    options = Options()
    arguments = list(argv)
    while arguments:
        first = arguments[0]
        option = first.partition("=")[0]
        if option == "--app-id":
            options.app_id, arguments = _value(option, arguments)
        elif option == "--state-dir":
            options.state_dir, arguments = _value(option, arguments)
        elif option == "--save-delay":
            text, arguments = _value(option, arguments)
            if not text.isdigit():
                raise UsageError(f"--save-delay is a number of milliseconds, not {text!r}")
            options.save_delay_ms = int(text)
        elif first == "-m":
            if len(arguments) < 2:
                raise UsageError("-m needs a module name")
            options.module, options.arguments = arguments[1], arguments[2:]
            return options
        elif first.startswith("-") and first != "-":
            raise UsageError(f"unknown option {first}")
        else:
            options.script, options.arguments = first, arguments[1:]
            return options
    raise UsageError("no program to run: give -m MODULE or a script")


def _has_tk(root: Any) -> bool:
    """False for a root made by ``tkinter.Tcl()``: an interpreter without Tk, nothing to show."""
    try:
        return bool(root.tk.call("info", "commands", "winfo"))
    except Exception:
        return False


def install_hook(options: Options) -> List[Any]:
    """Has the first Tk root the program makes attach amber.tk; returns the list that will hold
    its Restorer (empty until then)."""
    import tkinter

    import amber.tk

    attached: List[Any] = []
    original = tkinter.Tk.__init__
    app_id = options.app_id or options.program_name

    def init_and_attach(self: tkinter.Tk, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        if attached or not _has_tk(self):
            return
        try:
            restorer = amber.tk.attach(self, app_id, state_directory=options.state_dir,
                                       save_delay_ms=options.save_delay_ms, restore=False,
                                       auto_names=True, late_windows=True, keep_values=True)
        except Exception as error:  # the program runs on without Amber: never a crash
            print(f"amber.tk: the interface will not be restored or saved: {type(error).__name__}: {error}",
                  file=sys.stderr)
            attached.append(None)
            return
        restorer.restore_when_shown = True
        restorer.end_with_signal = True
        attached.append(restorer)
        # A program may leave its event loop (root.quit()) and end without destroying its root.
        atexit.register(_save_at_exit, restorer)

    setattr(tkinter.Tk, "__init__", init_and_attach)
    return attached


def _save_at_exit(restorer: Any) -> None:
    """At the interpreter's exit: saves what changed since the last save, unless the root was
    destroyed (its destruction saved, and closed the restorer)."""
    try:
        restorer.save_if_changed()
    except Exception as error:  # the program has ended: a line, never a traceback
        print(f"amber.tk: the interface was not saved at exit: {type(error).__name__}: {error}", file=sys.stderr)


def run(options: Options) -> None:
    """Runs the program as ``python SCRIPT`` or ``python -m MODULE`` would, the hook installed."""
    import runpy

    install_hook(options)
    if options.module is not None:
        sys.argv = [options.module, *options.arguments]
        sys.path.insert(0, os.getcwd())
        runpy.run_module(options.module, run_name="__main__", alter_sys=True)
    else:
        assert options.script is not None
        sys.argv = [options.script, *options.arguments]
        sys.path.insert(0, os.path.dirname(os.path.abspath(options.script)))
        runpy.run_path(options.script, run_name="__main__")


def main(argv: List[str]) -> int:
    try:
        options = parse(argv)
    except UsageError as error:
        print(f"amber.tk: {error}\n{USAGE}", file=sys.stderr)
        return 2
    if options.script is not None and not os.path.isfile(options.script):
        print(f"amber.tk: no such script: {options.script}", file=sys.stderr)
        return 2
    run(options)
    return 0
