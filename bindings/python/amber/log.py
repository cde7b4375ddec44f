"""Amber's log (R29) through Python's logging module: every line goes to the logger named
"amber" (debug -> DEBUG, info -> INFO, warn -> WARNING).

The engine builds a line only when a sink takes its level, so the level given to Amber is the
logger's effective level (read when the library loads, for the process-wide function, and when
an engine opens, for the engine's own), not DEBUG filtered by logging afterwards; set_log_level()
and Engine.set_log_level() read it again.

The logging module is imported when first needed (a line to log, a warning), not by ``import
amber`` nor by the library's load or an engine's opening: with what it imports (traceback,
string, textwrap) it would be a large share of a program's start-up. Until the program has
imported it, no logger can have a level of its own, so the level read is logging's default,
WARNING."""
from __future__ import annotations

import sys
from typing import TYPE_CHECKING, List, Optional

from . import _errors as E
from . import _ffi

if TYPE_CHECKING:
    import logging

#: The name of the logger Amber's lines go to.
LOGGER_NAME = "amber"
_logger: Optional[logging.Logger] = None


def logger() -> logging.Logger:
    """The ``amber`` logger."""
    global _logger
    if _logger is None:
        import logging
        _logger = logging.getLogger(LOGGER_NAME)
    return _logger


#: logging's levels (fixed values of its documented API), here so that reading a level does not
#: import logging.
_DEBUG, _INFO, _WARNING = 10, 20, 30


def amber_level(level: Optional[int]) -> int:
    """The amber_log_level that lets through the lines of Python level ``level`` (None: the
    ``amber`` logger's effective level)."""
    if level is None:
        # Nothing can have set a level without importing logging: until something has, the level
        # is the root logger's default, and loading the library or opening an engine need not
        # import logging.
        level = logger().getEffectiveLevel() if "logging" in sys.modules else _WARNING
    if level <= _DEBUG:
        return 0
    return 1 if level <= _INFO else 2


def _log(level: int, message: bytes) -> None:
    """The log trampoline's hook: one line of Amber's."""
    import logging
    py_level = (logging.DEBUG, logging.INFO, logging.WARNING)[level] if 0 <= level <= 2 else logging.WARNING
    amber = logger()
    if amber.isEnabledFor(py_level):
        amber.log(py_level, "%s", message.decode("utf-8", "replace"))


def report_restoration_errors(raised: List[BaseException], what: str, raise_errors: bool,
                              report: object = None) -> None:
    """Reports the exceptions that callbacks raised during a restoration (``what``: "launch",
    "relaunch", "restore_pending"), where C reports their codes (a record's outcome, the
    report's message): a warning names each. The first is raised instead, with ``report`` (the
    restoration's Report) as its ``amber_report``, if ``raise_errors`` or if one is not an
    Exception (KeyboardInterrupt). It lives in the log, below objects and engine, which both call it."""
    interrupts = [error for error in raised if not isinstance(error, Exception)]
    first = E.first(interrupts or (raised if raise_errors else []))
    if first is not None:
        if report is not None:
            first.amber_report = report  # type: ignore[attr-defined]
        raise first
    for error in raised:
        logger().warning("%s: a callback raised %s (reported, not raised: see the report's errors)",
                        what, type(error).__name__)


def set_log_level(level: Optional[int] = None) -> None:
    """Sets the level of the process-wide log function (R29), which takes the lines of engines
    without their own (every amber.Engine has its own: see Engine.set_log_level): a logging
    level, or None for the ``amber`` logger's effective level now. Installed when the library
    loads; safe from any thread."""
    _ffi.load().amber_set_log(amber_level(level), _ffi.T_LOG, None, _ffi.CtxFree())


def _install(lib: _ffi.Library) -> None:
    lib.amber_set_log(amber_level(None), _ffi.T_LOG, None, _ffi.CtxFree())


_ffi.on_log = _log
_ffi.LOAD_HOOKS.append(_install)
if _ffi._lib is not None:  # loaded before this module was imported
    _install(_ffi._lib)
